// Acquire calls held open until their wait ends. The final answer comes from the apply
// stream (a completion for session + seq), so whichever node holds the call answers it
// from its own log, even after a leader change. Several calls may wait for the same seq
// (a client retry on a new connection); each gets the same answer.
import type { Answer } from "../lock/index.ts";

export type WaitOutcome =
  | { readonly kind: "answer"; readonly answer: Answer }
  /** The node cannot deliver the outcome (it is stopping): the client retries with the same seq. */
  | { readonly kind: "unavailable"; readonly reason: string };

export interface WaitHandle {
  /** Stops waiting (the call ended or was answered otherwise); never cancels the wait itself. */
  drop(): void;
}

type Listener = (outcome: WaitOutcome) => void;

function keyOf(sessionId: bigint, seq: number): string {
  return `${sessionId}:${seq}`;
}

export class AcquireWaiters {
  private readonly byKey = new Map<string, Set<Listener>>();

  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  /** Registers before proposing, so a completion applied in the same batch is not missed. */
  register(sessionId: bigint, seq: number, listener: Listener): WaitHandle {
    const key = keyOf(sessionId, seq);
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    let once = false;
    const wrapped: Listener = (outcome) => {
      if (once) return;
      once = true;
      listener(outcome);
    };
    set.add(wrapped);
    return {
      drop: () => {
        once = true;
        const current = this.byKey.get(key);
        if (!current) return;
        current.delete(wrapped);
        if (current.size === 0) this.byKey.delete(key);
      },
    };
  }

  /** A final answer for (session, seq) was applied. */
  complete(sessionId: bigint, seq: number, answer: Answer): void {
    const key = keyOf(sessionId, seq);
    const set = this.byKey.get(key);
    if (!set) return;
    this.byKey.delete(key);
    for (const listener of set) listener({ kind: "answer", answer });
  }

  /**
   * Re-checks every waiter against the state (after a snapshot replaced it, completions
   * may have been skipped). `lookup` returns the final answer, "waiting", or null when the
   * state no longer knows the seq.
   */
  recheck(
    lookup: (sessionId: bigint, seq: number) => Answer | "waiting" | null,
    gone: (sessionId: bigint) => Answer,
  ): void {
    for (const key of [...this.byKey.keys()]) {
      const [sid, seqText] = key.split(":") as [string, string];
      const sessionId = BigInt(sid);
      const seq = Number(seqText);
      const found = lookup(sessionId, seq);
      if (found === "waiting") continue;
      this.complete(sessionId, seq, found ?? gone(sessionId));
    }
  }

  /** Ends every waiting call (the node is stopping). */
  failAll(reason: string): void {
    const sets = [...this.byKey.values()];
    this.byKey.clear();
    for (const set of sets) for (const listener of set) listener({ kind: "unavailable", reason });
  }
}
