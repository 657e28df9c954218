// Start-up time: the two targets (a node on an empty data directory answering Status,
// `palisadectl status` against a running cluster; startup-targets.ts), then a node with a
// long log, and with a snapshot of the same state.
//
// 0. Timed, several times each: node 1 of a new cluster on an empty data directory, from
//    spawn to its first Status answer; and, once the cluster of step 1 serves,
//    `palisadectl status` against it, from spawn to exit.
// 1. A three-node cluster (snapshots off: raft.snapshotEntries above the log length) opens
//    one session; then every node stops gracefully.
// 2. Node 1's data directory gets `entries` more committed entries written straight through
//    LevelStorage.save in large batches: Acquire and Release of that session, alternating,
//    over 10,000 lock names (each Release names the token its Acquire was granted).
// 3. Timed, node 1 alone (also once before step 2, for the fixed cost of a start): from spawn to its first Status answer, and to Status reporting the
//    whole log applied (it replays every entry through the lock state machine).
// 4. Node 1 is started once more with raft.snapshotEntries = entries, so it snapshots the
//    replayed state and compacts its log, and stops; then it is timed again, starting from
//    that snapshot.
import { PalisadeClient } from "../client/index.ts";
import { encodeEntry, tokenFor, type Command } from "../node/lock/index.ts";
import type { Entry } from "../node/raft/types.ts";
import { LevelStorage } from "../node/storage/level-storage.ts";
import {
  BenchCluster,
  makeTempDir,
  procStatusBytes,
  removeTempDir,
  sleep,
} from "./cluster-control.ts";
import { answersStatus, timeCtlStatus, timeFreshStarts, type Timings } from "./startup-targets.ts";

export interface StartupOptions {
  entries: number;
  /** Runs of each start-up target measurement. */
  runs: number;
  log: (line: string) => void;
}

export interface StartupRun {
  /** Spawn to the first Status answer (the node is serving its client port). */
  first_status_ms: number | null;
  /** Spawn to Status reporting every committed entry applied. */
  applied_ms: number | null;
  applied_index: string | null;
  snapshot_index: string | null;
  rss_mb: number | null;
}

export interface StartupResult {
  entries: number;
  /** A node on an empty data directory: spawn to its first Status answer. */
  fresh_start: Timings;
  /** `palisadectl status` against the running three-node cluster: spawn to exit. */
  ctl_status: Timings;
  /** The same node with its first few entries only: the fixed cost of a start. */
  empty_start: StartupRun;
  log_start: StartupRun;
  snapshot_start: StartupRun;
  /** Entries after the snapshot index (replayed on top of the snapshot). */
  snapshot_trailing_entries: number | null;
  build_s: number;
  data_dir_mb: number | null;
}

const BATCH = 20_000;
const LOCK_NAMES = 10_000;
const TIMEOUT_MS = 300_000;
const SESSION_TTL_MS = 3_600_000;

export async function runStartup(options: StartupOptions): Promise<StartupResult> {
  const dir = makeTempDir("palisade-startup-");
  const noSnapshots = { snapshotEntries: options.entries * 4 };
  const cluster = await BenchCluster.create(dir, { raft: noSnapshots });
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 500,
    retryBudgetMs: 500,
  });
  try {
    const freshStart = await timeFreshStarts(options.runs);
    options.log(
      `startup: empty data directory, first Status after ${freshStart.p50_ms} ms (median of ${freshStart.runs}; max ${freshStart.max_ms})`,
    );
    const t0 = performance.now();
    cluster.startAll();
    await cluster.waitServing();
    const leader = await cluster.waitLeader(admin);
    const ctlStatus = await timeCtlStatus(cluster.endpoints, options.runs);
    options.log(
      `startup: palisadectl status took ${ctlStatus.p50_ms} ms (median of ${ctlStatus.runs}; max ${ctlStatus.max_ms})`,
    );
    const epoch = Number((await admin.admin.status(cluster.endpointOf(leader))).epoch);
    // The session is left open on purpose: the generated entries are its requests.
    const owner = new PalisadeClient({
      endpoints: cluster.endpoints,
      clientName: "startup-bench",
      retryBudgetMs: 5_000,
    });
    const session = await owner.openSession({ ttlMs: SESSION_TTL_MS });
    const sessionId = session.id;
    await cluster.stopAll("SIGTERM");
    void owner.close().catch(() => undefined); // nothing left to answer it; its retries end on their own

    const emptyStart = await timeStart(cluster, 0);
    options.log(`startup: with a near-empty log: status after ${emptyStart.first_status_ms} ms`);
    const lastIndex = await appendEntries(cluster, 1, options.entries, sessionId, epoch);
    const buildS = (performance.now() - t0) / 1000;
    options.log(`startup: node 1 log built up to index ${lastIndex} in ${buildS.toFixed(1)} s`);
    const dataMb = await dirMegabytes(cluster.dataDirOf(1));

    const logStart = await timeStart(cluster, lastIndex);
    options.log(
      `startup: from a ${options.entries}-entry log: status after ${logStart.first_status_ms} ms, applied after ${logStart.applied_ms} ms`,
    );

    // Let node 1 snapshot the replayed state, then time a start from that snapshot.
    cluster.setRaft({ snapshotEntries: options.entries });
    cluster.start(1);
    const snapshotIndex = await waitSnapshot(cluster, admin);
    await cluster.stop(1, "SIGTERM");
    const snapStart = await timeStart(cluster, lastIndex);
    options.log(
      `startup: from a snapshot at ${snapshotIndex}: status after ${snapStart.first_status_ms} ms, applied after ${snapStart.applied_ms} ms`,
    );
    return {
      entries: options.entries,
      fresh_start: freshStart,
      ctl_status: ctlStatus,
      empty_start: emptyStart,
      log_start: logStart,
      snapshot_start: snapStart,
      snapshot_trailing_entries: snapshotIndex === null ? null : lastIndex - snapshotIndex,
      build_s: Math.round(buildS * 10) / 10,
      data_dir_mb: dataMb,
    };
  } finally {
    await cluster.stopAll("SIGKILL");
    await Promise.race([admin.close().catch(() => undefined), sleep(2_000)]);
    removeTempDir(dir);
  }
}

