// The client library's lock()/withLock() against a real cluster: one grant per name per
// client (LockBusyError), handles that release only their own grant, abandoned waits, and
// the lost-session path.
import { describe, expect, it } from "vitest";
import {
  LockBusyError,
  LockNotAcquiredError,
  SessionLostError,
  type LockHandle,
  type PalisadeClient,
} from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;
let other: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "first" });
  other = cluster.client({ clientName: "other" });
});

describe("lock() and withLock()", () => {
  it("refuses a second lock() of a name while the first waits, without sending anything", async () => {
    const blocker = await other.lock("c/x");
    const first = client.lock("c/x", { waitMs: 30_000 });
    await cluster.waitFor(
      "the first lock() to wait",
      async () => (await client.read.getLock("c/x")).waiters.length === 1,
    );

    await expect(client.lock("c/x", { waitMs: 30_000 })).rejects.toBeInstanceOf(LockBusyError);
    await expect(client.withLock("c/x", async () => "never")).rejects.toBeInstanceOf(LockBusyError);
    // Still exactly one waiter: the refused calls sent no Acquire.
    const info = await client.read.getLock("c/x");
    expect(info.waiters).toHaveLength(1);

    await blocker.release();
    const handle = await first;
    expect(handle.token).toBeGreaterThan(blocker.token);
    expect((await client.read.getLock("c/x")).holder?.token).toBe(handle.token);
    // Held now: still refused, until this handle releases.
    await expect(client.lock("c/x")).rejects.toBeInstanceOf(LockBusyError);
    await handle.release();
    const again = await client.lock("c/x");
    expect(again.token).toBeGreaterThan(handle.token);
    await again.release();
  });

  it("a handle's release() releases only its own grant", async () => {
    const h1 = await client.lock("c/own");
    await h1.release();
    expect(h1.signal.aborted).toBe(true);
    const h2 = await client.lock("c/own");
    await h1.release();
    expect((await client.read.getLock("c/own")).holder?.token).toBe(h2.token);
    expect(h2.held).toBe(true);
    await h2.release();
    expect((await client.read.getLock("c/own")).holder).toBeUndefined();
  });

  it("withLock passes the token and always releases, even when the callback throws", async () => {
    const token = await client.withLock("c/with", async ({ token, signal }) => {
      expect(signal.aborted).toBe(false);
      expect(await client.read.validateToken("c/with", token)).toBe(true);
      return token;
    });
    expect(typeof token).toBe("bigint");
    expect((await client.read.getLock("c/with")).holder).toBeUndefined();

    const boom = new Error("boom");
    await expect(
      client.withLock("c/with", async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    const history = await client.read.history("c/with");
    expect(history.map((r) => r.reason)).toEqual(["released", "released"]);
  });

  it("a held lock with waitMs 0 is LockNotAcquiredError naming the holder", async () => {
    const blocker = await other.lock("c/held");
    const err = await client.lock("c/held").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockNotAcquiredError);
    expect((err as LockNotAcquiredError).holder?.token).toBe(blocker.token);
    await blocker.release();
  });

  it("aborting a wait cancels it on the cluster and frees the name for this client", async () => {
    const blocker = await other.lock("c/abort");
    const controller = new AbortController();
    const waiting = client.lock("c/abort", { waitMs: 60_000, signal: controller.signal });
    await cluster.waitFor(
      "the wait",
      async () => (await client.read.getLock("c/abort")).waiters.length === 1,
    );
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    expect((await client.read.getLock("c/abort")).waiters).toHaveLength(0);
    await blocker.release();
    // Nobody got the lock for the caller that gave up.
    expect((await client.read.getLock("c/abort")).holder).toBeUndefined();
    const handle = await client.lock("c/abort");
    await handle.release();
  });

  it("lists sessions and reads them", async () => {
    const handle = await client.lock("c/sessions");
    const sessions = await client.read.allSessions();
    const mine = sessions.find((s) => s.sessionId === handle.sessionId);
    expect(mine?.heldLocks).toEqual(["c/sessions"]);
    expect(mine?.clientName).toBe("first");
    expect((await client.read.getSession(handle.sessionId))?.heldLocks).toEqual(["c/sessions"]);
    await handle.release();
  });

  it("a stall past the deadline loses the session for good: signal aborts, lost events, no revival", async () => {
    // A TTL that only the deliberate stall below outlasts, not a loaded machine's own stalls.
    const ttlMs = 3_000;
    const fragile = cluster.client({ clientName: "fragile", sessionTtlMs: ttlMs });
    const lostEvents: Array<{ locks: string[] }> = [];
    fragile.on("lost", (info) => lostEvents.push(info));
    const handle: LockHandle = await fragile.lock("c/lost");
    const handleLost = new Promise<SessionLostError>((resolve) => handle.once("lost", resolve));

    // Block the event loop past the TTL: no keepalive can be sent or acknowledged.
    const until = process.hrtime.bigint() + BigInt(ttlMs + 500) * 1_000_000n;
    while (process.hrtime.bigint() < until) {
      /* stall */
    }

    expect(handle.held).toBe(false);
    expect(await handleLost).toBeInstanceOf(SessionLostError);
    expect(handle.signal.aborted).toBe(true);
    expect(handle.signal.reason).toBeInstanceOf(SessionLostError);
    expect(lostEvents.map((e) => e.locks)).toEqual([["c/lost"]]);

    // Keepalives (every third of the TTL) would have been acknowledged by now if anything
    // still sent them; the session stays lost.
    await new Promise((r) => setTimeout(r, ttlMs / 2));
    expect(handle.held).toBe(false);
    await cluster.waitFor(
      "the cluster to end the session",
      async () => (await other.read.getSession(handle.sessionId)) === undefined,
    );

    // The client is usable again, on a new session with a new grant.
    const next = await fragile.lock("c/lost", { waitMs: 10_000 });
    expect(next.sessionId).not.toBe(handle.sessionId);
    expect(next.token).toBeGreaterThan(handle.token);
    await next.release();
    await handle.release(); // a no-op after loss
    expect((await other.read.getLock("c/lost")).holder).toBeUndefined();
  });
});
