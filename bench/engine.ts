// The engine benchmark: how many lock commands/s Palisade's Raft engine commits and applies
// with real storage but nothing around it — three nodes in this one process, each the real
// core, driver, LevelDB store and lock state machine (bench/engine-cluster.ts), messages
// handed over in memory (bench/engine-transport.ts), the load proposed straight to the
// leader's driver (bench/engine-load.ts). One fresh cluster per batch size, in a temp
// folder removed afterwards (also on failure and at exit); after each run the followers
// must reach the leader's applied index with byte-identical state, or the run fails.
//   node dist/bench/engine.js [--batches "1 4 16 64 256 1024"] [--seconds 3] [--warmup 1]
//                             [--inflight 8] [--json OUT.json]
// prints the curve as a table; run.sh runs it as the part `engine` (bench/report.ts).
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_RAFT } from "../node/config/index.ts";
import { isEntryPoint } from "../node/util/entry-point.ts";
import { makeTempDir, removeTempDir } from "./cluster-control.ts";
import { EngineCluster } from "./engine-cluster.ts";
import { renderEngineTable, type EngineResult, type EngineRun } from "./engine-figures.ts";
import { runLoad } from "./engine-load.ts";
import { percentile } from "./stats.ts";

export interface EngineOptions {
  readonly batches: readonly number[];
  readonly seconds: number;
  readonly warmupS: number;
  /** Batches outstanding at once on the leader. */
  readonly inflight: number;
  readonly log: (line: string) => void;
}

const ELECTION_WAIT_MS = 10_000;
const CATCH_UP_MS = 10_000;

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

function latencySummary(values: readonly number[]): EngineRun["batch_ms"] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number | null => {
    const v = percentile(sorted, p);
    return v === null ? null : round(v, 2);
  };
  return { p50: at(50), p99: at(99), max: at(100) };
}

/** Checks that every node applied the same entries to the same state; throws otherwise. */
export async function checkConverged(
  cluster: EngineCluster,
  leader: EngineCluster["nodes"][number],
): Promise<EngineRun["nodes"]> {
  const caughtUp = await cluster.converged(leader, CATCH_UP_MS);
  const nodes = cluster.states();
  const shown = nodes.map((n) => `node ${n.id} at ${n.applied} (${n.digest})`).join(", ");
  if (!caughtUp)
    throw new Error(`the followers did not catch up within ${CATCH_UP_MS} ms: ${shown}`);
  if (new Set(nodes.map((n) => `${n.applied}/${n.digest}`)).size !== 1)
    throw new Error(`the nodes' states differ: ${shown}`);
  return nodes;
}

/** One batch size on a fresh cluster. */
export async function runBatch(
  batch: number,
  opts: Omit<EngineOptions, "batches">,
): Promise<EngineRun> {
  const dir = makeTempDir("palisade-engine-");
  let cluster: EngineCluster | null = null;
  try {
    cluster = await EngineCluster.start(dir);
    const leader = await cluster.waitForLeader(ELECTION_WAIT_MS);
    const changesBefore = cluster.leaderChanges;
    const figures = await runLoad(leader.driver, {
      batch,
      inflight: opts.inflight,
      warmupMs: opts.warmupS * 1000,
      measureMs: opts.seconds * 1000,
    });
    const nodes = await checkConverged(cluster, leader);
    if (cluster.fatal !== null) throw new Error(`a node stopped: ${String(cluster.fatal)}`);
    const windowS = figures.windowMs / 1000;
    return {
      batch,
      inflight: opts.inflight,
      seconds: round(windowS, 3),
      commands: figures.commands,
      batches: figures.batches,
      commands_per_s: round(figures.commands / windowS, 1),
      batches_per_s: round(figures.batches / windowS, 1),
      batch_ms: latencySummary(figures.batchMs),
      cpu_us_per_command:
        figures.commands > 0 ? round(figures.cpuMicros / figures.commands, 2) : null,
      cpu_pct: round(figures.cpuMicros / 10 / figures.windowMs, 1),
      leader: leader.id,
      leader_changes: cluster.leaderChanges - changesBefore,
      nodes,
      dropped_messages: cluster.network.dropped,
    };
  } finally {
    await cluster?.stop();
    removeTempDir(dir);
  }
}

/** The curve: each batch size in turn; a size that fails is listed with its error, the rest run. */
export async function runEngine(opts: EngineOptions): Promise<EngineResult> {
  const runs: EngineResult["runs"] = [];
  for (const batch of opts.batches) {
    opts.log(`engine: batch ${batch}, ${opts.inflight} in flight, ${opts.seconds} s`);
    try {
      const run = await runBatch(batch, opts);
      opts.log(
        `engine: batch ${batch}: ${Math.round(run.commands_per_s)} commands/s, p99 ${run.batch_ms.p99} ms`,
      );
      runs.push(run);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      opts.log(`engine: batch ${batch} failed: ${message}`);
      runs.push({ batch, error: message.slice(0, 2_000) });
    }
  }
  return {
    runs,
    tick_ms: DEFAULT_RAFT.tickMs,
    warmup_s: opts.warmupS,
    seconds: opts.seconds,
    inflight: opts.inflight,
    config:
      `Node ${process.version}; the cluster file's defaults (tick ${DEFAULT_RAFT.tickMs} ms, election ` +
      `${DEFAULT_RAFT.electionTicks} ticks, ${DEFAULT_RAFT.maxInflightMsgs} appends in flight, ` +
      `${DEFAULT_RAFT.maxBytesPerAppend / 1024 / 1024} MiB per append).`,
  };
}

/** A list of positive whole numbers, space- or comma-separated. */
export function parseBatches(text: string): number[] {
  const batches = text
    .split(/[\s,]+/)
    .filter((s) => s !== "")
    .map(Number);
  if (batches.length === 0 || batches.some((b) => !Number.isSafeInteger(b) || b < 1))
    throw new Error(`batch sizes must be positive whole numbers, got "${text}"`);
  return batches;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      batches: { type: "string", default: "1 4 16 64 256 1024" },
      seconds: { type: "string", default: "3" },
      warmup: { type: "string", default: "1" },
      inflight: { type: "string", default: "8" },
      json: { type: "string" },
    },
  });
  const result = await runEngine({
    batches: parseBatches(values.batches),
    seconds: Number(values.seconds),
    warmupS: Number(values.warmup),
    inflight: parseBatches(values.inflight)[0]!,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(renderEngineTable(result));
  if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2) + "\n");
  if (result.runs.some((r) => "error" in r)) process.exitCode = 1;
}

if (isEntryPoint(import.meta.url)) {
  process.on("SIGINT", () => process.exit(130));
  process.on("SIGTERM", () => process.exit(143));
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
