// A dead client's lock goes to its waiter within one TTL plus a bounded slack, also on a
// cluster whose state is large (100,000 sessions) and that takes a snapshot every second
// or so: encoding such a snapshot must not stall the leader's event loop (which would make
// it defer expiries), and a stall must move deadlines only by its own length.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { LockStateMachine } from "../../node/lock/index.ts";
import { LevelStorage } from "../../node/storage/level-storage.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { RawLockApi } from "./raw.ts";

const IDLE_SESSIONS = 100_000;
const TTL_MS = 2_000;
/**
 * What the lock may take beyond the TTL: the expiry's proposal, commit and apply on the
 * leader (applying waits while a snapshot is encoded), plus every event-loop stall the
 * leader saw meanwhile (each moves the deadline by its own length).
 */
const SLACK_MS = 3_000;
const SNAPSHOT_ENTRIES = 60;
/** Concurrent acquire/release loops that keep the log growing. */
const CHURN_LOOPS = 8;
const MAX_SESSIONS = IDLE_SESSIONS + 1_000;

/** A lock state with many live sessions (TTL 1 h: they outlive the test), as one snapshot. */
function largeState(): { index: number; data: Uint8Array } {
  const sm = new LockStateMachine({ maxSessions: MAX_SESSIONS, minTtlMs: 500 });
  let index = 0;
  for (let i = 0; i < IDLE_SESSIONS; i++) {
    sm.apply(++index, { type: "openSession", requestId: `idle-${i}`, ttlMs: 3_600_000, clientName: `idle-${i % 100}`, wallMs: 0 });
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
        const storage = await LevelStorage.open({ dir: dataDir(id), clusterId: "palisade-it", nodeId: id, reserveBytes: 0 });
        try {
          await storage.save({
            snapshot: { meta: { index: state.index, term: 1, membership: { voters: [1, 2, 3], learners: [] } }, data: state.data },
            hardState: { term: 1, vote: 0, commit: state.index },
          }, true);
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

/** Acquire/release cycles on a few locks: two entries each, so a snapshot every few hundred cycles. */
async function churnLoop(loop: number): Promise<void> {
  const session = await churn.openSession({ ttlMs: 10_000 });
  for (let i = 0; !stopChurn; i++) {
    const name = `churn-${loop}-${i % 4}`;
    const got = await session.acquire(name);
    if (got.acquired && got.token !== undefined) await session.release(name, got.token);
  }
  await session.close();
}

describe("session expiry on a large state with frequent snapshots", () => {
  it("hands a dead client's lock to its waiter within TTL plus the slack", async () => {
    const leader = await cluster.leaderId(60_000);
    expect((await cluster.status(leader)).snapshotIndex).toBeGreaterThanOrEqual(BigInt(IDLE_SESSIONS));
    // A churn loop that fails shows as too few snapshots below.
    churning = Promise.all(Array.from({ length: CHURN_LOOPS }, (_, i) => churnLoop(i))).then(() => undefined, () => undefined);

    // The dead client: its session and grant, then nothing (no keepalive ever).
    const openedAt = performance.now();
    const dead = await raw.openSession(TTL_MS, "dead-client");
    const held = await raw.acquire({ sessionId: dead, lock: "victim", seq: 1 });
    expect(held.acquired).toBe(true);
    const snapshotBefore = (await cluster.status(await cluster.leaderId())).snapshotIndex;

    const waiter = await cluster.client({ clientName: "waiter" }).openSession({ ttlMs: 10_000 });
    const got = await waiter.acquire("victim", { waitMs: TTL_MS + SLACK_MS + 10_000 });
    const grantedAfterMs = performance.now() - openedAt;
    const snapshotAfter = (await cluster.status(await cluster.leaderId())).snapshotIndex;
    expect(got.acquired, `the waiter was not granted within ${TTL_MS + SLACK_MS + 10_000} ms`).toBe(true);
    // Snapshots were taken while the dead session waited to expire.
    expect(Number(snapshotAfter - snapshotBefore)).toBeGreaterThanOrEqual(SNAPSHOT_ENTRIES);
    expect(grantedAfterMs, `granted ${Math.round(grantedAfterMs)} ms after the dead client's session opened`).toBeLessThanOrEqual(TTL_MS + SLACK_MS);
  });
});
