// Replacing a node and a rolling restart, on real processes, while a client holds a lock.
import { describe, expect, it } from "vitest";
import {
  FailedPreconditionError,
  type MemberInfo,
  type PalisadeClient,
} from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

describe("cluster lifecycle", () => {
  let cluster: Cluster;
  let admin: PalisadeClient;

  clusterForTests({}, (started) => {
    cluster = started;
    admin = cluster.client();
  });

  it("replaces one of three nodes (add learner, promote, remove the old) without losing a lock or reusing a token", async () => {
    const holderClient = cluster.client();
    const holder = await holderClient.openSession({ ttlMs: 10_000 });
    const held = await holder.acquire("replace-held");
    expect(held.acquired).toBe(true);
    const tokens = [held.token!];

    // The new node joins empty and learns the membership from the leader.
    const n4 = await cluster.startJoiningNode();
    await admin.admin.memberAdd(n4.id, n4.peerAddress, n4.clientAddress);
    const leader = await cluster.leaderId();
    await cluster.waitFor(
      "the learner to catch up",
      async () => {
        const [l, s] = await Promise.all([cluster.status(leader), cluster.status(n4.id)]);
        return s.appliedIndex >= l.commitIndex && s.role === "follower";
      },
      { progress: async () => (await cluster.status(n4.id)).appliedIndex },
    );
    // The leader promotes only a learner it has seen caught up; one newly elected meanwhile
    // has not heard from it yet and refuses, to be asked again (as its refusal says).
    let promoted: MemberInfo[] = [];
    await cluster.waitFor("the learner's promotion", async () => {
      try {
        promoted = await admin.admin.memberPromote(n4.id);
        return true;
      } catch (err) {
        if (err instanceof FailedPreconditionError && /has not caught up/.test(err.message))
          return false;
        throw err;
      }
    });
    expect(promoted.find((m) => m.nodeId === n4.id)?.kind).toBe("voter");

    // Remove node 1 (it may be the leader: it then steps down), then stop it.
    const other = await cluster.client().openSession({ ttlMs: 10_000 });
    const during = await other.acquire("replace-other");
    tokens.push(during.token!);
    const removed = await admin.admin.memberRemove(1);
    expect(removed.map((m) => m.nodeId).sort()).toEqual([2, 3, n4.id]);
    await cluster.kill(1);
    const newLeader = await cluster.leaderId();
    expect(newLeader).not.toBe(1);
    const status = await cluster.status(newLeader);
    expect(status.members.map((m) => m.nodeId).sort()).toEqual([2, 3, n4.id]);

    // The lock is still held by the same grant; new grants get larger tokens.
    const info = await admin.read.getLock("replace-held");
    expect(info.holder?.sessionId).toBe(holder.id);
    expect(info.holder?.token).toBe(held.token);
    const busy = await other.acquire("replace-held");
    expect(busy.acquired).toBe(false);
    await holder.release("replace-held", held.token!);
    const next = await other.acquire("replace-held");
    expect(next.acquired).toBe(true);
    for (const t of tokens) expect(next.token!).toBeGreaterThan(t);

    // Node ids are never reused.
    await expect(admin.admin.memberAdd(1, "127.0.0.1:1", "127.0.0.1:2")).rejects.toThrow(
      /never reused/,
    );
    await other.release("replace-held", next.token!);
  });

  // Four nodes stopped and started one after another, each caught up before the next: on a
  // loaded machine one process start alone can take tens of seconds.
  it("survives a rolling restart with leader transfer, keeping every session alive", async () => {
    const client = cluster.client();
    const session = await client.openSession({ ttlMs: 10_000 });
    const grant = await session.acquire("rolling");
    expect(grant.acquired).toBe(true);
    const members = (await cluster.status(await cluster.leaderId())).members.map((m) => m.nodeId);
    for (const id of members) {
      const leader = await cluster.leaderId();
      await cluster.kill(id, "SIGTERM");
      if (id === leader) {
        // A graceful stop of the leader hands leadership over first (TimeoutNow), before it exits.
        expect(cluster.logs(id)).toMatch(/handed leadership to node \d+ before stopping/);
      }
      await cluster.restart(id);
      const after = await cluster.leaderId();
      if (id === leader) expect(after).not.toBe(id);
      await cluster.waitFor(
        `node ${id} to catch up`,
        async () => {
          const [l, s] = await Promise.all([cluster.status(after), cluster.status(id)]);
          return s.appliedIndex >= l.commitIndex;
        },
        { progress: async () => (await cluster.status(id)).appliedIndex },
      );
    }
    expect(session.state).toBe("open");
    const info = await client.read.getLock("rolling");
    expect(info.holder?.sessionId).toBe(session.id);
    await session.release("rolling", grant.token!);
  }, 300_000);
});
