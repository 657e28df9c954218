// What the engine benchmark (bench/engine.ts) measured, and its section of the report: the
// commands/s curve of three in-process nodes over the batch size.
import { failed, num } from "./report-format.ts";

/** One batch size on a fresh three-node cluster. */
export interface EngineRun {
  batch: number;
  inflight: number;
  /** The measured window (warm-up excluded). */
  seconds: number;
  /** Commands (and batches) committed and applied on the leader in the window. */
  commands: number;
  batches: number;
  commands_per_s: number;
  batches_per_s: number;
  /** Proposal to the batch's last command applied on the leader. */
  batch_ms: { p50: number | null; p99: number | null; max: number | null };
  /** Process CPU (three nodes, LevelDB's threads, the load) per command, and in % of one core. */
  cpu_us_per_command: number | null;
  cpu_pct: number;
  leader: number;
  leader_changes: number;
  /** Every node's applied index and state digest once the followers caught up (all equal). */
  nodes: Array<{ id: number; applied: number; digest: string }>;
  /** Messages the in-process network dropped (a full queue): 0 in a healthy run. */
  dropped_messages: number;
}

export interface EngineResult {
  runs: Array<EngineRun | { batch: number; error: string }>;
  tick_ms: number;
  warmup_s: number;
  seconds: number;
  inflight: number;
  config: string;
}

/** The target: commands/s at every batch size of ENGINE_TARGET_BATCH and above. */
export const ENGINE_TARGET_COMMANDS_PER_S = 50_000;
export const ENGINE_TARGET_BATCH = 256;

const count = (x: number): string => Math.round(x).toLocaleString("en-US");

/** The curve as a Markdown table. */
export function renderEngineTable(result: EngineResult): string {
  const rows = [
    "| batch | commands/s | batches/s | batch p50 ms | batch p99 ms | CPU µs/command | process CPU % | leader changes |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of result.runs) {
    if ("error" in r) {
      rows.push(`| ${r.batch} | failed: ${r.error.slice(0, 120)} | | | | | | |`);
      continue;
    }
    rows.push(
      `| ${r.batch} | ${count(r.commands_per_s)} | ${count(r.batches_per_s)} | ${num(r.batch_ms.p50, 2)} | ${num(r.batch_ms.p99, 2)} | ` +
        `${num(r.cpu_us_per_command)} | ${num(r.cpu_pct, 0)} | ${r.leader_changes} |`,
    );
  }
  return rows.join("\n") + "\n";
}

/** The report's section, or "" when the part did not run. */
export function renderEngine(engine: EngineResult | { error: string } | undefined): string {
  const title = "### Engine: three nodes in one process, LevelDB, no gRPC";
  if (engine === undefined) return "";
  if (failed(engine)) return `${title}\n\nfailed: ${engine.error}\n`;
  return [
    title,
    "",
    "Palisade's Raft core and driver, three nodes in one process, each on its own LevelDB store " +
      "(synced as the core asks) and applying to the lock state machine; messages handed between " +
      "the drivers in memory, no gRPC, no node host, no client. A batch is that many lock commands " +
      `(Acquires of distinct locks, then their Releases) in one propose call, ${engine.inflight} batches ` +
      `in flight; ${engine.warmup_s} s warm-up, then ${engine.seconds} s measured per batch size, each on a fresh cluster. ` +
      "Commands/s: committed and applied on the leader. CPU: the whole process (the three nodes, " +
      "LevelDB's threads, encoding the commands). The gap to the throughput table is what gRPC, the " +
      `node host and the client cost. ${engine.config}`,
    "",
    renderEngineTable(engine),
  ].join("\n");
}

/** The target row's figures and verdict: met when every batch size at or above the target's is. */
export function engineTarget(engine: EngineResult | { error: string }): {
  shown: string;
  met: "yes" | "**no**" | "**failed**" | "**not measured**";
} {
  if (failed(engine))
    return { shown: `part failed: ${engine.error.slice(0, 120)}`, met: "**failed**" };
  const runs = engine.runs.filter((r) => r.batch >= ENGINE_TARGET_BATCH);
  if (runs.length === 0)
    return { shown: "no batch size that large in this run", met: "**not measured**" };
  const shown = runs
    .map((r) => `batch ${r.batch}: ${"error" in r ? "failed" : `${count(r.commands_per_s)}/s`}`)
    .join(", ");
  if (runs.some((r) => "error" in r)) return { shown, met: "**failed**" };
  const ok = runs.every((r) => !("error" in r) && r.commands_per_s >= ENGINE_TARGET_COMMANDS_PER_S);
  return { shown, met: ok ? "yes" : "**no**" };
}
