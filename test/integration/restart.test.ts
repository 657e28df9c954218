// Restart every node of a real cluster (kill -9 all three): sessions, locks, waiters,
// history and the token sequence come back from disk; no token is issued twice.
import { describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "restart-test" });
});

/**
 * The sessions' TTL: while every node is down the client's keepalives go unanswered, and
 * the whole cluster's restart (process starts and an election) must fit in it, which on a
 * loaded machine takes tens of seconds.
 */
const TTL_MS = 60_000;

function expectStrictlyIncreasing(tokens: bigint[]): void {
  for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]);
}

describe("restart of all nodes", () => {
  it("keeps sessions, locks, waiters and the token sequence", async () => {
    const holder = await client.openSession({ ttlMs: TTL_MS });
    const waiter = await client.openSession({ ttlMs: TTL_MS });
    const earlier: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      const got = await holder.acquire("cycled");
      expect(got.acquired).toBe(true);
      earlier.push(got.token ?? 0n);
      await holder.release("cycled", got.token ?? 0n);
    }
    const held = await holder.acquire("held");
    expect(held.acquired).toBe(true);
    earlier.push(held.token ?? 0n);
    // A wait that spans the restart: the client retries it with the same seq.
    const pending = waiter.startAcquire("held", { waitMs: 60_000 });
    await cluster.waitFor(
      "the waiter to queue",
      async () => (await client.read.getLock("held")).waiters.length === 1,
    );
    const historyBefore = await client.read.history("cycled");
    expect(historyBefore.map((r) => r.token)).toEqual(earlier.slice(0, 5));

    for (const id of cluster.ids) await cluster.kill(id, "SIGKILL");
    for (const id of cluster.ids) await cluster.restart(id);
    await cluster.leaderId(30_000);

    const session = await client.read.getSession(holder.id);
    expect(session?.heldLocks).toEqual(["held"]);
    expect(session?.ttlMs).toBe(TTL_MS);
    const info = await client.read.getLock("held");
    expect(info.holder?.sessionId).toBe(holder.id);
    expect(info.holder?.token).toBe(held.token);
    expect(info.waiters.map((w) => w.sessionId)).toEqual([waiter.id]);
    expect(await client.read.history("cycled")).toEqual(historyBefore);

    // The release hands the lock to the waiter whose Acquire was sent before the restart.
    await holder.release("held", held.token ?? 0n);
    const granted = await pending.result;
    expect(granted.acquired).toBe(true);
    const max = earlier.reduce((a, b) => (b > a ? b : a));
    expect(granted.token).toBeGreaterThan(max);

    const next = await holder.acquire("cycled");
    expect(next.token).toBeGreaterThan(granted.token ?? 0n);
    const cycled = (await client.read.history("cycled")).map((r) => r.token);
    expect(cycled).toEqual([...earlier.slice(0, 5), next.token]);
    expectStrictlyIncreasing(cycled);
    const heldHistory = (await client.read.history("held")).map((r) => r.token);
    expect(heldHistory).toEqual([held.token, granted.token]);

    await holder.close();
    await waiter.close();
  });

  it("does it again after a graceful stop (SIGTERM) of every node", async () => {
    const session = await client.openSession({ ttlMs: TTL_MS });
    const before = await session.acquire("graceful");
    expect(before.acquired).toBe(true);
    for (const id of cluster.ids) await cluster.kill(id, "SIGTERM");
    for (const id of cluster.ids) await cluster.restart(id);
    await cluster.leaderId(30_000);
    expect((await client.read.getLock("graceful")).holder?.token).toBe(before.token);
    await session.release("graceful", before.token ?? 0n);
    const after = await session.acquire("graceful");
    expect(after.token).toBeGreaterThan(before.token ?? 0n);
    await session.close();
  });
});
