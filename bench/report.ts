// The parts of the benchmark report beyond throughput: the engine alone, failover time, node
// memory with many locks, start-up time with a long log or a snapshot, and the floor of the
// machine and stack.
// Each part starts its own processes in a temp folder and stops every process and removes
// every folder it made, also on failure.
//   node dist/bench/report.js PART OUT.json   (PART: engine | failover | memory | startup | floor | crash-grant |
//                                        run-loss | keepalive | stream-flood |
//                                        election-failover; run.sh runs each
//                                        in its own process and merges the part into OUT.json)
// Knobs (environment): ENGINE_SECONDS (3), ENGINE_BATCHES ("1 4 16 64 256 1024"),
// ENGINE_INFLIGHT (8), ENGINE_WARMUP (1), FAILOVER_KILLS (10), FAILOVER_WORKERS (8),
// MEMORY_SESSIONS (10000), MEMORY_LOCKS (100000), STARTUP_ENTRIES (1000000), STARTUP_RUNS (10),
// CRASH_GRANT_RUNS (10), CRASH_GRANT_TTL_MS (2000), RUN_LOSS_RUNS (10), RUN_LOSS_TTL_MS (2000),
// KEEPALIVE_SESSIONS (100000), KEEPALIVE_PROCS (10), KEEPALIVE_SECONDS (120), KEEPALIVE_TRANSFERS (3),
// KEEPALIVE_TTL_MS (10000), KEEPALIVE_DEADLINE_TICK_MS (1000), STREAM_FLOOD_SECONDS (30),
// STREAM_FLOOD_CLIENTS (4), ELECTION_RUNS (10), ELECTION_TTL_MS (2000; whole seconds, at least 2 s:
// etcd's lease TTL is in seconds and it raises a shorter one to its minimum),
// ELECTION_CANDIDATES (3), ELECTION_OBSERVERS (2).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { runEtcdFailover, runEtcdMemory } from "./etcd-parts.ts";
import { etcdWanted } from "./etcd-control.ts";
import { runFailover } from "./failover.ts";
import { runFloor } from "./floor.ts";
import { parseBatches, runEngine } from "./engine.ts";
import { runMemory } from "./memory.ts";
import { runStartup } from "./startup.ts";
import { runCrashGrant, runEtcdCrashGrant, type CrashGrantResult } from "./crash-grant.ts";
import { runRunLoss } from "./run-loss.ts";
import { runKeepalive } from "./keepalive.ts";
import { runEtcdKeepalive } from "./etcd-keepalive.ts";
import { runStreamFlood } from "./stream-flood.ts";
import { runElectionFailover, runEtcdElectionFailover } from "./election-failover.ts";
import type { ElectionFailoverResult } from "./election-figures.ts";
import type { KeepaliveResult } from "./report-data.ts";

const envNumber = (name: string, fallback: number, zeroAllowed = false): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zeroAllowed))
    throw new Error(`${name} must be a positive number`);
  return value;
};

