// Conformance of the leader's lease keeper to models/session.pml: random simulations (with
// -DTRACE, where the leader's clock is exact) print one LEASE line per leader-side event with
// the model's lease state after it; each is replayed on LeaseKeeper, checking after every
// event that the session is tracked exactly when the model says, that the keeper proposes no
// expiry before the model's deadline, and that it proposes it when the model does.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { LeaseKeeper } from "../../node/lock/lease-keeper.ts";

const exec = promisify(execFile);
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

export interface LeaseConformanceResult {
  readonly ok: boolean;
  readonly traces: number;
  readonly events: number;
  readonly divergences: number;
}

export async function runLeaseConformance(
  modelsDir: string,
  traces = Number(process.env.MODEL_TRACES ?? 1000),
): Promise<LeaseConformanceResult> {
  let events = 0;
  let divergences = 0;
  let next = 1;
  const traceSeeds = async (dir: string): Promise<void> => {
    for (let seed = next++; seed <= traces; seed = next++) {
      const { stdout } = await exec("spin", [`-n${seed}`, `-u${STEPS}`, "-DTRACE", MODEL], {
        cwd: dir,
        maxBuffer: 8 * 1024 * 1024,
      });
      const trace = parseLeaseTrace(stdout);
      events += trace.length;
      const diverged = replayLease(trace);
      if (diverged !== null) {
        divergences++;
        if (divergences <= 3)
          console.log(`lease conformance: seed ${seed} diverges at ${diverged}`);
      }
    }
  };
  const worker = async (): Promise<void> => {
    // spin writes its preprocessed file into its working directory: one directory a worker.
    const dir = await mkdtemp(join(tmpdir(), "palisade-lease-trace-"));
    await copyFile(join(modelsDir, MODEL), join(dir, MODEL));
    try {
      await traceSeeds(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(
    `conformance (${MODEL} on LeaseKeeper): ${traces} traces, ${events} events, ${divergences} divergences`,
  );
  return { ok: divergences === 0 && events > 0, traces, events, divergences };
}
