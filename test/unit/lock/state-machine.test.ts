import { describe, expect, it } from "vitest";
import type { Command } from "../../../node/lock/commands.ts";
import { encodeEntry } from "../../../node/lock/codec/entries.ts";
import { DEFAULT_LOCK_LIMITS } from "../../../node/lock/limits.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { bigintSafe, Client, granted, notAcquired, setup, tokenOf } from "./kit.ts";

describe("grants and tokens", () => {
  it("grants a free lock at once with token = index of the acquire", () => {
    const r = setup();
    const a = new Client(r);
    r.noop();
    const index = r.next;
    const out = a.acquire("db/orders");
    expect(out.result).toEqual(granted(a, "db/orders", BigInt(index)));
    expect(out.events).toEqual([
      {
        type: "acquired",
        index,
        lock: "db/orders",
        sessionId: a.id,
        token: BigInt(index),
        wallMs: 0,
      },
    ]);
    expect(r.machine.getLock("db/orders").holder).toMatchObject({
      sessionId: a.id,
      token: BigInt(index),
      grantedAt: index,
      clientName: "client",
    });
    expect(r.machine.validateToken("db/orders", BigInt(index))).toBe(true);
  });

  it("token = epoch × 2^48 + index with a nonzero epoch", () => {
    const r = setup({}, 3);
    const a = new Client(r);
    const index = r.next;
    expect(tokenOf(a.acquire("x").result)).toBe(3n * 2n ** 48n + BigInt(index));
    expect(r.machine.epoch).toBe(3);
  });

  it("wait_ms = 0 on a held lock answers not acquired with the holder", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    expect(b.acquire("L", 0).result).toEqual(notAcquired(a, t));
    expect(r.machine.getLock("L").waiters).toEqual([]);
  });

  it("is not reentrant by count: the holder gets its token back and one release frees", () => {
    const r = setup();
    const a = new Client(r);
    const t = tokenOf(a.acquire("L").result);
    const again = a.acquire("L", 1000);
    expect(again.result).toEqual(granted(a, "L", t));
    expect(again.events).toEqual([]);
    expect(a.release("L", t).result.kind).toBe("released");
    expect(r.machine.getLock("L").holder).toBeNull();
  });

  it("answers NOT_FOUND for an unknown session", () => {
    const r = setup();
    const out = r.run({
      type: "acquire",
      sessionId: 999n,
      lock: "L",
      waitMs: 0,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
    expect(out.result).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
  });
});

describe("FIFO handoff", () => {
  it("hands the lock to the next waiter with the index of the release", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const t1 = tokenOf(a.acquire("L").result);
    const bWaitIndex = r.next;
    expect(b.acquire("L", 5000).result.kind).toBe("waiting");
    expect(c.acquire("L", 5000).result.kind).toBe("waiting");
    expect(r.machine.getLock("L").waiters.map((w) => w.sessionId)).toEqual([b.id, c.id]);

    const releaseIndex = r.next;
    const out = a.release("L", t1);
    expect(out.result.kind).toBe("released");
    expect(out.completions).toEqual([
      { sessionId: b.id, seq: 1, answer: granted(b, "L", BigInt(releaseIndex)) },
    ]);
    expect(out.events.map((e) => [e.type, e.sessionId, e.token])).toEqual([
      ["released", a.id, t1],
      ["acquired", b.id, BigInt(releaseIndex)],
    ]);
    expect(r.machine.getLock("L").holder).toMatchObject({
      sessionId: b.id,
      grantedAt: releaseIndex,
      waitedFrom: bWaitIndex,
    });
    expect(r.machine.getLock("L").waiters.map((w) => w.sessionId)).toEqual([c.id]);

    const next = r.next;
    const out2 = b.release("L", BigInt(releaseIndex));
    expect(out2.completions).toEqual([
      { sessionId: c.id, seq: 1, answer: granted(c, "L", BigInt(next)) },
    ]);
  });

  it("a close hands several locks to their waiters, all with the close's index", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    a.acquire("L1");
    a.acquire("L2");
    b.acquire("L1", 1000);
    c.acquire("L2", 1000);
    const closeIndex = r.next;
    const out = a.close();
    expect(out.result).toEqual({ kind: "sessionClosed" });
    expect(out.completions).toEqual([
      { sessionId: b.id, seq: 1, answer: granted(b, "L1", BigInt(closeIndex)) },
      { sessionId: c.id, seq: 1, answer: granted(c, "L2", BigInt(closeIndex)) },
    ]);
    expect(out.events.filter((e) => e.type === "sessionClosed").map((e) => e.lock)).toEqual([
      "L1",
      "L2",
    ]);
    expect(r.machine.getLock("L1").holder?.token).toBe(BigInt(closeIndex));
    expect(r.machine.getLock("L2").holder?.token).toBe(BigInt(closeIndex));
    expect(out.timers.sessionsEnded).toEqual([a.id]);
  });

  it("an expiry hands the lock over with the expiry's index and ends the session's waits", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const tb = tokenOf(b.acquire("M").result);
    a.acquire("L");
    a.acquire("M", 1000);
    b.acquire("L", 1000);
    const expiryIndex = r.next;
    const out = a.expire();
    expect(out.result).toEqual({ kind: "sessionExpired" });
    expect(out.completions).toEqual([
      {
        sessionId: a.id,
        seq: 2,
        answer: expect.objectContaining({ reason: "ERROR_REASON_SESSION_ENDED" }),
      },
      { sessionId: b.id, seq: 2, answer: granted(b, "L", BigInt(expiryIndex)) },
    ]);
    expect(out.events.map((e) => e.type)).toEqual(["sessionExpired", "acquired"]);
    expect(r.machine.getLock("M")).toMatchObject({
      holder: { sessionId: b.id, token: tb },
      waiters: [],
    });
    expect(r.machine.hasSession(a.id)).toBe(false);
    // A second expiry of the same session changes nothing.
    expect(a.expire().result).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
  });

  it("a revoke hands the lock over with the revoke's index; a retry answers OK", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    const revokeIndex = r.next;
    const out = r.run({ type: "revoke", lock: "L", token: t, wallMs: 0 });
    expect(out.result).toEqual({ kind: "revoked" });
    expect(out.completions[0]?.answer).toEqual(granted(b, "L", BigInt(revokeIndex)));
    expect(r.machine.history("L")[0]).toMatchObject({
      token: t,
      reason: "revoked",
      endedAt: revokeIndex,
    });
    const retry = r.run({ type: "revoke", lock: "L", token: t, wallMs: 0 });
    expect(retry.result).toEqual({ kind: "revoked" });
    expect(retry.events).toEqual([]);
    expect(r.machine.getLock("L").holder?.sessionId).toBe(b.id);
    expect(r.run({ type: "revoke", lock: "L", token: 12345n, wallMs: 0 }).result).toMatchObject({
      reason: "ERROR_REASON_STALE_TOKEN",
    });
    // The released former holder cannot release any more.
    expect(a.release("L", t).result).toMatchObject({ reason: "ERROR_REASON_NOT_HOLDER" });
  });

  it("a cancel never grants, even of the first waiter", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    c.acquire("L", 1000);
    const out = b.cancel("L", 1);
    expect(out.result).toEqual({ kind: "cancelled" });
    expect(out.completions).toEqual([{ sessionId: b.id, seq: 1, answer: { kind: "cancelled" } }]);
    expect(out.events).toEqual([]);
    expect(r.machine.getLock("L")).toMatchObject({ holder: { sessionId: a.id, token: t } });
    expect(r.machine.getLock("L").waiters.map((w) => w.sessionId)).toEqual([c.id]);
  });

  it("skips waiters whose session ended", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    c.acquire("L", 1000);
    b.expire();
    const index = r.next;
    const out = a.release("L", t);
    expect(out.completions).toEqual([
      { sessionId: c.id, seq: 1, answer: granted(c, "L", BigInt(index)) },
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a second Acquire while waiting joins the wait, and every joined seq gets the same answer", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    const joined = b.acquire("L", 50);
    expect(joined.result.kind).toBe("waiting");
    expect(joined.timers.waitsStarted).toEqual([]);
    expect(r.machine.getLock("L").waiters).toEqual([
      expect.objectContaining({ sessionId: b.id, seqs: [1, 2] }),
    ]);
    expect(r.machine.pendingWaits()).toEqual([
      { sessionId: b.id, lock: "L", acquireSeq: 1, waitMs: 1000 },
    ]);
    const index = r.next;
    const out = a.release("L", t);
    const grant = granted(b, "L", BigInt(index));
    expect(out.completions).toEqual([
      { sessionId: b.id, seq: 1, answer: grant },
      { sessionId: b.id, seq: 2, answer: grant },
    ]);
    expect(out.timers.waitsEnded).toEqual([{ sessionId: b.id, acquireSeq: 1 }]);
  });

  it("a timed-out wait answers not acquired for every joined seq and leaves the holder", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    b.acquire("L", 1000);
    const out = b.cancel("L", 1, "timeout");
    const left = notAcquired(a, t);
    expect(out.result).toEqual(left);
    expect(out.completions.map((c) => [c.seq, c.answer])).toEqual([
      [1, left],
      [2, left],
    ]);
    expect(r.machine.getLock("L")).toMatchObject({ holder: { sessionId: a.id }, waiters: [] });
  });
});

