// The verdict of `palisadectl check perf`: each figure against its limit, PASS or FAIL, and
// advice naming the likely cause of a failure. Pure: the figures come in measured.
import type { PerfThresholds } from "./perf-profiles.ts";

/** Acquire latencies as the client saw them, in milliseconds. */
export interface LatencySummary {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** The cluster's own figures over the load (p99s in milliseconds; null: nothing counted). */
export interface ClusterFigures {
  readonly fsyncP99Ms: number | null;
  readonly commitP99Ms: number | null;
  readonly rttP99Ms: number | null;
  /** The busiest node's event-loop delay p99: how long ready work waited for the CPU. */
  readonly eventLoopP99Ms: number | null;
}

export interface PerfFigures {
  /** Target acquire+release cycles per second. */
  readonly targetRate: number;
  /** Cycles per second achieved. */
  readonly achievedRate: number;
  /** Workers cycling together. */
  readonly concurrency: number;
  /** Mean time of a completed cycle (acquire to release answered); null when none completed. */
  readonly meanCycleMs: number | null;
  /** Acquires tried. */
  readonly attempts: number;
  /** Failed acquires and releases. */
  readonly errors: number;
  /** Null when no acquire completed. */
  readonly acquire: LatencySummary | null;
  /** Null when the nodes' metrics could not be read. */
  readonly cluster: ClusterFigures | null;
}

export type CheckName =
  | "throughput"
  | "acquire p99"
  | "errors"
  | "fsync p99"
  | "peer RTT p99"
  | "commit p99"
  | "event-loop p99";

export interface Check {
  readonly name: CheckName;
  /** The figure in words ("95% of target", "4.2 ms"), or why there is none. */
  readonly value: string;
  /** The limit in words (">= 90%", "<= 100 ms"). */
  readonly limit: string;
  /** Null: not measured (metrics unreachable, or nothing counted), so not judged. */
  readonly pass: boolean | null;
}

export interface Verdict {
  readonly pass: boolean;
  readonly checks: readonly Check[];
  /** One line per likely cause of a failure; empty when everything passed. */
  readonly advice: readonly string[];
}

/** The value at fraction q (0..1) of ascending `sorted` (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50, p90, p99 and max of latencies in any order; null for none. */
export function summarize(latenciesMs: readonly number[]): LatencySummary | null {
  if (latenciesMs.length === 0) return null;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1)!,
  };
}

/** Milliseconds in words: 0.42 ms, 4.2 ms, 120 ms. */
export function ms(value: number): string {
  const digits = value < 1 ? 2 : value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ms`;
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`;
}

function atMost(name: CheckName, value: number | null, limit: number, missing: string): Check {
  return value === null
    ? { name, value: missing, limit: `<= ${ms(limit)}`, pass: null }
    : { name, value: ms(value), limit: `<= ${ms(limit)}`, pass: value <= limit };
}

/** Every figure against its limit. */
export function checksOf(f: PerfFigures, t: PerfThresholds): Check[] {
  const ratio = f.targetRate > 0 ? f.achievedRate / f.targetRate : 0;
  const errorRatio = f.attempts > 0 ? f.errors / f.attempts : f.errors > 0 ? 1 : 0;
  const unread = f.cluster === null ? "metrics unreachable" : "nothing counted";
  return [
    {
      name: "throughput",
      value: `${percent(ratio)} of target`,
      limit: `>= ${percent(t.minThroughputRatio)}`,
      pass: ratio >= t.minThroughputRatio,
    },
    atMost("acquire p99", f.acquire?.p99 ?? null, t.maxAcquireP99Ms, "no acquire completed"),
    {
      name: "errors",
      value: `${f.errors} (${percent(errorRatio)})`,
      limit: `<= ${percent(t.maxErrorRatio)}`,
      pass: errorRatio <= t.maxErrorRatio && (f.attempts > 0 || f.errors === 0),
    },
    atMost("fsync p99", f.cluster?.fsyncP99Ms ?? null, t.maxFsyncP99Ms, unread),
    atMost("peer RTT p99", f.cluster?.rttP99Ms ?? null, t.maxRttP99Ms, unread),
    atMost("commit p99", f.cluster?.commitP99Ms ?? null, t.maxCommitP99Ms, unread),
    atMost("event-loop p99", f.cluster?.eventLoopP99Ms ?? null, t.maxEventLoopP99Ms, unread),
  ];
}

