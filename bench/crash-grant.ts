// Crash to next grant: a holder process keeps lock L through a session (etcd: a lease) of
// TTL `ttlMs`; a waiter in another process waits in L's queue; the holder is SIGKILLed;
// the figure is the time from the kill to the waiter's grant, as the waiter's process
// sees it (both times on the host's monotonic clock). The cluster can only grant L once the
// dead holder's session has expired, so the figure is about one TTL minus the part of a
// keepalive period that had passed at the kill, plus the detection and the commit.
// Palisade: a three-node cluster with product defaults; etcd: three members and its Lock
// API, the same way. Every process and folder is removed at the end, also on failure.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { PalisadeClient } from "../client/index.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep, trackChild } from "./cluster-control.ts";
import { EtcdCluster } from "./etcd-control.ts";
import { summarize, type Summary } from "./stats.ts";

export interface CrashGrantOptions {
  runs: number;
  ttlMs: number;
  log: (line: string) => void;
}

export interface CrashGrantSide {
  runs: number;
  ttl_ms: number;
  /** Kill to the waiter's grant. */
  grant_ms: Summary;
  /** The same minus the TTL: what the detection and the handover add to it (negative: the kill landed late in a keepalive period). */
  beyond_ttl_ms: Summary;
  samples_ms: number[];
  /** Runs in which the waiter got no grant within the bound. */
  unresolved: number;
  config: string;
}

export interface CrashGrantResult {
  palisade: CrashGrantSide | { error: string };
  etcd?: CrashGrantSide | { error: string };
}

const LOCK_PROC = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./lock-proc.ts" : "./lock-proc.js", import.meta.url),
);
const STEP_TIMEOUT_MS = 30_000;

interface LockProc {
  child: ChildProcess;
  /** Resolves with the event's monotonic time (ns) once the process reports it; rejects on an error report, an exit or the bound. */
  next(event: string, timeoutMs: number): Promise<bigint>;
  kill(): Promise<void>;
}

