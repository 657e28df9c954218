// The engine benchmark's harness on real LevelDB stores: a short run at batch 4 commits and
// applies lock commands on the leader, and every node ends with the same applied state.
import { describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir } from "../../../bench/cluster-control.ts";
import { checkConverged, runBatch } from "../../../bench/engine.ts";
import { EngineCluster } from "../../../bench/engine-cluster.ts";
import { encodeEntry } from "../../../node/lock/index.ts";

describe("engine benchmark harness", () => {
  it("commits and applies batches on all three nodes with identical state", async () => {
    const run = await runBatch(4, { seconds: 0.3, warmupS: 0.1, inflight: 2, log: () => {} });
    expect(run.commands).toBeGreaterThan(0);
    expect(run.commands).toBe(4 * run.batches);
    expect(run.batch_ms.p50).not.toBeNull();
    expect(run.nodes.map((n) => n.id).sort()).toEqual([1, 2, 3]);
    // One entry per command: every node applied at least the measured ones.
    for (const n of run.nodes) expect(n.applied).toBeGreaterThanOrEqual(run.commands);
    expect(new Set(run.nodes.map((n) => n.applied)).size).toBe(1);
    expect(new Set(run.nodes.map((n) => n.digest)).size).toBe(1);
    expect(run.dropped_messages).toBe(0);
  });

  it("fails when a node's state differs from the leader's", async () => {
    const dir = makeTempDir("palisade-engine-test-");
    const cluster = await EngineCluster.start(dir);
    try {
      const leader = await cluster.waitForLeader(10_000);
      const open = encodeEntry({
        type: "openSession",
        requestId: "",
        ttlMs: 10_000,
        clientName: "test",
        wallMs: 0,
      });
      await Promise.all(leader.driver.propose([open]));
      await expect(checkConverged(cluster, leader)).resolves.toHaveLength(3);
      // A command applied on one follower alone, outside the log.
      const follower = cluster.nodes.find((n) => n !== leader)!;
      follower.sm.applyBytes(follower.sm.appliedIndex + 1, open);
      await expect(checkConverged(cluster, leader)).rejects.toThrow(/states differ/);
    } finally {
      await cluster.stop();
      removeTempDir(dir);
    }
  });
});
