// Renders the benchmark report as Markdown, and optionally as one JSON document:
//   node dist/bench/render.js RESULTS.jsonl [PARTS.json] [--json OUT.json] [--failed-cells FILE]
// RESULTS.jsonl: the lines bench/lock-bench.ts wrote (one per run), attributed to Palisade or etcd by
// their `label` ("palisade" / "etcd-lockapi"). PARTS.json: what bench/report.ts wrote
// (engine, failover, memory, startup, floor, ...). Ratios are Palisade / etcd from the same run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  CTL_STATUS_TARGET_MS,
  ETCD,
  PALISADE,
  failed,
  FRESH_START_TARGET_MS,
  type Parts,
  type RunResult,
} from "./report-data.ts";
import { num, ratio } from "./report-format.ts";
import { renderTargets } from "./targets.ts";
import { renderTable } from "./throughput-table.ts";
import { renderExpiryParts } from "./render-expiry.ts";
import { renderStreamFlood } from "./stream-flood.ts";
import { renderElectionFailover } from "./election-figures.ts";
import { renderEngine } from "./engine-figures.ts";
import { renderCpuTable } from "./cpu-per-command.ts";
import type { StartupRun } from "./startup.ts";
import type { PythonFailover } from "./failover.ts";
import type { Timings } from "./startup-targets.ts";

function parseRuns(text: string): RunResult[] {
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as RunResult);
}

function renderTimingsRow(label: string, t: Timings | undefined, targetMs: number): string {
  if (!t) return `| ${label} | – | – | – | – | – |`;
  return `| ${label} | ${t.runs} | ${t.p50_ms ?? "–"} | ${t.p90_ms ?? "–"} | ${t.max_ms ?? "–"} | ${targetMs} ms: ${t.p50_ms !== null && t.p50_ms <= targetMs ? "met" : "**missed**"} (median) |`;
}

function renderStartupRow(label: string, run: StartupRun): string {
  return `| ${label} | ${run.first_status_ms ?? "–"} | ${run.applied_ms ?? "– (not within the bound)"} | ${run.applied_index ?? "–"} | ${run.snapshot_index ?? "–"} | ${num(run.rss_mb)} |`;
}

/** The table row of the Python client's probe in a failover round, if it ran. */
function pythonRows(label: string, p: PythonFailover | undefined): string[] {
  if (!p) return [];
  if ("error" in p) return [`| ${label} | failed: ${p.error.slice(0, 80)} | | | | | | |`];
  const s = p.failover_ms;
  return [
    `| ${label} | ${s.n} | ${num(s.p50, 0)} | ${num(s.p99, 0)} | ${num(s.max, 0)} | ${num(s.mean, 0)} | ${p.unresolved} | |`,
  ];
}

