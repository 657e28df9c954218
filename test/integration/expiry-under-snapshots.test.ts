// A dead client's lock goes to its waiter by the session's expiry, also on a cluster whose
// state is large (100,000 sessions) and that takes a snapshot every second or so: the
// leader snapshots that state while the session lives and again after it expired, and the
// expiry still comes (the snapshot's encoding is sliced so as not to stall the leader's
// loop, which lock-snapshot.test.ts proves; how long the expiry takes is the bench's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PalisadeClient, Session } from "../../client/index.ts";
import { LockStateMachine } from "../../node/lock/index.ts";
import { LevelStorage } from "../../node/storage/level-storage.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { RawLockApi } from "./raw.ts";

const IDLE_SESSIONS = 100_000;
/** The dead client's TTL: its keepalives come from this process, which a loaded machine may stall for seconds. */
const TTL_MS = 5_000;
const SNAPSHOT_ENTRIES = 60;
/** Concurrent acquire/release loops that keep the log growing. */
const CHURN_LOOPS = 8;
const MAX_SESSIONS = IDLE_SESSIONS + 1_000;

/** A lock state with many live sessions (TTL 1 h: they outlive the test), as one snapshot. */
function largeState(): { index: number; data: Uint8Array } {
  const sm = new LockStateMachine({ maxSessions: MAX_SESSIONS, minTtlMs: 500 });
  let index = 0;
  for (let i = 0; i < IDLE_SESSIONS; i++) {
    sm.apply(++index, {
      type: "openSession",
      requestId: `idle-${i}`,
      ttlMs: 3_600_000,
      clientName: `idle-${i % 100}`,
      wallMs: 0,
    });
  }
  return { index, data: sm.snapshot() };
}

let cluster: Cluster;
let raw: RawLockApi;
let churn: PalisadeClient;
let stopChurn = false;
let churning: Promise<void> = Promise.resolve();

beforeAll(async () => {
  const state = largeState();
  cluster = await startCluster({
    raft: { snapshotEntries: SNAPSHOT_ENTRIES },
    limits: { maxSessions: MAX_SESSIONS },
    startTimeoutMs: 60_000,
    beforeStart: async ({ dataDir }) => {
      for (const id of [1, 2, 3]) {
        const storage = await LevelStorage.open({
          dir: dataDir(id),
          clusterId: "palisade-it",
          nodeId: id,
          reserveBytes: 0,
        });
        try {
          await storage.save(
            {
              snapshot: {
                meta: {
                  index: state.index,
                  term: 1,
                  membership: { voters: [1, 2, 3], learners: [] },
                },
                data: state.data,
              },
              hardState: { term: 1, vote: 0, commit: state.index },
            },
            true,
          );
        } finally {
          await storage.close();
        }
      }
    },
  });
  raw = new RawLockApi(cluster.endpoints);
  churn = cluster.client({ clientName: "churn" });
}, 120_000);

afterAll(async () => {
  stopChurn = true;
  await churning.catch(() => undefined);
  raw?.close();
  await cluster?.stop();
});

/**
 * Acquire/release cycles on a few locks: two entries each, so a snapshot every few dozen
 * cycles. It is load, not the subject: after a failed call (a session lost by a stalled
 * test process, a leader change) it goes on with a new session; the waits below would see
 * it stop as snapshots that stop coming.
 */
async function churnLoop(loop: number): Promise<void> {
  let session: Session | undefined;
  for (let i = 0; !stopChurn; i++) {
    const name = `churn-${loop}-${i % 4}`;
    try {
      session ??= await churn.openSession({ ttlMs: 10_000 });
      const got = await session.acquire(name);
      if (got.acquired && got.token !== undefined) await session.release(name, got.token);
    } catch {
      // Whatever the failed call left held goes with its session.
      void session?.close().catch(() => undefined);
      session = undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await session?.close().catch(() => undefined);
}

describe("session expiry on a large state with frequent snapshots", () => {
  it("hands a dead client's lock to its waiter by expiry, with snapshots of the large state before and after", async () => {
    const leader = await cluster.leaderId(60_000);
    expect((await cluster.status(leader)).snapshotIndex).toBeGreaterThanOrEqual(
      BigInt(IDLE_SESSIONS),
    );
    churning = Promise.all(Array.from({ length: CHURN_LOOPS }, (_, i) => churnLoop(i))).then(
      () => undefined,
      () => undefined,
    );
    const snapshotIndex = async (): Promise<bigint> =>
      (await cluster.status(await cluster.leaderId())).snapshotIndex;
    const reader = cluster.client({ clientName: "reader" });

    // The client that dies: its session and grant, kept alive until the leader has taken a
    // snapshot with both in it, then silent (no keepalive ever again).
    const dead = await raw.openSession(TTL_MS, "dead-client");
    const held = await raw.acquire({ sessionId: dead, lock: "victim", seq: 1 });
    expect(held.acquired).toBe(true);
    const grantedIndex = (await reader.read.history("victim"))[0]?.grantedIndex ?? 0n;
    expect(grantedIndex).toBeGreaterThan(0n);
    let keepingAlive = true;
    const keepalives = (async () => {
      while (keepingAlive) {
        // One that fails (a leader change) is followed by the next.
        await raw.keepAlive(dead).catch(() => undefined);
        await new Promise((r) => setTimeout(r, TTL_MS / 5));
      }
    })();
    try {
      await cluster.waitFor(
        "a snapshot holding the dead client's grant",
        async () => (await snapshotIndex()) >= grantedIndex,
        {
          progress: async () => (await cluster.status(await cluster.leaderId())).appliedIndex,
        },
      );
    } finally {
      keepingAlive = false;
      await keepalives;
    }
    expect((await reader.read.getSession(dead))?.heldLocks).toEqual(["victim"]);

    // Its waiter gets the lock once the cluster expires the silent session. The call keeps
    // re-attaching its wait through leader changes for as long as it waits: with this state
    // on a loaded machine, elections can follow one another for longer than the usual budget.
    const WAIT_MS = 60_000;
    const waiter = await cluster
      .client({ clientName: "waiter", retryBudgetMs: WAIT_MS })
      .openSession({ ttlMs: 10_000 });
    const got = await waiter.acquire("victim", { waitMs: WAIT_MS });
    expect(got.acquired, "the waiter was not granted within its wait").toBe(true);
    const history = await reader.read.history("victim");
    expect(history.map((r) => [r.sessionId, r.token, r.reason])).toEqual([
      [dead, held.token, "sessionExpired"],
      [waiter.id, got.token, "current"],
    ]);
    expect(got.token).toBeGreaterThan(held.token);

    // The leader goes on snapshotting the large state after the expiry.
    const expiredAt = history[0]?.endedIndex ?? 0n;
    await cluster.waitFor(
      "a snapshot holding the expiry",
      async () => (await snapshotIndex()) >= expiredAt,
      {
        progress: async () => (await cluster.status(await cluster.leaderId())).appliedIndex,
      },
    );
    await waiter.close();
  });
});
