// The throughput harness: acquire+release cycles per second and acquire latency of one lock
// system, with C workers for D seconds after a warm-up.
//
//   node dist/bench/lock-bench.js --backend palisade|etcd-lockapi|redis-single|redlock \
//     --endpoints E1,E2,... [--mode uncontended|contended] [--concurrency C] [--seconds D]
//     [--warmup W] [--warmup-max M] [--procs auto|N] [--ttl-ms T] [--hold-ms H]
//     [--retry-delay-ms R] [--retry-jitter-ms J] [--acquire-timeout-ms A]
//     [--server-pids P1,P2] [--out FILE] [--label TEXT] [--token-file FILE]
//
// uncontended: worker i cycles on its own lock; contended: all workers on one lock, each
// acquire waiting (on the server, or by polling every R + U[0,J) ms for backends without a
// queue). The workers run in this process, or with --procs N (by default one process per
// 512 workers, at most 2) in N child processes, each with its own client and C/N workers
// (bench/lock-group.ts). The measured window begins once W seconds have passed and every
// worker has completed a cycle (at most M seconds: at high contended concurrency one turn
// of the queue takes seconds), and lasts D seconds; it is set on the host's monotonic
// clock, which every process shares, and a cycle counts when its release returns inside
// it. Latency percentiles come from every sample of every process, Jain's index from every
// worker, and the safety checks from every hold of the contended lock in every process: no
// two holds overlap, and successive holders see increasing fencing tokens where the system
// gives them (bench/lock-merge.ts). Prints one JSON line on stdout (appended to FILE with
// --out) and a summary on stderr. Endpoints must be on loopback. --token-file names a file
// holding a Palisade bearer token, which the palisade backend's client sends with every call.
import { appendFileSync, readFileSync } from "node:fs";
import { cpus, release, type } from "node:os";
import { parseArgs } from "node:util";
import { assertLoopback, type BackendOptions } from "./backends/backend.ts";
import { isBackendName, type BackendName } from "./backends/index.ts";
import { forkGroup, openLocalGroup, type Described, type WorkerGroup } from "./lock-group.ts";
import { mergeParts, type MergedFigures } from "./lock-merge.ts";
import { sharedClock, type Window } from "./lock-part.ts";
import { sleep, splitPlans, type WorkerPlan } from "./lock-workers.ts";

const { values } = parseArgs({
  options: {
    backend: { type: "string" },
    endpoints: { type: "string" },
    mode: { type: "string", default: "uncontended" },
    concurrency: { type: "string", default: "1" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "1" },
    "warmup-max": { type: "string", default: "30" },
    procs: { type: "string", default: "auto" },
    "ttl-ms": { type: "string", default: "10000" },
    "hold-ms": { type: "string", default: "0" },
    "retry-delay-ms": { type: "string", default: "5" },
    "retry-jitter-ms": { type: "string", default: "5" },
    // Long enough for a turn of a 1,024-waiter queue on the slowest system: a wait given up
    // rejoins at the back and makes the queue look unfair.
    "acquire-timeout-ms": { type: "string", default: "120000" },
    "server-pids": { type: "string", default: "" },
    out: { type: "string" },
    label: { type: "string" },
    "token-file": { type: "string" },
  },
});

const USAGE =
  "usage: lock-bench.js --backend palisade|etcd-lockapi|redis-single|redlock --endpoints E1,E2,... [--mode uncontended|contended] [--concurrency C] [--seconds D] [--procs auto|N] ...";

/**
 * Workers per client process when --procs is auto, and the most processes it picks: on
 * two cores shared with the servers, a second process lifts the clients that saturate one
 * (Redis, Redlock, etcd's at 1,024 workers), and more take CPU the servers need
 * (bench/README.md, "Client processes").
 */
const WORKERS_PER_PROC = 512;
const MAX_AUTO_PROCS = 2;
/** The window starts this long after it is set, so that every process knows it in time. */
const WINDOW_LEAD_MS = 100;

