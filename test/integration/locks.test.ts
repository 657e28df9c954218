// Locks on a real three-node cluster: acquire and release through any node, answers to
// bad input, exactly-once retries, expiry handing a lock to a waiter, and CancelWait.
import { describe, expect, it } from "vitest";
import {
  InvalidArgumentError,
  NotHolderError,
  RequestTooOldError,
  SessionNotFoundError,
  StaleTokenError,
  type PalisadeClient,
} from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { RawLockApi } from "./raw.ts";

let cluster: Cluster;
let client: PalisadeClient;
let raw: RawLockApi;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "locks-test" });
  raw = new RawLockApi(cluster.endpoints);
  return () => {
    raw?.close();
  };
});

describe("acquire and release", () => {
  it("works through each node, with increasing tokens", async () => {
    const tokens: bigint[] = [];
    for (const id of cluster.ids) {
      const viaOne = cluster.client({ endpoints: [cluster.endpoint(id)], clientName: `via-${id}` });
      const session = await viaOne.openSession({ ttlMs: 5_000 });
      const got = await session.acquire("any-node");
      expect(got.acquired).toBe(true);
      expect(got.token).toBeTypeOf("bigint");
      const token = got.token ?? 0n;
      tokens.push(token);

      const info = await viaOne.read.getLock("any-node");
      expect(info.holder?.sessionId).toBe(session.id);
      expect(info.holder?.token).toBe(token);
      expect(info.holder?.clientName).toBe(`via-${id}`);
      expect(await viaOne.read.validateToken("any-node", token)).toBe(true);

      await session.release("any-node", token);
      expect((await viaOne.read.getLock("any-node")).holder).toBeUndefined();
      expect(await viaOne.read.validateToken("any-node", token)).toBe(false);
      await session.close();
      expect(await viaOne.read.getSession(session.id)).toBeUndefined();
    }
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]);

    const history = await client.read.history("any-node");
    expect(history.map((r) => r.token)).toEqual(tokens);
    expect(history.every((r) => r.reason === "released")).toBe(true);
  });

  it("answers not acquired with the holder when the lock is held and wait is 0", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    const first = await a.acquire("busy");
    expect(first.acquired).toBe(true);
    const second = await b.acquire("busy");
    expect(second.acquired).toBe(false);
    expect(second.token).toBeUndefined();
    expect(second.holder?.sessionId).toBe(a.id);
    expect(second.holder?.token).toBe(first.token);
    // Not reentrant by count: the holder gets its existing token back.
    const again = await a.acquire("busy");
    expect(again).toMatchObject({ acquired: true, token: first.token });
    const session = await client.read.getSession(a.id);
    expect(session?.heldLocks).toEqual(["busy"]);
    await a.close();
    await b.close();
    expect((await client.read.getLock("busy")).holder).toBeUndefined();
  });

  it("gives a retried Acquire (same seq) its first answer, never a second grant", async () => {
    const sessionId = await raw.openSession(5_000);
    const first = await raw.acquire({ sessionId, lock: "retried", seq: 1 });
    expect(first.acquired).toBe(true);
    const retry = await raw.acquire({ sessionId, lock: "retried", seq: 1 });
    expect(retry).toEqual(first);
    const history = await client.read.history("retried");
    expect(history).toHaveLength(1);
    // Once the client has acknowledged seq 1, a delayed duplicate of it (carrying its
    // original mark 0) is refused as too old and has no effect.
    await raw.release(sessionId, "retried", first.token, 2, 1);
    await expect(raw.acquire({ sessionId, lock: "retried", seq: 1 })).rejects.toBeInstanceOf(
      RequestTooOldError,
    );
    expect((await client.read.getLock("retried")).holder).toBeUndefined();
  });
});

