// The throughput and latency targets of the report, from the harness's cells of one run
// (and the floor part's bound, where it ran): Palisade against etcd and Redlock measured in
// the same run, against a rate of its own, and against the floor of this machine and stack.
// A cell that failed or broke a safety check fails its target, never meets it.
import { ETCD, failed, indexRuns, PALISADE, type Parts, type RunResult } from "./report-data.ts";
import { num, ratio } from "./report-format.ts";
import { REDLOCK } from "./throughput-table.ts";

/** Palisade against etcd in the same run. */
const UNCONTENDED_FACTOR = 4; // cycles/s at c=64, at least (and above Redlock's)
const CONTENDED_FACTOR = 3; // handoffs/s at c=64, at least
const CONTENDED_MIN_JAIN = 0.99;
/** Palisade alone: cycles/s at c=256, at least. */
const UNCONTENDED_C256_MIN = 6_000;
/** Acquire p50 at c=1, at most the floor of the same run plus this share of it. */
const FLOOR_MARGIN = 0.3;

/** One row of the targets table: target, this run's figure, met or not. */
export type TargetRow = [label: string, shown: string, met: string];

const verdict = (ok: boolean): string => (ok ? "yes" : "**no**");

/** A harness cell that broke a safety check did not measure what it claims. */
const unsafe = (r: RunResult): boolean => r.mutex_violations > 0 || r.fence_regressions > 0;

const factor = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a == null || b == null || b === 0 ? null : a / b;

/** What a row's judge gives: the figure shown and whether it meets the target. */
interface Judged {
  shown: string;
  ok: boolean;
}

/**
 * `failedCells`: cells run.sh ran and got no result from, as "LABEL MODE c=CONC"
 * (e.g. "palisade uncontended c=64").
 */
export function throughputTargets(
  runs: RunResult[],
  parts: Parts,
  failedCells: readonly string[],
): TargetRow[] {
  const { get } = indexRuns(runs);
  const rows: TargetRow[] = [];
  const cellFailed = (label: string, mode: string, conc: number): boolean =>
    failedCells.includes(`${label} ${mode} c=${conc}`);
  const ran = (label: string, mode: string, conc: number): boolean =>
    get(label, `${mode}/${conc}`) !== undefined || cellFailed(label, mode, conc);

  /** One Palisade cell judged, with `others` the labels whose cells of the same run it needs. */
  const judgeCell = (
    label: string,
    mode: string,
    conc: number,
    others: Array<{ label: string; name: string }>,
    judge: (p: RunResult, o: Array<RunResult | undefined>) => Judged,
  ): void => {
    if (![PALISADE, ...others.map((o) => o.label)].some((l) => ran(l, mode, conc))) return;
    const p = get(PALISADE, `${mode}/${conc}`);
    if (!p || cellFailed(PALISADE, mode, conc) || unsafe(p)) {
      const why = p && unsafe(p) ? "Palisade broke mutual exclusion or fence order" : "";
      return void rows.push([label, why || "no Palisade result", "**failed**"]);
    }
    const o = others.map((x) => get(x.label, `${mode}/${conc}`));
    const absent = others.find((x, i) => o[i] === undefined);
    if (absent) {
      const f = cellFailed(absent.label, mode, conc);
      return void rows.push([
        label,
        `no ${absent.name} result in this run`,
        f ? "**failed**" : "**not measured**",
      ]);
    }
    const { shown, ok } = judge(p, o);
    rows.push([label, shown, verdict(ok)]);
  };

  const etcd = { label: ETCD, name: "etcd" };
  judgeCell(
    `uncontended c=64 cycles/s ≥ ${UNCONTENDED_FACTOR}× etcd and above Redlock (5)`,
    "uncontended",
    64,
    [etcd, { label: REDLOCK, name: "Redlock (5)" }],
    (p, [e, r]) => {
      const f = factor(p.cycles_per_s, e?.cycles_per_s);
      return {
        shown: `${ratio(p.cycles_per_s, e?.cycles_per_s)} etcd, ${ratio(p.cycles_per_s, r?.cycles_per_s)} Redlock (5)`,
        ok: f !== null && f >= UNCONTENDED_FACTOR && p.cycles_per_s > (r?.cycles_per_s ?? Infinity),
      };
    },
  );
  judgeCell(
    `uncontended c=256 cycles/s ≥ ${num(UNCONTENDED_C256_MIN, 0)}`,
    "uncontended",
    256,
    [],
    (p) => ({
      shown: `${num(p.cycles_per_s, 0)} cycles/s`,
      ok: p.cycles_per_s >= UNCONTENDED_C256_MIN,
    }),
  );
  judgeCell(
    `contended c=64 handoffs/s ≥ ${CONTENDED_FACTOR}× etcd and Jain ≥ ${CONTENDED_MIN_JAIN}`,
    "contended",
    64,
    [etcd],
    (p, [e]) => {
      const f = factor(p.handoffs_per_s, e?.handoffs_per_s);
      const jain = p.per_worker_cycles?.jain ?? null;
      return {
        shown: `${ratio(p.handoffs_per_s, e?.handoffs_per_s)} (Jain ${num(jain, 3)})`,
        ok: f !== null && f >= CONTENDED_FACTOR && jain !== null && jain >= CONTENDED_MIN_JAIN,
      };
    },
  );
  latencyTarget(get(PALISADE, "uncontended/1"), ran(PALISADE, "uncontended", 1), parts, rows);
  floorRows(get, parts, rows);
  return rows;
}

