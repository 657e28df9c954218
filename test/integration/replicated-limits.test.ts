// Lock limits decide answers when an entry is applied, so replicas must decide with the
// same ones even when their cluster files differ (a rolling change of limits, a typo on
// one host): the limits in force are replicated state, set by each leader through the log.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, type PalisadeClient } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let admin: PalisadeClient;
const TTL_ABOVE_NODE_3 = 1_800_000;

// Node 3's file allows TTLs up to 10 minutes; the others up to an hour (the default).
clusterForTests(
  { nodeLimits: (id) => (id === 3 ? { maxTtlMs: 600_000 } : undefined) },
  (started) => {
    cluster = started;
    admin = cluster.client({ clientName: "limits-admin" });
  },
);

/** What each node's own replica says about a session (reads are served by the node asked). */
async function viewOfEveryNode(sessionId: bigint): Promise<boolean[]> {
  const views: boolean[] = [];
  for (const id of cluster.ids) {
    const viaOne = cluster.client({ endpoints: [cluster.endpoint(id)], clientName: `view-${id}` });
    views.push((await viaOne.read.getSession(sessionId)) !== undefined);
  }
  return views;
}

describe("lock limits in cluster files that differ", () => {
  it("every replica decides a committed OpenSession alike, whichever file its leader has", async () => {
    await cluster.leaderId();
    if ((await cluster.leaderId()) === 3) await admin.admin.transferLeader(1);
    await cluster.waitFor(
      "a leader other than node 3",
      async () => (await cluster.leaderId()) !== 3,
    );

    const long = await admin.openSession({ ttlMs: TTL_ABOVE_NODE_3 });
    expect(long.ttlMs).toBe(TTL_ABOVE_NODE_3);
    await cluster.waitFor(
      "every node applied the OpenSession",
      async () => (await viewOfEveryNode(long.id)).every((v) => v),
      10_000,
    );
    expect(await viewOfEveryNode(long.id)).toEqual([true, true, true]);

    // Under node 3's leadership its own limits are the cluster's: the same request is refused, by every replica alike.
    await admin.admin.transferLeader(3);
    await cluster.waitFor("node 3 leads", async () => (await cluster.leaderId()) === 3);
    await expect(admin.openSession({ ttlMs: TTL_ABOVE_NODE_3 })).rejects.toThrow(
      InvalidArgumentError,
    );
    const short = await admin.openSession({ ttlMs: 60_000 });
    await cluster.waitFor(
      "every node applied the second OpenSession",
      async () => (await viewOfEveryNode(short.id)).every((v) => v),
      10_000,
    );
    // The session opened under the other limits is still there, on every node.
    expect(await viewOfEveryNode(long.id)).toEqual([true, true, true]);
  });
});
