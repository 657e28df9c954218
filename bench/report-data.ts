// What the report is made of: the harness's lines for the throughput cells and what
// bench/report.ts wrote for the other parts.
import type { EtcdFailoverResult, EtcdMemoryResult } from "./etcd-parts.ts";
import type { FailoverResult } from "./failover.ts";
import type { FloorResult } from "./floor.ts";
import type { MemoryResult } from "./memory.ts";
import type { StartupResult } from "./startup.ts";

export interface RunResult {
  label: string | null;
  mode: string;
  concurrency: number;
  cycles_per_s: number;
  handoffs_per_s: number | null;
  acquire_ms: { p50: number | null; p99: number | null; max: number | null };
  per_worker_cycles?: { jain: number | null };
  errors: number;
  timeouts: number;
  mutex_violations: number;
  fence_regressions: number;
  server_cpu_pct: number | null;
}

export interface Parts {
  failover?: FailoverResult | { error: string };
  memory?: MemoryResult | { error: string };
  startup?: StartupResult | { error: string };
  floor?: FloorResult | { error: string };
  etcd_failover?: EtcdFailoverResult | { error: string };
  etcd_memory?: EtcdMemoryResult | { error: string };
}

export const PALISADE = "palisade";
/** Start-up targets: an empty node answering Status after spawn, and `palisadectl status` end to end. */
export const FRESH_START_TARGET_MS = 500;
export const CTL_STATUS_TARGET_MS = 300;
export const ETCD = "etcd-lockapi";

export const failed = (x: object | undefined): x is { error: string } => x !== undefined && "error" in x;

export function indexRuns(runs: RunResult[]): { combos: string[]; get: (backend: string, combo: string) => RunResult | undefined } {
  const byBackend = new Map<string, Map<string, RunResult>>();
  for (const r of runs) {
    const backend = r.label ?? "?";
    const table = byBackend.get(backend) ?? new Map<string, RunResult>();
    table.set(`${r.mode}/${r.concurrency}`, r);
    byBackend.set(backend, table);
  }
  return { combos: [...new Set(runs.map((r) => `${r.mode}/${r.concurrency}`))], get: (b, c) => byBackend.get(b)?.get(c) };
}

