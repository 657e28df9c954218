// Conformance of the leader's lease keeper to models/session.pml: random simulations (with
// -DTRACE, where the leader's clock is exact) print one LEASE line per leader-side event with
// the model's lease state after it; each is replayed on LeaseKeeper, checking after every
// event that the session is tracked exactly when the model says, that the keeper proposes no
// expiry before the model's deadline, and that it proposes it when the model does.
import { LeaseKeeper } from "../../node/lock/lease-keeper.ts";
import type { TraceReplay } from "./trace-runs.ts";

const MODEL = "session.pml";
/** The TTL of the trace mode (models/session.pml: 12 units under -DTRACE). */
const TTL = 12;
const SESSION = 1n;
/** Simulation steps per run: time is unbounded in the model, so each run is cut here. */
const STEPS = 600;

export interface LeaseEvent {
  readonly event: number;
  readonly t: number;
  readonly arg: number;
  readonly live: boolean;
  readonly deadline: number;
}

const LINE = /LEASE ev=(\d) t=(\d+) arg=(\d+) live=(\d) deadline=(\d+)/;

export function parseLeaseTrace(text: string): LeaseEvent[] {
  const out: LeaseEvent[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    out.push({
      event: Number(m[1]),
      t: Number(m[2]),
      arg: Number(m[3]),
      live: m[4] === "1",
      deadline: Number(m[5]),
    });
  }
  return out;
}

/** Replays one trace on a LeaseKeeper; null, or the first divergence. */
export function replayLease(events: readonly LeaseEvent[]): string | null {
  const keeper = new LeaseKeeper();
  keeper.becomeLeader(0, [{ id: SESSION, ttlMs: TTL }], []);
  const expiries = (now: number): number =>
    keeper.due(now).filter((c) => c.type === "expireSession" && c.sessionId === SESSION).length;
  for (const e of events) {
    let problem: string | null = null;
    switch (e.event) {
      case 1: {
        const r = keeper.keepAlive(SESSION, e.t);
        if ((r === "ok") !== (e.arg === 1)) problem = `keepAlive answered ${r}`;
        break;
      }
      case 2:
        if (expiries(e.t) !== 1) problem = "the keeper did not propose the expiry";
        break;
      case 3:
        keeper.onApplied(
          { sessionsOpened: [], sessionsEnded: [SESSION], waitsStarted: [], waitsEnded: [] },
          e.t,
        );
        break;
      case 4:
        keeper.stalled(e.arg);
        break;
      case 5:
        keeper.becomeLeader(e.t, e.live ? [{ id: SESSION, ttlMs: TTL }] : [], []);
        break;
    }
    if (problem === null && keeper.isLive(SESSION) !== e.live)
      problem = `the keeper has the session ${keeper.isLive(SESSION) ? "live" : "not live"}`;
    if (problem === null && e.live && expiries(e.deadline - 1) !== 0)
      problem = `the keeper proposes the expiry before ${e.deadline}`;
    if (problem !== null)
      return `event ${e.event} at t=${e.t} (model: live=${e.live} deadline=${e.deadline}): ${problem}`;
  }
  return null;
}

/** session.pml's leader side replayed on LeaseKeeper. */
export const leaseReplay: TraceReplay<LeaseEvent> = {
  model: MODEL,
  on: "LeaseKeeper",
  unit: "events",
  label: "lease conformance",
  spinArgs: [`-u${STEPS}`, "-DTRACE"],
  maxBuffer: 8 * 1024 * 1024,
  parse: parseLeaseTrace,
  replay: replayLease,
};
