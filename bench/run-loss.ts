// Loss to child dead for `palisadectl run`: the built CLI (bin/palisadectl.mjs, in a
// process group of its own) runs `sleep 1000` under a lock with a session TTL of `ttlMs`;
// the CLI is SIGSTOPped, so its keepalives stop and its watchdog (client/run/watchdog.mjs,
// a process of its own) gets no more extensions; the figure is when the command's process
// group is gone (kill(-pgid, 0) answers ESRCH, polled every millisecond), against two
// deadlines:
// - the watchdog's local deadline: the send time of the last acknowledged keepalive +
//   the client's budget (TTL − 2·ρ·TTL − one deadline tick, client/session.ts). Keepalives
//   leave at multiples of TTL/3 on the host's monotonic clock, so stopping the CLI a little
//   after such a multiple pins the last acknowledged one to it; the deadline taken is then
//   at most the timer's lateness before the real one. This is what the watchdog acts on.
// - the cluster's expiry of the session, as a client polling the lock (every 10 ms) sees
//   the lock's holder go: from then on another client can be granted the lock, so the
//   command must be dead before it (a positive margin).
// Every process (CLI, watchdog, command) and folder is removed at the end, also on failure.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { PalisadeClient } from "../client/index.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep, trackChild } from "./cluster-control.ts";
import { summarize, type Summary } from "./stats.ts";
import { PALISADECTL_BIN } from "./startup-targets.ts";

export interface RunLossOptions {
  runs: number;
  ttlMs: number;
  log: (line: string) => void;
}

export interface RunLossResult {
  runs: number;
  ttl_ms: number;
  /** The client's budget after the last acknowledged keepalive (see above). */
  budget_ms: number;
  /** Child group dead minus the watchdog's local deadline (positive: after it). */
  after_local_deadline_ms: Summary;
  /** The cluster's expiry (the lock seen free) minus the child group's death (positive: the command died first). */
  before_cluster_expiry_ms: Summary;
  /** SIGSTOP to the child group's death. */
  stop_to_dead_ms: Summary;
  samples: Array<{
    after_local_deadline_ms: number;
    before_cluster_expiry_ms: number | null;
    stop_to_dead_ms: number;
  }>;
  /** Runs in which the last keepalive before the stop was not acknowledged in time (the deadline was one period earlier). */
  earlier_keepalive_runs: number;
  /** Runs in which the command's group was still alive TTL + 30 s after the stop. */
  unresolved: number;
  config: string;
}

/** The client defaults palisadectl runs with (client/client.ts): drift bound ρ and deadline tick. */
const DRIFT_BOUND = 0.01;
const DEADLINE_TICK_MS = 50;
/** How long after a keepalive's due time the CLI is stopped: its answer has arrived by then on loopback. */
const ACK_MARGIN_MS = 150;
const BOUND_MS = 30_000;

const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
};

const killGroup = (pgid: number): void => {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // Nothing of the group is left.
  }
};

/** The pids of a process's children (/proc/PID/task/PID/children), empty once it is gone. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((s) => s !== "")
      .map(Number);
  } catch {
    return [];
  }
}

interface CliRun {
  cli: ChildProcess;
  childPid: number;
  sessionId: bigint;
}

/** Starts `palisadectl --json run LOCK -- sleep 1000` in its own process group; resolves once the command runs. */
function startCli(endpoints: string[], lock: string, ttlMs: number): Promise<CliRun> {
  const cli = spawn(
    process.execPath,
    [
      PALISADECTL_BIN,
      "--endpoints",
      endpoints.join(","),
      "--json",
      "run",
      lock,
      "--ttl",
      `${ttlMs}ms`,
      "--",
      "sleep",
      "1000",
    ],
    {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  trackChild(cli);
  return new Promise<CliRun>((resolve, reject) => {
    let sessionId: bigint | null = null;
    let text = "";
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `palisadectl run did not start its command within ${BOUND_MS} ms: ${text.slice(-1_000)}`,
          ),
        ),
      BOUND_MS,
    );
    cli.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `palisadectl run exited (${code}) before its command started: ${text.slice(-1_000)}`,
        ),
      );
    });
    createInterface({ input: cli.stderr! }).on("line", (line) => {
      text += line + "\n";
      let message: { sessionId?: string; started?: number };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return;
      }
      if (message.sessionId !== undefined) sessionId = BigInt(message.sessionId);
      if (message.started !== undefined && sessionId !== null) {
        clearTimeout(timer);
        resolve({ cli, childPid: message.started, sessionId });
      }
    });
  });
}

