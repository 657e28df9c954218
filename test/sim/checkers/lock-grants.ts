// Checks of who holds what at each committed index, for every lock kind, from the
// committed commands and what their entries produced (events, completions, timers):
// - G1 per kind: an exclusive grant is alone; a shared grant never meets an exclusive one;
//   a semaphore has at most N permits out, each in its own slot, a grant taking the lowest
//   free slot; an end ends a current grant;
// - a multi-lock Acquire is granted all at one index or not at all: the grants of an entry
//   are exactly the locks of the requests it answers "granted";
// - FIFO, as node/lock/grant-order.ts states it and from a queue model of its own: a new
//   Acquire is granted only when no request waits in a queue it joins; a waiting one only
//   when every request ahead of it in each of its queues is granted by the same entry; and
//   no request is left waiting that the rule would grant;
// - elections: a lead is alone as an exclusive grant is, a name is never an election and a
//   lock at once, and a Proclaim names the current lead;
// - handoff: a Release (or Resign) naming a successor grants that waiting session in the
//   same entry, ahead of the queue, and only after the released grant ended (never two
//   holders, even between the events of one entry).
import type { Answer } from "../../../node/lock/answers.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { targetsOf, type GrantMode, type Target } from "../../../node/lock/kinds.ts";
import type { ApplyOutcome, LockEvent } from "../../../node/lock/outcome.ts";

interface Grant {
  readonly session: bigint;
  readonly token: bigint;
  readonly mode: GrantMode;
  readonly slot: number;
}

interface Request {
  readonly session: bigint;
  readonly seqs: number[];
  readonly targets: readonly Target[];
  readonly joinedAt: number;
}

export interface GrantStats {
  sharedGrants: number;
  permitGrants: number;
  setGrants: number;
  holdLimitEnds: number;
  leaderGrants: number;
  handoffs: number;
}

/** The successor a Release names when the entry answers it "released": a handoff. */
function handoffOf(cmd: Command | null, o: ApplyOutcome): bigint | null {
  if (cmd?.type !== "release" || cmd.successor === undefined) return null;
  return o.result.kind === "released" ? cmd.successor : null;
}

export class GrantRules {
  readonly stats: GrantStats = {
    sharedGrants: 0,
    permitGrants: 0,
    setGrants: 0,
    holdLimitEnds: 0,
    leaderGrants: 0,
    handoffs: 0,
  };
  private readonly grants = new Map<string, Grant[]>();
  /** A semaphore's permit count while it has grants. */
  private readonly permits = new Map<string, number>();
  private readonly queues = new Map<string, Request[]>();
  /** `${session}:${seq}` of every seq of a waiting request. */
  private readonly requests = new Map<string, Request>();

  constructor(private readonly fail: (msg: string) => void) {}

  /** One committed entry, at its first apply anywhere. `token`: the token a grant by this entry carries. */
  entry(index: number, cmd: Command | null, o: ApplyOutcome, token: bigint): void {
    const granted = this.answeredGrants(index, cmd, o, token);
    this.allOrNothing(index, o.events, granted);
    this.handoff(index, cmd, o);
    for (const e of o.events) {
      if (e.type === "acquired") this.acquired(index, e);
      else if (e.type === "proclaimed") this.proclaimed(index, e);
      else this.ended(index, e);
    }
    for (const c of o.completions) this.leave(c.sessionId, c.seq);
    if (cmd?.type === "acquire" && o.result.kind === "waiting") this.join(index, cmd, o);
    this.nothingLeftWaiting(index);
  }

  /**
   * The requests this entry answers "granted" with a new grant (an Acquire granted at once,
   * waits granted), each checked against the queues as they were before the entry.
   */
  private answeredGrants(
    index: number,
    cmd: Command | null,
    o: ApplyOutcome,
    token: bigint,
  ): Array<{ session: bigint; targets: readonly Target[] }> {
    const out: Array<{ session: bigint; targets: readonly Target[] }> = [];
    if (cmd?.type === "acquire" && o.result.kind === "granted" && o.result.token === token) {
      const targets = targetsOf(cmd);
      for (const t of targets) {
        const ahead = this.queues.get(t.lock) ?? [];
        if (ahead.length > 0)
          this.fail(
            `FIFO: index ${index} grants ${t.lock} to session ${cmd.sessionId} at once while session ${ahead[0]?.session} waits for it since index ${ahead[0]?.joinedAt}`,
          );
      }
      out.push({ session: cmd.sessionId, targets });
    }
    const grantedNow = new Set<Request>();
    // Requests whose wait this entry ends in any way: none of them waits after it.
    const leaving = new Set<Request>();
    for (const c of o.completions) {
      const r = this.requests.get(`${c.sessionId}:${c.seq}`);
      if (r) leaving.add(r);
    }
    for (const c of o.completions) {
      const r = this.requests.get(`${c.sessionId}:${c.seq}`);
      if (r && c.answer.kind === "granted") grantedNow.add(r);
      if (!r && c.answer.kind === "granted")
        this.fail(
          `index ${index} grants seq ${c.seq} of session ${c.sessionId}, which was not waiting`,
        );
    }
    // A handoff's successor goes ahead of the queue by name (checked in handoff()).
    const successor = handoffOf(cmd, o);
    for (const r of grantedNow) {
      for (const t of r.targets) {
        if (successor !== null && r.session === successor) continue;
        for (const ahead of this.queues.get(t.lock) ?? []) {
          if (ahead === r) break;
          if (!leaving.has(ahead)) {
            this.fail(
              `FIFO: index ${index} grants ${t.lock} to session ${r.session} (waiting since index ${r.joinedAt}) while session ${ahead.session}, ahead of it since index ${ahead.joinedAt}, still waits`,
            );
          }
        }
      }
      out.push({ session: r.session, targets: r.targets });
    }
    return out;
  }

