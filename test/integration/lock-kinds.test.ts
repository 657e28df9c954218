// The lock kinds on a real three-node cluster, through the client library: shared and
// exclusive grants with one FIFO queue across modes, a writer never starved by readers,
// semaphore permits and their slots, atomic multi-lock sets that two clients cannot
// deadlock, holder data in every read, a hold limit ending in a committed revoke, and bad
// input for each new field over the unary RPC and over the stream.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../../proto/grpc.ts";
import { toU64, u64 } from "../../proto/wire.ts";
import { Connection } from "../../client/connection.ts";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  type AcquireResult,
  type PalisadeClient,
  type Session,
  type WatchEvent,
} from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

const pb = palisade.v1;

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "kinds-test" });
});

const sessions = (n: number): Promise<Session[]> =>
  Promise.all(Array.from({ length: n }, () => client.openSession({ ttlMs: 10_000 })));
const closeAll = (list: Session[]): Promise<unknown> =>
  Promise.allSettled(list.map((s) => s.close()));
const tokenOf = (r: AcquireResult): bigint => {
  expect(r.acquired).toBe(true);
  return r.token ?? 0n;
};
/** The log index after everything the leader has applied: a Watch from it sees every later event. */
const nextIndex = async (): Promise<bigint> =>
  (await cluster.status(await cluster.leaderId())).appliedIndex + 1n;
/** Waits until `lock` has `n` waiters, so that requests queue in a known order. */
const waiters = (lock: string, n: number): Promise<void> =>
  cluster.waitFor(
    `${n} waiters of ${lock}`,
    async () => (await client.read.getLock(lock)).waiters.length === n,
  );

describe("shared and exclusive", () => {
  it("shared holders coexist; an exclusive request waits for all of them, and a shared request behind it waits too (one FIFO queue across modes)", async () => {
    const [r1, r2, w, r3] = (await sessions(4)) as [Session, Session, Session, Session];
    try {
      const t1 = tokenOf(await r1.acquire("k/rw", { mode: "shared" }));
      const t2 = tokenOf(await r2.acquire("k/rw", { mode: "shared" }));
      expect(t2).toBeGreaterThan(t1);
      const info = await client.read.getLock("k/rw");
      expect(info.holders?.map((h) => [h.sessionId, h.mode])).toEqual([
        [r1.id, "shared"],
        [r2.id, "shared"],
      ]);
      // An exclusive request waits for every shared holder.
      expect((await w.acquire("k/rw")).acquired).toBe(false);
      const writer = w.startAcquire("k/rw", { waitMs: 20_000 }).result;
      await waiters("k/rw", 1);
      // A shared request that could join the holders does not pass the queued writer.
      expect((await r3.acquire("k/rw", { mode: "shared" })).acquired).toBe(false);
      const reader = r3.startAcquire("k/rw", { mode: "shared", waitMs: 20_000 }).result;
      await waiters("k/rw", 2);
      expect(
        (await client.read.getLock("k/rw")).waiters.map((x) => [
          x.sessionId,
          x.mode ?? "exclusive",
        ]),
      ).toEqual([
        [w.id, "exclusive"],
        [r3.id, "shared"],
      ]);
      await r1.release("k/rw", t1);
      // One shared holder left: the writer still waits.
      expect(
        (await client.read.getLock("k/rw")).holders ?? [(await client.read.getLock("k/rw")).holder],
      ).toHaveLength(1);
      await r2.release("k/rw", t2);
      const tw = tokenOf(await writer);
      expect((await client.read.getLock("k/rw")).holder).toMatchObject({
        sessionId: w.id,
        token: tw,
      });
      expect((await client.read.getLock("k/rw")).holder?.mode).toBeUndefined();
      await w.release("k/rw", tw);
      expect(tokenOf(await reader)).toBeGreaterThan(tw);
    } finally {
      await closeAll([r1, r2, w, r3]);
    }
  });

  it("a writer is not starved by a stream of readers: readers arriving after it wait, and then all go in together at one index", async () => {
    const [first, writerSession, ...later] = (await sessions(7)) as [
      Session,
      Session,
      ...Session[],
    ];
    try {
      const t0 = tokenOf(await first.acquire("k/stream", { mode: "shared" }));
      const writer = writerSession.startAcquire("k/stream", { waitMs: 20_000 }).result;
      await waiters("k/stream", 1);
      const readers = later.map(
        (s) => s.startAcquire("k/stream", { mode: "shared", waitMs: 20_000 }).result,
      );
      await waiters("k/stream", 1 + later.length);
      // While readers keep arriving, the lock stays with the first reader until it leaves...
      expect((await client.read.getLock("k/stream")).holders ?? []).toHaveLength(0);
      expect((await client.read.getLock("k/stream")).holder?.sessionId).toBe(first.id);
      await first.release("k/stream", t0);
      // ...then the writer gets it alone, ahead of every reader that came after it.
      const tw = tokenOf(await writer);
      expect((await client.read.getLock("k/stream")).waiters).toHaveLength(later.length);
      await writerSession.release("k/stream", tw);
      // The consecutive shared requests at the head are granted together, by one entry.
      const tokens = (await Promise.all(readers)).map(tokenOf);
      expect(new Set(tokens).size).toBe(1);
      expect(tokens[0]).toBeGreaterThan(tw);
      expect((await client.read.getLock("k/stream")).holders).toHaveLength(later.length);
    } finally {
      await closeAll([first, writerSession, ...later]);
    }
  });

  it("the library's handles: lock(name, { mode: 'shared' }) from two clients at once, then an exclusive lock() after both release", async () => {
    const other = cluster.client({ clientName: "kinds-other" });
    const a = await client.lock("k/handles", { mode: "shared" });
    const b = await other.lock("k/handles", { mode: "shared" });
    expect([a.mode, b.mode]).toEqual(["shared", "shared"]);
    await expect(other.lock("k/handles-x")).resolves.toBeDefined();
    await a.release();
    await b.release();
    const x = await client.lock("k/handles");
    expect(x.mode).toBe("exclusive");
    expect(x.token).toBeGreaterThan(b.token);
    await x.release();
    await other.close();
  });
});

