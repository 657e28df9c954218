// Node memory with many locks held: a three-node cluster (product defaults), `sessions`
// sessions opened from several clients, `locks` distinct locks acquired and kept, spread
// evenly over the sessions; then VmRSS (and the peak, VmHWM) of every node process from
// /proc/PID/status, next to the same figures of the idle cluster. Each node also serves
// its metrics, so the V8 heap (used and total) and the memory outside it (external) are
// read from the node's own `nodejs_*` gauges at the same two moments.
//
// Measurement knobs (environment):
//   MEMORY_NODE_ARGS           extra `node` options for each node process (space-separated),
//                              e.g. "--trace-gc" or "--heap-prof --heap-prof-dir=/tmp/prof".
//   MEMORY_SMAPS_DIR           with each reading, copies each node's /proc/PID/smaps there
//                              (node-N.idle.smaps, node-N.smaps): which mappings the
//                              resident memory is in.
//   MEMORY_HEAP_SNAPSHOT_DIR   after the figures are taken, each node writes a V8 heap
//                              snapshot there (`--heapsnapshot-signal=SIGUSR2`); open it in
//                              Chrome DevTools (Memory tab) to see what the heap holds.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { PalisadeClient, type Session } from "../client/index.ts";
import { freePorts } from "../scripts/free-ports.ts";
import {
  BenchCluster,
  makeTempDir,
  procStatusBytes,
  removeTempDir,
  sleep,
} from "./cluster-control.ts";

export interface MemoryOptions {
  sessions: number;
  locks: number;
  /** Bound on the whole fill; the figures are taken with what was created by then. */
  timeoutMs: number;
  log: (line: string) => void;
}

export interface NodeMemory {
  node: number;
  leader: boolean;
  idle_rss_mb: number | null;
  rss_mb: number | null;
  hwm_mb: number | null;
  /** The node's own view (its metrics) at the two readings: V8 heap used and reserved, and external memory. */
  idle_heap?: HeapFigures | null;
  heap?: HeapFigures | null;
  /** CPU time (user + system) the node spent from the idle reading to the end of the fill, in seconds. */
  fill_cpu_s?: number | null;
}

/** MB from the node's `nodejs_heap_size_used_bytes`, `nodejs_heap_size_total_bytes` and `nodejs_external_memory_bytes`. */
export interface HeapFigures {
  heap_used_mb: number | null;
  heap_total_mb: number | null;
  external_mb: number | null;
}

export interface MemoryResult {
  sessions_requested: number;
  locks_requested: number;
  sessions_opened: number;
  locks_held: number;
  fill_s: number;
  fill_writes_per_s: number;
  nodes: NodeMemory[];
  max_rss_mb: number | null;
  errors: number;
  error_samples: string[];
}

const CLIENTS = 16;
const OPEN_CONCURRENCY = 512;
const ACQUIRE_CONCURRENCY = 2_048;
const SESSION_TTL_MS = 600_000;

