// Ctrl-C on a waiting `palisadectl acquire --wait` while no node answers (every node
// stopped with SIGSTOP, connections open): the CLI cannot confirm the cancel, so it exits
// 130 within its bound saying the cancel is unconfirmed and that the wait ends with its
// session's TTL, instead of waiting on the cluster. Once the nodes run again the wait is
// gone with the session, and the lock goes to the next taker.
import { describe, expect, it } from "vitest";
import { spawnCtl } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
});

describe("palisadectl interrupted while the cluster does not answer", () => {
  it("exits 130 saying the cancel is unconfirmed, and the wait ends with the CLI's session", async () => {
    const client = cluster.client({ clientName: "unconfirmed-test" });
    const lock = "ctl/unconfirmed";
    const holder = await client.openSession({ ttlMs: 30_000 });
    const held = await holder.acquire(lock);
    expect(held.acquired).toBe(true);
    // A short TTL for the CLI's session: its wait ends with it once the nodes run again.
    const waiting = spawnCtl(cluster.endpoints, "acquire", lock, "--wait", "60s", "--ttl", "3s");
    const stopped: number[] = [];
    try {
      await cluster.waitFor("the CLI's wait in the queue", async () => {
        return (await client.read.getLock(lock)).waiterCount === 1;
      });
      for (const id of cluster.ids) {
        const pid = cluster.pid(id);
        if (pid === undefined) throw new Error(`node ${id} is not running`);
        process.kill(pid, "SIGSTOP");
        stopped.push(pid);
      }
      const run = await waiting.signal("SIGINT");
      expect(run.code, run.stderr).toBe(130);
      expect(run.stderr).toMatch(
        /^interrupted: the cancel of the wait for ctl\/unconfirmed is unconfirmed \(no answer within 2000 ms\); the wait ends with session \d+ within its TTL of 3000 ms$/m,
      );
      for (const pid of stopped.splice(0)) process.kill(pid, "SIGCONT");
      // The holder's session (30 s TTL) outlives the pause; the CLI's (3 s) does not.
      // Its TTL counts afresh after the pause: the leader moves every deadline later by the
      // stall it saw, and a leader elected meanwhile starts every TTL anew. A few TTLs and an
      // election on a loaded machine, hence the bound.
      await cluster.waitFor(
        "the CLI's wait to end with its session",
        async () => (await client.read.getLock(lock)).waiterCount === 0,
        { timeoutMs: 60_000 },
      );
      await holder.release(lock, held.token!);
      const next = await client.openSession({ ttlMs: 10_000 });
      expect((await next.acquire(lock)).acquired).toBe(true);
      await next.close();
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
      waiting.kill();
      await holder.close().catch(() => undefined);
      await client.close();
    }
  });
});
