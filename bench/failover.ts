// Failover time: a three-node cluster with the product's default timeouts, workers acquiring
// and releasing continuously, the leader killed with SIGKILL `kills` times (restarted and
// caught up each time), or stopped with SIGSTOP (continued with SIGCONT and caught up each
// time): a stopped leader keeps its connections open and answers nothing, so clients learn
// of it only by their attempts running out. One kill's figure is the time from the signal to
// the first successful acquire that was sent after it (a probe starts right at the signal;
// running workers count too once they send a new acquire).
import { PalisadeClient, type Session } from "../client/index.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep } from "./cluster-control.ts";
import { summarize, type Summary } from "./stats.ts";
import { DEFAULT_RAFT } from "../node/config/defaults.ts";
import { PythonProbe } from "./python-probe.ts";

export interface FailoverOptions {
  kills: number;
  /** SIGKILL (a dead leader, the default) or SIGSTOP (a frozen one, continued afterwards). */
  signal?: "SIGKILL" | "SIGSTOP";
  workers: number;
  /** Bound on one kill's wait for the first acquire; a kill past it counts as this long. */
  maxWaitMs: number;
  log: (line: string) => void;
  /** Also probe with the Python client (clients/python), in its own process. */
  python?: boolean;
}

/** The Python client's figures from the same stops: its own probe, started at each signal. */
export type PythonFailover =
  { failover_ms: Summary; samples_ms: number[]; unresolved: number } | { error: string };

export interface FailoverResult {
  kills: number;
  signal: "SIGKILL" | "SIGSTOP";
  failover_ms: Summary;
  samples_ms: number[];
  /** Kills after which no acquire succeeded within maxWaitMs. */
  unresolved: number;
  workers: number;
  acquires_total: number;
  errors_total: number;
  config: string;
  python?: PythonFailover;
}

interface Probe {
  killedAt: number;
  firstOk: number | null;
}

export async function runFailover(options: FailoverOptions): Promise<FailoverResult> {
  const signal = options.signal ?? "SIGKILL";
  const dir = makeTempDir("palisade-failover-");
  const cluster = await BenchCluster.create(dir);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 500,
    retryBudgetMs: 1_000,
  });
  const client = new PalisadeClient({
    endpoints: cluster.endpoints,
    clientName: "failover-bench",
    retryBudgetMs: 30_000,
  });
  const stop = new AbortController();
  let acquires = 0;
  let errors = 0;
  let probe: Probe | null = null;
  const samples: number[] = [];
  let unresolved = 0;
  let workers: Promise<void>[] = [];
  let python: PythonProbe | undefined;
  let pythonError: string | undefined;
  const pythonSamples: number[] = [];
  let pythonUnresolved = 0;
  try {
    cluster.startAll();
    await cluster.waitServing();
    if (options.python) {
      python = await PythonProbe.start(cluster.endpoints).catch((err: unknown) => {
        pythonError = err instanceof Error ? err.message : String(err);
        return undefined;
      });
    }
    const sessions: Session[] = await Promise.all(
      Array.from({ length: options.workers + 1 }, () => client.openSession({ ttlMs: 10_000 })),
    );

    // One acquire+release; a success counts for the open probe if it was sent after the kill.
    const cycle = async (session: Session, lock: string): Promise<void> => {
      const sentAt = performance.now();
      const r = await session.acquire(lock, { waitMs: 0 });
      const doneAt = performance.now();
      if (!r.acquired || r.token === undefined) return;
      acquires++;
      if (probe && probe.firstOk === null && sentAt >= probe.killedAt) probe.firstOk = doneAt;
      await session.release(lock, r.token);
    };
    const worker = async (w: number): Promise<void> => {
      const session = sessions[w + 1];
      if (!session) return;
      while (!stop.signal.aborted) {
        try {
          await cycle(session, `bench/failover/w${w}`);
        } catch {
          errors++;
          await sleep(20);
        }
      }
    };
    workers = Array.from({ length: options.workers }, (_, w) => worker(w));
    const probeSession = sessions[0];
    if (!probeSession) throw new Error("no probe session");

    for (let k = 1; k <= options.kills; k++) {
      const leader = await cluster.waitLeader(admin);
      await sleep(1_000); // steady state under load before the kill
      const current: Probe = { killedAt: performance.now(), firstOk: null };
      probe = current;
      const pid = cluster.pidOf(leader);
      if (signal === "SIGSTOP" && pid !== null) process.kill(pid, "SIGSTOP");
      else await cluster.stop(leader, "SIGKILL");
      const pythonAnswer = python?.probe();
      // The probe: acquires sent from the kill on, until one succeeds or the bound passes.
      const deadline = current.killedAt + options.maxWaitMs;
      while (current.firstOk === null && performance.now() < deadline) {
        try {
          await cycle(probeSession, "bench/failover/probe");
        } catch {
          await sleep(10);
        }
      }
      probe = null;
      if (current.firstOk === null) {
        unresolved++;
        samples.push(options.maxWaitMs);
      } else {
        samples.push(current.firstOk - current.killedAt);
      }
      let pythonLine = "";
      if (pythonAnswer) {
        const ms = await pythonAnswer;
        if (ms === null) pythonUnresolved++;
        pythonSamples.push(ms ?? options.maxWaitMs);
        pythonLine = `, Python client after ${(pythonSamples.at(-1) ?? 0).toFixed(0)} ms`;
      }
      options.log(
        `failover ${signal} ${k}/${options.kills}: leader node ${leader}, first acquire after ${(samples.at(-1) ?? 0).toFixed(0)} ms${pythonLine}`,
      );
      if (signal === "SIGSTOP" && pid !== null) process.kill(pid, "SIGCONT");
      else cluster.start(leader);
      await waitCaughtUp(cluster, admin, leader);
    }
    return {
      kills: options.kills,
      signal,
      failover_ms: summarize(samples),
      samples_ms: samples.map((s) => Math.round(s * 10) / 10),
      unresolved,
      workers: options.workers,
      acquires_total: acquires,
      errors_total: errors,
      ...(options.python
        ? {
            python: python
              ? {
                  failover_ms: summarize(pythonSamples),
                  samples_ms: pythonSamples.map((s) => Math.round(s * 10) / 10),
                  unresolved: pythonUnresolved,
                }
              : { error: pythonError ?? "not started" },
          }
        : {}),
      config: `3 nodes, product defaults (tick ${DEFAULT_RAFT.tickMs} ms, election ${DEFAULT_RAFT.electionTicks} ticks, heartbeat ${DEFAULT_RAFT.heartbeatTicks} tick), session TTL 10 s`,
    };
  } finally {
    python?.stop();
    stop.abort();
    await Promise.race([Promise.all(workers), sleep(5_000)]);
    await client.close().catch(() => undefined);
    await admin.close().catch(() => undefined);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}

/** Bounded wait until a restarted node answers Status with the leader's commit applied. */
async function waitCaughtUp(
  cluster: BenchCluster,
  admin: PalisadeClient,
  id: number,
): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const mine = await cluster.status(admin, id);
    if (mine && mine.leaderId !== 0) {
      const leader = await cluster.status(admin, mine.leaderId);
      if (leader && mine.appliedIndex + 100n >= leader.commitIndex) return;
    }
    await sleep(100);
  }
  throw new Error(`node ${id} did not catch up within 30 s\n${cluster.logTails()}`);
}