describe("semaphores", () => {
  it("N permits with a slot each, FIFO beyond them; another count or use as a lock is refused while it is in use", async () => {
    const [s1, s2, s3, s4] = (await sessions(4)) as [Session, Session, Session, Session];
    try {
      const p1 = await s1.acquire("k/sem", { permits: 2 });
      const p2 = await s2.acquire("k/sem", { permits: 2 });
      expect([p1.grants?.[0]?.slot, p2.grants?.[0]?.slot]).toEqual([0, 1]);
      expect(tokenOf(p2)).toBeGreaterThan(tokenOf(p1));
      const info = await client.read.getLock("k/sem");
      expect(info).toMatchObject({ kind: "semaphore", permits: 2 });
      expect(info.holders?.map((h) => [h.mode, h.slot, h.permits])).toEqual([
        ["permit", 0, 2],
        ["permit", 1, 2],
      ]);
      expect((await s3.acquire("k/sem", { permits: 2 })).acquired).toBe(false);
      const third = s3.startAcquire("k/sem", { permits: 2, waitMs: 20_000 }).result;
      await waiters("k/sem", 1);

      const other = await s4.acquire("k/sem", { permits: 3 }).catch((e: unknown) => e);
      expect(other).toBeInstanceOf(FailedPreconditionError);
      expect((other as FailedPreconditionError).reason).toBe("ERROR_REASON_PERMITS_MISMATCH");
      expect((other as Error).message).toMatch(/permits 3 .*2/);
      const asLock = await s4.acquire("k/sem").catch((e: unknown) => e);
      expect((asLock as FailedPreconditionError).reason).toBe("ERROR_REASON_KIND_MISMATCH");

      await s1.release("k/sem", tokenOf(p1));
      const p3 = await third;
      expect(p3.grants?.[0]).toMatchObject({ mode: "permit", slot: 0, permits: 2 });
      // The library's semaphore handle: a third permit waits for a slot like any request.
      await s2.release("k/sem", tokenOf(p2));
      const permit = await client.semaphore("k/sem", 2).acquire({ data: "worker 9" });
      expect([permit.mode, permit.slot, permit.data]).toEqual(["permit", 1, "worker 9"]);
      await permit.release();
    } finally {
      await closeAll([s1, s2, s3, s4]);
    }
  });
});

