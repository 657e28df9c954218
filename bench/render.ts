// Renders the JSON lines written by bench.mjs (one per run) as a Markdown table comparing
// Palisade with etcd's Lock API per mode and concurrency:
//   tsx bench/render.ts results.jsonl
// A run is attributed to Palisade or etcd by its `label` ("palisade" / "etcd-lockapi").
import { readFileSync } from "node:fs";

interface RunResult {
  label: string | null;
  mode: string;
  concurrency: number;
  cycles_per_s: number;
  acquire_ms: { p50: number | null; p99: number | null };
  errors: number;
  timeouts: number;
  mutex_violations: number;
  fence_regressions: number;
  server_cpu_pct: number | null;
}

const PALISADE = "palisade";
const ETCD = "etcd-lockapi";

function parseRuns(text: string): RunResult[] {
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as RunResult);
}

const num = (x: number | null | undefined, digits = 1): string => (x == null ? "–" : x.toFixed(digits));

function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || b === 0) return "–";
  return `${(a / b).toFixed(2)}×`;
}

/** Errors, timeouts and safety-check failures, shown only when any is non-zero. */
function problems(r: RunResult | undefined): string {
  if (!r) return "";
  const parts: string[] = [];
  if (r.errors) parts.push(`${r.errors} err`);
  if (r.timeouts) parts.push(`${r.timeouts} timeout`);
  if (r.mutex_violations) parts.push(`${r.mutex_violations} MUTEX VIOLATION`);
  if (r.fence_regressions) parts.push(`${r.fence_regressions} FENCE REGRESSION`);
  return parts.join(", ");
}

export function renderTable(runs: RunResult[]): string {
  const key = (mode: string, c: number): string => `${mode}/${c}`;
  const byBackend = new Map<string, Map<string, RunResult>>();
  for (const r of runs) {
    const backend = r.label ?? "?";
    const table = byBackend.get(backend) ?? new Map<string, RunResult>();
    table.set(key(r.mode, r.concurrency), r);
    byBackend.set(backend, table);
  }
  const rows: string[] = [
    "| mode | conc. | Palisade cycles/s | etcd cycles/s | ratio P/e | Palisade p50 / p99 ms | etcd p50 / p99 ms | Palisade srv CPU % | etcd srv CPU % | notes |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  const combos = [...new Set(runs.map((r) => key(r.mode, r.concurrency)))];
  for (const combo of combos) {
    const p = byBackend.get(PALISADE)?.get(combo);
    const e = byBackend.get(ETCD)?.get(combo);
    const [mode, conc] = combo.split("/");
    const notes = [p && problems(p) ? `Palisade: ${problems(p)}` : "", e && problems(e) ? `etcd: ${problems(e)}` : ""]
      .filter((s) => s.length > 0)
      .join("; ");
    rows.push(
      `| ${mode} | ${conc} | ${num(p?.cycles_per_s)} | ${num(e?.cycles_per_s)} | ${ratio(p?.cycles_per_s, e?.cycles_per_s)} | ` +
        `${num(p?.acquire_ms.p50)} / ${num(p?.acquire_ms.p99)} | ${num(e?.acquire_ms.p50)} / ${num(e?.acquire_ms.p99)} | ` +
        `${num(p?.server_cpu_pct, 0)} | ${num(e?.server_cpu_pct, 0)} | ${notes} |`,
    );
  }
  return rows.join("\n") + "\n";
}

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: tsx bench/render.ts results.jsonl\n");
  process.exit(2);
}
process.stdout.write(renderTable(parseRuns(readFileSync(file, "utf8"))));