function autoProcs(concurrency: number): number {
  return Math.min(MAX_AUTO_PROCS, Math.max(1, Math.ceil(concurrency / WORKERS_PER_PROC)));
}

/** CPU seconds (user + system) a process has used, from /proc; null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The servers' CPU over the window, in % of one core (each, and summed), read at its edges. */
async function serverCpuPct(
  pids: number[],
  window: Window,
  clock: () => number,
): Promise<{ total: number; each: number[] } | null> {
  if (pids.length === 0) return null;
  await sleep(window.startMs - clock());
  const before = pids.map(cpuSeconds);
  const at0 = clock();
  await sleep(window.stopMs - clock());
  const after = pids.map(cpuSeconds);
  const spanS = (clock() - at0) / 1000;
  const pct = (s: number): number => Math.round((s / spanS) * 1000) / 10;
  const each = after.map((v, i) => (v !== null && before[i] != null ? pct(v - before[i]!) : 0));
  const used = after.reduce<number>(
    (a, v, i) => a + (v !== null && before[i] != null ? v - before[i]! : 0),
    0,
  );
  return { total: pct(used), each };
}

interface Run {
  name: BackendName;
  options: BackendOptions;
  plan: Omit<WorkerPlan, "first" | "count" | "prefix">;
  concurrency: number;
  procs: number;
  seconds: number;
  warmupS: number;
  warmupMaxS: number;
  serverPids: number[];
}

interface Outcome {
  described: Described;
  figures: MergedFigures;
  serverCpu: { total: number; each: number[] } | null;
  /** From the workers' start to the window's. */
  warmupS: number;
  /** Whether every worker had completed a cycle before the window. */
  warm: boolean;
}

/** Waits out the warm-up: at least `warmupS`, then until every worker cycled or `warmupMaxS`. */
async function warmUp(
  group: WorkerGroup,
  run: Run,
  startedAt: number,
  clock: () => number,
): Promise<boolean> {
  let warm = false;
  void group.warm.then(() => (warm = true));
  const cap = sleep(run.warmupMaxS * 1000 - (clock() - startedAt));
  const failed = group.failed.then((err) => Promise.reject(err));
  await Promise.race([sleep(run.warmupS * 1000), failed]);
  await Promise.race([group.warm, cap, failed]);
  return warm;
}

async function measure(run: Run): Promise<Outcome> {
  const epochNs = process.hrtime.bigint();
  const clock = sharedClock(epochNs);
  const prefix = `lockbench/${Math.random().toString(36).slice(2, 8)}`;
  const plans = splitPlans({ ...run.plan, prefix }, run.concurrency, run.procs);
  const group =
    plans.length === 1
      ? await openLocalGroup(run.name, run.options, plans[0]!, clock)
      : await forkGroup({ backend: run.name, options: run.options, epochNs }, plans, clock);
  try {
    const startedAt = clock();
    group.start();
    const warm = await warmUp(group, run, startedAt, clock);
    const startMs = clock() + WINDOW_LEAD_MS;
    const window: Window = { startMs, stopMs: startMs + run.seconds * 1000 };
    const serverCpu = serverCpuPct(run.serverPids, window, clock);
    const parts = await group.measure(window);
    return {
      described: group.described,
      figures: mergeParts(parts, window, run.concurrency, run.plan.mode === "contended"),
      serverCpu: await serverCpu,
      warmupS: Math.round(startMs - startedAt) / 1000,
      warm,
    };
  } catch (err) {
    group.abort();
    throw err;
  }
}

