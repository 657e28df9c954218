// The targets of the report, checked against what this run measured. A row appears only
// for a part that ran; a part (or a throughput cell) that failed shows as failed, never as
// met; a target that needs a figure this run does not have shows as not measured.
import {
  CTL_STATUS_TARGET_MS,
  failed,
  FRESH_START_TARGET_MS,
  type Parts,
  type RunResult,
} from "./report-data.ts";
import { num, ratio } from "./report-format.ts";
import {
  ENGINE_TARGET_BATCH,
  ENGINE_TARGET_COMMANDS_PER_S,
  engineTarget,
} from "./engine-figures.ts";
import { throughputTargets } from "./throughput-targets.ts";

const FAILOVER_P99_MS = 1_000;
/** A stopped leader is noticed only by attempts running out; the target holds with the client's defaults. */
const FAILOVER_STOPPED_P99_MS = 2_000;
const MEMORY_FACTOR = 0.6; // largest node's RSS against etcd's largest member, at most
const MEMORY_MAX_MB = 200;
const IDLE_MAX_MB = 80;

type Verdict = "yes" | "**no**" | "**failed**" | "**not measured**";

const verdict = (ok: boolean): Verdict => (ok ? "yes" : "**no**");

/**
 * `failedCells`: cells run.sh ran and got no result from, as "LABEL MODE c=CONC"
 * (e.g. "palisade uncontended c=64").
 */
export function renderTargets(
  runs: RunResult[],
  parts: Parts,
  failedCells: readonly string[] = [],
): string {
  const rows = ["| target | this run | met |", "|---|---|---|"];
  const row = (label: string, shown: string, met: string): void => {
    rows.push(`| ${label} | ${shown} | ${met} |`);
  };
  if (parts.engine) {
    const { shown, met } = engineTarget(parts.engine);
    row(
      `engine (three nodes in one process, no gRPC) ≥ ${ENGINE_TARGET_COMMANDS_PER_S.toLocaleString("en-US")} commands/s at batch ≥ ${ENGINE_TARGET_BATCH}`,
      shown,
      met,
    );
  }
  for (const [label, shown, met] of throughputTargets(runs, parts, failedCells))
    row(label, shown, met);

  /** A failover round's row: met when its p99 is under `limitMs` and every stop was resolved. */
  const failoverRow = (
    label: string,
    f: { failover_ms: { p99: number | null }; unresolved: number } | { error: string } | undefined,
    limitMs: number,
  ): void => {
    if (failed(f)) row(label, `part failed: ${f.error.slice(0, 120)}`, "**failed**");
    else if (f) {
      const p99 = f.failover_ms.p99;
      row(
        label,
        `${num(p99, 0)} ms`,
        p99 === null ? "**not measured**" : verdict(p99 < limitMs && f.unresolved === 0),
      );
    }
  };
  failoverRow(`failover p99 < ${FAILOVER_P99_MS / 1000} s`, parts.failover, FAILOVER_P99_MS);
  failoverRow(
    `failover from a stopped leader (SIGSTOP) p99 < ${FAILOVER_STOPPED_P99_MS / 1000} s`,
    parts.failover_stopped,
    FAILOVER_STOPPED_P99_MS,
  );
  // The Python client's figures from the same stops, where it ran.
  const pythonOf = (f: Parts["failover"]) => (f && !failed(f) ? f.python : undefined);
  failoverRow(
    `failover, Python client, p99 < ${FAILOVER_P99_MS / 1000} s`,
    pythonOf(parts.failover),
    FAILOVER_P99_MS,
  );
  failoverRow(
    `failover from a stopped leader, Python client, p99 < ${FAILOVER_STOPPED_P99_MS / 1000} s`,
    pythonOf(parts.failover_stopped),
    FAILOVER_STOPPED_P99_MS,
  );

  const m = parts.memory;
  const memoryLabel = `largest node RSS with locks held ≤ ${MEMORY_FACTOR}× etcd's and < ${MEMORY_MAX_MB} MB`;
  const idleLabel = `idle node RSS < ${IDLE_MAX_MB} MB`;
  if (failed(m)) {
    row(memoryLabel, `part failed: ${m.error.slice(0, 120)}`, "**failed**");
    row(idleLabel, "part failed", "**failed**");
  } else if (m) {
    const em = parts.etcd_memory;
    const largest = m.max_rss_mb;
    const under = largest !== null && largest < MEMORY_MAX_MB;
    const held = `${num(largest)} MB, ${m.locks_held.toLocaleString("en-US")} locks`;
    if (largest === null) row(memoryLabel, "no reading", "**not measured**");
    else if (failed(em))
      row(memoryLabel, `${held}; etcd's side failed`, under ? "**failed**" : "**no**");
    else if (!em || em.max_rss_mb === null)
      row(
        memoryLabel,
        `${held}; no etcd figure in this run`,
        under ? "**not measured**" : "**no**",
      );
    else
      row(
        memoryLabel,
        `${held} against etcd's ${num(em.max_rss_mb)} MB (${ratio(largest, em.max_rss_mb)})`,
        verdict(under && largest <= MEMORY_FACTOR * em.max_rss_mb),
      );
    const idle = m.nodes.map((n) => n.idle_rss_mb).filter((v): v is number => v !== null);
    if (idle.length === 0) row(idleLabel, "no reading", "**not measured**");
    else
      row(
        idleLabel,
        `${num(Math.max(...idle))} MB (largest idle node)`,
        verdict(Math.max(...idle) < IDLE_MAX_MB),
      );
  }

  const st = parts.startup;
  const freshLabel = `empty node serves Status ≤ ${FRESH_START_TARGET_MS} ms after spawn (median)`;
  const ctlLabel = `palisadectl status ≤ ${CTL_STATUS_TARGET_MS} ms (median)`;
  if (failed(st)) {
    row(freshLabel, "part failed", "**failed**");
    row(ctlLabel, "part failed", "**failed**");
  } else if (st) {
    const timed = (label: string, p50: number | null | undefined, bound: number): void =>
      row(label, `${num(p50, 0)} ms`, p50 == null ? "**not measured**" : verdict(p50 <= bound));
    timed(freshLabel, st.fresh_start?.p50_ms, FRESH_START_TARGET_MS);
    timed(ctlLabel, st.ctl_status?.p50_ms, CTL_STATUS_TARGET_MS);
  }

  const k = parts.keepalive;
  const keepaliveLabel = "keepalive scale: 0 spurious expiries";
  if (failed(k)) row(keepaliveLabel, `part failed: ${k.error.slice(0, 120)}`, "**failed**");
  else if (k) {
    const count = (n: number): string => n.toLocaleString("en-US");
    const shown = `${count(k.client_lost)} lost at the clients, ${k.cluster_missing === null ? "?" : count(k.cluster_missing)} missing at the cluster, of ${count(k.sessions_opened)} sessions`;
    if (k.cluster_missing === null)
      row(keepaliveLabel, shown, k.client_lost > 0 ? "**no**" : "**not measured**");
    else row(keepaliveLabel, shown, verdict(k.client_lost === 0 && k.cluster_missing === 0));
  }
  return rows.length > 2 ? rows.join("\n") + "\n" : "";
}