describe("bad input", () => {
  it("rejects bad lock names", async () => {
    const session = await client.openSession({ ttlMs: 5_000 });
    for (const name of [
      "",
      "a\u0000b",
      "tab\there",
      "del\u007f",
      "c1\u0085",
      "x".repeat(257),
      "é".repeat(129),
    ]) {
      await expect(session.acquire(name), JSON.stringify(name)).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    }
    await expect(client.read.getLock("")).rejects.toBeInstanceOf(InvalidArgumentError);
    // 256 bytes is still allowed.
    const ok = await session.acquire("y".repeat(256));
    expect(ok.acquired).toBe(true);
    await session.close();
  });

  it("rejects a TTL out of bounds and a wait above the limit", async () => {
    await expect(client.openSession({ ttlMs: 100 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.openSession({ ttlMs: 3_600_001 })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    const session = await client.openSession({ ttlMs: 5_000 });
    await expect(session.acquire("long-wait", { waitMs: 3_600_001 })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await session.close();
  });

  it("refuses a stale token and a release by a session that does not hold the lock", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    const first = await a.acquire("fenced");
    const token = first.token ?? 0n;
    await a.release("fenced", token);
    const second = await a.acquire("fenced");
    expect(second.token).toBeGreaterThan(token);
    await expect(a.release("fenced", token)).rejects.toBeInstanceOf(StaleTokenError);
    await expect(b.release("fenced", second.token ?? 0n)).rejects.toBeInstanceOf(NotHolderError);
    // Nothing changed.
    expect((await client.read.getLock("fenced")).holder?.token).toBe(second.token);
    await a.close();
    await b.close();
  });

  it("answers NOT_FOUND for an unknown session", async () => {
    await expect(raw.keepAlive(987_654_321n)).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(
      raw.acquire({ sessionId: 987_654_321n, lock: "nobody", seq: 1 }),
    ).rejects.toBeInstanceOf(SessionNotFoundError);
    expect((await client.read.getLock("nobody")).holder).toBeUndefined();
  });
});

describe("waiting", () => {
  it("grants a waiter when the holder's session expires", async () => {
    // A holder that sends no keepalives: its session expires after its TTL.
    const holder = await raw.openSession(1_000, "silent-holder");
    const held = await raw.acquire({ sessionId: holder, lock: "expiring", seq: 1 });
    expect(held.acquired).toBe(true);

    const waiter = await client.openSession({ ttlMs: 5_000 });
    const got = await waiter.acquire("expiring", { waitMs: 20_000 });
    expect(got.acquired).toBe(true);
    expect(got.token).toBeGreaterThan(held.token);
    expect(await client.read.getSession(holder)).toBeUndefined();
    const history = await client.read.history("expiring");
    expect(history.map((r) => [r.token, r.reason])).toEqual([
      [held.token, "sessionExpired"],
      [got.token, "current"],
    ]);
    await waiter.close();
  });

  it("answers a CancelWait that loses the race to a grant with the grant", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    const first = await a.acquire("raced");
    const pending = b.startAcquire("raced", { waitMs: 30_000 });
    await cluster.waitFor("b waiting", async () =>
      (await client.read.getLock("raced")).waiters.some((w) => w.sessionId === b.id),
    );

    await a.release("raced", first.token ?? 0n);
    const cancel = await b.cancelWait("raced", pending.seq);
    const result = await pending.result;
    expect(result.acquired).toBe(true);
    expect(cancel).toEqual({ outcome: "granted", token: result.token });
    expect(result.token).toBeGreaterThan(first.token ?? 0n);
    expect((await client.read.getLock("raced")).holder?.sessionId).toBe(b.id);
    // Idempotent: asking again gives the same answer.
    expect(await b.cancelWait("raced", pending.seq)).toEqual(cancel);
    await a.close();
    await b.close();
  });

  it("cancels a pending wait", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    await a.acquire("cancelled");
    const pending = b.startAcquire("cancelled", { waitMs: 30_000 });
    await cluster.waitFor(
      "b waiting",
      async () => (await client.read.getLock("cancelled")).waiters.length === 1,
    );
    expect(await b.cancelWait("cancelled", pending.seq)).toEqual({ outcome: "cancelled" });
    const result = await pending.result;
    expect(result.acquired).toBe(false);
    expect((await client.read.getLock("cancelled")).waiters).toEqual([]);
    await a.close();
    // Released by the close, and b's cancelled wait did not take it.
    expect((await client.read.getLock("cancelled")).holder).toBeUndefined();
    await b.close();
  });

  it("cancels the wait of an Acquire whose caller aborts", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    const first = await a.acquire("aborted");
    const controller = new AbortController();
    const pending = b.acquire("aborted", { waitMs: 30_000, signal: controller.signal });
    await cluster.waitFor(
      "b waiting",
      async () => (await client.read.getLock("aborted")).waiters.length === 1,
    );
    controller.abort();
    expect(await pending).toMatchObject({ acquired: false, cancelled: true });
    expect((await client.read.getLock("aborted")).waiters).toEqual([]);
    // The holder is untouched, and its release leaves the lock free (no waiter left).
    await a.release("aborted", first.token ?? 0n);
    expect((await client.read.getLock("aborted")).holder).toBeUndefined();
    await a.close();
    await b.close();
  });

  it("makes an Acquire take no effect when its CancelWait came first", async () => {
    const session = await client.openSession({ ttlMs: 5_000 });
    const seq = session.peekNextSeq();
    expect(await session.cancelWait("pre-cancelled", seq)).toEqual({ outcome: "cancelled" });
    const pending = session.startAcquire("pre-cancelled", { waitMs: 10_000 });
    expect(pending.seq).toBe(seq);
    const result = await pending.result;
    expect(result.acquired).toBe(false);
    expect(result.token).toBeUndefined();
    const info = await client.read.getLock("pre-cancelled");
    expect(info.holder).toBeUndefined();
    expect(info.waiters).toEqual([]);
    expect(await client.read.history("pre-cancelled")).toEqual([]);
    // The session goes on: its next Acquire is granted.
    const next = await session.acquire("pre-cancelled");
    expect(next.acquired).toBe(true);
    await session.close();
  });
});