/** Starts lock-proc in a process of its own. */
function startLockProc(args: string[]): LockProc {
  const child = spawn(process.execPath, [LOCK_PROC, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  trackChild(child);
  const seen: Array<{ event: string; at_ns?: string; message?: string }> = [];
  let wake: (() => void) | null = null;
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2_000);
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      seen.push(JSON.parse(line) as { event: string; at_ns?: string });
    } catch {
      return;
    }
    wake?.();
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  void exited.then(() => wake?.());
  return {
    child,
    async next(event, timeoutMs) {
      const until = performance.now() + timeoutMs;
      for (;;) {
        const error = seen.find((e) => e.event === "error");
        if (error) throw new Error(`lock process: ${error.message ?? "error"}`);
        const hit = seen.find((e) => e.event === event);
        if (hit?.at_ns) return BigInt(hit.at_ns);
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`lock process exited before "${event}": ${stderr}`);
        const left = until - performance.now();
        if (left <= 0)
          throw new Error(`no "${event}" from the lock process within ${timeoutMs} ms`);
        await Promise.race([new Promise<void>((r) => (wake = r)), sleep(Math.min(left, 200))]);
        wake = null;
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

const nsToMs = (ns: bigint): number => Number(ns) / 1e6;

/**
 * The runs against one system: `queued(lock)` resolves once the waiter is in the lock's
 * queue (so the kill cannot land before it is there).
 */
async function measure(
  system: "palisade" | "etcd",
  endpoints: string[],
  options: CrashGrantOptions,
  queued: (lock: string) => Promise<void>,
  config: string,
): Promise<CrashGrantSide> {
  const samples: number[] = [];
  let unresolved = 0;
  const bound = options.ttlMs + STEP_TIMEOUT_MS;
  for (let k = 1; k <= options.runs; k++) {
    const lock = `bench/crash-grant/${Date.now().toString(36)}-${k}`;
    const args = (role: string): string[] => [
      system,
      role,
      endpoints.join(","),
      String(options.ttlMs),
      lock,
    ];
    const holder = startLockProc(args("hold"));
    let waiter: LockProc | null = null;
    try {
      await holder.next("held", STEP_TIMEOUT_MS);
      waiter = startLockProc(args("wait"));
      await waiter.next("waiting", STEP_TIMEOUT_MS);
      await queued(lock);
      // Kills at a random point of the holder's keepalive period, as a crash would land.
      await sleep(Math.random() * (options.ttlMs / 3));
      const killedAt = process.hrtime.bigint();
      await holder.kill();
      try {
        const grantedAt = await waiter.next("granted", bound);
        samples.push(nsToMs(grantedAt - killedAt));
      } catch (e) {
        unresolved++;
        samples.push(bound);
        options.log(
          `${system} crash-grant run ${k}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      options.log(
        `${system} crash-grant run ${k}/${options.runs}: kill to grant ${(samples.at(-1) ?? 0).toFixed(0)} ms (TTL ${options.ttlMs} ms)`,
      );
    } finally {
      await holder.kill();
      await waiter?.kill();
    }
  }
  return {
    runs: options.runs,
    ttl_ms: options.ttlMs,
    grant_ms: summarize(samples),
    beyond_ttl_ms: summarize(samples.map((s) => s - options.ttlMs)),
    samples_ms: samples.map((s) => Math.round(s * 10) / 10),
    unresolved,
    config,
  };
}

export async function runCrashGrant(options: CrashGrantOptions): Promise<CrashGrantSide> {
  const dir = makeTempDir("palisade-crash-grant-");
  const cluster = await BenchCluster.create(dir);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 1_000,
    retryBudgetMs: 5_000,
  });
  try {
    cluster.startAll();
    await cluster.waitServing();
    const queued = async (lock: string): Promise<void> => {
      const until = performance.now() + STEP_TIMEOUT_MS;
      while (performance.now() < until) {
        const info = await admin.read.getLock(lock).catch(() => null);
        if (info && info.waiters.length > 0) return;
        await sleep(20);
      }
      throw new Error(`the waiter did not appear in ${lock}'s queue within ${STEP_TIMEOUT_MS} ms`);
    };
    return await measure(
      "palisade",
      cluster.endpoints,
      options,
      queued,
      `3 nodes, product defaults; holder and waiter each a client process with one session of TTL ${options.ttlMs} ms; the waiter's Acquire waits in the queue`,
    );
  } finally {
    await admin.close().catch(() => undefined);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}

/** The number of keys under `prefix` (etcdctl 3.4 has no --count-only), or null when etcd does not answer. */
function keysUnder(endpoints: string[], prefix: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(
      "etcdctl",
      [
        "--endpoints",
        endpoints.join(","),
        "--command-timeout=2s",
        "get",
        "--prefix",
        "--keys-only",
        prefix,
      ],
      { timeout: 5_000 },
      (error, stdout) => {
        resolve(error ? null : stdout.split("\n").filter((line) => line.trim() !== "").length);
      },
    );
  });
}

export async function runEtcdCrashGrant(options: CrashGrantOptions): Promise<CrashGrantSide> {
  const dir = makeTempDir("palisade-etcd-crash-grant-");
  const cluster = await EtcdCluster.create(dir);
  try {
    cluster.startAll();
    await cluster.waitLeader();
    // The Lock API keeps one key per contender under "LOCK/": holder and waiter make two.
    const queued = async (lock: string): Promise<void> => {
      const until = performance.now() + STEP_TIMEOUT_MS;
      while (performance.now() < until) {
        if (((await keysUnder(cluster.endpoints, `${lock}/`)) ?? 0) >= 2) return;
        await sleep(20);
      }
      throw new Error(
        `the waiter's key did not appear under ${lock}/ within ${STEP_TIMEOUT_MS} ms`,
      );
    };
    const ttlS = Math.max(2, Math.ceil(options.ttlMs / 1000));
    return await measure(
      "etcd",
      cluster.endpoints,
      { ...options, ttlMs: ttlS * 1000 },
      queued,
      `3 members, etcd defaults; holder and waiter each a process with one lease of TTL ${ttlS} s (etcd3 keepalive), Lock API (v3lockpb.Lock)`,
    );
  } finally {
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}