/** c=1 acquire p50 against the floor the floor part measured in the same run. */
function latencyTarget(
  p: RunResult | undefined,
  ran: boolean,
  parts: Parts,
  rows: TargetRow[],
): void {
  const label = `c=1 acquire p50 ≤ floor + ${FLOOR_MARGIN * 100}%`;
  if (!ran) return;
  if (!p || unsafe(p)) return void rows.push([label, "no Palisade result", "**failed**"]);
  const fl = parts.floor;
  const p50 = p.acquire_ms.p50;
  if (failed(fl))
    return void rows.push([label, `${num(p50, 2)} ms; floor part failed`, "**failed**"]);
  const floor = fl?.acquire_c1_floor_ms;
  if (floor == null || p50 == null)
    return void rows.push([
      label,
      `${num(p50, 2)} ms; no floor figure in this run`,
      "**not measured**",
    ]);
  rows.push([
    label,
    `${num(p50, 2)} ms against a floor of ${num(floor, 3)} ms (${ratio(p50, floor)})`,
    verdict(p50 <= (1 + FLOOR_MARGIN) * floor),
  ]);
}

/** What the primitives of this machine and stack allow, beside the targets against etcd. */
function floorRows(
  get: ReturnType<typeof indexRuns>["get"],
  parts: Parts,
  rows: TargetRow[],
): void {
  const fl = parts.floor;
  if (!fl || failed(fl)) return;
  const eu = get(ETCD, "uncontended/64")?.cycles_per_s;
  const ec = get(ETCD, "contended/64")?.handoffs_per_s;
  if (eu != null) {
    const want = UNCONTENDED_FACTOR * eu;
    rows.push([
      `(floor) uncontended target ${UNCONTENDED_FACTOR}× etcd = ${num(want, 0)} cycles/s; stack ceiling here`,
      `${fl.uncontended_c64_ceiling_cycles_per_s} cycles/s`,
      fl.uncontended_c64_ceiling_cycles_per_s >= want ? "reachable" : "**beyond the ceiling**",
    ]);
  }
  if (ec != null && fl.contended_ceiling_handoffs_per_s != null) {
    const want = CONTENDED_FACTOR * ec;
    rows.push([
      `(floor) contended target ${CONTENDED_FACTOR}× etcd = ${num(want, 0)} handoffs/s; stack ceiling here`,
      `${fl.contended_ceiling_handoffs_per_s} handoffs/s`,
      fl.contended_ceiling_handoffs_per_s >= want ? "reachable" : "**beyond the ceiling**",
    ]);
  }
}