describe("release", () => {
  it("refuses a stale token or a non-holder with FAILED_PRECONDITION and changes nothing", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    b.acquire("L", 1000);
    const before = { lock: r.machine.getLock("L"), history: r.machine.history("L") };
    const stale = a.release("L", t + 1n);
    expect(stale.result).toMatchObject({ reason: "ERROR_REASON_STALE_TOKEN" });
    const notHolder = b.release("L", t);
    expect(notHolder.result).toMatchObject({ reason: "ERROR_REASON_NOT_HOLDER" });
    expect([
      ...stale.events,
      ...notHolder.events,
      ...stale.completions,
      ...notHolder.completions,
    ]).toEqual([]);
    expect({ lock: r.machine.getLock("L"), history: r.machine.history("L") }).toEqual(before);
  });
});

describe("sessions", () => {
  it("a retried OpenSession with the same request id returns the same session", () => {
    const r = setup();
    const cmd: Command = {
      type: "openSession",
      requestId: "same",
      ttlMs: 5000,
      clientName: "x",
      wallMs: 0,
    };
    const first = r.run(cmd);
    const second = r.run(cmd);
    expect(second.result).toEqual(first.result);
    expect(second.timers.sessionsOpened).toEqual([]);
    expect(r.machine.stats().sessions).toBe(1);
    expect(r.run({ ...cmd, requestId: "other" }).result).toMatchObject({ kind: "sessionOpened" });
    expect(r.machine.stats().sessions).toBe(2);
  });

  it("an OpenSession without a request id opens a session each time and remembers none", () => {
    const r = setup();
    const cmd: Command = {
      type: "openSession",
      requestId: "",
      ttlMs: 5000,
      clientName: "x",
      wallMs: 0,
    };
    const first = r.run(cmd);
    const second = r.run(cmd);
    expect(first.result).toMatchObject({ kind: "sessionOpened" });
    expect(second.result).toMatchObject({ kind: "sessionOpened" });
    expect(second.result).not.toEqual(first.result);
    expect(r.machine.stats().sessions).toBe(2);
    expect(r.machine.stats().rememberedRequestIds).toBe(0);
  });

  it("a retried write gets its first answer even when the limits changed in between", () => {
    const r = setup();
    const session = new Client(r).id;
    const acquire: Command = {
      type: "acquire",
      sessionId: session,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "a",
      waitMs: 50_000,
      wallMs: 0,
    };
    const first = r.run(acquire).result;
    expect(first).toMatchObject({ kind: "granted" });
    // The cluster's limits shrink below the Acquire's wait before its answer reaches the client.
    r.run({
      type: "setLimits",
      limits: { ...DEFAULT_LOCK_LIMITS, maxWaitMs: 10_000 },
      wallMs: 0,
    });
    expect(r.run(acquire).result).toEqual(first);
    // A new seq is checked against the new limits.
    expect(r.run({ ...acquire, seq: 2, lock: "b" }).result).toMatchObject({
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
  });

  it("session id is the index of the OpenSession entry", () => {
    const r = setup();
    r.noop();
    r.noop();
    const c = new Client(r);
    expect(c.id).toBe(3n);
    expect(r.machine.getSession(3n)).toMatchObject({ id: 3n, ttlMs: 10_000, openedAt: 3 });
  });

  it("CloseSession: remembered closed session → OK, expired or unknown → NOT_FOUND", () => {
    const r = setup({ rememberedClosedSessions: 2 });
    const [a, b, c, d] = [new Client(r), new Client(r), new Client(r), new Client(r)];
    expect(a.close().result.kind).toBe("sessionClosed");
    expect(a.close().result).toEqual({ kind: "sessionClosed" });
    b.expire();
    expect(b.close().result).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
    expect(
      r.run({ type: "closeSession", sessionId: 777n, seq: 1, ackedUpTo: 0, held: [], wallMs: 0 })
        .result,
    ).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
    // Only the last two closed ids are remembered: a is forgotten after c and d close.
    c.close();
    d.close();
    expect(a.close().result).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
    expect(d.close().result.kind).toBe("sessionClosed");
  });

  it("lists sessions in id order, paged", () => {
    const r = setup();
    const clients = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const page1 = r.machine.listSessions(0n, 2);
    expect(page1.sessions.map((s) => s.clientName)).toEqual(["a", "b"]);
    const page2 = r.machine.listSessions(page1.nextAfter as bigint, 2);
    expect(page2.sessions.map((s) => s.id)).toEqual([clients[2]?.id]);
    expect(page2.nextAfter).toBeNull();
  });
});

describe("reads", () => {
  it("lists held or waited locks by prefix, sorted and paged", () => {
    const r = setup();
    const a = new Client(r);
    for (const name of ["jobs/b", "jobs/a", "other", "jobs/c", "jobs/\u{1F600}", "jobs/\uFFFD"])
      a.acquire(name);
    const t = r.machine.getLock("jobs/c").holder?.token as bigint;
    a.release("jobs/c", t); // free now, only history remains
    const page1 = r.machine.listLocks({ prefix: "jobs/", limit: 2 });
    expect(page1.locks.map((l) => l.name)).toEqual(["jobs/a", "jobs/b"]);
    const page2 = r.machine.listLocks({
      prefix: "jobs/",
      after: page1.nextAfter as string,
      limit: 10,
    });
    // Code point order: U+FFFD sorts before U+1F600.
    expect(page2.locks.map((l) => l.name)).toEqual(["jobs/\uFFFD", "jobs/\u{1F600}"]);
    expect(page2.nextAfter).toBeNull();
  });
});

describe("bad input and limits", () => {
  it("refuses invalid commands with INVALID_ARGUMENT and changes nothing", () => {
    const r = setup();
    const shadow = setup();
    const a = new Client(r, "a", 10_000, "fixed");
    new Client(shadow, "a", 10_000, "fixed");
    const bad: Command[] = [
      { type: "openSession", requestId: "r", ttlMs: 999, clientName: "x", wallMs: 0 },
      { type: "openSession", requestId: "r", ttlMs: 3_600_001, clientName: "x", wallMs: 0 },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "x".repeat(257),
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "a\u0085b",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "a\u007f",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "a\nb",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "\ud800x",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: 3_600_001,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: -1,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: 0,
        seq: 0,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: 0,
        seq: 3,
        ackedUpTo: 3,
        held: [],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: 0,
        seq: 3,
        ackedUpTo: 0,
        held: [3],
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: a.id,
        lock: "ok",
        waitMs: 0,
        seq: 100,
        ackedUpTo: 0,
        held: Array.from({ length: 65 }, (_, i) => i + 1),
        wallMs: 0,
      },
      {
        type: "acquire",
        sessionId: 0n,
        lock: "ok",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "release",
        sessionId: a.id,
        lock: "ok",
        token: 0n,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      },
      {
        type: "cancelWait",
        sessionId: a.id,
        lock: "ok",
        acquireSeq: 0,
        reason: "client",
        wallMs: 0,
      },
      { type: "revoke", lock: "", token: 5n, wallMs: 0 },
    ];
    for (const cmd of bad) {
      const out = r.run(cmd);
      expect(out.result, JSON.stringify(cmd, bigintSafe)).toMatchObject({ kind: "error" });
      expect(out.events.length + out.completions.length).toBe(0);
      shadow.noop();
    }
    const garbage = r.runBytes(new Uint8Array([1, 99, 0]));
    shadow.noop();
    expect(garbage.result).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    expect(r.machine.snapshot()).toEqual(shadow.machine.snapshot());
  });

  it("accepts the boundary values", () => {
    const r = setup();
    expect(
      r.run({ type: "openSession", requestId: "a", ttlMs: 1000, clientName: "", wallMs: 0 }).result
        .kind,
    ).toBe("sessionOpened");
    expect(
      r.run({ type: "openSession", requestId: "b", ttlMs: 3_600_000, clientName: "x", wallMs: 0 })
        .result.kind,
    ).toBe("sessionOpened");
    const a = new Client(r);
    expect(a.acquire("é".repeat(128)).result.kind).toBe("granted"); // 256 bytes
    expect(a.acquire("é".repeat(128) + "x").result).toMatchObject({
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    }); // 257 bytes
    const b = new Client(r);
    expect(b.acquire("é".repeat(128), 3_600_000).result.kind).toBe("waiting");
  });

  it("applies the encoded bytes of a command like the command", () => {
    const r = setup();
    const out = r.machine.applyBytes(
      1,
      encodeEntry({
        type: "openSession",
        requestId: "q",
        ttlMs: 2000,
        clientName: "n",
        wallMs: 5,
      }),
    );
    expect(out.result).toEqual({ kind: "sessionOpened", sessionId: 1n, ttlMs: 2000 });
  });

  it("limits sessions, locks per session and waiters per lock with RESOURCE_EXHAUSTED", () => {
    const r = setup({ maxSessions: 3, maxLocksPerSession: 2, maxWaitersPerLock: 1 });
    const [a, b, c] = [new Client(r), new Client(r), new Client(r)];
    expect(
      r.run({ type: "openSession", requestId: "fourth", ttlMs: 5000, clientName: "", wallMs: 0 })
        .result,
    ).toMatchObject({ reason: "ERROR_REASON_TOO_MANY_SESSIONS" });
    a.acquire("L1");
    a.acquire("L2");
    expect(a.acquire("L3").result).toMatchObject({
      reason: "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
    });
    expect(r.machine.getLock("L3").holder).toBeNull();
    expect(b.acquire("L1", 1000).result.kind).toBe("waiting");
    expect(c.acquire("L1", 1000).result).toMatchObject({ reason: "ERROR_REASON_TOO_MANY_WAITERS" });
    // A wait counts toward the session's locks, so the handoff never passes the limit.
    expect(b.acquire("L2", 1000).result.kind).toBe("waiting");
    expect(b.acquire("L4").result).toMatchObject({
      reason: "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
    });
    a.close();
    expect(r.machine.getSession(b.id)?.held.map((h) => h.lock)).toEqual(["L1", "L2"]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("throws on an entry applied out of order, twice, or after a gap", () => {
    const m = new LockStateMachine();
    expect(() => m.skip(2)).toThrow(/entry 2 applied out of order \(applied index 0\)/);
    m.skip(1);
    expect(() => m.skip(1)).toThrow(RangeError);
    expect(() => m.skip(3)).toThrow(RangeError);
    expect(() => m.apply(0, { type: "revoke", lock: "x", token: 1n, wallMs: 0 })).toThrow(
      RangeError,
    );
    m.skip(2);
    expect(m.appliedIndex).toBe(2);
  });
});
