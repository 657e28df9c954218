// What the report is made of: the harness's lines for the throughput cells and what
// bench/report.ts wrote for the other parts.
import type { EtcdFailoverResult, EtcdMemoryResult } from "./etcd-parts.ts";
import type { FailoverResult } from "./failover.ts";
import type { FloorResult } from "./floor.ts";
import type { MemoryResult } from "./memory.ts";
import type { StartupResult } from "./startup.ts";
import type { CrashGrantResult } from "./crash-grant.ts";
import type { RunLossResult } from "./run-loss.ts";
import type { ElectionFailoverResult } from "./election-figures.ts";
import type { EngineResult } from "./engine-figures.ts";

/** What the stream-flood run (stream-flood.ts) measured. */
export interface StreamFloodResult {
  seconds: number;
  clients: number;
  /** The largest event-loop delay the leader reported during the flood. */
  leader_max_event_loop_delay_ms: number;
  /** The same over IDLE_SECONDS before the flood, the cluster idle: the machine's own share. */
  leader_max_event_loop_delay_before_ms: number;
  bound_ms: number;
  met: boolean;
  leader_changes: number;
  term_before: number;
  term_after: number;
  frames_sent: number;
  requests_sent: number;
  config: string;
}

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
  /** Each server's CPU over the window, in % of one core, in the order of --server-pids. */
  server_cpu_pct_each?: number[] | null;
  /** Workers that completed a cycle inside the window (lines from before it had none). */
  workers_served?: number;
  /** Whether every worker had completed a cycle before the window, and when it began. */
  warm?: boolean;
  warmup_s?: number;
  /** Client processes the workers ran in. */
  client_procs?: number;
  /** Whether every worker returned within the drain bound after the window. */
  drained?: boolean;
}

export interface Parts {
  engine?: EngineResult | { error: string };
  failover?: FailoverResult | { error: string };
  /** The same with the leader stopped (SIGSTOP) instead of killed. */
  failover_stopped?: FailoverResult | { error: string };
  memory?: MemoryResult | { error: string };
  startup?: StartupResult | { error: string };
  floor?: FloorResult | { error: string };
  etcd_failover?: EtcdFailoverResult | { error: string };
  etcd_memory?: EtcdMemoryResult | { error: string };
  keepalive?: KeepaliveResult | { error: string };
  crash_grant?: CrashGrantResult | { error: string };
  run_loss?: RunLossResult | { error: string };
  stream_flood?: StreamFloodResult | { error: string };
  election_failover?: ElectionFailoverResult | { error: string };
}

export const PALISADE = "palisade";
/** Start-up targets: an empty node answering Status after spawn, and `palisadectl status` end to end. */
export const FRESH_START_TARGET_MS = 500;
export const CTL_STATUS_TARGET_MS = 300;
export const ETCD = "etcd-lockapi";

export { failed } from "./report-format.ts";

export function indexRuns(runs: RunResult[]): {
  combos: string[];
  get: (backend: string, combo: string) => RunResult | undefined;
} {
  const byBackend = new Map<string, Map<string, RunResult>>();
  for (const r of runs) {
    const backend = r.label ?? "?";
    const table = byBackend.get(backend) ?? new Map<string, RunResult>();
    table.set(`${r.mode}/${r.concurrency}`, r);
    byBackend.set(backend, table);
  }
  return {
    combos: [...new Set(runs.map((r) => `${r.mode}/${r.concurrency}`))],
    get: (b, c) => byBackend.get(b)?.get(c),
  };
}

/** One leader transfer during the keepalive hold: when (s after the hold began) and what it gave. */
export interface KeepaliveTransfer {
  at_s: number;
  from: number | null;
  to: number | null;
  took_ms: number | null;
  error?: string;
}

/** The keepalive scale part (bench/keepalive.ts). */
export interface KeepaliveResult {
  sessions_requested: number;
  sessions_opened: number;
  processes: number;
  hold_s: number;
  ttl_ms: number;
  open_s: number;
  transfers_requested: number;
  transfers_done: number;
  transfers: KeepaliveTransfer[];
  /** Sessions the client processes saw lost while they kept them alive. */
  client_lost: number;
  /** Sessions the cluster holds at the end, and how many of those opened it no longer has. */
  cluster_sessions_end: number | null;
  cluster_missing: number | null;
  /** Growth of the leader's session-expiry counter over the hold (null without the metric). */
  expired_metric_delta: number | null;
  /** Stream frames and keepalive calls per second, as the nodes count them, over the steady window. */
  keepalive_frames_per_s: number | null;
  keepalive_calls_per_s: number | null;
  /** Session keepalives the leader took per second (many per call). */
  session_keepalives_per_s?: number | null;
  /** Leader CPU over the steady window, in % of one core, and per 1,000 sessions. */
  leader_cpu_pct: number | null;
  leader_cpu_pct_per_1k_sessions: number | null;
  steady_window_s: number;
  errors: number;
  error_samples: string[];
  etcd?: EtcdKeepaliveResult | { error: string } | { skipped: string };
}

export interface EtcdKeepaliveResult {
  leases_requested: number;
  leases_granted: number;
  grant_s: number;
  /** Grants stop after this long; fewer than requested means etcd was not done by then. */
  grant_bound_s: number;
  processes: number;
  hold_s: number;
  ttl_s: number;
  leases_lost: number;
  leases_missing_end: number | null;
  leader_cpu_pct: number | null;
  leader_cpu_pct_per_1k_leases: number | null;
  errors: number;
}
