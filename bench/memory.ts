// Node memory with many locks held: a three-node cluster (product defaults), `sessions`
// sessions opened from several clients, `locks` distinct locks acquired and kept, spread
// evenly over the sessions; then VmRSS (and the peak, VmHWM) of every node process from
// /proc/PID/status, next to the same figures of the idle cluster.
import { PalisadeClient, type Session } from "../client/index.ts";
import { BenchCluster, makeTempDir, procStatusBytes, removeTempDir, sleep } from "./cluster-control.ts";

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

const mb = (bytes: number | null): number | null => (bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10);

/** Runs task(0..count-1) with at most `concurrency` at once; stops starting new ones once `until` passes. */
async function pool(count: number, concurrency: number, until: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count && performance.now() < until) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

export async function runMemory(options: MemoryOptions): Promise<MemoryResult> {
  const dir = makeTempDir("palisade-memory-");
  const cluster = await BenchCluster.create(dir);
  const admin = new PalisadeClient({ endpoints: cluster.endpoints, callTimeoutMs: 1_000, retryBudgetMs: 2_000 });
  const clients = Array.from({ length: CLIENTS }, (_, i) =>
    // Each session checks its deadline on a timer; at the default 50 ms, 10,000 sessions in
    // this one process would spend its CPU on those timers instead of on requests.
    new PalisadeClient({ endpoints: cluster.endpoints, clientName: `memory-bench-${i}`, retryBudgetMs: 60_000, callTimeoutMs: 10_000, deadlineTickMs: 5_000 }));
  let errors = 0;
  const errorSamples = new Set<string>();
  const noteError = (e: unknown): void => {
    errors++;
    if (errorSamples.size < 5) errorSamples.add(e instanceof Error ? e.message.slice(0, 200) : String(e));
  };
  try {
    cluster.startAll();
    await cluster.waitServing();
    const leader = await cluster.waitLeader(admin);
    await sleep(2_000);
    const idle = new Map(cluster.ids.map((id) => [id, procStatusBytes(cluster.pidOf(id) ?? -1)]));

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
    options.log(`memory: ${sessions.length} sessions open after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    let held = 0;
    if (sessions.length > 0) {
      await pool(options.locks, ACQUIRE_CONCURRENCY, until, async (i) => {
        const session = sessions[i % sessions.length];
        if (!session) return;
        try {
          const r = await session.acquire(`bench/memory/l${i}`, { waitMs: 0 });
          if (r.acquired) held++;
          if (held % 20_000 === 0 && r.acquired) options.log(`memory: ${held} locks held after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        } catch (e) {
          noteError(e);
        }
      });
    }
    const fillS = (performance.now() - t0) / 1000;
    options.log(`memory: ${held} locks held by ${sessions.length} sessions after ${fillS.toFixed(1)} s; settling 3 s`);
    await sleep(3_000);
    const nodes: NodeMemory[] = cluster.ids.map((id) => {
      const pid = cluster.pidOf(id) ?? -1;
      return { node: id, leader: id === leader, idle_rss_mb: mb(idle.get(id) ?? null), rss_mb: mb(procStatusBytes(pid)), hwm_mb: mb(procStatusBytes(pid, "VmHWM")) };
    });
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
    await Promise.race([Promise.all([...clients, admin].map((c) => c.close().catch(() => undefined))), sleep(2_000)]);
    removeTempDir(dir);
  }
}
