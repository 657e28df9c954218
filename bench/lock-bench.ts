// The throughput harness: acquire+release cycles per second and acquire latency of one lock
// system, with W workers in this one process for D seconds after a warm-up.
//
//   node dist/bench/lock-bench.js --backend palisade|etcd-lockapi|redis-single|redlock \
//     --endpoints E1,E2,... [--mode uncontended|contended] [--concurrency C] [--seconds D]
//     [--warmup W] [--ttl-ms T] [--hold-ms H] [--retry-delay-ms R] [--retry-jitter-ms J]
//     [--acquire-timeout-ms A] [--server-pids P1,P2] [--out FILE] [--label TEXT]
//     [--token-file FILE]
//
// uncontended: worker i cycles on its own lock; contended: all workers on one lock, each
// acquire waiting (on the server, or by polling every R + U[0,J) ms for backends without a
// queue). Safety is checked as it runs: no two workers hold the contended lock at once, and
// successive holders see increasing fencing tokens where the system gives them. Prints one
// JSON line on stdout (appended to FILE with --out) and a summary on stderr. Endpoints
// must be on loopback. --token-file names a file holding a Palisade bearer token, which the
// palisade backend's client sends with every call (a cluster under an access policy).
import { setMaxListeners } from "node:events";
import { appendFileSync, readFileSync } from "node:fs";
import { cpus, release, type } from "node:os";
import { parseArgs } from "node:util";
import {
  assertLoopback,
  type Acquired,
  type BackendOptions,
  type LockBackend,
} from "./backends/backend.ts";
import { BACKENDS, isBackendName } from "./backends/index.ts";
import { percentile } from "./stats.ts";

const { values } = parseArgs({
  options: {
    backend: { type: "string" },
    endpoints: { type: "string" },
    mode: { type: "string", default: "uncontended" },
    concurrency: { type: "string", default: "1" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "1" },
    "ttl-ms": { type: "string", default: "10000" },
    "hold-ms": { type: "string", default: "0" },
    "retry-delay-ms": { type: "string", default: "5" },
    "retry-jitter-ms": { type: "string", default: "5" },
    "acquire-timeout-ms": { type: "string", default: "30000" },
    "server-pids": { type: "string", default: "" },
    out: { type: "string" },
    label: { type: "string" },
    "token-file": { type: "string" },
  },
});

const USAGE =
  "usage: lock-bench.js --backend palisade|etcd-lockapi|redis-single|redlock --endpoints E1,E2,... [--mode uncontended|contended] [--concurrency C] [--seconds D] ...";

/** Sleeps `ms`, or less if `signal` aborts; whether it slept the whole time. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
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

const round3 = (x: number | null | undefined): number | null =>
  x === null || x === undefined ? null : Math.round(x * 1000) / 1000;
const round1 = (x: number): number => Math.round(x * 10) / 10;

interface Settings {
  mode: "uncontended" | "contended";
  concurrency: number;
  seconds: number;
  warmupS: number;
  holdMs: number;
  retryDelayMs: number;
  retryJitterMs: number;
  acquireTimeoutMs: number;
}

/** What the workers count while they run. */
class Tally {
  measuring = false;
  readonly acquireMs: number[] = [];
  readonly releaseMs: number[] = [];
  readonly perWorker: number[];
  cycles = 0;
  failedTries = 0;
  timeouts = 0;
  errors = 0;
  readonly errorSamples = new Map<string, number>();
  holders = 0;
  violations = 0;
  fenceRegressions = 0;
  lastFence: bigint | null = null;
  lastHolder = -1;
  handoffs = 0;

  constructor(workers: number) {
    this.perWorker = new Array<number>(workers).fill(0);
  }

  error(where: string, err: unknown): void {
    this.errors++;
    const key = `${where}: ${(err instanceof Error ? err.message : String(err)).slice(0, 160)}`;
    this.errorSamples.set(key, (this.errorSamples.get(key) ?? 0) + 1);
  }
}

/** The measured part of the result line (the fields bench/report-data.ts reads among them). */
interface Measured {
  cycles: number;
  seconds: number | null;
  cycles_per_s: number;
  handoffs_per_s: number | null;
  acquire_ms: { p50: number | null; p99: number | null; max: number | null; mean: number | null };
  release_ms: { p50: number | null; p99: number | null; max: number | null };
  errors: number;
  timeouts: number;
  failed_tries: number;
  per_worker_cycles: { min: number; max: number; jain: number | null };
  mutex_violations: number;
  fence_regressions: number;
  error_samples: Record<string, number>;
  client_cpu_pct: number;
  server_cpu_pct: number | null;
  drained: boolean;
  retry_policy: string;
  fencing: string;
  backend_info: Record<string, unknown>;
}