describe("atomic multi-lock", () => {
  it("a set waiting for one held lock holds none of the others, and gets all of them at one index once it is free", async () => {
    const [holder, set, bystander] = (await sessions(3)) as [Session, Session, Session];
    try {
      const tb = tokenOf(await holder.acquire("k/set-b"));
      const blocked = await set.acquire("k/set-a", {
        more: [{ lock: "k/set-b" }, { lock: "k/set-c", mode: "shared" }],
      });
      expect(blocked).toMatchObject({
        acquired: false,
        blockedLock: "k/set-b",
        holder: { sessionId: holder.id },
      });
      const pending = set.startAcquire("k/set-a", {
        more: [{ lock: "k/set-b" }, { lock: "k/set-c", mode: "shared" }],
        waitMs: 20_000,
      }).result;
      await waiters("k/set-b", 1);
      // Waiting in every queue at once, holding nothing.
      for (const lock of ["k/set-a", "k/set-c"]) {
        const info = await client.read.getLock(lock);
        expect(info.holder).toBeUndefined();
        expect(info.waiters.map((w) => w.locks?.map((t) => t.lock))).toEqual([
          ["k/set-a", "k/set-b", "k/set-c"],
        ]);
      }
      // FIFO: a request for a lock of the waiting set queues behind it.
      expect((await bystander.acquire("k/set-a")).acquired).toBe(false);
      await holder.release("k/set-b", tb);
      const got = await pending;
      const token = tokenOf(got);
      expect(got.grants?.map((g) => [g.lock, g.token, g.mode])).toEqual([
        ["k/set-a", token, "exclusive"],
        ["k/set-b", token, "exclusive"],
        ["k/set-c", token, "shared"],
      ]);
      for (const lock of ["k/set-a", "k/set-b", "k/set-c"])
        expect((await client.read.getLock(lock)).holder?.token).toBe(token);
    } finally {
      await closeAll([holder, set, bystander]);
    }
  });

  it("two clients taking overlapping sets in opposite orders (A,B and B,A: a deadlock with client-side recipes) both always finish", async () => {
    const one = cluster.client({ clientName: "kinds-ab" });
    const two = cluster.client({ clientName: "kinds-ba" });
    const rounds = 15;
    const loop = async (c: PalisadeClient, order: string[]): Promise<bigint[]> => {
      const tokens: bigint[] = [];
      for (let i = 0; i < rounds; i++) {
        const handles = await c.lockAll(
          order.map((lock) => ({ lock })),
          { waitMs: 20_000 },
        );
        expect(new Set(handles.map((h) => h.token)).size).toBe(1);
        tokens.push(handles[0]?.token ?? 0n);
        for (const h of handles) await h.release();
      }
      return tokens;
    };
    try {
      const [ab, ba] = await Promise.all([
        loop(one, ["k/abba-a", "k/abba-b"]),
        loop(two, ["k/abba-b", "k/abba-a"]),
      ]);
      expect(ab).toHaveLength(rounds);
      expect(ba).toHaveLength(rounds);
      // Every grant of either set held both locks at once: the (capped) histories list the same tokens, all of the sets'.
      const a = (await client.read.history("k/abba-a")).map((r) => r.token);
      const b = (await client.read.history("k/abba-b")).map((r) => r.token);
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(b);
      const granted = new Set([...ab, ...ba]);
      expect(granted.size).toBe(2 * rounds);
      expect(a.every((t) => granted.has(t))).toBe(true);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("giving up the wait of a set cancels it in every queue", async () => {
    const [holder, set] = (await sessions(2)) as [Session, Session];
    try {
      tokenOf(await holder.acquire("k/cancel-b"));
      const stop = new AbortController();
      const pending = set.startAcquire("k/cancel-a", {
        more: [{ lock: "k/cancel-b" }],
        waitMs: 20_000,
        signal: stop.signal,
      }).result;
      await waiters("k/cancel-a", 1);
      stop.abort();
      expect(await pending).toMatchObject({ acquired: false, cancelled: true });
      expect((await client.read.getLock("k/cancel-a")).waiters).toEqual([]);
      expect((await client.read.getLock("k/cancel-b")).waiters).toEqual([]);
    } finally {
      await closeAll([holder, set]);
    }
  });
});

describe("holder data and hold limits", () => {
  it("holder data shows in GetLock, ListLocks, Watch and history", async () => {
    const stop = new AbortController();
    const events: WatchEvent[] = [];
    // From the index after everything applied so far: the events below arrive however late the stream is set up.
    const fromIndex = await nextIndex();
    const watching = (async () => {
      for await (const e of client.read.watch("k/data", { signal: stop.signal, fromIndex })) {
        events.push(e);
        if (e.kind === "released") break;
      }
    })();
    const session = await client.openSession({ ttlMs: 10_000 });
    try {
      const token = tokenOf(
        await session.acquire("k/data", { data: "deploy #42 by ci", mode: "shared" }),
      );
      expect((await client.read.getLock("k/data")).holder).toMatchObject({
        token,
        mode: "shared",
        data: "deploy #42 by ci",
      });
      expect((await client.read.listLocks({ prefix: "k/data" })).locks[0]?.holder).toMatchObject({
        token,
        data: "deploy #42 by ci",
      });
      await session.release("k/data", token);
      await cluster.waitFor("the watch events", async () =>
        events.some((e) => e.kind === "released"),
      );
      expect(events.find((e) => e.kind === "acquired")).toMatchObject({
        token,
        mode: "shared",
        data: "deploy #42 by ci",
      });
      expect((await client.read.history("k/data"))[0]).toMatchObject({
        token,
        mode: "shared",
        data: "deploy #42 by ci",
        reason: "released",
      });
    } finally {
      stop.abort();
      await watching.catch(() => undefined);
      await session.close();
    }
  });

  it("a hold limit ends the grant with a committed revoke (history: revoked for hold limit) while the session lives on", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    const stop = new AbortController();
    const events: WatchEvent[] = [];
    const fromIndex = await nextIndex();
    const watching = (async () => {
      for await (const e of client.read.watch("k/hold", { signal: stop.signal, fromIndex })) {
        events.push(e);
        if (e.kind === "revoked") break;
      }
    })();
    try {
      const got = await session.acquire("k/hold", { holdMs: 1_000, more: [{ lock: "k/hold-2" }] });
      const token = tokenOf(got);
      // GetLock shows the limit while the grant lasts; on a loaded machine the read may come
      // back after the revoke, and the grant's Watch event and history record carry it too.
      const during = (await client.read.getLock("k/hold")).holder;
      if (during !== undefined) expect(during).toMatchObject({ token, holdMs: 1_000 });
      await cluster.waitFor(
        "the hold-limit revoke",
        async () => (await client.read.getLock("k/hold")).holder === undefined,
        10_000,
      );
      for (const lock of ["k/hold", "k/hold-2"]) {
        expect(await client.read.history(lock)).toMatchObject([
          { token, reason: "revoked", revokedFor: "holdLimit", holdMs: 1_000 },
        ]);
      }
      await cluster.waitFor("the revoke event", async () =>
        events.some((e) => e.kind === "revoked"),
      );
      expect(events.find((e) => e.kind === "acquired" && e.lock === "k/hold")).toMatchObject({
        token,
        holdMs: 1_000,
      });
      expect(events.find((e) => e.kind === "revoked")).toMatchObject({
        token,
        revokedFor: "holdLimit",
      });
      expect(session.live).toBe(true);
      expect(await client.read.getSession(session.id)).toBeDefined();
    } finally {
      stop.abort();
      await watching.catch(() => undefined);
      await session.close();
    }
  });
});

/** Raw Acquires for bad input: over the unary RPC, or over the Stream RPC (the one table of lock calls serves both). */
describe.each(["unary", "stream"] as const)(
  "bad input of the kinds' fields over the %s path",
  (transport) => {
    let connection: Connection;
    let session: bigint;
    let seq = 0;

    beforeAll(async () => {
      connection = new Connection({
        endpoints: cluster.endpoints,
        callTimeoutMs: 2_000,
        retryBudgetMs: 10_000,
      });
      const opened = await connection.invoke(
        lockApi.OpenSession,
        () =>
          pb.OpenSessionRequest.create({
            ttlMs: toU64(30_000),
            clientName: "bad",
            requestId: randomUUID(),
          }),
        { kind: "write" },
      );
      session = u64(opened.sessionId);
    });
    afterAll(() => connection?.close());

    const acquire = (fields: Partial<palisade.v1.AcquireRequest.$Properties>): Promise<unknown> => {
      seq += 1;
      const mine = seq;
      const build = (): palisade.v1.AcquireRequest =>
        pb.AcquireRequest.create({
          sessionId: toU64(session),
          lock: `k/bad-${transport}`,
          seq: toU64(mine),
          ackedUpTo: toU64(0),
          ...fields,
        });
      const sent =
        transport === "unary"
          ? connection.invoke(lockApi.Acquire, build, { kind: "write" })
          : connection.callWire("Acquire", build);
      return sent.then(
        () => "accepted",
        (e: unknown) => e,
      );
    };
    const more = (n: number): palisade.v1.LockTarget.$Properties[] =>
      Array.from({ length: n }, (_, i) => ({ lock: `k/more-${i}` }));

    it.each([
      ["an unknown mode", { mode: 7 as palisade.v1.LockMode }, /^mode: 7 is not a lock mode/],
      ["0 permits", { permits: toU64(0) }, /^permits: 0 is outside 1\.\.10000/],
      [
        "more permits than the limit",
        { permits: toU64(10_001) },
        /^permits: 10001 is outside 1\.\.10000/,
      ],
      [
        "a mode with permits",
        { permits: toU64(2), mode: pb.LockMode.LOCK_MODE_SHARED },
        /^mode: a semaphore/,
      ],
      [
        "a set naming a lock twice",
        { moreLocks: [{ lock: "k/x" }, { lock: "k/x" }] },
        /^more_locks\[1\]\.lock: k\/x is named twice/,
      ],
      [
        "a set naming the request's own lock again",
        { moreLocks: [{ lock: `k/bad-${transport}` }] },
        /^more_locks\[0\]\.lock: .* is named twice/,
      ],
      [
        "a set over the limit of 64 locks",
        { moreLocks: more(64) },
        /^more_locks: 65 locks in one Acquire, more than 64/,
      ],
      [
        "an unknown mode in a set",
        { moreLocks: [{ lock: "k/y", mode: 9 as palisade.v1.LockMode }] },
        /^more_locks\[0\]\.mode: 9 is not a lock mode/,
      ],
      [
        "holder data over 1,024 bytes",
        { holderData: new Uint8Array(1_025).fill(65) },
        /^holder_data: 1025 bytes, more than 1024/,
      ],
      [
        "holder data that is not UTF-8",
        { holderData: new Uint8Array([0xff, 0xfe]) },
        /^holder_data: not valid UTF-8/,
      ],
      [
        "a hold limit below the minimum",
        { holdMs: toU64(500) },
        /^hold_ms: 500 is outside 1000\.\.86400000/,
      ],
      [
        "a hold limit above the maximum",
        { holdMs: toU64(86_400_001) },
        /^hold_ms: 86400001 is outside/,
      ],
    ])(
      "%s is INVALID_ARGUMENT naming the field, and changes nothing",
      async (_what, fields, message) => {
        const answer = await acquire(fields);
        expect(answer).toBeInstanceOf(InvalidArgumentError);
        expect((answer as Error).message).toMatch(message);
        const info = await client.read.getLock(`k/bad-${transport}`);
        expect(info.holder).toBeUndefined();
        expect(info.waiters).toEqual([]);
        expect((await client.read.getSession(session))?.heldLocks).toEqual([]);
      },
    );
  },
);
