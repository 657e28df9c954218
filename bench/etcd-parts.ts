// The etcd side of the failover and memory parts, through the etcd-lockapi backend
// (etcd's server-side Lock API, one lease per session), measured the same way as Palisade's
// (see failover.ts and memory.ts).
import { makeTempDir, procStatusBytes, removeTempDir, sleep } from "./cluster-control.ts";
import type { EtcdLockApi, EtcdLockSession } from "./backends/etcd-lock-api.ts";
import { EtcdCluster, openEtcdLockBackend } from "./etcd-control.ts";
import { summarize, type Summary } from "./stats.ts";

export interface EtcdFailoverResult {
  kills: number;
  failover_ms: Summary;
  samples_ms: number[];
  unresolved: number;
  workers: number;
  acquires_total: number;
  errors_total: number;
  config: string;
}

/** Runs `attempt` until it succeeds or `until` passes; the time it succeeded, or null. */
async function firstSuccess(
  attempt: () => Promise<boolean>,
  until: number,
): Promise<number | null> {
  while (performance.now() < until) {
    try {
      if (await attempt()) return performance.now();
    } catch {
      await sleep(10);
    }
  }
  return null;
}

export async function runEtcdFailover(
  kills: number,
  workers: number,
  maxWaitMs: number,
  log: (line: string) => void,
): Promise<EtcdFailoverResult> {
  const dir = makeTempDir("palisade-etcd-failover-");
  const cluster = await EtcdCluster.create(dir);
  let backend: EtcdLockApi | null = null;
  const stop = new AbortController();
  let running: Promise<void>[] = [];
  let acquires = 0;
  let errors = 0;
  const samples: number[] = [];
  let unresolved = 0;
  try {
    cluster.startAll();
    await cluster.waitLeader();
    const lockApi = await openEtcdLockBackend(cluster.endpoints, 10_000);
    backend = lockApi;
    // Sessions are spread round-robin over the members; three probes, one per member.
    const probes = await Promise.all([0, 1, 2].map((i) => lockApi.session(i)));
    const sessions = await Promise.all(
      Array.from({ length: workers }, (_, i) => lockApi.session(i)),
    );
    const cycle = async (session: EtcdLockSession, lock: string): Promise<boolean> => {
      const signal = AbortSignal.timeout(maxWaitMs);
      const got = await lockApi.acquire(session, lock, signal);
      if (!got) return false;
      acquires++;
      await lockApi.release(session, got.handle);
      return true;
    };
    running = sessions.map(async (session, w) => {
      while (!stop.signal.aborted) {
        try {
          await cycle(session, `bench/failover/w${w}`);
        } catch {
          errors++;
          await sleep(20);
        }
      }
    });
    for (let k = 1; k <= kills; k++) {
      const leader = await cluster.waitLeader();
      await sleep(1_000);
      const killedAt = performance.now();
      await cluster.stop(leader, "SIGKILL");
      const until = killedAt + maxWaitMs;
      const firsts = await Promise.all(
        probes.map((p, i) => firstSuccess(() => cycle(p, `bench/failover/probe${i}`), until)),
      );
      const done = firsts.filter((t): t is number => t !== null);
      if (done.length === 0) {
        unresolved++;
        samples.push(maxWaitMs);
      } else {
        samples.push(Math.min(...done) - killedAt);
      }
      log(
        `etcd failover kill ${k}/${kills}: leader m${leader}, first acquire after ${(samples.at(-1) ?? 0).toFixed(0)} ms`,
      );
      cluster.start(leader);
      await cluster.waitAnswering(leader);
      await sleep(1_000);
    }
    return {
      kills,
      failover_ms: summarize(samples),
      samples_ms: samples.map((s) => Math.round(s * 10) / 10),
      unresolved,
      workers,
      acquires_total: acquires,
      errors_total: errors,
      config:
        "3 members, etcd defaults (heartbeat 100 ms, election 1000 ms), lease TTL 10 s; probes on every member",
    };
  } finally {
    stop.abort();
    await cluster.stopAll("SIGKILL");
    await Promise.race([Promise.all(running), sleep(3_000)]);
    await Promise.race([backend?.close().catch(() => undefined), sleep(2_000)]);
    removeTempDir(dir);
  }
}

export interface EtcdMemoryResult {
  sessions_opened: number;
  locks_held: number;
  fill_s: number;
  members: {
    member: number;
    idle_rss_mb: number | null;
    rss_mb: number | null;
    hwm_mb: number | null;
  }[];
  max_rss_mb: number | null;
  errors: number;
}

const mb = (bytes: number | null): number | null =>
  bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;

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

export async function runEtcdMemory(
  sessionsWanted: number,
  locksWanted: number,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<EtcdMemoryResult> {
  const dir = makeTempDir("palisade-etcd-memory-");
  const cluster = await EtcdCluster.create(dir);
  let backend: EtcdLockApi | null = null;
  let errors = 0;
  try {
    cluster.startAll();
    await cluster.waitLeader();
    await sleep(2_000);
    const idle = new Map(cluster.ids.map((id) => [id, procStatusBytes(cluster.pidOf(id) ?? -1)]));
    // A long lease TTL keeps the leases' keepalive traffic (every TTL/3) out of the fill.
    const lockApi = await openEtcdLockBackend(cluster.endpoints, 600_000);
    backend = lockApi;
    const until = performance.now() + timeoutMs;
    const t0 = performance.now();
    const sessions: EtcdLockSession[] = [];
    await pool(sessionsWanted, 512, until, async (i) => {
      try {
        sessions.push(await lockApi.session(i));
      } catch {
        errors++;
      }
    });
    log(
      `etcd memory: ${sessions.length} leases after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    let held = 0;
    await pool(locksWanted, 2_048, until, async (i) => {
      const session = sessions[i % sessions.length];
      if (!session) return;
      try {
        if (await lockApi.acquire(session, `bench/memory/l${i}`, AbortSignal.timeout(60_000)))
          held++;
      } catch {
        errors++;
      }
    });
    const fillS = (performance.now() - t0) / 1000;
    log(
      `etcd memory: ${held} locks held by ${sessions.length} leases after ${fillS.toFixed(1)} s; settling 3 s`,
    );
    await sleep(3_000);
    const members = cluster.ids.map((id) => {
      const pid = cluster.pidOf(id) ?? -1;
      return {
        member: id,
        idle_rss_mb: mb(idle.get(id) ?? null),
        rss_mb: mb(procStatusBytes(pid)),
        hwm_mb: mb(procStatusBytes(pid, "VmHWM")),
      };
    });
    const rss = members.map((m) => m.rss_mb).filter((v): v is number => v !== null);
    return {
      sessions_opened: sessions.length,
      locks_held: held,
      fill_s: Math.round(fillS * 10) / 10,
      members,
      max_rss_mb: rss.length ? Math.max(...rss) : null,
      errors,
    };
  } finally {
    await cluster.stopAll("SIGKILL");
    await Promise.race([backend?.close().catch(() => undefined), sleep(2_000)]);
    removeTempDir(dir);
  }
}
