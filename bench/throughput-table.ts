// The throughput and latency table: Palisade against etcd's Lock API cell by cell, with
// single Redis and Redlock (5 servers) as reference columns where they ran. The references
// hold no fence and no consensus: they show what safety costs, not competitors.
import { ETCD, indexRuns, PALISADE, type RunResult } from "./report-data.ts";
import { num, ratio } from "./report-format.ts";

export const REDIS = "redis-single";
export const REDLOCK = "redlock";
export const REFERENCE_LABEL = "unsafe: no fencing / no consensus";

/** Errors, timeouts and safety-check failures, shown only when any is non-zero. */
function problems(r: RunResult | undefined): string {
  if (!r) return "";
  const parts: string[] = [];
  if (r.errors) parts.push(`${r.errors} err`);
  if (r.timeouts) parts.push(`${r.timeouts} timeout`);
  if (r.mutex_violations) parts.push(`${r.mutex_violations} MUTEX VIOLATION`);
  if (r.fence_regressions) parts.push(`${r.fence_regressions} FENCE REGRESSION`);
  // Workers that never held their lock in the window: starved, or one turn of the queue
  // took longer than the window (then Jain's index measures the window, not fairness).
  if (r.workers_served !== undefined && r.workers_served < r.concurrency)
    parts.push(`${r.workers_served} of ${r.concurrency} workers cycled in the window`);
  if (r.warm === false) parts.push(`warm-up cut at ${num(r.warmup_s, 0)} s`);
  if (r.drained === false) parts.push("acquires still waiting 15 s after the window");
  return parts.join(", ");
}

const latency = (r: RunResult | undefined): string =>
  r ? `${num(r.acquire_ms.p50)} / ${num(r.acquire_ms.p99)} / ${num(r.acquire_ms.max)}` : "–";

/** The references' latency with more digits: their p50 is often well under a millisecond. */
const shortLatency = (r: RunResult | undefined): string =>
  r ? `${num(r.acquire_ms.p50, 2)} / ${num(r.acquire_ms.p99, 2)}` : "–";

export function renderTable(runs: RunResult[]): string {
  const { combos, get } = indexRuns(runs);
  const references = [
    { label: REDIS, name: "Redis" },
    { label: REDLOCK, name: "Redlock (5)" },
  ].filter((ref) => runs.some((r) => r.label === ref.label));
  const refHeader = references
    .map(
      (ref) =>
        ` ${ref.name} cycles/s (reference, ${REFERENCE_LABEL}) | ${ref.name} handoffs/s | ${ref.name} acq. p50 / p99 ms |`,
    )
    .join("");
  const rows: string[] = [
    "| mode | conc. | Palisade cycles/s | etcd cycles/s | ratio P/e | Palisade handoffs/s | etcd handoffs/s | ratio P/e | Palisade acq. p50 / p99 / max ms | etcd acq. p50 / p99 / max ms | fairness (Jain) P / e | srv CPU % P / e |" +
      `${refHeader} notes |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" +
      "---:|---:|---:|".repeat(references.length) +
      "---|",
  ];
  for (const combo of combos) {
    const p = get(PALISADE, combo);
    const e = get(ETCD, combo);
    const [mode, conc] = combo.split("/");
    const contended = mode === "contended";
    const named = [
      { name: "Palisade", r: p },
      { name: "etcd", r: e },
      ...references.map((ref) => ({ name: ref.name, r: get(ref.label, combo) })),
    ];
    const notes = named
      .map(({ name, r }) => (r && problems(r) ? `${name}: ${problems(r)}` : ""))
      .filter((s) => s.length > 0)
      .join("; ");
    const handoffs = contended
      ? `${num(p?.handoffs_per_s)} | ${num(e?.handoffs_per_s)} | ${ratio(p?.handoffs_per_s, e?.handoffs_per_s)}`
      : "– | – | –";
    const refCells = references
      .map((ref) => {
        const r = get(ref.label, combo);
        return ` ${num(r?.cycles_per_s)} | ${contended ? num(r?.handoffs_per_s) : "–"} | ${shortLatency(r)} |`;
      })
      .join("");
    rows.push(
      `| ${mode} | ${conc} | ${num(p?.cycles_per_s)} | ${num(e?.cycles_per_s)} | ${ratio(p?.cycles_per_s, e?.cycles_per_s)} | ${handoffs} | ` +
        `${latency(p)} | ${latency(e)} | ${num(p?.per_worker_cycles?.jain, 3)} / ${num(e?.per_worker_cycles?.jain, 3)} | ` +
        `${num(p?.server_cpu_pct, 0)} / ${num(e?.server_cpu_pct, 0)} |${refCells} ${notes} |`,
    );
  }
  const note =
    references.length === 0
      ? ""
      : `\n${references.map((r) => r.name).join(" and ")}: reference columns, ${REFERENCE_LABEL}. They ran in the same cells (same seconds and warm-up, ` +
        "alternating with Palisade and etcd) through the backends in bench/backends: `SET NX PX` with a compare-and-delete release on one server " +
        "(appendfsync everysec), and the redlock library over five independent servers; neither has a server-side queue, so waiters poll " +
        "(5 ms + up to 5 ms), and neither returns a fencing token.\n";
  return rows.join("\n") + "\n" + note;
}