/** A failed etcd measurement is reported in its place; Palisade's figures stand. */
const failure = (e: unknown): { error: string } => {
  log(`etcd part failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return { error: e instanceof Error ? e.message.slice(0, 2_000) : String(e) };
};

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(part: string, out: string): Promise<void> {
  const report = (existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : {}) as Record<
    string,
    unknown
  >;
  const save = (): void => writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  // The JSON key of a part: "crash-grant" is stored as crash_grant.
  const key = part.replaceAll("-", "_");
  {
    const t0 = performance.now();
    const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
    log(`--- ${part}`);
    try {
      if (part === "engine") {
        report[key] = await runEngine({
          batches: parseBatches(process.env["ENGINE_BATCHES"] || "1 4 16 64 256 1024"),
          seconds: envNumber("ENGINE_SECONDS", 3),
          warmupS: envNumber("ENGINE_WARMUP", 1, true),
          inflight: Math.ceil(envNumber("ENGINE_INFLIGHT", 8)),
          log,
        });
      } else if (part === "failover") {
        const kills = envNumber("FAILOVER_KILLS", 10);
        const workers = envNumber("FAILOVER_WORKERS", 8);
        // Both clients measure each stop: the Python one from its own process (SKIP_PYTHON=1 leaves it out).
        const python = process.env["SKIP_PYTHON"] !== "1";
        report["failover"] = await runFailover({ kills, workers, maxWaitMs: 30_000, log, python });
        report["failover_stopped"] = await runFailover({
          kills,
          workers,
          maxWaitMs: 30_000,
          log,
          signal: "SIGSTOP",
          python,
        }).catch(failure);
        if (etcdWanted())
          report["etcd_failover"] = await runEtcdFailover(kills, workers, 30_000, log).catch(
            failure,
          );
      } else if (part === "memory") {
        const sessions = envNumber("MEMORY_SESSIONS", 10_000);
        const locks = envNumber("MEMORY_LOCKS", 100_000);
        report["memory"] = await runMemory({ sessions, locks, timeoutMs: 300_000, log });
        if (etcdWanted())
          report["etcd_memory"] = await runEtcdMemory(sessions, locks, 300_000, log).catch(failure);
      } else if (part === "floor") {
        report["floor"] = await runFloor({ log });
      } else if (part === "startup") {
        report["startup"] = await runStartup({
          entries: envNumber("STARTUP_ENTRIES", 1_000_000),
          runs: envNumber("STARTUP_RUNS", 10),
          log,
        });
      } else if (part === "crash-grant") {
        const options = {
          runs: envNumber("CRASH_GRANT_RUNS", 10),
          ttlMs: envNumber("CRASH_GRANT_TTL_MS", 2_000),
          log,
        };
        const result: CrashGrantResult = { palisade: await runCrashGrant(options) };
        if (etcdWanted()) result.etcd = await runEtcdCrashGrant(options).catch(failure);
        report[key] = result;
      } else if (part === "run-loss") {
        report[key] = await runRunLoss({
          runs: envNumber("RUN_LOSS_RUNS", 10),
          ttlMs: envNumber("RUN_LOSS_TTL_MS", 2_000),
          log,
        });
      } else if (part === "keepalive") {
        const options = {
          sessions: envNumber("KEEPALIVE_SESSIONS", 100_000),
          processes: envNumber("KEEPALIVE_PROCS", 10),
          holdS: envNumber("KEEPALIVE_SECONDS", 120),
          transfers: envNumber("KEEPALIVE_TRANSFERS", 3, true),
          ttlMs: envNumber("KEEPALIVE_TTL_MS", 10_000),
          deadlineTickMs: envNumber("KEEPALIVE_DEADLINE_TICK_MS", 1_000),
          log,
        };
        const result: KeepaliveResult = await runKeepalive(options);
        report[key] = result;
        save(); // Palisade's figures stand even if etcd's side overruns the part's bound
        result.etcd = etcdWanted()
          ? await runEtcdKeepalive(options).catch(failure)
          : { skipped: "SKIP_ETCD=1 or etcd not installed" };
        report[key] = result;
      } else if (part === "election-failover") {
        const ttlMs = envNumber("ELECTION_TTL_MS", 2_000);
        if (ttlMs % 1_000 !== 0 || ttlMs < 2_000)
          throw new Error(
            "ELECTION_TTL_MS must be whole seconds, at least 2000 (etcd's lease TTL)",
          );
        const options = {
          runs: envNumber("ELECTION_RUNS", 10),
          ttlMs,
          candidates: Math.max(2, envNumber("ELECTION_CANDIDATES", 3)),
          observers: envNumber("ELECTION_OBSERVERS", 2),
          log,
        };
        const result: ElectionFailoverResult = { palisade: await runElectionFailover(options) };
        report[key] = result;
        save(); // Palisade's figures stand even if etcd's side overruns the part's bound
        if (etcdWanted()) result.etcd = await runEtcdElectionFailover(options).catch(failure);
      } else if (part === "stream-flood") {
        report[key] = await runStreamFlood({
          seconds: envNumber("STREAM_FLOOD_SECONDS", 30),
          clients: envNumber("STREAM_FLOOD_CLIENTS", 4),
          log,
        });
      } else {
        throw new Error(`unknown part ${part}`);
      }
    } catch (e) {
      report[key] = { error: e instanceof Error ? e.message.slice(0, 4_000) : String(e) };
      log(`${part} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    const took = Math.round((performance.now() - t0) / 100) / 10;
    const result = report[key];
    if (result && typeof result === "object") {
      Object.assign(result, {
        took_s: took,
        loadavg_before: loadBefore,
        loadavg_after: loadavg().map((x) => Math.round(x * 100) / 100),
      });
    }
    log(`--- ${part} took ${took} s`);
    save();
  }
}

const [part, out] = process.argv.slice(2);
if (!part || !out) {
  process.stderr.write(
    "usage: node dist/bench/report.js engine|failover|memory|startup|floor|crash-grant|run-loss|keepalive|stream-flood|election-failover OUT.json\n",
  );
  process.exit(2);
}
// On Ctrl-C / TERM the parts' finally blocks do not run: the exit hook in cluster-control
// stops the node processes this one started and removes its temp folders.
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
main(part, out).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