/**
 * Whether the workers, at the cycle time they saw, could have reached the passing rate: if
 * so and they did not, they were not run often enough (this host's CPU), rather than held
 * up by the cluster.
 */
function workersHadTime(f: PerfFigures, t: PerfThresholds): boolean {
  if (f.meanCycleMs === null || f.meanCycleMs <= 0) return false;
  return (f.concurrency * 1_000) / f.meanCycleMs >= f.targetRate * t.minThroughputRatio;
}

/** The likely causes of the failed checks, most specific first. */
export function adviceFor(checks: readonly Check[], f: PerfFigures, t: PerfThresholds): string[] {
  const failed = (name: CheckName): boolean => checks.find((c) => c.name === name)?.pass === false;
  const passed = (name: CheckName): boolean => checks.find((c) => c.name === name)?.pass === true;
  const value = (name: CheckName): string => checks.find((c) => c.name === name)?.value ?? "";
  const advice: string[] = [];
  if (failed("errors"))
    advice.push(
      `too many errors: ${value("errors")} of the acquires failed; the figures of a cluster that refuses or loses requests (no leader, rate limits, quotas, a node down) say little of its size: fix the errors first`,
    );
  // Round trips and fsyncs are timed by the nodes' event loops: one waiting for the CPU
  // makes them look slow too.
  const loopSlow = failed("event-loop p99");
  const fsyncMs = f.cluster?.fsyncP99Ms ?? 0;
  const loopMs = f.cluster?.eventLoopP99Ms ?? 0;
  if (failed("fsync p99") && loopSlow && fsyncMs <= 2 * loopMs)
    advice.push(
      `slow disk or CPU: fsync p99 ${value("fsync p99")} is timed on the nodes' event loop, itself ${value("event-loop p99")} late; fix the CPU first, then check the disk again`,
    );
  else if (failed("fsync p99"))
    advice.push(
      `slow disk: fsync p99 ${value("fsync p99")}; put the nodes' data directories on local SSDs of their own (not network storage, not shared with busy neighbours)`,
    );
  if (failed("peer RTT p99") && !loopSlow)
    advice.push(
      `slow network: peer round trip p99 ${value("peer RTT p99")}; keep the nodes in one region on a low-latency network, and check for loss or a saturated link`,
    );
  const diskAndNetworkFine = passed("fsync p99") && passed("peer RTT p99");
  if (loopSlow)
    advice.push(
      `CPU starved on the nodes: event-loop delay p99 ${value("event-loop p99")}, so round trips and commits wait for the CPU; give the nodes more CPU, or fewer neighbours on their hosts`,
    );
  else if (failed("commit p99") && diskAndNetworkFine)
    advice.push(
      `CPU starved on the nodes: commit p99 ${value("commit p99")} while fsync and round trips are fine; give the nodes more CPU, or fewer neighbours on their hosts`,
    );
  if (failed("throughput") && !failed("errors") && workersHadTime(f, t))
    advice.push(
      `CPU starved on this host: the client could not reach the rate (${f.achievedRate.toFixed(0)} of ${f.targetRate} cycles/s) though its workers' cycles were quick enough for it; run the check from a host of its own, or on a quieter one`,
    );
  const clusterBlamed = advice.length > 0;
  if (!clusterBlamed && (failed("acquire p99") || failed("throughput")))
    advice.push(
      f.cluster === null
        ? "acquires slow with no cluster figure to tell why (metrics unreachable): the nodes' disk, CPU, or the network between them or to this host"
        : "acquires slow while the cluster's own figures are fine: the network between this host and the cluster, or this host's CPU",
    );
  return advice;
}

export function judge(f: PerfFigures, t: PerfThresholds): Verdict {
  const checks = checksOf(f, t);
  const pass = checks.every((c) => c.pass !== false);
  return { pass, checks, advice: pass ? [] : adviceFor(checks, f, t) };
}