async function run<Session, Handle>(
  backend: LockBackend<Session, Handle>,
  s: Settings,
  serverPids: number[],
): Promise<Measured> {
  const prefix = `lockbench/${Math.random().toString(36).slice(2, 8)}`;
  const lockOf = (w: number): string =>
    s.mode === "contended" ? `${prefix}/shared` : `${prefix}/w${w}`;
  const sessions = await Promise.all(
    Array.from({ length: s.concurrency }, (_, i) => backend.session(i)),
  );
  const tally = new Tally(s.concurrency);
  const stop = new AbortController();
  // Every worker's poll sleep listens on it at once.
  setMaxListeners(0, stop.signal);

  const acquireOnce = async (session: Session, lock: string): Promise<Acquired<Handle> | null> => {
    if (backend.acquire) {
      const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(s.acquireTimeoutMs)]);
      const got = await backend.acquire(session, lock, signal);
      if (!got && !stop.signal.aborted) tally.timeouts++;
      return got;
    }
    if (!backend.tryAcquire) throw new Error("the backend has neither acquire nor tryAcquire");
    const giveUpAt = performance.now() + s.acquireTimeoutMs;
    for (;;) {
      const got = await backend.tryAcquire(session, lock);
      if (got) return got;
      if (tally.measuring) tally.failedTries++;
      if (performance.now() > giveUpAt) {
        tally.timeouts++;
        return null;
      }
      if (!(await sleep(s.retryDelayMs + Math.random() * s.retryJitterMs, stop.signal)))
        return null;
    }
  };

  const worker = async (w: number): Promise<void> => {
    const session = sessions[w] as Session;
    const lock = lockOf(w);
    while (!stop.signal.aborted) {
      const counted = tally.measuring;
      const t0 = performance.now();
      let got: Acquired<Handle> | null;
      try {
        got = await acquireOnce(session, lock);
      } catch (err) {
        if (stop.signal.aborted) break;
        tally.error("acquire", err);
        await sleep(10, stop.signal);
        continue;
      }
      if (!got) continue;
      const t1 = performance.now();
      if (s.mode === "contended") {
        if (++tally.holders > 1) tally.violations++;
        if (tally.lastHolder !== w && tally.measuring) tally.handoffs++;
        tally.lastHolder = w;
        if (got.fence !== null) {
          if (tally.lastFence !== null && got.fence <= tally.lastFence) tally.fenceRegressions++;
          tally.lastFence = got.fence;
        }
      }
      if (s.holdMs > 0) await sleep(s.holdMs);
      if (s.mode === "contended") tally.holders--;
      try {
        await backend.release(session, got.handle);
      } catch (err) {
        tally.error("release", err);
        continue;
      }
      const t2 = performance.now();
      if (counted && tally.measuring) {
        tally.cycles++;
        tally.perWorker[w]!++;
        tally.acquireMs.push(t1 - t0);
        tally.releaseMs.push(t2 - t1);
      }
    }
  };

  const workers = Array.from({ length: s.concurrency }, (_, w) => worker(w));
  await sleep(s.warmupS * 1000);
  const cpu0 = process.cpuUsage();
  const server0 = serverPids.map(cpuSeconds);
  const m0 = performance.now();
  tally.measuring = true;
  await sleep(s.seconds * 1000);
  tally.measuring = false;
  const m1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const server1 = serverPids.map(cpuSeconds);
  stop.abort();
  const drained = await Promise.race([
    Promise.all(workers).then(() => true),
    sleep(15_000).then(() => false),
  ]);
  await Promise.all(
    sessions.map((session) => backend.closeSession?.(session).catch(() => undefined)),
  );
  await backend.close();

  const elapsed = (m1 - m0) / 1000;
  const acquire = [...tally.acquireMs].sort((a, b) => a - b);
  const releases = [...tally.releaseMs].sort((a, b) => a - b);
  const squares = tally.perWorker.reduce((a, n) => a + n * n, 0);
  const serverCpu =
    serverPids.length === 0
      ? null
      : server1.reduce<number>(
          (a, v, i) => a + (v !== null && server0[i] != null ? v - server0[i]! : 0),
          0,
        );
  return {
    cycles: tally.cycles,
    seconds: round3(elapsed),
    cycles_per_s: round1(tally.cycles / elapsed),
    handoffs_per_s: s.mode === "contended" ? round1(tally.handoffs / elapsed) : null,
    acquire_ms: {
      p50: round3(percentile(acquire, 50)),
      p99: round3(percentile(acquire, 99)),
      max: round3(acquire.at(-1)),
      mean: round3(acquire.length ? acquire.reduce((a, b) => a + b, 0) / acquire.length : null),
    },
    release_ms: {
      p50: round3(percentile(releases, 50)),
      p99: round3(percentile(releases, 99)),
      max: round3(releases.at(-1)),
    },
    errors: tally.errors,
    timeouts: tally.timeouts,
    failed_tries: tally.failedTries,
    // Jain's index over the workers' cycles: 1 is even, 1/C is one worker doing everything.
    per_worker_cycles: {
      min: Math.min(...tally.perWorker),
      max: Math.max(...tally.perWorker),
      jain: round3(squares ? (tally.cycles * tally.cycles) / (s.concurrency * squares) : null),
    },
    mutex_violations: tally.violations,
    fence_regressions: tally.fenceRegressions,
    error_samples: Object.fromEntries([...tally.errorSamples].slice(0, 5)),
    client_cpu_pct: round1(((cpu.user + cpu.system) / 1e6 / elapsed) * 100),
    server_cpu_pct: serverCpu === null ? null : round1((serverCpu / elapsed) * 100),
    drained,
    retry_policy: backend.acquire ? "blocking" : `poll ${s.retryDelayMs}+U[0,${s.retryJitterMs})ms`,
    fencing: backend.fencing,
    backend_info: backend.info,
  };
}

