// The client library across failovers: a held lock survives kill -9 of the leader with
// the default TTL, a request retried across a failover takes effect once, and a watch
// resumes on another node without losing or repeating events.
import { describe, expect, it } from "vitest";
import type { PalisadeClient, WatchEvent } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "failover" });
});

async function killLeaderAndRestart<T>(during: () => Promise<T>): Promise<T> {
  const leader = await cluster.leaderId();
  await cluster.kill(leader, "SIGKILL");
  try {
    return await during();
  } finally {
    await cluster.restart(leader);
    await cluster.waitFor(
      `node ${leader} back`,
      async () => (await cluster.status(leader)).appliedIndex > 0n,
    );
  }
}

describe("client failover", () => {
  it("kill -9 of the leader loses neither the session nor the lock (default TTL)", async () => {
    const handle = await client.lock("f/held");
    await killLeaderAndRestart(async () => {
      const next = await cluster.leaderId();
      expect(next).toBeGreaterThan(0);
      // A read through the new leader still shows this grant.
      expect((await client.read.getLock("f/held")).holder?.token).toBe(handle.token);
      // Keepalives reach the new leader: the session outlives a whole TTL after the kill.
      const after = process.hrtime.bigint() + 11_000_000_000n;
      await cluster.waitFor("a TTL to pass", async () => process.hrtime.bigint() > after, 20_000);
      expect(handle.signal.aborted).toBe(false);
      expect(handle.held).toBe(true);
      expect(await client.read.validateToken("f/held", handle.token)).toBe(true);
    });
    await handle.release();
    expect((await client.read.history("f/held")).map((r) => [r.token, r.reason])).toEqual([
      [handle.token, "released"],
    ]);
  });

  it("an acquire and a release sent as the leader dies take effect once", async () => {
    const { handle, released } = await killLeaderAndRestart(async () => {
      // Sent to the dead leader first, then retried with the same seq until a new leader answers.
      const h = await client.lock("f/retry", { waitMs: 5_000 });
      await h.release();
      return { handle: h, released: true };
    });
    expect(released).toBe(true);
    const history = await client.read.history("f/retry");
    expect(history.map((r) => [r.token, r.sessionId, r.reason])).toEqual([
      [handle.token, handle.sessionId, "released"],
    ]);
  });

  it("a watch resumes on another node after its node dies, without gaps or repeats", async () => {
    const controller = new AbortController();
    const events: WatchEvent[] = [];
    // The watch starts on the first endpoint (node 1), from the index after everything applied
    // so far: events of the first cycle are delivered however late the stream is set up.
    const fromIndex = (await cluster.status(1)).appliedIndex + 1n;
    const consumer = (async () => {
      for await (const e of client.read.watch("f/w", { signal: controller.signal, fromIndex }))
        events.push(e);
    })();
    const cycle = async (): Promise<bigint> => {
      const h = await client.lock("f/w");
      await h.release();
      return h.token;
    };
    const tokens: bigint[] = [await cycle()];
    await cluster.waitFor("the first events", async () => events.length >= 2);
    await cluster.kill(1, "SIGKILL");
    try {
      tokens.push(await cycle(), await cycle());
      await cluster.waitFor("events after the failover", async () => events.length >= 6, 20_000);
    } finally {
      controller.abort();
      await consumer.catch(() => undefined);
      await cluster.restart(1);
    }
    const seen = events.map((e) =>
      e.kind === "resync" ? `resync ${e.index}` : `${e.kind} ${e.token}`,
    );
    expect(seen).toEqual(tokens.flatMap((t) => [`acquired ${t}`, `released ${t}`]));
    const indexes = events.map((e) => e.index);
    expect([...indexes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(indexes);
  });
});
