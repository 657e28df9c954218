// The figures of one throughput cell from what its worker processes recorded: cycles that
// completed inside the shared window, latency percentiles of all their samples together,
// Jain's index over every worker, and the safety checks over every hold of the contended
// lock from every process, ordered on the shared clock.
import type { Hold, Window, WorkerPart } from "./lock-part.ts";
import { percentile } from "./stats.ts";

export interface HoldCheck {
  /** Holds that began before an earlier hold had ended. */
  violations: number;
  /** Holds whose fencing token was not above the one before. */
  fenceRegressions: number;
  /** Holds begun inside the window by another worker than the hold before. */
  handoffs: number;
}

export interface Latency {
  p50: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

export interface MergedFigures {
  cycles: number;
  seconds: number;
  cycles_per_s: number;
  handoffs_per_s: number | null;
  acquire_ms: Latency;
  release_ms: Latency;
  errors: number;
  timeouts: number;
  failed_tries: number;
  per_worker_cycles: { min: number; max: number; jain: number | null };
  /** Workers that completed at least one cycle inside the window. */
  workers_served: number;
  mutex_violations: number;
  fence_regressions: number;
  error_samples: Record<string, number>;
  client_cpu_pct: number;
  client_procs: number;
  drained: boolean;
}

const round3 = (x: number | null | undefined): number | null =>
  x === null || x === undefined ? null : Math.round(x * 1000) / 1000;
const round1 = (x: number): number => Math.round(x * 10) / 10;

/**
 * Mutual exclusion and fence order over holds from any number of processes. A correct lock
 * never shows an overlap: a hold ends (Release sent) before the next holder's Acquire can be
 * answered, and every process reads the same monotonic clock.
 */
export function checkHolds(holds: readonly Hold[], window: Window): HoldCheck {
  const sorted = [...holds].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  let violations = 0;
  let fenceRegressions = 0;
  let handoffs = 0;
  let endedBy = -Infinity;
  let lastFence: bigint | null = null;
  let lastWorker = -1;
  for (const h of sorted) {
    if (h.startMs < endedBy) violations++;
    endedBy = Math.max(endedBy, h.endMs);
    if (h.fence !== null) {
      if (lastFence !== null && h.fence <= lastFence) fenceRegressions++;
      lastFence = h.fence;
    }
    if (h.worker !== lastWorker && h.startMs >= window.startMs && h.startMs < window.stopMs)
      handoffs++;
    lastWorker = h.worker;
  }
  return { violations, fenceRegressions, handoffs };
}

/** Jain's index: 1 when every worker did as much, 1/n when one did everything. */
export function jainIndex(counts: readonly number[]): number | null {
  const sum = counts.reduce((a, n) => a + n, 0);
  const squares = counts.reduce((a, n) => a + n * n, 0);
  return squares === 0 ? null : (sum * sum) / (counts.length * squares);
}

function latency(samples: number[]): Latency {
  const sorted = samples.sort((a, b) => a - b);
  return {
    p50: round3(percentile(sorted, 50)),
    p99: round3(percentile(sorted, 99)),
    max: round3(sorted.at(-1)),
    mean: round3(sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null),
  };
}

/** The most frequent error messages over all parts, at most five. */
function topErrors(parts: readonly WorkerPart[]): Record<string, number> {
  const all = new Map<string, number>();
  for (const p of parts)
    for (const [k, n] of Object.entries(p.errorSamples)) all.set(k, (all.get(k) ?? 0) + n);
  return Object.fromEntries([...all].sort((a, b) => b[1] - a[1]).slice(0, 5));
}

/** `concurrency` workers numbered 0..concurrency-1 across `parts`; contended adds handoffs. */
export function mergeParts(
  parts: readonly WorkerPart[],
  window: Window,
  concurrency: number,
  contended: boolean,
): MergedFigures {
  const inWindow = (t: number): boolean => t >= window.startMs && t < window.stopMs;
  const perWorker = new Array<number>(concurrency).fill(0);
  const acquire: number[] = [];
  const release: number[] = [];
  let failedTries = 0;
  for (const p of parts) {
    const c = p.cycles;
    for (let i = 0; i < c.end.length; i++) {
      if (!inWindow(c.end[i]!)) continue;
      const w = c.worker[i]!;
      if (!(w >= 0 && w < concurrency)) throw new Error(`worker ${w} outside 0..${concurrency}`);
      perWorker[w]!++;
      acquire.push(c.acquired[i]! - c.start[i]!);
      release.push(c.end[i]! - c.released[i]!);
    }
    for (const [ms, n] of p.failedTriesByMs) if (inWindow(ms)) failedTries += n;
  }
  const cycles = acquire.length;
  const seconds = (window.stopMs - window.startMs) / 1000;
  const check = contended
    ? checkHolds(
        parts.flatMap((p) => p.holds),
        window,
      )
    : null;
  const sum = <K extends keyof WorkerPart>(key: K): number =>
    parts.reduce((a, p) => a + (p[key] as number), 0);
  const cpuPct = parts.reduce((a, p) => a + (p.cpuSpanMs > 0 ? p.cpuMs / p.cpuSpanMs : 0), 0);
  return {
    cycles,
    seconds: round3(seconds)!,
    cycles_per_s: round1(cycles / seconds),
    handoffs_per_s: check ? round1(check.handoffs / seconds) : null,
    acquire_ms: latency(acquire),
    release_ms: latency(release),
    errors: sum("errors"),
    timeouts: sum("timeouts"),
    failed_tries: failedTries,
    per_worker_cycles: {
      min: Math.min(...perWorker),
      max: Math.max(...perWorker),
      jain: round3(jainIndex(perWorker)),
    },
    workers_served: perWorker.filter((n) => n > 0).length,
    mutex_violations: check?.violations ?? 0,
    fence_regressions: check?.fenceRegressions ?? 0,
    error_samples: topErrors(parts),
    client_cpu_pct: round1(cpuPct * 100),
    client_procs: parts.length,
    drained: parts.every((p) => p.drained),
  };
}
