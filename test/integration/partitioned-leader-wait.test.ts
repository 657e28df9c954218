// A waiting Acquire held by a leader that is then cut off from the other nodes while the
// client still reaches it: when the holder lets go, the new leader grants the lock to the
// waiting session from its log, and the waiter's lock() must resolve with that grant while
// the partition lasts (not when it heals or the wait runs out). Three real node processes,
// each in a network namespace of its own (chaos/fault), the client library with its
// defaults in the test process, which reaches every node over the lab's bridge.
import { describe, expect, it } from "vitest";
import { openTestLab, type NetnsLab } from "../../chaos/fault/netns-lab.ts";
import { missingPrerequisites } from "../../chaos/fault/prerequisites.ts";
import { PalisadeClient, type LockHandle } from "../../client/index.ts";
import { startCluster, type Cluster } from "./harness.ts";

const missing = missingPrerequisites();
const describeWithLab = missing.length === 0 ? describe : describe.skip;
const skipNote = missing.length === 0 ? "" : ` (skipped: needs ${missing.join(", ")})`;

/** The waiter's wait: far longer than the test, so only a grant ends it. */
const WAIT_MS = 60_000;
/**
 * How soon after the release the grant must reach the waiter: well inside the wait and the
 * client's attempt deadline (its call timeout plus the wait), which would otherwise end it.
 */
const GRANT_WITHIN_MS = 15_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Outcome = { handle: LockHandle } | { error: unknown };

describeWithLab(`a waiting Acquire on a leader cut off from the other nodes${skipNote}`, () => {
  it("is granted by the new leader while the partition lasts, and the waiter's session stays live", async () => {
    let lab: NetnsLab | undefined;
    let cluster: Cluster | undefined;
    const clients: PalisadeClient[] = [];
    try {
      lab = await openTestLab(3);
      const net = lab;
      cluster = await startCluster({
        host: (id) => net.address(id),
        launcher: (id) => net.exec(id),
      });
      const c = cluster;
      const client = (clientName: string): PalisadeClient => {
        const made = new PalisadeClient({ endpoints: [...c.endpoints], clientName });
        clients.push(made);
        return made;
      };
      const holderClient = client("holder");
      const waiterClient = client("waiter");
      const reader = client("reader");

      const holder = await holderClient.lock("x");
      const old = await c.leaderId();
      let outcome: Outcome | undefined;
      void waiterClient.lock("x", { waitMs: WAIT_MS }).then(
        (handle) => (outcome = { handle }),
        (error: unknown) => (outcome = { error }),
      );
      await c.waitFor(
        "the waiter in x's queue",
        async () => (await reader.read.getLock("x")).waiters.length === 1,
      );
      expect(await c.leaderId()).toBe(old);

      // Peer traffic only: the nodes' namespaces lose each other, the test process reaches all three.
      const others = c.ids.filter((id) => id !== old);
      await net.partition([[old], others]);
      let next = 0;
      await c.waitFor("a leader among the other two", async () => {
        for (const id of others) {
          if ((await c.status(id)).role === "leader") next = id;
        }
        return next !== 0;
      });

      await holder.release();
      const releasedAt = Date.now();
      while (outcome === undefined && Date.now() - releasedAt < GRANT_WITHIN_MS) await sleep(50);
      expect(
        outcome,
        `the waiter's lock() had not resolved ${GRANT_WITHIN_MS / 1000} s after the release, the old leader ${old} still cut off`,
      ).toBeDefined();
      if (!outcome || "error" in outcome)
        throw new Error(
          `the waiter's lock() failed: ${String(outcome && "error" in outcome ? outcome.error : "")}`,
        );
      const granted = outcome.handle;
      expect(granted.token).toBeGreaterThan(holder.token);

      // Still partitioned: the old leader has not seen the release or the grant.
      const oldStatus = await c.status(old);
      const nextStatus = await c.status(next);
      expect(oldStatus.role).not.toBe("leader");
      expect(oldStatus.commitIndex).toBeLessThan(granted.token);
      expect(nextStatus.commitIndex).toBeGreaterThanOrEqual(granted.token);

      // The waiter's session lives on through the new leader: a few keepalive rounds later the
      // handle still holds and the cluster names its session as x's holder.
      await sleep(3_000);
      expect(granted.signal.aborted).toBe(false);
      const info = await reader.read.getLock("x");
      expect(info.holder?.token).toBe(granted.token);
      expect(info.holder?.sessionId).toBe(granted.sessionId);
      await granted.release();
    } finally {
      await Promise.allSettled(clients.map((made) => Promise.race([made.close(), sleep(2_000)])));
      await cluster?.stop();
      await lab?.close();
    }
  }, 110_000);
});