export function renderParts(parts: Parts): string {
  const out: string[] = [];
  const f = parts.failover;
  const fs = parts.failover_stopped;
  const ef = parts.etcd_failover;
  if (failed(f)) out.push(`### Failover\n\nfailed: ${f.error}\n`);
  else if (f) {
    const e = ef && !failed(ef) ? ef : undefined;
    out.push(
      "### Failover (leader killed with SIGKILL while clients run, to the first successful acquire sent after the kill)",
      "",
      `Palisade: ${f.config}; etcd: ${e?.config ?? (failed(ef) ? `failed: ${ef.error}` : "not run")}. ${f.workers} workers acquire and release their own lock ` +
        "throughout; from the kill on, probes send new acquires until one succeeds; the killed node is restarted and caught up before the next kill.",
      "",
      "| system | kills | p50 ms | p99 ms | max ms | mean ms | no acquire within 30 s | worker errors |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      `| Palisade | ${f.kills} | ${num(f.failover_ms.p50, 0)} | ${num(f.failover_ms.p99, 0)} | ${num(f.failover_ms.max, 0)} | ${num(f.failover_ms.mean, 0)} | ${f.unresolved} | ${f.errors_total} |`,
      ...(fs && !failed(fs)
        ? [
            `| Palisade, leader stopped (SIGSTOP) | ${fs.kills} | ${num(fs.failover_ms.p50, 0)} | ${num(fs.failover_ms.p99, 0)} | ${num(fs.failover_ms.max, 0)} | ${num(fs.failover_ms.mean, 0)} | ${fs.unresolved} | ${fs.errors_total} |`,
          ]
        : failed(fs)
          ? [
              `| Palisade, leader stopped (SIGSTOP) | failed: ${fs.error.slice(0, 80)} | | | | | | |`,
            ]
          : []),
      ...pythonRows("Palisade, Python client", f.python),
      ...(fs && !failed(fs)
        ? pythonRows("Palisade, Python client, leader stopped", fs.python)
        : []),
      ...(e
        ? [
            `| etcd Lock API | ${e.kills} | ${num(e.failover_ms.p50, 0)} | ${num(e.failover_ms.p99, 0)} | ${num(e.failover_ms.max, 0)} | ${num(e.failover_ms.mean, 0)} | ${e.unresolved} | ${e.errors_total} |`,
            `| ratio P/e | | ${ratio(f.failover_ms.p50, e.failover_ms.p50)} | ${ratio(f.failover_ms.p99, e.failover_ms.p99)} | ${ratio(f.failover_ms.max, e.failover_ms.max)} | ${ratio(f.failover_ms.mean, e.failover_ms.mean)} | | |`,
          ]
        : []),
      "",
      `Palisade samples (ms): ${f.samples_ms.map((x) => x.toFixed(0)).join(", ")}.` +
        (e ? ` etcd samples (ms): ${e.samples_ms.map((x) => x.toFixed(0)).join(", ")}.` : "") +
        (f.python && !("error" in f.python)
          ? ` Python client samples (ms): ${f.python.samples_ms.map((x) => x.toFixed(0)).join(", ")}.`
          : ""),
      "",
    );
  }
  const m = parts.memory;
  const em = parts.etcd_memory;
  if (failed(m)) out.push(`### Node memory\n\nfailed: ${m.error}\n`);
  else if (m) {
    const e = em && !failed(em) ? em : undefined;
    out.push(
      `### Node memory (${m.locks_held.toLocaleString("en-US")} locks held by ${m.sessions_opened.toLocaleString("en-US")} sessions)`,
      "",
      `Palisade filled in ${m.fill_s} s (${m.fill_writes_per_s} writes/s: OpenSession + Acquire, up to 2,048 calls in flight from 16 clients); ` +
        (e
          ? `etcd (${e.locks_held.toLocaleString("en-US")} locks by ${e.sessions_opened.toLocaleString("en-US")} leases, Lock API) in ${e.fill_s} s. `
          : failed(em)
            ? `etcd failed: ${em.error}. `
            : "") +
        "VmRSS / VmHWM from /proc/PID/status 3 s after the fill; idle = the same cluster before the fill. " +
        "A Palisade node runs its compiled JavaScript (`bin/palisade.mjs node`, dist/)." +
        (m.locks_held < m.locks_requested || m.sessions_opened < m.sessions_requested
          ? ` **Requested ${m.sessions_requested} sessions / ${m.locks_requested} locks: not all created within the bound.**`
          : "") +
        (m.errors ? ` Errors: ${m.errors} (${m.error_samples.join("; ")}).` : ""),
      "",
      "| node | Palisade role | Palisade idle RSS MB | Palisade RSS MB | Palisade peak (VmHWM) MB | etcd idle RSS MB | etcd RSS MB | etcd peak MB | RSS ratio P/e | target < 200 MB |",
      "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
      ...m.nodes.map((n) => {
        const em1 = e?.members.find((x) => x.member === n.node);
        return (
          `| ${n.node} | ${n.leader ? "leader" : "follower"} | ${num(n.idle_rss_mb)} | ${num(n.rss_mb)} | ${num(n.hwm_mb)} | ` +
          `${num(em1?.idle_rss_mb)} | ${num(em1?.rss_mb)} | ${num(em1?.hwm_mb)} | ${ratio(n.rss_mb, em1?.rss_mb)} | ${n.rss_mb !== null && n.rss_mb < 200 ? "met" : "**missed**"} |`
        );
      }),
      ...(e
        ? [
            `| largest | | | ${num(m.max_rss_mb)} | | | ${num(e.max_rss_mb)} | | ${ratio(m.max_rss_mb, e.max_rss_mb)} | |`,
          ]
        : []),
      "",
    );
  }
  const s = parts.startup;
  if (failed(s)) out.push(`### Start-up\n\nfailed: ${s.error}\n`);
  else if (s) {
    out.push(
      "### Start-up targets",
      "",
      "A node on an empty data directory (`bin/palisade.mjs node`, node 1 of a new three-node cluster file, alone): spawn to its first Status " +
        "answer, each try on a new gRPC channel. `palisadectl status` (`bin/palisadectl.mjs`) against the running three-node cluster: spawn to exit.",
      "",
      "| what | runs | p50 ms | p90 ms | max ms | target |",
      "|---|---:|---:|---:|---:|---|",
      renderTimingsRow(
        "node on an empty data directory serves Status",
        s.fresh_start,
        FRESH_START_TARGET_MS,
      ),
      renderTimingsRow("`palisadectl status`, three nodes", s.ctl_status, CTL_STATUS_TARGET_MS),
      "",
      `### Start-up of one node (${s.entries.toLocaleString("en-US")} Acquire/Release entries; data directory ${num(s.data_dir_mb)} MB with the log)`,
      "",
      "Time from spawning the node process (`bin/palisade.mjs node`) to its first Status answer, and to Status reporting the whole log applied; the node starts alone (no peers), so this is its own recovery, not an election. " +
        "No etcd figure: filling etcd with a million writes through its API would take about 7 minutes here.",
      "",
      "| start from | first Status ms | all applied ms | applied index | snapshot index | RSS MB after |",
      "|---|---:|---:|---:|---:|---:|",
      renderStartupRow("near-empty log (fixed cost of a start)", s.empty_start),
      renderStartupRow(`${s.entries.toLocaleString("en-US")}-entry log, no snapshot`, s.log_start),
      renderStartupRow(
        `snapshot of the same state (+${s.snapshot_trailing_entries ?? "?"} entries after it)`,
        s.snapshot_start,
      ),
      "",
    );
  }
  const fl = parts.floor;
  if (failed(fl)) out.push(`### Floor of this machine and stack\n\nfailed: ${fl.error}\n`);
  else if (fl) {
    out.push(
      "### Floor of this machine and stack (bench/floor.ts)",
      "",
      "Primitives timed alone in this run, and the bounds they give a service built on Node, grpc-js and LevelDB here, with no Raft, " +
        "no state machine and no client library: an acquire at concurrency 1 needs at least a unary round trip (client → leader), a " +
        "stream round trip (leader → follower) and the follower's synced write; Acquire and Release are two unary calls served by the " +
        "leader's one event loop; a contended handoff waits for one commit and one answer.",
      "",
      "| primitive | p50 ms | p99 ms |",
      "|---|---:|---:|",
      `| 100 B append + fdatasync (main thread) | ${num(fl.fdatasync_ms.p50, 3)} | ${num(fl.fdatasync_ms.p99, 3)} |`,
      `| LevelDB batch of one put, sync | ${num(fl.leveldb_sync_batch_ms.p50, 3)} | ${num(fl.leveldb_sync_batch_ms.p99, 3)} |`,
      `| grpc-js unary echo, concurrency 1 (other process) | ${num(fl.grpc_unary_c1_ms.p50, 3)} | ${num(fl.grpc_unary_c1_ms.p99, 3)} |`,
      `| grpc-js stream echo round trip | ${num(fl.grpc_stream_rtt_ms.p50, 3)} | ${num(fl.grpc_stream_rtt_ms.p99, 3)} |`,
      "",
      `grpc-js unary echo at concurrency 64: ${fl.grpc_unary_c64_calls_per_s.toLocaleString("en-US")} calls/s. ` +
        `Bounds: acquire p50 at concurrency 1 ≥ ${num(fl.acquire_c1_floor_ms, 3)} ms; uncontended cycles/s ≤ ${fl.uncontended_c64_ceiling_cycles_per_s.toLocaleString("en-US")}; ` +
        `contended handoffs/s ≤ ${fl.contended_ceiling_handoffs_per_s?.toLocaleString("en-US") ?? "–"}.`,
      "",
    );
  }
  return out.join("\n");
}

