// Log compaction on real processes: a node that was down while the others compacted their
// logs past what it has rejoins through InstallSnapshot, with the state intact.
import { describe, expect, it } from "vitest";
import { clusterForTests, type Cluster } from "./harness.ts";

describe("snapshots and compaction", () => {
  let cluster: Cluster;

  clusterForTests({ raft: { snapshotEntries: 20 } }, (started) => {
    cluster = started;
  });

  it("brings a node that missed the compacted entries back through InstallSnapshot", async () => {
    const leader = await cluster.leaderId();
    const down = cluster.ids.find((id) => id !== leader)!;
    const client = cluster.client();
    const session = await client.openSession({ ttlMs: 10_000 });
    const kept = await session.acquire("snap-kept");
    expect(kept.acquired).toBe(true);
    const downLast = (await cluster.status(down)).lastIndex;
    await cluster.kill(down);

    // Enough writes for the others to snapshot and drop their logs past what `down` has.
    let last = 0n;
    for (let i = 0; i < 40; i++) {
      const r = await session.acquire(`snap-${i}`);
      expect(r.token!).toBeGreaterThan(last);
      last = r.token!;
      await session.release(`snap-${i}`, r.token!);
    }
    const leaderNow = await cluster.leaderId();
    const before = await cluster.status(leaderNow);
    // The leader no longer has the entries right after what `down` holds: only a snapshot can bring it up.
    expect(before.snapshotIndex).toBeGreaterThan(downLast + 1n);

    await cluster.restart(down);
    await cluster.waitFor(
      `node ${down} to catch up`,
      async () => {
        const [l, s] = await Promise.all([cluster.status(leaderNow), cluster.status(down)]);
        return s.appliedIndex >= l.commitIndex && l.commitIndex >= before.commitIndex;
      },
      { progress: async () => (await cluster.status(down)).appliedIndex },
    );

    // Its state machine agrees: read through that node alone.
    const viaDown = cluster.client({ endpoints: [cluster.endpoint(down)] });
    const info = await viaDown.read.getLock("snap-kept");
    expect(info.holder?.sessionId).toBe(session.id);
    expect(info.holder?.token).toBe(kept.token);
    const history = await viaDown.read.history("snap-39");
    expect(history.map((h) => h.token)).toContain(last);
  });
});
