// The targets of the report, checked against what this run measured.
import { CTL_STATUS_TARGET_MS, ETCD, failed, FRESH_START_TARGET_MS, indexRuns, PALISADE, type Parts, type RunResult } from "./report-data.ts";
import { num, ratio } from "./report-format.ts";

/** The targets, as far as this run measured them. */
export function renderTargets(runs: RunResult[], parts: Parts): string {
  const { get } = indexRuns(runs);
  const u64 = [get(PALISADE, "uncontended/64"), get(ETCD, "uncontended/64")];
  const c64 = [get(PALISADE, "contended/64"), get(ETCD, "contended/64")];
  const u1 = [get(PALISADE, "uncontended/1"), get(ETCD, "uncontended/1")];
  const rows = ["| target | this run | met |", "|---|---|---|"];
  const check = (label: string, value: number | null | undefined, bound: number, below: boolean, show: string): void => {
    if (value == null) return;
    rows.push(`| ${label} | ${show} | ${(below ? value <= bound : value >= bound) ? "yes" : "**no**"} |`);
  };
  const r = (a: number | null | undefined, b: number | null | undefined): number | null => (a == null || b == null || b === 0 ? null : a / b);
  const ru = r(u64[0]?.cycles_per_s, u64[1]?.cycles_per_s);
  check("uncontended c=64 cycles/s ≥ 2× etcd", ru, 2, false, `${ratio(u64[0]?.cycles_per_s, u64[1]?.cycles_per_s)}`);
  const rc = r(c64[0]?.handoffs_per_s, c64[1]?.handoffs_per_s);
  check("contended c=64 handoffs/s ≥ 5× etcd", rc, 5, false, `${ratio(c64[0]?.handoffs_per_s, c64[1]?.handoffs_per_s)} (Jain ${num(c64[0]?.per_worker_cycles?.jain, 3)})`);
  const rl = r(u1[0]?.acquire_ms.p50, u1[1]?.acquire_ms.p50);
  check("c=1 acquire p50 ≤ 0.6× etcd", rl, 0.6, true, `${ratio(u1[0]?.acquire_ms.p50, u1[1]?.acquire_ms.p50)}`);
  const fl = parts.floor;
  if (fl && !failed(fl)) {
    const eu = u64[1]?.cycles_per_s;
    const ec = c64[1]?.handoffs_per_s;
    const el = u1[1]?.acquire_ms.p50;
    if (eu != null) rows.push(`| (floor) uncontended target 2× etcd = ${num(2 * eu, 0)} cycles/s; stack ceiling here | ${fl.uncontended_c64_ceiling_cycles_per_s} cycles/s | ${fl.uncontended_c64_ceiling_cycles_per_s >= 2 * eu ? "reachable" : "**beyond the ceiling**"} |`);
    if (ec != null && fl.contended_ceiling_handoffs_per_s != null) rows.push(`| (floor) contended target 5× etcd = ${num(5 * ec, 0)} handoffs/s; stack ceiling here | ${fl.contended_ceiling_handoffs_per_s} handoffs/s | ${fl.contended_ceiling_handoffs_per_s >= 5 * ec ? "reachable" : "**beyond the ceiling**"} |`);
    if (el != null && fl.acquire_c1_floor_ms != null) rows.push(`| (floor) c=1 target 0.6× etcd = ${num(0.6 * el, 3)} ms; stack floor here | ${num(fl.acquire_c1_floor_ms, 3)} ms | ${fl.acquire_c1_floor_ms <= 0.6 * el ? "reachable" : "**below the floor**"} |`);
  }
  const f = parts.failover;
  if (f && !failed(f)) check("failover p99 < 1 s", f.failover_ms.p99, 1000, true, `${num(f.failover_ms.p99, 0)} ms`);
  const m = parts.memory;
  if (m && !failed(m)) check(`node RSS < 200 MB with ${m.locks_held} locks`, m.max_rss_mb, 200, true, `${num(m.max_rss_mb)} MB (largest node)`);
  const st = parts.startup;
  if (st && !failed(st)) {
    check(`empty node serves Status ≤ ${FRESH_START_TARGET_MS} ms after spawn (median)`, st.fresh_start?.p50_ms, FRESH_START_TARGET_MS, true, `${num(st.fresh_start?.p50_ms, 0)} ms`);
    check(`palisadectl status ≤ ${CTL_STATUS_TARGET_MS} ms (median)`, st.ctl_status?.p50_ms, CTL_STATUS_TARGET_MS, true, `${num(st.ctl_status?.p50_ms, 0)} ms`);
  }
  return rows.length > 2 ? rows.join("\n") + "\n" : "";
}