  /** The grants of an entry are exactly the locks of the requests it grants: no part of a set alone. */
  private allOrNothing(
    index: number,
    events: readonly LockEvent[],
    granted: ReadonlyArray<{ session: bigint; targets: readonly Target[] }>,
  ): void {
    const want = new Map<bigint, string[]>();
    for (const g of granted) {
      want.set(g.session, [...(want.get(g.session) ?? []), ...g.targets.map((t) => t.lock)]);
      if (g.targets.length > 1) this.stats.setGrants++;
    }
    const got = new Map<bigint, string[]>();
    for (const e of events)
      if (e.type === "acquired") got.set(e.sessionId, [...(got.get(e.sessionId) ?? []), e.lock]);
    for (const session of new Set([...want.keys(), ...got.keys()])) {
      const w = [...(want.get(session) ?? [])].sort();
      const g = [...(got.get(session) ?? [])].sort();
      if (w.join("\u0000") !== g.join("\u0000")) {
        this.fail(
          `multi-lock: index ${index} grants [${g.join(", ")}] to session ${session}, but the requests it grants name [${w.join(", ")}]`,
        );
      }
    }
  }

  /**
   * A Release naming a successor that this entry answers "released": its events are the
   * grant's end, then the successor's grant, and nothing of that lock between them.
   */
  private handoff(index: number, cmd: Command | null, o: ApplyOutcome): void {
    const successor = handoffOf(cmd, o);
    if (successor === null || cmd?.type !== "release") return;
    const of = o.events.filter((e) => e.lock === cmd.lock);
    // A retry answered with its first answer changes nothing.
    if (of.length === 0) return;
    this.stats.handoffs++;
    const [end, grant] = of;
    if (
      end?.type !== "released" ||
      end.sessionId !== cmd.sessionId ||
      grant?.type !== "acquired" ||
      grant.sessionId !== successor
    ) {
      this.fail(
        `handoff: index ${index} releases ${cmd.lock} to session ${successor}, but its events are ${of.map((e) => `${e.type}:${e.sessionId}`).join(", ")}`,
      );
    }
  }

  /** A new value of a lead: only by the session that leads, under its token. */
  private proclaimed(index: number, e: LockEvent): void {
    const current = this.grants.get(e.lock) ?? [];
    if (
      !current.some((g) => g.session === e.sessionId && g.token === e.token && g.mode === "leader")
    )
      this.fail(
        `election: index ${index} takes a value of ${e.lock} from ${e.sessionId}/${e.token}, which does not lead it`,
      );
  }

  private acquired(index: number, e: LockEvent): void {
    const mode = e.mode ?? "exclusive";
    const current = this.grants.get(e.lock) ?? [];
    const where = `index ${index} grants ${e.lock}${mode === "exclusive" ? "" : ` (${mode})`} to ${e.sessionId}`;
    if (current.some((g) => g.session === e.sessionId))
      this.fail(`G1: ${where}, which holds it already`);
    const exclusive = current.find((g) => g.mode === "exclusive" || g.mode === "leader");
    if ((mode === "exclusive" || mode === "leader") && current.length > 0)
      this.fail(`G1: ${where} while ${current[0]?.session} holds it`);
    if ((mode === "leader") !== current.some((g) => g.mode === "leader") && current.length > 0)
      this.fail(`kinds: ${where}, held as ${current[0]?.mode}`);
    if (mode === "leader") this.stats.leaderGrants++;
    else if (mode === "shared" && exclusive)
      this.fail(`G1: ${where} while ${exclusive.session} holds it exclusive`);
    let slot = -1;
    if (mode === "permit") {
      this.stats.permitGrants++;
      const permits = e.permits ?? 0;
      const known = this.permits.get(e.lock);
      if (current.some((g) => g.mode !== "permit"))
        this.fail(`kinds: ${where} as a semaphore while it is held as a lock`);
      if (known !== undefined && known !== permits)
        this.fail(
          `kinds: ${where} as a semaphore of ${permits} permits while it is held with ${known}`,
        );
      if (current.length >= permits)
        this.fail(`G1: ${where}, the ${current.length + 1}th permit of ${permits}`);
      slot = e.slot ?? -1;
      const taken = new Set(current.map((g) => g.slot));
      let lowest = 0;
      while (taken.has(lowest)) lowest++;
      if (slot !== lowest)
        this.fail(`semaphore: ${where} slot ${slot}; the lowest free slot was ${lowest}`);
      this.permits.set(e.lock, permits);
    } else {
      if (mode === "shared") this.stats.sharedGrants++;
      if (current.some((g) => g.mode === "permit"))
        this.fail(`kinds: ${where} as a lock while it is held as a semaphore`);
    }
    this.grants.set(e.lock, [...current, { session: e.sessionId, token: e.token, mode, slot }]);
  }

