// Conformance of the client's Session to models/session.pml: random simulations (with
// -DTRACE, where the client is the Session's keepalive loop on an exact clock) print one
// CLIENT line per client-side event with the client's state after it; each is replayed on a
// real Session driven by a hand-moved clock and a keepalive sender that answers as the trace
// says. After every event the Session must believe it holds (`live`, which every write checks
// first) exactly when the model's client does, with the model's deadline, and must have made
// a KeepAlive call exactly when the model's client did.
import type { ClientClock, Timer } from "../../client/clock.ts";
import { SessionNotFoundError } from "../../client/errors.ts";
import type { KeepAliveSender } from "../../client/keepalive-batch.ts";
import type { LockApi } from "../../client/lock-api.ts";
import { Session } from "../../client/session.ts";
import type { TraceReplay } from "./trace-runs.ts";

const MODEL = "session.pml";
/** The TTL of the trace mode, in model units. */
const TTL = 12;
/** Milliseconds per model unit (the client's deadline tick); the stall sampler's interval, so a sample falls on every tick. */
const TICK_MS = 10;
/** The model's rho under -DTRACE. */
const RHO = 1 / 8;
/** Simulation steps per run: time is unbounded in the model, so each run is cut here. */
const STEPS = 600;

export interface ClientEvent {
  readonly event: number;
  readonly t: number;
  readonly live: boolean;
  readonly deadline: number;
}

const LINE = /CLIENT ev=(\d) t=(\d+) live=(\d) deadline=(\d+)/;

export function parseClientTrace(text: string): ClientEvent[] {
  const out: ClientEvent[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    out.push({
      event: Number(m[1]),
      t: Number(m[2]),
      live: m[3] === "1",
      deadline: Number(m[4]),
    });
  }
  return out;
}

/** Time moves only when the replay says so; due timers fire in order as it passes them. */
class ReplayClock implements ClientClock {
  private now = 0;
  private seq = 0;
  private readonly timers: {
    at: number;
    seq: number;
    fn: () => void;
    every?: number;
    live: boolean;
  }[] = [];

  monotonicMs(): number {
    return this.now;
  }
  wallMs(): number {
    return this.now;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    return this.add({ at: this.now + ms, seq: this.seq++, fn, live: true });
  }
  setInterval(fn: () => void, ms: number): Timer {
    return this.add({ at: this.now + ms, seq: this.seq++, fn, every: ms, live: true });
  }
  advanceTo(end: number): void {
    for (;;) {
      let due: (typeof this.timers)[number] | undefined;
      for (const t of this.timers)
        if (
          t.live &&
          t.at <= end &&
          (!due || t.at < due.at || (t.at === due.at && t.seq < due.seq))
        )
          due = t;
      if (!due) break;
      this.now = due.at;
      if (due.every) {
        due.at += due.every;
        due.seq = this.seq++;
      } else due.live = false;
      due.fn();
    }
    this.now = end;
    for (let i = this.timers.length - 1; i >= 0; i--)
      if (!this.timers[i]!.live) this.timers.splice(i, 1);
  }
  private add(t: (typeof this.timers)[number]): Timer {
    this.timers.push(t);
    return {
      cancel: () => {
        t.live = false;
      },
    };
  }
}

/** A KeepAlive call of the Session, answered when the trace answers it. */
interface Call {
  readonly at: number;
  readonly answer: (ok: boolean) => void;
  /** Matched with the model's call (false: made after the client paused, never sent). */
  matched: boolean;
  paused: boolean;
}

/** Everything the Session's loop does after a timer or an answer runs in promise callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Replays one trace on a Session; null, or the first divergence. */
export async function replaySession(events: readonly ClientEvent[]): Promise<string | null> {
  const clock = new ReplayClock();
  const calls: Call[] = [];
  let paused = false;
  const sender: KeepAliveSender = {
    keepAlive: () =>
      new Promise<void>((resolve, reject) => {
        calls.push({
          at: clock.monotonicMs(),
          answer: (ok) => (ok ? resolve() : reject(new SessionNotFoundError("session ended"))),
          matched: false,
          paused,
        });
      }),
  };
  // Only the best-effort CloseSession after the deadline goes through the api: never answered.
  const api = { call: () => new Promise<never>(() => undefined) } as unknown as LockApi;
  const session = new Session(
    api,
    {
      id: 1n,
      ttlMs: TTL * TICK_MS,
      clientName: "model",
      openedSentAt: 0,
      openedSentWallMs: 0,
      callTimeoutMs: TTL * TICK_MS,
      retryBudgetMs: TTL * TICK_MS,
      driftBound: RHO,
      deadlineTickMs: TICK_MS,
    },
    clock,
    sender,
  );
  // The model's first call leaves with the session.
  if (calls.length === 1 && calls[0]!.at === 0) calls[0]!.matched = true;
  let outstanding: Call | undefined = calls[0];
  const unmatched = (): Call | undefined => calls.find((c) => !c.matched && !c.paused);
  try {
    for (const e of events) {
      let problem: string | null = null;
      // A call the Session made during the previous event is the model's next line (1).
      const extra = e.event === 1 ? undefined : unmatched();
      if (extra) problem = `the Session made a KeepAlive call at ${extra.at} ms, the model none`;
      else
        switch (e.event) {
          case 0:
            clock.advanceTo(e.t * TICK_MS);
            await settle();
            break;
          case 1: {
            const call = unmatched();
            if (!call || call.at !== e.t * TICK_MS)
              problem = `the Session made ${call ? `its call at ${call.at} ms` : "no call"}`;
            else {
              call.matched = true;
              outstanding = call;
            }
            break;
          }
          case 2:
          case 3:
            if (!outstanding) problem = "no KeepAlive call of the Session is waiting";
            else {
              outstanding.answer(e.event === 2);
              outstanding = undefined;
              await settle();
            }
            break;
          case 4:
            paused = true;
            break;
        }
      if (problem === null && session.live !== e.live)
        problem = `the Session is ${session.live ? "live" : "lost"}`;
      if (problem === null && e.live && session.deadline !== e.deadline * TICK_MS)
        problem = `the Session's deadline is ${session.deadline} ms`;
      if (problem !== null)
        return `event ${e.event} at t=${e.t} (model: live=${e.live} deadline=${e.deadline}): ${problem}`;
    }
    const extra = unmatched();
    return extra
      ? `the end: the Session made a KeepAlive call at ${extra.at} ms, the model none`
      : null;
  } finally {
    // Ends it at once (the CloseSession it sends is never answered).
    void session.close().catch(() => undefined);
  }
}

/** session.pml's client side replayed on the client's Session. */
export const sessionReplay: TraceReplay<ClientEvent> = {
  model: MODEL,
  on: "the client Session",
  unit: "events",
  label: "session conformance",
  spinArgs: [`-u${STEPS}`, "-DTRACE"],
  maxBuffer: 8 * 1024 * 1024,
  parse: parseClientTrace,
  replay: replaySession,
};
