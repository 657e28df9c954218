// A leader that stops answering without closing its connections (SIGSTOP): the client
// bounds each attempt by the time left to its session deadline and moves to the other
// nodes, so a session outlives the pause whenever the majority elects a new leader in
// time, and a waiting Acquire moves to the new leader too.
import { describe, expect, it } from "vitest";
import type { LockHandle } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** How long the waiting Acquire asks to wait. */
const WAIT_MS = 60_000;

/** Stops the leader (SIGSTOP), runs `during` once another node leads, then resumes it (SIGCONT). */
async function withLeaderStopped<T>(during: (stopped: number) => Promise<T>): Promise<T> {
  const leader = await cluster.leaderId();
  const pid = cluster.pid(leader);
  if (pid === undefined) throw new Error(`node ${leader} is not running`);
  process.kill(pid, "SIGSTOP");
  try {
    await cluster.waitFor("a new leader among the other nodes", async () => {
      const others = cluster.ids.filter((id) => id !== leader);
      const statuses = await Promise.all(
        others.map((id) => cluster.status(id).catch(() => undefined)),
      );
      return statuses.some((s) => s?.role === "leader");
    });
    return await during(leader);
  } finally {
    process.kill(pid, "SIGCONT");
  }
}

describe("a stopped leader", () => {
  it("a session outlives a SIGSTOPped leader by more than its TTL once a new one is elected, and keeps its lock", async () => {
    // A TTL a loaded machine's elections and event-loop stalls fit in; the call timeout is
    // longer than it, so an attempt on the stopped node that waited the whole call timeout,
    // not a part of the time left, would by itself outlast the session.
    const ttlMs = 6_000;
    const client = cluster.client({
      clientName: "ttl-pause",
      sessionTtlMs: ttlMs,
      callTimeoutMs: 2 * ttlMs,
    });
    const session = await client.openSession({ ttlMs });
    const lost = new Promise<string>((resolve) => session.onLost(resolve));
    const got = await session.acquire("pause/held");
    expect(got.acquired).toBe(true);
    await withLeaderStopped(async (stopped) => {
      // Held stopped until a keepalive acknowledged after a whole TTL since the stop: the
      // session then lived on the new leader alone for longer than its TTL.
      const stoppedAt = process.hrtime.bigint();
      const renewedPastTtl = new Promise<void>((resolve) => {
        const off = session.onDeadlineExtended(() => {
          if (process.hrtime.bigint() - stoppedAt <= BigInt(ttlMs) * 1_000_000n) return;
          off();
          resolve();
        });
      });
      const outcome = await Promise.race([
        renewedPastTtl.then(() => "renewed"),
        lost.then((reason) => `lost: ${reason}`),
      ]);
      expect(outcome).toBe("renewed");
      expect(session.state).toBe("open");
      expect(session.signal.aborted).toBe(false);
      // The cluster (through the new leader) agrees: same session, same grant.
      const reader = cluster.client({
        endpoints: cluster.ids.filter((id) => id !== stopped).map((id) => cluster.endpoint(id)),
      });
      expect((await reader.read.getLock("pause/held")).holder?.token).toBe(got.token);
      expect((await reader.read.getSession(session.id))?.heldLocks).toEqual(["pause/held"]);
    });
    await session.release("pause/held", got.token ?? 0n);
  });

  it("a waiting Acquire leaves a SIGSTOPped leader and is granted by the new one", async () => {
    const holder = cluster.client({ clientName: "holder" });
    const waiter = cluster.client({ clientName: "waiter", callTimeoutMs: 3_000 });
    const blocker = await holder.lock("pause/wait");
    const waiting = waiter.lock("pause/wait", { waitMs: WAIT_MS });
    await cluster.waitFor(
      "the wait",
      async () => (await waiter.read.getLock("pause/wait")).waiters.length === 1,
    );
    const outcome = await withLeaderStopped(async () => {
      await blocker.release();
      // Without moving, the Acquire would sit on the stopped node for its whole attempt (the
      // wait and the call timeout): still pending once its wait is over.
      return Promise.race([
        waiting,
        sleep(WAIT_MS).then(() => "still waiting on the stopped leader"),
      ]);
    });
    expect(outcome).not.toBe("still waiting on the stopped leader");
    const handle = outcome as LockHandle;
    expect(handle.token).toBeGreaterThan(blocker.token);
    expect(handle.held).toBe(true);
    await handle.release();
  });
});