const extraNodeArgs = (process.env["MEMORY_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "");
const heapSnapshotDir = process.env["MEMORY_HEAP_SNAPSHOT_DIR"] ?? "";
const smapsDir = process.env["MEMORY_SMAPS_DIR"] ?? "";

const mb = (bytes: number | null): number | null =>
  bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Runs task(0..count-1) with at most `concurrency` at once; stops starting new ones once `until` passes. */
async function pool(
  count: number,
  concurrency: number,
  until: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count && performance.now() < until) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** Copies each node's /proc/PID/smaps to MEMORY_SMAPS_DIR/node-N{suffix}.smaps, if that knob is set. */
function copySmaps(cluster: BenchCluster, suffix: string, log: (line: string) => void): void {
  if (!smapsDir) return;
  mkdirSync(smapsDir, { recursive: true });
  for (const id of cluster.ids) {
    try {
      writeFileSync(
        join(smapsDir, `node-${id}${suffix}.smaps`),
        readFileSync(`/proc/${cluster.pidOf(id) ?? -1}/smaps`),
      );
    } catch (e) {
      log(`memory: no smaps of node ${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** User + system CPU seconds of a process so far (/proc/PID/stat, in USER_HZ = 100 ticks a second); null once it is gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Gives every node of the cluster file a metrics address on a free loopback port; returns them by node id. */
export async function addMetricsAddresses(configPath: string): Promise<Map<number, string>> {
  const config = JSON.parse(readFileSync(configPath, "utf8")) as {
    nodes: Array<{ id: number; metricsAddress?: string }>;
  };
  const ports = await freePorts(config.nodes.length);
  const out = new Map<number, string>();
  config.nodes.forEach((n, i) => {
    n.metricsAddress = `127.0.0.1:${ports[i]}`;
    out.set(n.id, n.metricsAddress);
  });
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return out;
}

/** Heap figures from a node's metrics endpoint; null when it does not answer. */
async function heapFigures(address: string | undefined): Promise<HeapFigures | null> {
  if (!address) return null;
  try {
    const text = await (
      await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(5_000) })
    ).text();
    const gauge = (name: string): number | null => {
      const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)`, "m").exec(text);
      return match ? Number(match[1]) : null;
    };
    return {
      heap_used_mb: mb(gauge("nodejs_heap_size_used_bytes")),
      heap_total_mb: mb(gauge("nodejs_heap_size_total_bytes")),
      external_mb: mb(gauge("nodejs_external_memory_bytes")),
    };
  } catch {
    return null;
  }
}

/** What the node logs say happened: snapshots taken and installed, elections won, per node. */
function logEvents(dir: string, ids: readonly number[]): string {
  return ids
    .map((id) => {
      let text = "";
      try {
        text = readFileSync(join(dir, `node-${id}.log`), "utf8");
      } catch {
        return `node ${id}: no log`;
      }
      const count = (needle: string): number => text.split(needle).length - 1;
      // With MEMORY_NODE_ARGS="--trace-gc": collections and their pause time.
      const gc = new Map<string, { n: number; ms: number }>();
      for (const m of text.matchAll(
        / (Mark-Compact|Scavenge)\b[^\n]*?MB, ([\d.]+) \/ [\d.]+ ms/g,
      )) {
        const kind = m[1] as string;
        const g = gc.get(kind) ?? { n: 0, ms: 0 };
        g.n++;
        g.ms += Number(m[2]);
        gc.set(kind, g);
      }
      const gcText = [...gc]
        .map(([kind, g]) => `, ${g.n} ${kind} (${Math.round(g.ms)} ms paused)`)
        .join("");
      return `node ${id}: ${count("log compacted")} snapshots taken, ${count("installed a snapshot from the leader")} installed from the leader, ${count("now leader in term")} times leader${gcText}`;
    })
    .join("; ");
}

/** Whether a heap snapshot file is complete: its JSON document is closed. */
function snapshotComplete(path: string): boolean {
  try {
    const size = statSync(path).size;
    if (size === 0) return false;
    const fd = openSync(path, "r");
    try {
      const tail = Buffer.alloc(Math.min(16, size));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      return tail.toString("utf8").trimEnd().endsWith("]}");
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Asks each node for a heap snapshot (SIGUSR2) and waits, bounded, until every file is written. */
async function writeHeapSnapshots(
  cluster: BenchCluster,
  dir: string,
  log: (line: string) => void,
): Promise<void> {
  const before = new Set(readdirSync(dir));
  const pids = cluster.ids.map((id) => cluster.pidOf(id)).filter((p): p is number => p !== null);
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  const deadline = performance.now() + 300_000;
  while (performance.now() < deadline) {
    await sleep(2_000);
    const fresh = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (fresh.length >= pids.length && fresh.every((f) => snapshotComplete(join(dir, f)))) {
      log(`memory: heap snapshots in ${dir}: ${fresh.join(", ")}`);
      return;
    }
  }
  log(`memory: heap snapshots not complete within 300 s in ${dir}`);
}

export async function runMemory(options: MemoryOptions): Promise<MemoryResult> {
  const dir = makeTempDir("palisade-memory-");
  if (heapSnapshotDir && !existsSync(heapSnapshotDir))
    mkdirSync(heapSnapshotDir, { recursive: true });
  const nodeArgs = heapSnapshotDir
    ? [...extraNodeArgs, "--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${heapSnapshotDir}`]
    : extraNodeArgs;
  const cluster = await BenchCluster.create(dir, { nodeArgs });
  const metricsAddresses = await addMetricsAddresses(cluster.configPath);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 1_000,
    retryBudgetMs: 2_000,
  });
  const clients = Array.from(
    { length: CLIENTS },
    (_, i) =>
      // Each session checks its deadline on a timer; at the default 50 ms, 10,000 sessions in
      // this one process would spend its CPU on those timers instead of on requests.
      new PalisadeClient({
        endpoints: cluster.endpoints,
        clientName: `memory-bench-${i}`,
        retryBudgetMs: 60_000,
        callTimeoutMs: 10_000,
        deadlineTickMs: 5_000,
      }),
  );
  let errors = 0;
  const errorSamples = new Set<string>();
  const noteError = (e: unknown): void => {
    errors++;
    if (errorSamples.size < 5)
      errorSamples.add(e instanceof Error ? e.message.slice(0, 200) : String(e));
  };
  try {
    cluster.startAll();
    await cluster.waitServing();
    const leader = await cluster.waitLeader(admin);
    await sleep(2_000);
    const idle = new Map(cluster.ids.map((id) => [id, procStatusBytes(cluster.pidOf(id) ?? -1)]));
    copySmaps(cluster, ".idle", options.log);
    const idleCpu = new Map(cluster.ids.map((id) => [id, cpuSeconds(cluster.pidOf(id) ?? -1)]));
    const idleHeap = new Map(
      await Promise.all(
        cluster.ids.map(async (id) => [id, await heapFigures(metricsAddresses.get(id))] as const),
      ),
    );

    const until = performance.now() + options.timeoutMs;
    const t0 = performance.now();
    const sessions: Session[] = [];
    await pool(options.sessions, OPEN_CONCURRENCY, until, async (i) => {
      try {
        const client = clients[i % CLIENTS];
        if (client) sessions.push(await client.openSession({ ttlMs: SESSION_TTL_MS }));
      } catch (e) {
        noteError(e);
      }
    });
    options.log(
      `memory: ${sessions.length} sessions open after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    let held = 0;
    if (sessions.length > 0) {
      await pool(options.locks, ACQUIRE_CONCURRENCY, until, async (i) => {
        const session = sessions[i % sessions.length];
        if (!session) return;
        try {
          const r = await session.acquire(`bench/memory/l${i}`, { waitMs: 0 });
          if (r.acquired) held++;
          if (held % 20_000 === 0 && r.acquired)
            options.log(
              `memory: ${held} locks held after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
            );
        } catch (e) {
          noteError(e);
        }
      });
    }
    const fillS = (performance.now() - t0) / 1000;
    const fillCpu = new Map(
      cluster.ids.map((id) => {
        const before = idleCpu.get(id) ?? null;
        const after = cpuSeconds(cluster.pidOf(id) ?? -1);
        return [
          id,
          before === null || after === null ? null : Math.round((after - before) * 10) / 10,
        ];
      }),
    );
    options.log(
      `memory: ${held} locks held by ${sessions.length} sessions after ${fillS.toFixed(1)} s; settling 3 s`,
    );
    await sleep(3_000);
    const nodes: NodeMemory[] = cluster.ids.map((id) => {
      const pid = cluster.pidOf(id) ?? -1;
      return {
        node: id,
        leader: id === leader,
        idle_rss_mb: mb(idle.get(id) ?? null),
        rss_mb: mb(procStatusBytes(pid)),
        hwm_mb: mb(procStatusBytes(pid, "VmHWM")),
      };
    });
    copySmaps(cluster, "", options.log);
    for (const n of nodes) {
      n.idle_heap = idleHeap.get(n.node) ?? null;
      n.fill_cpu_s = fillCpu.get(n.node) ?? null;
      n.heap = await heapFigures(metricsAddresses.get(n.node));
      const h = n.heap;
      options.log(
        `memory: node ${n.node}${n.leader ? " (leader)" : ""} (pid ${cluster.pidOf(n.node) ?? "?"}): RSS ${n.rss_mb} MB (peak ${n.hwm_mb}), V8 heap used ${h?.heap_used_mb ?? "?"} of ${h?.heap_total_mb ?? "?"} MB, external ${h?.external_mb ?? "?"} MB, ${n.fill_cpu_s ?? "?"} CPU s in the fill; idle: RSS ${n.idle_rss_mb} MB, heap used ${n.idle_heap?.heap_used_mb ?? "?"} MB`,
      );
    }
    options.log(`memory: during the fill: ${logEvents(dir, cluster.ids)}`);
    if (heapSnapshotDir) await writeHeapSnapshots(cluster, heapSnapshotDir, options.log);
    const rss = nodes.map((n) => n.rss_mb).filter((v): v is number => v !== null);
    return {
      sessions_requested: options.sessions,
      locks_requested: options.locks,
      sessions_opened: sessions.length,
      locks_held: held,
      fill_s: Math.round(fillS * 10) / 10,
      fill_writes_per_s: Math.round((sessions.length + held) / fillS),
      nodes,
      max_rss_mb: rss.length ? Math.max(...rss) : null,
      errors,
      error_samples: [...errorSamples],
    };
  } finally {
    // The sessions are not closed one by one: the cluster goes away with them.
    await cluster.stopAll("SIGKILL");
    await Promise.race([
      Promise.all([...clients, admin].map((c) => c.close().catch(() => undefined))),
      sleep(2_000),
    ]);
    removeTempDir(dir);
  }
}