export async function runRunLoss(options: RunLossOptions): Promise<RunLossResult> {
  const dir = makeTempDir("palisade-run-loss-");
  const cluster = await BenchCluster.create(dir);
  const observer = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 1_000,
    retryBudgetMs: 5_000,
  });
  const period = Math.floor(options.ttlMs / 3);
  const budgetMs = options.ttlMs - 2 * DRIFT_BOUND * options.ttlMs - DEADLINE_TICK_MS;
  if (ACK_MARGIN_MS * 2 >= period)
    throw new Error(
      `RUN_LOSS_TTL_MS ${options.ttlMs} is too short: a keepalive period must exceed ${2 * ACK_MARGIN_MS} ms`,
    );
  const samples: RunLossResult["samples"] = [];
  let earlier = 0;
  let unresolved = 0;
  const live: Array<{ run: CliRun; watchdogs: number[] }> = [];
  try {
    cluster.startAll();
    await cluster.waitServing();
    for (let k = 1; k <= options.runs; k++) {
      const lock = `bench/run-loss/${Date.now().toString(36)}-${k}`;
      const run = await startCli(cluster.endpoints, lock, options.ttlMs);
      const entry = { run, watchdogs: childrenOf(run.cli.pid ?? -1) };
      live.push(entry);
      // A couple of keepalives first, then the stop just after one is due and answered.
      await sleep(period * 1.5);
      const dueAt = Math.ceil(monotonicMs() / period) * period;
      await sleep(dueAt + ACK_MARGIN_MS - monotonicMs());
      entry.watchdogs = childrenOf(run.cli.pid ?? -1);
      const stoppedAt = monotonicMs();
      process.kill(run.cli.pid ?? -1, "SIGSTOP");

      let freeAt: number | null = null;
      const until = stoppedAt + options.ttlMs + BOUND_MS;
      let stopWatching = false;
      const watchLock = (async (): Promise<void> => {
        while (!stopWatching && monotonicMs() < until) {
          const info = await observer.read.getLock(lock).catch(() => null);
          if (info && info.holder?.sessionId !== run.sessionId) {
            freeAt = monotonicMs();
            return;
          }
          await sleep(10);
        }
      })();
      let deadAt: number | null = null;
      while (monotonicMs() < until) {
        if (!groupAlive(run.childPid)) {
          deadAt = monotonicMs();
          break;
        }
        await sleep(1);
      }
      // The cluster's side a little longer: it expires the session after the TTL from the last keepalive it saw.
      await Promise.race([watchLock, sleep(options.ttlMs + 5_000)]);
      stopWatching = true;
      if (deadAt === null) {
        unresolved++;
        options.log(
          `run-loss run ${k}: the command's group was still alive ${options.ttlMs + BOUND_MS} ms after the stop`,
        );
      } else {
        let deadline = dueAt + budgetMs;
        // Died a period or more before the deadline taken: the keepalive due at the stop was not acknowledged before it.
        if (deadAt < deadline - period / 2) {
          earlier++;
          deadline -= period;
        }
        const sample = {
          after_local_deadline_ms: Math.round((deadAt - deadline) * 10) / 10,
          before_cluster_expiry_ms:
            freeAt === null ? null : Math.round((freeAt - deadAt) * 10) / 10,
          stop_to_dead_ms: Math.round((deadAt - stoppedAt) * 10) / 10,
        };
        samples.push(sample);
        options.log(
          `run-loss run ${k}/${options.runs}: command group dead ${sample.after_local_deadline_ms} ms after the local deadline, ` +
            `${sample.before_cluster_expiry_ms ?? "?"} ms before the cluster freed the lock (${sample.stop_to_dead_ms} ms after the stop)`,
        );
      }
      await stopRun(entry);
      live.splice(live.indexOf(entry), 1);
    }
    const pick = (f: (s: RunLossResult["samples"][number]) => number | null): number[] =>
      samples.map(f).filter((v): v is number => v !== null);
    return {
      runs: options.runs,
      ttl_ms: options.ttlMs,
      budget_ms: budgetMs,
      after_local_deadline_ms: summarize(pick((s) => s.after_local_deadline_ms)),
      before_cluster_expiry_ms: summarize(pick((s) => s.before_cluster_expiry_ms)),
      stop_to_dead_ms: summarize(pick((s) => s.stop_to_dead_ms)),
      samples,
      earlier_keepalive_runs: earlier,
      unresolved,
      config: `3 nodes, product defaults; \`palisadectl run --ttl ${options.ttlMs}ms -- sleep 1000\` (bin/palisadectl.mjs, client defaults: ρ ${DRIFT_BOUND}, deadline tick ${DEADLINE_TICK_MS} ms), SIGSTOPped ${ACK_MARGIN_MS} ms after a keepalive was due`,
    };
  } finally {
    for (const entry of live) await stopRun(entry);
    await observer.close().catch(() => undefined);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}

/** Kills the CLI (stopped or not), its watchdog and the command's group, and waits for the CLI. */
async function stopRun(entry: { run: CliRun; watchdogs: number[] }): Promise<void> {
  const { cli, childPid } = entry.run;
  for (const pid of [...entry.watchdogs, ...childrenOf(cli.pid ?? -1)]) killGroup(pid);
  killGroup(childPid);
  if (cli.exitCode === null && cli.signalCode === null) {
    const exited = new Promise<void>((r) => cli.once("exit", () => r()));
    killGroup(cli.pid ?? -1);
    await Promise.race([exited, sleep(5_000)]);
  }
}