/** The command line as a run; throws the usage on anything missing or malformed. */
function parseRun(): Run {
  const name = values.backend ?? "";
  const mode = values.mode;
  const numbers = [
    values.concurrency,
    values.seconds,
    values.warmup,
    values["warmup-max"],
    values["ttl-ms"],
    values["hold-ms"],
    values["retry-delay-ms"],
    values["retry-jitter-ms"],
    values["acquire-timeout-ms"],
  ].map(Number);
  const procsText = values.procs;
  const procsNumber = Number(procsText);
  if (
    !isBackendName(name) ||
    !values.endpoints ||
    (mode !== "uncontended" && mode !== "contended") ||
    numbers.some((n) => !(n >= 0)) ||
    !(numbers[0]! >= 1) ||
    (procsText !== "auto" && !(Number.isInteger(procsNumber) && procsNumber >= 1))
  ) {
    throw new Error(USAGE);
  }
  const [
    concurrency,
    seconds,
    warmupS,
    warmupMaxS,
    ttlMs,
    holdMs,
    retryDelayMs,
    retryJitterMs,
    acquireTimeoutMs,
  ] = numbers as [number, number, number, number, number, number, number, number, number];
  const endpoints = values.endpoints
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  endpoints.forEach(assertLoopback);
  const tokenFile = values["token-file"];
  const token = tokenFile ? readFileSync(tokenFile, "utf8").trim() : undefined;
  return {
    name,
    options: { endpoints, ttlMs, acquireTimeoutMs, ...(token ? { token } : {}) },
    plan: { mode, holdMs, retryDelayMs, retryJitterMs, acquireTimeoutMs },
    concurrency,
    procs: Math.min(concurrency, procsText === "auto" ? autoProcs(concurrency) : procsNumber),
    seconds,
    warmupS,
    warmupMaxS: Math.max(warmupS, warmupMaxS),
    serverPids: values["server-pids"]
      .split(",")
      .filter((p) => p !== "")
      .map(Number),
  };
}

async function main(): Promise<void> {
  const run = parseRun();
  const outcome = await measure(run);
  const f = outcome.figures;
  const { info, fencing, blocking } = outcome.described;
  const result = {
    ts: new Date().toISOString(),
    label: values.label ?? null,
    backend: run.name,
    mode: run.plan.mode,
    concurrency: run.concurrency,
    warmup_s: outcome.warmupS,
    warm: outcome.warm,
    hold_ms: run.plan.holdMs,
    ...f,
    server_cpu_pct: outcome.serverCpu?.total ?? null,
    server_cpu_pct_each: outcome.serverCpu?.each ?? null,
    retry_policy: blocking
      ? "blocking"
      : `poll ${run.plan.retryDelayMs}+U[0,${run.plan.retryJitterMs})ms`,
    fencing,
    backend_info: info,
    env: {
      node: process.version,
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model,
      platform: `${type()} ${release()}`,
    },
  };
  const line = JSON.stringify(result);
  process.stdout.write(`${line}\n`);
  if (values.out) appendFileSync(values.out, `${line}\n`);
  printSummary(result);
}

function printSummary(
  r: MergedFigures & {
    backend: string;
    mode: string;
    concurrency: number;
    server_cpu_pct: number | null;
    warmup_s: number;
    warm: boolean;
  },
): void {
  const a = r.acquire_ms;
  process.stderr.write(
    `${r.backend.padEnd(13)} ${r.mode.padEnd(11)} c=${String(r.concurrency).padEnd(4)} ${String(r.cycles_per_s).padStart(9)} cycles/s  ` +
      `${r.mode === "contended" ? `handoffs/s ${String(r.handoffs_per_s)}  ` : ""}acquire p50 ${a.p50} ms  p99 ${a.p99} ms  max ${a.max} ms  ` +
      `jain ${String(r.per_worker_cycles.jain)} served ${r.workers_served}/${r.concurrency}  ` +
      `errors ${r.errors} timeouts ${r.timeouts} violations ${r.mutex_violations} fence_regr ${r.fence_regressions}  ` +
      `cpu client ${r.client_cpu_pct}% (${r.client_procs} proc) server ${String(r.server_cpu_pct ?? "-")}%  ` +
      `warm-up ${r.warmup_s} s${r.warm ? "" : " (capped)"}\n`,
  );
  if (Object.keys(r.error_samples).length > 0)
    process.stderr.write(`  errors: ${JSON.stringify(r.error_samples)}\n`);
}

main().then(
  // Client channels may linger a moment; nothing is left to wait for.
  () => setTimeout(() => process.exit(0), 200).unref(),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
