// Percentiles of a sample by nearest rank, as the throughput harness (lock-bench.ts) reports them.

export interface Summary {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] ?? null;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number | null => {
    const v = percentile(sorted, p);
    return v === null ? null : round1(v);
  };
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: at(50),
    p99: at(99),
    max: at(100),
    mean: sorted.length ? round1(sum / sorted.length) : null,
  };
}