  private ended(index: number, e: LockEvent): void {
    const current = this.grants.get(e.lock) ?? [];
    const grant = current.find((g) => g.session === e.sessionId && g.token === e.token);
    if (!grant) {
      const held = current.map((g) => `${g.session}/${g.token}`).join(", ") || "nobody";
      this.fail(
        `index ${index}: ${e.type} of ${e.lock} by ${e.sessionId}/${e.token}, but the holder is ${held}`,
      );
      return;
    }
    if (e.revokedFor === "holdLimit") this.stats.holdLimitEnds++;
    const left = current.filter((g) => g !== grant);
    if (left.length > 0) this.grants.set(e.lock, left);
    else {
      this.grants.delete(e.lock);
      this.permits.delete(e.lock);
    }
  }

  /** A seq's wait ended (granted, cancelled, timed out, session ended): the request leaves every queue. */
  private leave(session: bigint, seq: number): void {
    const r = this.requests.get(`${session}:${seq}`);
    if (!r) return;
    for (const s of r.seqs) this.requests.delete(`${session}:${s}`);
    for (const t of r.targets) {
      const q = (this.queues.get(t.lock) ?? []).filter((x) => x !== r);
      if (q.length > 0) this.queues.set(t.lock, q);
      else this.queues.delete(t.lock);
    }
  }

  private join(index: number, cmd: Extract<Command, { type: "acquire" }>, o: ApplyOutcome): void {
    const started = o.timers.waitsStarted.some(
      (w) => w.sessionId === cmd.sessionId && w.acquireSeq === cmd.seq,
    );
    if (!started) {
      // Joined the session's wait for the same locks (or a retry of a seq already waiting).
      const r = (this.queues.get(cmd.lock) ?? []).find((x) => x.session === cmd.sessionId);
      if (!r) {
        this.fail(
          `index ${index}: seq ${cmd.seq} of session ${cmd.sessionId} waits, but the session has no wait for ${cmd.lock} to join`,
        );
        return;
      }
      if (!r.seqs.includes(cmd.seq)) r.seqs.push(cmd.seq);
      this.requests.set(`${cmd.sessionId}:${cmd.seq}`, r);
      return;
    }
    const r: Request = {
      session: cmd.sessionId,
      seqs: [cmd.seq],
      targets: targetsOf(cmd),
      joinedAt: index,
    };
    this.requests.set(`${cmd.sessionId}:${cmd.seq}`, r);
    for (const t of r.targets) this.queues.set(t.lock, [...(this.queues.get(t.lock) ?? []), r]);
  }

  /** The rule grants whatever it can: a request first in all its queues whose locks can take it must not be left waiting. */
  private nothingLeftWaiting(index: number): void {
    const heads = new Set<Request>();
    for (const q of this.queues.values()) if (q[0]) heads.add(q[0]);
    for (const r of heads) {
      const could = r.targets.every((t) => this.queues.get(t.lock)?.[0] === r && this.fits(t));
      if (could)
        this.fail(
          `FIFO: after index ${index} the wait of session ${r.session} (since index ${r.joinedAt}) for ${r.targets.map((t) => t.lock).join(", ")} could be granted`,
        );
    }
  }

  private fits(t: Target): boolean {
    const current = this.grants.get(t.lock) ?? [];
    if (current.length === 0) return true;
    if (t.mode === "exclusive" || t.mode === "leader") return false;
    if (t.mode === "shared") return current.every((g) => g.mode === "shared");
    return current.length < t.permits;
  }
}

/** A stable text form of a grant answer's grants: each lock with its token, mode, permits and slot. */
export function grantDetailKey(a: Extract<Answer, { kind: "granted" }>): string {
  return `:[${a.grants.map((g) => `${g.lock}=${g.token}/${g.mode}${g.mode === "permit" ? `/${g.permits ?? 0}/${g.slot ?? 0}` : ""}`).join(",")}]`;
}
