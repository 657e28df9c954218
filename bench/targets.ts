// The targets of the report, checked against what this run measured. A row appears only
// for a part that ran; a part (or a throughput cell) that failed shows as failed, never as
// met; a target that needs a figure this run does not have shows as not measured.
import {
  CTL_STATUS_TARGET_MS,
  ETCD,
  failed,
  FRESH_START_TARGET_MS,
  indexRuns,
  PALISADE,
  type Parts,
  type RunResult,
} from "./report-data.ts";
import { num, ratio } from "./report-format.ts";
import {
  ENGINE_TARGET_BATCH,
  ENGINE_TARGET_COMMANDS_PER_S,
  engineTarget,
} from "./engine-figures.ts";

/** Palisade against etcd in the same run. */
const UNCONTENDED_FACTOR = 4; // cycles/s at c=64, at least
const CONTENDED_FACTOR = 3; // handoffs/s at c=64, at least
const CONTENDED_MIN_JAIN = 0.99;
const LATENCY_FACTOR = 0.5; // acquire p50 at c=1, at most
const FAILOVER_P99_MS = 1_000;
/** A stopped leader is noticed only by attempts running out; the target holds with the client's defaults. */
const FAILOVER_STOPPED_P99_MS = 2_000;
const MEMORY_FACTOR = 0.6; // largest node's RSS against etcd's largest member, at most
const MEMORY_MAX_MB = 200;
const IDLE_MAX_MB = 80;

type Verdict = "yes" | "**no**" | "**failed**" | "**not measured**";

const verdict = (ok: boolean): Verdict => (ok ? "yes" : "**no**");

/** A harness cell that broke a safety check did not measure what it claims. */
const unsafe = (r: RunResult): boolean => r.mutex_violations > 0 || r.fence_regressions > 0;

/**
 * `failedCells`: cells run.sh ran and got no result from, as "LABEL MODE c=CONC"
 * (e.g. "palisade uncontended c=64").
 */
export function renderTargets(
  runs: RunResult[],
  parts: Parts,
  failedCells: readonly string[] = [],
): string {
  const { get } = indexRuns(runs);
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
  const cellFailed = (label: string, mode: string, conc: number): boolean =>
    failedCells.includes(`${label} ${mode} c=${conc}`);

  /** A Palisade/etcd comparison of one cell: kept out unless the cell was run by either side. */
  const compare = (
    label: string,
    mode: string,
    conc: number,
    judge: (p: RunResult, e: RunResult) => { shown: string; ok: boolean },
  ): void => {
    const combo = `${mode}/${conc}`;
    const p = get(PALISADE, combo);
    const e = get(ETCD, combo);
    const pFailed = cellFailed(PALISADE, mode, conc) || (p !== undefined && unsafe(p));
    const eFailed = cellFailed(ETCD, mode, conc);
    if (!p && !e && !pFailed && !eFailed) return;
    if (pFailed || !p)
      return row(
        label,
        pFailed && p && unsafe(p)
          ? "Palisade broke mutual exclusion or fence order"
          : "no Palisade result",
        "**failed**",
      );
    if (eFailed || !e)
      return row(label, "no etcd result in this run", eFailed ? "**failed**" : "**not measured**");
    const { shown, ok } = judge(p, e);
    row(label, shown, verdict(ok));
  };
  const factor = (a: number | null | undefined, b: number | null | undefined): number | null =>
    a == null || b == null || b === 0 ? null : a / b;

  compare(`uncontended c=64 cycles/s ≥ ${UNCONTENDED_FACTOR}× etcd`, "uncontended", 64, (p, e) => {
    const f = factor(p.cycles_per_s, e.cycles_per_s);
    return {
      shown: ratio(p.cycles_per_s, e.cycles_per_s),
      ok: f !== null && f >= UNCONTENDED_FACTOR,
    };
  });
  compare(
    `contended c=64 handoffs/s ≥ ${CONTENDED_FACTOR}× etcd and Jain ≥ ${CONTENDED_MIN_JAIN}`,
    "contended",
    64,
    (p, e) => {
      const f = factor(p.handoffs_per_s, e.handoffs_per_s);
      const jain = p.per_worker_cycles?.jain ?? null;
      return {
        shown: `${ratio(p.handoffs_per_s, e.handoffs_per_s)} (Jain ${num(jain, 3)})`,
        ok: f !== null && f >= CONTENDED_FACTOR && jain !== null && jain >= CONTENDED_MIN_JAIN,
      };
    },
  );
  compare(`c=1 acquire p50 ≤ ${LATENCY_FACTOR}× etcd`, "uncontended", 1, (p, e) => {
    const f = factor(p.acquire_ms.p50, e.acquire_ms.p50);
    return {
      shown: `${ratio(p.acquire_ms.p50, e.acquire_ms.p50)} (${num(p.acquire_ms.p50, 2)} vs ${num(e.acquire_ms.p50, 2)} ms)`,
      ok: f !== null && f <= LATENCY_FACTOR,
    };
  });

  // What the primitives of this machine and stack allow, beside the same targets.
  const fl = parts.floor;
  if (fl && !failed(fl)) {
    const eu = get(ETCD, "uncontended/64")?.cycles_per_s;
    const ec = get(ETCD, "contended/64")?.handoffs_per_s;
    const el = get(ETCD, "uncontended/1")?.acquire_ms.p50;
    if (eu != null) {
      const want = UNCONTENDED_FACTOR * eu;
      row(
        `(floor) uncontended target ${UNCONTENDED_FACTOR}× etcd = ${num(want, 0)} cycles/s; stack ceiling here`,
        `${fl.uncontended_c64_ceiling_cycles_per_s} cycles/s`,
        fl.uncontended_c64_ceiling_cycles_per_s >= want ? "reachable" : "**beyond the ceiling**",
      );
    }
    if (ec != null && fl.contended_ceiling_handoffs_per_s != null) {
      const want = CONTENDED_FACTOR * ec;
      row(
        `(floor) contended target ${CONTENDED_FACTOR}× etcd = ${num(want, 0)} handoffs/s; stack ceiling here`,
        `${fl.contended_ceiling_handoffs_per_s} handoffs/s`,
        fl.contended_ceiling_handoffs_per_s >= want ? "reachable" : "**beyond the ceiling**",
      );
    }
    if (el != null && fl.acquire_c1_floor_ms != null) {
      const want = LATENCY_FACTOR * el;
      row(
        `(floor) c=1 target ${LATENCY_FACTOR}× etcd = ${num(want, 3)} ms; stack floor here`,
        `${num(fl.acquire_c1_floor_ms, 3)} ms`,
        fl.acquire_c1_floor_ms <= want ? "reachable" : "**below the floor**",
      );
    }
  }

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
