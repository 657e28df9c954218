// The lock kinds across a leader change and a snapshot, on real node processes: holder
// data, shared holders and permits survive both, and a hold limit granted by one leader is
// enforced by the next.
import { describe, expect, it } from "vitest";
import type { PalisadeClient, Session } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3, raft: { snapshotEntries: 20 } }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "kinds-durable" });
});

describe("the lock kinds across leader changes and snapshots", () => {
  it("holder data, shared holders and a permit's slot survive a leader change and a restart of every node from its snapshot", async () => {
    // A long TTL: the session outlives the time every node is down.
    const readers = (await Promise.all([
      client.openSession({ ttlMs: 60_000 }),
      client.openSession({ ttlMs: 60_000 }),
    ])) as [Session, Session];
    const semHolder = await client.openSession({ ttlMs: 60_000 });
    const r1 = await readers[0].acquire("d/shared", { mode: "shared", data: "reader one" });
    const r2 = await readers[1].acquire("d/shared", { mode: "shared", data: "reader two" });
    const p = await semHolder.acquire("d/sem", { permits: 3, data: "slot holder" });
    const p2 = await readers[0].acquire("d/sem", { permits: 3 });
    await readers[0].release("d/sem", p2.token ?? 0n);
    const expectState = async (): Promise<void> => {
      const shared = await client.read.getLock("d/shared");
      expect(shared.holders?.map((h) => [h.token, h.mode, h.data])).toEqual([
        [r1.token, "shared", "reader one"],
        [r2.token, "shared", "reader two"],
      ]);
      const sem = await client.read.getLock("d/sem");
      expect(sem).toMatchObject({ kind: "semaphore", permits: 3 });
      expect(sem.holder).toMatchObject({
        token: p.token,
        mode: "permit",
        slot: 0,
        data: "slot holder",
      });
    };
    await expectState();

    // A leader change: the new leader's state came through the log.
    const first = await cluster.leaderId();
    await cluster.kill(first);
    const second = await cluster.leaderId();
    expect(second).not.toBe(first);
    await expectState();
    await cluster.restart(first);

    // Enough entries for every node to snapshot past the grants, then every node restarts.
    const churn = await client.openSession({ ttlMs: 60_000 });
    for (let i = 0; i < 60; i++) {
      const got = await churn.acquire(`d/churn-${i % 4}`);
      await churn.release(`d/churn-${i % 4}`, got.token ?? 0n);
    }
    const grantIndex = [r1.token, r2.token, p.token].reduce<bigint>(
      (m, t) => ((t ?? 0n) > m ? (t ?? 0n) : m),
      0n,
    );
    await cluster.waitFor(
      "every node to snapshot past the grants",
      async () => {
        const all = await Promise.all(cluster.ids.map((id) => cluster.status(id)));
        return all.every((s) => s.snapshotIndex > grantIndex);
      },
      20_000,
    );
    for (const id of cluster.ids) await cluster.kill(id);
    for (const id of cluster.ids) await cluster.restart(id);
    await cluster.leaderId(20_000);
    await expectState();
    // The history kept the kinds' fields too.
    expect((await client.read.history("d/sem")).map((r) => [r.mode, r.slot, r.data ?? ""])).toEqual(
      [
        ["permit", 0, "slot holder"],
        ["permit", 1, ""],
      ],
    );
    await Promise.allSettled([...readers, semHolder, churn].map((s) => s.close()));
  });

  it("a hold limit granted by one leader is enforced by the next once it passes, and the session lives on", async () => {
    const session = await client.openSession({ ttlMs: 20_000 });
    const got = await session.acquire("d/hold", { holdMs: 3_000, data: "limited" });
    expect(got.acquired).toBe(true);
    const first = await cluster.leaderId();
    await cluster.kill(first);
    const next = await cluster.leaderId();
    expect(next).not.toBe(first);
    await cluster.waitFor(
      "the new leader's hold-limit revoke",
      async () => (await client.read.getLock("d/hold")).holder === undefined,
      15_000,
    );
    expect(await client.read.history("d/hold")).toMatchObject([
      { token: got.token, reason: "revoked", revokedFor: "holdLimit", data: "limited" },
    ]);
    expect(await client.read.getSession(session.id)).toBeDefined();
    await cluster.restart(first);
    await session.close();
  });
});
