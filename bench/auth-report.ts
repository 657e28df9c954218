// The access-control part of the benchmark as Markdown: the CPU cost of one check
// (bench/auth-check.ts) and the lock throughput of a cluster under the 1,000-prefix policy,
// its harness sending a bearer token, beside an open cluster measured in the same run.
//   node dist/bench/auth-report.js RESULTS.jsonl AUTH-CHECK.json
import { existsSync, readFileSync } from "node:fs";
import { indexRuns, type RunResult } from "./report-data.ts";
import { num, ratio } from "./report-format.ts";

export const OPEN_LABEL = "palisade-open";
export const POLICY_LABEL = "palisade-policy";

interface CheckReport {
  header: string[];
  rows: Array<{ what: string; us: number; per: string }>;
}

const time = (us: number): string =>
  us >= 1_000
    ? `${(us / 1_000).toFixed(1)} ms`
    : us >= 10
      ? `${us.toFixed(1)} µs`
      : `${us.toFixed(3)} µs`;

function checkTable(report: CheckReport): string[] {
  return [
    ...report.header.map((line) => `- ${line}`),
    "",
    "| check | CPU time | paid once per |",
    "|---|---:|---|",
    ...report.rows.map((r) => `| ${r.what} | ${time(r.us)} | ${r.per} |`),
  ];
}

const problems = (r: RunResult | undefined): string =>
  r
    ? [
        r.errors ? `${r.errors} err` : "",
        r.timeouts ? `${r.timeouts} timeout` : "",
        r.mutex_violations ? `${r.mutex_violations} MUTEX VIOLATION` : "",
        r.fence_regressions ? `${r.fence_regressions} FENCE REGRESSION` : "",
      ]
        .filter((p) => p !== "")
        .join(", ")
    : "no result";

function throughputTable(runs: RunResult[]): string[] {
  const { combos, get } = indexRuns(runs);
  const rows = [
    "| mode | conc. | open cycles/s | policy cycles/s | policy / open | open acq. p50 / p99 ms | policy acq. p50 / p99 ms | srv CPU % open / policy | notes |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const combo of combos) {
    const open = get(OPEN_LABEL, combo);
    const policy = get(POLICY_LABEL, combo);
    const [mode, conc] = combo.split("/");
    const notes = [
      problems(open) && `open: ${problems(open)}`,
      problems(policy) && `policy: ${problems(policy)}`,
    ]
      .filter((n) => n)
      .join("; ");
    rows.push(
      `| ${mode} | ${conc} | ${num(open?.cycles_per_s)} | ${num(policy?.cycles_per_s)} | ${ratio(policy?.cycles_per_s, open?.cycles_per_s)} | ` +
        `${num(open?.acquire_ms.p50, 2)} / ${num(open?.acquire_ms.p99, 2)} | ${num(policy?.acquire_ms.p50, 2)} / ${num(policy?.acquire_ms.p99, 2)} | ` +
        `${num(open?.server_cpu_pct)} / ${num(policy?.server_cpu_pct)} | ${notes} |`,
    );
  }
  return rows;
}

function main(resultsFile: string, checkFile: string): void {
  const out: string[] = ["### CPU per check (bench/auth-check.ts)", ""];
  if (existsSync(checkFile))
    out.push(...checkTable(JSON.parse(readFileSync(checkFile, "utf8")) as CheckReport));
  else out.push("not run");
  const runs = existsSync(resultsFile)
    ? readFileSync(resultsFile, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as RunResult)
        .filter((r) => r.label === OPEN_LABEL || r.label === POLICY_LABEL)
    : [];
  out.push(
    "",
    "### Lock throughput under the 1,000-prefix policy (bench/lock-bench.ts)",
    "",
    "Two three-node clusters side by side, cells alternating: one open (no policy, anonymous",
    "harness), one with the policy applied, its harness acting as identity lockbench with a",
    "bearer token (10 prefixes among the 1,000, quotas on every key).",
    "",
    ...(runs.length > 0 ? throughputTable(runs) : ["not run"]),
  );
  process.stdout.write(`${out.join("\n")}\n`);
}

const [resultsFile, checkFile] = process.argv.slice(2);
if (!resultsFile || !checkFile) {
  process.stderr.write("usage: node dist/bench/auth-report.js RESULTS.jsonl AUTH-CHECK.json\n");
  process.exit(2);
}
main(resultsFile, checkFile);