/** Appends `count` committed Acquire/Release entries of `sessionId` to node `id`'s stored log; returns the last index. */
export async function appendEntries(
  cluster: BenchCluster,
  id: number,
  count: number,
  sessionId: bigint,
  epoch: number,
): Promise<number> {
  const storage = await LevelStorage.open({
    dir: cluster.dataDirOf(id),
    clusterId: "palisade-bench",
    nodeId: id,
    reserveBytes: 0,
  });
  try {
    const state = await storage.load();
    const last = state.entries.at(-1);
    let index = last?.index ?? state.snapshot?.meta.index ?? 0;
    const term = state.hardState.term;
    const wallMs = Date.now();
    let seq = 1;
    let grantIndex = 0;
    let written = 0;
    while (written < count) {
      const batch: Entry[] = [];
      while (batch.length < BATCH && written < count) {
        index++;
        const lock = `bench/startup/l${Math.floor(written / 2) % LOCK_NAMES}`;
        const base = { sessionId, seq, ackedUpTo: seq - 1, held: [] as number[], lock, wallMs };
        let cmd: Command;
        if (written % 2 === 0) {
          cmd = { type: "acquire", ...base, waitMs: 0 };
          grantIndex = index;
        } else {
          cmd = { type: "release", ...base, token: tokenFor(epoch, grantIndex) };
        }
        batch.push({ term, index, kind: "normal", data: encodeEntry(cmd) });
        seq++;
        written++;
      }
      const done = written >= count;
      await storage.save(
        {
          entries: batch,
          hardState: done ? { term, vote: state.hardState.vote, commit: index } : null,
        },
        done,
      );
    }
    return index;
  } finally {
    await storage.close();
  }
}

/**
 * Spawns node 1 alone and times it to its first Status answer (on a channel of its own per
 * try, so no reconnect back-off delays it) and to the whole log applied; stops it after.
 */
async function timeStart(cluster: BenchCluster, lastIndex: number): Promise<StartupRun> {
  const startedAt = cluster.start(1);
  const run: StartupRun = {
    first_status_ms: null,
    applied_ms: null,
    applied_index: null,
    snapshot_index: null,
    rss_mb: null,
  };
  const ms = (): number => Math.round(performance.now() - startedAt);
  let probe: PalisadeClient | null = null;
  try {
    while (performance.now() - startedAt < TIMEOUT_MS) {
      if (run.first_status_ms === null && (await answersStatus(cluster.endpointOf(1)))) {
        run.first_status_ms = ms();
        // A client made now has never seen the node down, so it is in no reconnect back-off.
        probe = new PalisadeClient({
          endpoints: [cluster.endpointOf(1)],
          callTimeoutMs: 500,
          retryBudgetMs: 500,
        });
      }
      const s = probe ? await cluster.status(probe, 1) : null;
      if (s) {
        run.applied_index = String(s.appliedIndex);
        run.snapshot_index = String(s.snapshotIndex);
        if (s.appliedIndex >= BigInt(lastIndex)) {
          run.applied_ms = ms();
          break;
        }
      } else if (cluster.pidOf(1) === null) {
        throw new Error(`node 1 exited during start-up\n${cluster.logTails()}`);
      }
      await sleep(probe ? 20 : 5);
    }
    const rss = procStatusBytes(cluster.pidOf(1) ?? -1);
    run.rss_mb = rss === null ? null : Math.round((rss / 1024 / 1024) * 10) / 10;
    return run;
  } finally {
    await cluster.stop(1, "SIGTERM");
    await probe?.close().catch(() => undefined);
  }
}

/** Bounded wait until node 1 reports a snapshot; its index. */
async function waitSnapshot(cluster: BenchCluster, admin: PalisadeClient): Promise<number | null> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (performance.now() < deadline) {
    const s = await cluster.status(admin, 1);
    if (s && s.snapshotIndex > 0n) return Number(s.snapshotIndex);
    await sleep(100);
  }
  return null;
}

async function dirMegabytes(path: string): Promise<number | null> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    execFile("du", ["-sk", path], (error, stdout) => {
      if (error) return resolve(null);
      resolve(Math.round((Number(stdout.split("\t")[0]) / 1024) * 10) / 10);
    });
  });
}
