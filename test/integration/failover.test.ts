// Crashes on a real cluster: kill -9 the leader and a new one takes over with larger
// tokens; a follower that was down catches up and can carry the quorum.
import { describe, expect, it } from "vitest";
import { SessionLostError, type PalisadeClient } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "failover-test" });
});

/** Acquires and releases `lock` once, returning the token. */
async function grantOnce(
  session: Awaited<ReturnType<PalisadeClient["openSession"]>>,
  lock: string,
): Promise<bigint> {
  const got = await session.acquire(lock);
  expect(got.acquired).toBe(true);
  const token = got.token ?? 0n;
  await session.release(lock, token);
  return token;
}

describe("failover", () => {
  it("replaces a killed leader; later tokens are larger than every earlier one", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    const seen: bigint[] = [];
    for (let i = 0; i < 3; i++) seen.push(await grantOnce(session, `f-${i % 2}`));
    const held = await session.acquire("kept");
    expect(held.acquired).toBe(true);
    seen.push(held.token ?? 0n);

    const oldLeader = await cluster.leaderId();
    await cluster.kill(oldLeader, "SIGKILL");
    const newLeader = await cluster.leaderId();
    expect(newLeader).not.toBe(oldLeader);

    // The session and its lock survive the failover.
    const info = await client.read.getLock("kept");
    expect(info.holder?.sessionId).toBe(session.id);
    expect(info.holder?.token).toBe(held.token);

    const max = seen.reduce((a, b) => (b > a ? b : a));
    const after = await grantOnce(session, "f-0");
    expect(after).toBeGreaterThan(max);
    const other = await grantOnce(session, "f-new");
    expect(other).toBeGreaterThan(after);

    await cluster.restart(oldLeader);
    // Rejoined: it follows the leader the live nodes agree on now (asked again each time:
    // on a loaded machine leadership may have moved since newLeader was read).
    await cluster.waitFor(
      `node ${oldLeader} to rejoin`,
      async () => (await cluster.status(oldLeader)).leaderId === (await cluster.leaderId()),
    );
    await session.release("kept", held.token ?? 0n);
    await session.close();
  });

  it("lets a follower that was down catch up and then carry the quorum", async () => {
    const leader = await cluster.leaderId();
    const follower = cluster.ids.find((id) => id !== leader) ?? 0;
    const third = cluster.ids.find((id) => id !== leader && id !== follower) ?? 0;
    await cluster.kill(follower, "SIGKILL");

    const session = await client.openSession({ ttlMs: 10_000 });
    const tokens: bigint[] = [];
    for (let i = 0; i < 20; i++) tokens.push(await grantOnce(session, `catch-up-${i % 4}`));
    const holding = await session.acquire("catch-up-held");
    expect(holding.acquired).toBe(true);
    const leaderStatus = await cluster.status(leader);

    await cluster.restart(follower);
    await cluster.waitFor(`node ${follower} to catch up`, async () => {
      const s = await cluster.status(follower);
      return s.appliedIndex >= leaderStatus.commitIndex;
    });

    // Without the other follower, the caught-up node is needed for every quorum.
    await cluster.kill(third, "SIGKILL");
    const info = await client.read.getLock("catch-up-held");
    expect(info.holder?.sessionId).toBe(session.id);
    expect(info.holder?.token).toBe(holding.token);
    const next = await grantOnce(session, "catch-up-0");
    expect(next).toBeGreaterThan(holding.token ?? 0n);
    const history = await client.read.history("catch-up-0");
    const historyTokens = history.map((r) => r.token);
    expect(new Set(historyTokens).size).toBe(historyTokens.length);
    expect(historyTokens.slice(-1)).toEqual([next]);

    await cluster.restart(third);
    await session.close();
  });

  it("loses a session on the client by its own deadline when no quorum answers keepalives", async () => {
    for (const id of cluster.ids) if (!cluster.isRunning(id)) await cluster.restart(id);
    const leader = await cluster.leaderId();
    // Short, so the loss comes soon, yet longer than a loaded machine's own stalls of this process.
    const session = await client.openSession({ ttlMs: 3_000 });
    const got = await session.acquire("lost-with-session");
    expect(got.acquired).toBe(true);
    const lostReason = new Promise<string>((resolve) => session.onLost(resolve));

    // Without two of three nodes no keepalive can be acknowledged.
    const others = cluster.ids.filter((id) => id !== leader);
    for (const id of others) await cluster.kill(id, "SIGKILL");
    expect(await lostReason).toMatch(/no keepalive acknowledged/);
    expect(session.state).toBe("lost");
    expect(session.signal.aborted).toBe(true);
    expect(session.signal.reason).toBeInstanceOf(SessionLostError);
    await expect(session.acquire("lost-with-session")).rejects.toBeInstanceOf(SessionLostError);

    for (const id of others) await cluster.restart(id);
    await cluster.leaderId();
    // The cluster expires the session too, so another client gets the lock with a larger token.
    const other = await client.openSession({ ttlMs: 5_000 });
    const next = await other.acquire("lost-with-session", { waitMs: 20_000 });
    expect(next.acquired).toBe(true);
    expect(next.token).toBeGreaterThan(got.token ?? 0n);
    await other.close();
  });
});
