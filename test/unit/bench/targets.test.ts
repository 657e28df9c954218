// The benchmark report's targets table: which rows appear and what each says, from the
// figures of one run.
import { describe, expect, it } from "vitest";
import { renderTargets } from "../../../bench/targets.ts";
import type { Parts, RunResult } from "../../../bench/report-data.ts";
import type { EngineResult, EngineRun } from "../../../bench/engine-figures.ts";

function cell(
  label: string,
  mode: string,
  concurrency: number,
  figures: Partial<RunResult>,
): RunResult {
  return {
    label,
    mode,
    concurrency,
    cycles_per_s: 0,
    handoffs_per_s: null,
    acquire_ms: { p50: null, p99: null, max: null },
    per_worker_cycles: { jain: 1 },
    errors: 0,
    timeouts: 0,
    mutex_violations: 0,
    fence_regressions: 0,
    server_cpu_pct: null,
    ...figures,
  };
}

/** The rows of the rendered table, as [target, this run, met]. */
function rows(markdown: string): string[][] {
  return markdown
    .split("\n")
    .slice(2)
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

/** The "met" cell of the one row whose target starts with `start`, or undefined without such a row. */
function met(markdown: string, start: string): string | undefined {
  const found = rows(markdown).filter((r) => (r[0] ?? "").startsWith(start));
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.[2];
}

const throughput = (
  p: Partial<RunResult>,
  e: Partial<RunResult>,
  mode = "uncontended",
  conc = 64,
): RunResult[] => [cell("palisade", mode, conc, p), cell("etcd-lockapi", mode, conc, e)];

function floor(acquireFloorMs: number): NonNullable<Parts["floor"]> {
  return {
    fdatasync_ms: { p50: 0.2, p99: 0.3 },
    leveldb_sync_batch_ms: { p50: 0.4, p99: 0.8 },
    grpc_unary_c1_ms: { p50: 0.5, p99: 1 },
    grpc_unary_c64_calls_per_s: 3_000,
    grpc_stream_rtt_ms: { p50: 0.3, p99: 0.5 },
    acquire_c1_floor_ms: acquireFloorMs,
    uncontended_c64_ceiling_cycles_per_s: 1_500,
    contended_ceiling_handoffs_per_s: 800,
  };
}

function memory(largest: number, idle: number): NonNullable<Parts["memory"]> {
  return {
    sessions_requested: 10_000,
    locks_requested: 100_000,
    sessions_opened: 10_000,
    locks_held: 100_000,
    fill_s: 10,
    fill_writes_per_s: 11_000,
    nodes: [
      { node: 1, leader: true, idle_rss_mb: idle, rss_mb: largest, hwm_mb: largest },
      { node: 2, leader: false, idle_rss_mb: idle - 5, rss_mb: largest - 10, hwm_mb: largest },
    ],
    max_rss_mb: largest,
    errors: 0,
    error_samples: [],
  };
}

function etcdMemory(largest: number): NonNullable<Parts["etcd_memory"]> {
  return {
    sessions_opened: 10_000,
    locks_held: 100_000,
    fill_s: 50,
    members: [{ member: 1, idle_rss_mb: 25, rss_mb: largest, hwm_mb: largest }],
    max_rss_mb: largest,
    errors: 0,
  };
}

function failover(
  signal: "SIGKILL" | "SIGSTOP",
  p99: number,
  unresolved = 0,
): NonNullable<Parts["failover"]> {
  return {
    kills: 10,
    signal,
    failover_ms: { n: 10, p50: p99 / 2, p99, max: p99, mean: p99 / 2 },
    samples_ms: [],
    unresolved,
    workers: 8,
    acquires_total: 1_000,
    errors_total: 0,
    config: "3 nodes",
  };
}

describe("the report's targets", () => {
  it("failover from a stopped leader is met under 2 s at p99 with every stop resolved", () => {
    const label = "failover from a stopped leader (SIGSTOP) p99 < 2 s";
    expect(met(renderTargets([], { failover_stopped: failover("SIGSTOP", 1_900) }), label)).toBe(
      "yes",
    );
    expect(met(renderTargets([], { failover_stopped: failover("SIGSTOP", 2_100) }), label)).toBe(
      "**no**",
    );
    expect(met(renderTargets([], { failover_stopped: failover("SIGSTOP", 1_000, 1) }), label)).toBe(
      "**no**",
    );
    expect(met(renderTargets([], {}), label)).toBeUndefined();
  });

  it("uncontended c=64 is met at 4× etcd's cycles/s and above Redlock's, and not otherwise", () => {
    const run = (palisade: number, redlock?: number): RunResult[] => [
      ...throughput({ cycles_per_s: palisade }, { cycles_per_s: 1_000 }),
      ...(redlock === undefined
        ? []
        : [cell("redlock", "uncontended", 64, { cycles_per_s: redlock })]),
    ];
    const label = "uncontended c=64";
    expect(met(renderTargets(run(4_100, 4_000), {}), label)).toBe("yes");
    expect(met(renderTargets(run(3_000, 2_000), {}), label)).toBe("**no**");
    expect(met(renderTargets(run(4_100, 5_000), {}), label)).toBe("**no**");
    expect(met(renderTargets(run(4_100), {}), label)).toBe("**not measured**");
    expect(met(renderTargets(run(4_100), {}, ["redlock uncontended c=64"]), label)).toBe(
      "**failed**",
    );
  });

  it("uncontended c=256 is met at 6,000 Palisade cycles/s", () => {
    const run = (cycles: number): RunResult[] => [
      cell("palisade", "uncontended", 256, { cycles_per_s: cycles }),
    ];
    const label = "uncontended c=256 cycles/s ≥ 6000";
    expect(met(renderTargets(run(6_100), {}), label)).toBe("yes");
    expect(met(renderTargets(run(5_900), {}), label)).toBe("**no**");
    expect(met(renderTargets([], {}, ["palisade uncontended c=256"]), label)).toBe("**failed**");
    expect(met(renderTargets([], {}), label)).toBeUndefined();
  });

  it("contended c=64 is met only with both 3× etcd's handoffs/s and Jain's fairness of at least 0.99", () => {
    const run = (handoffs: number, jain: number): RunResult[] =>
      throughput(
        { handoffs_per_s: handoffs, per_worker_cycles: { jain } },
        { handoffs_per_s: 100, per_worker_cycles: { jain: 1 } },
        "contended",
      );
    expect(met(renderTargets(run(350, 0.995), {}), "contended c=64")).toBe("yes");
    expect(met(renderTargets(run(350, 0.98), {}), "contended c=64")).toBe("**no**");
    expect(met(renderTargets(run(250, 1), {}), "contended c=64")).toBe("**no**");
  });

  it("the c=1 acquire p50 is met at the floor of the same run plus 30% or less", () => {
    const run = (p50: number): RunResult[] => [
      cell("palisade", "uncontended", 1, { acquire_ms: { p50, p99: null, max: null } }),
    ];
    const label = "c=1 acquire p50 ≤ floor + 30%";
    expect(met(renderTargets(run(1.25), { floor: floor(1) }), label)).toBe("yes");
    expect(met(renderTargets(run(1.35), { floor: floor(1) }), label)).toBe("**no**");
    expect(met(renderTargets(run(1.25), {}), label)).toBe("**not measured**");
    expect(met(renderTargets(run(1.25), { floor: { error: "no disk" } }), label)).toBe(
      "**failed**",
    );
  });

  it("a throughput cell with a mutual-exclusion violation or no result shows as failed, not as met", () => {
    const violated = throughput(
      { cycles_per_s: 9_000, mutex_violations: 1 },
      { cycles_per_s: 1_000 },
    );
    expect(met(renderTargets(violated, {}), "uncontended c=64")).toBe("**failed**");
    const missing = [cell("etcd-lockapi", "uncontended", 64, { cycles_per_s: 1_000 })];
    expect(met(renderTargets(missing, {}, ["palisade uncontended c=64"]), "uncontended c=64")).toBe(
      "**failed**",
    );
  });

  it("the floor rows set the targets against etcd beside the stack's ceilings", () => {
    const runs = [
      ...throughput({ cycles_per_s: 1_000 }, { cycles_per_s: 1_000 }),
      ...throughput({ handoffs_per_s: 100 }, { handoffs_per_s: 200 }, "contended"),
    ];
    const md = renderTargets(runs, { floor: floor(1.2) });
    expect(
      rows(md)
        .map((r) => r[0])
        .filter((t) => t.startsWith("(floor)")),
    ).toEqual([
      "(floor) uncontended target 4× etcd = 4000 cycles/s; stack ceiling here",
      "(floor) contended target 3× etcd = 600 handoffs/s; stack ceiling here",
    ]);
    expect(met(md, "(floor) uncontended")).toBe("**beyond the ceiling**");
    expect(met(md, "(floor) contended")).toBe("reachable");
  });

  it("node memory is met only under both 0.6× etcd's largest member and 200 MB, and the idle node under 80 MB", () => {
    expect(
      met(
        renderTargets([], { memory: memory(150, 70), etcd_memory: etcdMemory(200) }),
        "largest node RSS",
      ),
    ).toBe("**no**");
    expect(
      met(
        renderTargets([], { memory: memory(110, 70), etcd_memory: etcdMemory(200) }),
        "largest node RSS",
      ),
    ).toBe("yes");
    expect(
      met(
        renderTargets([], { memory: memory(210, 70), etcd_memory: etcdMemory(400) }),
        "largest node RSS",
      ),
    ).toBe("**no**");
    expect(
      met(
        renderTargets([], { memory: memory(110, 70), etcd_memory: etcdMemory(200) }),
        "idle node RSS < 80 MB",
      ),
    ).toBe("yes");
    expect(
      met(
        renderTargets([], { memory: memory(110, 85), etcd_memory: etcdMemory(200) }),
        "idle node RSS < 80 MB",
      ),
    ).toBe("**no**");
  });

  it("node memory without etcd's figure is not shown as met", () => {
    expect(
      met(
        renderTargets([], {
          memory: memory(110, 70),
          etcd_memory: { error: "etcd did not start" },
        }),
        "largest node RSS",
      ),
    ).toBe("**failed**");
    expect(met(renderTargets([], { memory: memory(110, 70) }), "largest node RSS")).toBe(
      "**not measured**",
    );
  });

  it("a part that failed shows its targets as failed, and a part that did not run shows none", () => {
    const md = renderTargets([], {
      failover: { error: "no leader within 30000 ms" },
      keepalive: { error: "out of memory" },
    });
    expect(met(md, "failover p99 < 1 s")).toBe("**failed**");
    expect(met(md, "keepalive scale")).toBe("**failed**");
    expect(met(md, "largest node RSS")).toBeUndefined();
    expect(met(md, "empty node serves Status")).toBeUndefined();
    expect(renderTargets([], {})).toBe("");
  });

  it("keepalive scale is met only with no session lost on either side", () => {
    const keepalive = (
      clientLost: number,
      clusterMissing: number,
    ): NonNullable<Parts["keepalive"]> => ({
      sessions_requested: 1_000,
      sessions_opened: 1_000,
      processes: 2,
      hold_s: 10,
      transfers_requested: 3,
      transfers_done: 3,
      ttl_ms: 10_000,
      open_s: 2,
      client_lost: clientLost,
      cluster_sessions_end: 1_000 - clusterMissing,
      cluster_missing: clusterMissing,
      expired_metric_delta: clusterMissing,
      keepalive_frames_per_s: 3,
      keepalive_calls_per_s: 300,
      leader_cpu_pct: 10,
      leader_cpu_pct_per_1k_sessions: 10,
      steady_window_s: 5,
      transfers: [],
      errors: 0,
      error_samples: [],
    });
    expect(met(renderTargets([], { keepalive: keepalive(0, 0) }), "keepalive scale")).toBe("yes");
    expect(met(renderTargets([], { keepalive: keepalive(1, 0) }), "keepalive scale")).toBe(
      "**no**",
    );
    expect(met(renderTargets([], { keepalive: keepalive(0, 2) }), "keepalive scale")).toBe(
      "**no**",
    );
  });

  it("the engine is met only when every batch size of 256 and above reaches 50,000 commands/s", () => {
    const run = (batch: number, commandsPerS: number): EngineRun => ({
      batch,
      inflight: 8,
      seconds: 3,
      commands: commandsPerS * 3,
      batches: (commandsPerS * 3) / batch,
      commands_per_s: commandsPerS,
      batches_per_s: commandsPerS / batch,
      batch_ms: { p50: 1, p99: 2, max: 3 },
      cpu_us_per_command: 10,
      cpu_pct: 100,
      leader: 1,
      leader_changes: 0,
      nodes: [],
      dropped_messages: 0,
    });
    const engine = (...runs: EngineResult["runs"]): Parts => ({
      engine: { runs, tick_ms: 50, warmup_s: 1, seconds: 3, inflight: 8, config: "" },
    });
    const label = "engine";
    expect(met(renderTargets([], engine(run(64, 1_000), run(256, 60_000))), label)).toBe("yes");
    expect(met(renderTargets([], engine(run(256, 60_000), run(1024, 40_000))), label)).toBe(
      "**no**",
    );
    expect(
      met(renderTargets([], engine(run(256, 60_000), { batch: 1024, error: "x" })), label),
    ).toBe("**failed**");
    expect(met(renderTargets([], engine(run(64, 90_000))), label)).toBe("**not measured**");
    expect(met(renderTargets([], { engine: { error: "x" } }), label)).toBe("**failed**");
  });
});