/** Takes `--NAME VALUE` out of argv; the value, or undefined. */
function takeFlag(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = argv.splice(at, 2);
  return value;
}

function main(args: string[]): void {
  const argv = [...args];
  const jsonOut = takeFlag(argv, "--json");
  const failedCellsFile = takeFlag(argv, "--failed-cells");
  const [resultsFile, partsFile] = argv;
  if (!resultsFile) {
    process.stderr.write(
      "usage: node dist/bench/render.js RESULTS.jsonl [PARTS.json] [--json OUT.json] [--failed-cells FILE]\n",
    );
    process.exit(2);
  }
  // One line per harness run that gave no result: "LABEL MODE c=CONC".
  const failedCells =
    failedCellsFile && existsSync(failedCellsFile)
      ? readFileSync(failedCellsFile, "utf8")
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "")
      : [];
  const runs = existsSync(resultsFile) ? parseRuns(readFileSync(resultsFile, "utf8")) : [];
  const parts = (
    partsFile && existsSync(partsFile) ? JSON.parse(readFileSync(partsFile, "utf8")) : {}
  ) as Parts;
  const sections: string[] = [];
  const engineText = renderEngine(parts.engine);
  if (engineText) sections.push(engineText);
  if (runs.length > 0) sections.push("### Throughput and latency\n", renderTable(runs));
  const cpuText = renderCpuTable(runs, [
    { label: PALISADE, name: "Palisade" },
    { label: ETCD, name: "etcd" },
  ]);
  if (cpuText) sections.push(cpuText);
  const partsText = renderParts(parts);
  if (partsText) sections.push(partsText);
  const expiryText = renderExpiryParts(parts);
  if (expiryText) sections.push(expiryText);
  const floodText = renderStreamFlood(parts);
  if (floodText) sections.push(floodText);
  const electionText = renderElectionFailover(parts.election_failover);
  if (electionText) sections.push(electionText);
  const targets = renderTargets(runs, parts, failedCells);
  if (targets) sections.push("### Targets\n", targets);
  process.stdout.write(sections.join("\n"));
  if (jsonOut)
    writeFileSync(
      jsonOut,
      JSON.stringify({ throughput: runs, failed_cells: failedCells, ...parts }, null, 2) + "\n",
    );
}

main(process.argv.slice(2));