async function main(): Promise<void> {
  const name = values.backend ?? "";
  const mode = values.mode;
  const numbers = [
    values.concurrency,
    values.seconds,
    values.warmup,
    values["ttl-ms"],
    values["hold-ms"],
    values["retry-delay-ms"],
    values["retry-jitter-ms"],
    values["acquire-timeout-ms"],
  ].map(Number);
  if (
    !isBackendName(name) ||
    !values.endpoints ||
    (mode !== "uncontended" && mode !== "contended") ||
    numbers.some((n) => !(n >= 0))
  ) {
    throw new Error(USAGE);
  }
  const [
    concurrency,
    seconds,
    warmupS,
    ttlMs,
    holdMs,
    retryDelayMs,
    retryJitterMs,
    acquireTimeoutMs,
  ] = numbers as [number, number, number, number, number, number, number, number];
  const endpoints = values.endpoints
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  endpoints.forEach(assertLoopback);
  const serverPids = values["server-pids"]
    .split(",")
    .filter((p) => p !== "")
    .map(Number);
  const open: (options: BackendOptions) => Promise<LockBackend<unknown, unknown>> = BACKENDS[name];
  const tokenFile = values["token-file"];
  const token = tokenFile ? readFileSync(tokenFile, "utf8").trim() : undefined;
  const backend = await open({ endpoints, ttlMs, acquireTimeoutMs, ...(token ? { token } : {}) });
  const settings: Settings = {
    mode,
    concurrency,
    seconds,
    warmupS,
    holdMs,
    retryDelayMs,
    retryJitterMs,
    acquireTimeoutMs,
  };
  const measured = await run(backend, settings, serverPids);
  const result = {
    ts: new Date().toISOString(),
    label: values.label ?? null,
    backend: name,
    mode,
    concurrency,
    warmup_s: warmupS,
    hold_ms: holdMs,
    ...measured,
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
  const a = result.acquire_ms;
  process.stderr.write(
    `${name.padEnd(13)} ${mode.padEnd(11)} c=${String(concurrency).padEnd(3)} ${String(result.cycles_per_s).padStart(9)} cycles/s  ` +
      `${mode === "contended" ? `handoffs/s ${String(result.handoffs_per_s)}  ` : ""}acquire p50 ${a.p50} ms  p99 ${a.p99} ms  max ${a.max} ms  ` +
      `errors ${String(result.errors)} timeouts ${String(result.timeouts)} violations ${String(result.mutex_violations)} fence_regr ${String(result.fence_regressions)}  ` +
      `cpu client ${String(result.client_cpu_pct)}% server ${String(result.server_cpu_pct ?? "-")}%\n`,
  );
  if (Object.keys(result.error_samples).length > 0)
    process.stderr.write(`  errors: ${JSON.stringify(result.error_samples)}\n`);
}

main().then(
  // Client channels may linger a moment; nothing is left to wait for.
  () => setTimeout(() => process.exit(0), 200).unref(),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
