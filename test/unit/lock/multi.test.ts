import { describe, expect, it } from "vitest";
import { Client, grantedAll, grantsIn, notAcquired, permitGranted, setup, tokenOf } from "./kit.ts";

describe("atomic multi-lock", () => {
  it("a set of free locks is granted at one index, every lock with that index's token", () => {
    const r = setup();
    const a = new Client(r, "a");
    const at = r.next;
    const t = BigInt(at);
    const out = a.all([{ lock: "A" }, { lock: "B", mode: "shared" }, { lock: "S", permits: 2 }]);
    expect(out.result).toEqual(
      grantedAll(a, t, [
        { lock: "A", token: t, mode: "exclusive" },
        { lock: "B", token: t, mode: "shared" },
        { lock: "S", token: t, mode: "permit", permits: 2, slot: 0 },
      ]),
    );
    expect(grantsIn(out)).toEqual([
      [a.id, "A", t],
      [a.id, "B", t],
      [a.id, "S", t],
    ]);
    expect(r.machine.getLock("B").holder).toMatchObject({
      sessionId: a.id,
      mode: "shared",
      token: t,
    });
    expect(r.machine.getSession(a.id)?.held.map((h) => h.lock)).toEqual(["A", "B", "S"]);
    // Each grant is released on its own.
    expect(a.release("B", t).result.kind).toBe("released");
    expect(r.machine.getLock("A").holder?.token).toBe(t);
  });

  it("a waiting set joins every queue at once and holds none of its locks until all are granted", () => {
    const r = setup();
    const [a, b, m] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "m")];
    const ta = tokenOf(a.acquire("A").result);
    const tb = tokenOf(b.acquire("B").result);
    const joinAt = r.next;
    const joined = m.all([{ lock: "A" }, { lock: "B" }, { lock: "C" }], 1000);
    expect(joined.result).toEqual({ kind: "waiting" });
    expect(joined.events).toEqual([]);
    expect(joined.timers.waitsStarted).toEqual([
      { sessionId: m.id, lock: "A", acquireSeq: 1, waitMs: 1000 },
    ]);
    for (const lock of ["A", "B", "C"]) {
      expect(r.machine.getLock(lock).waiters).toEqual([
        expect.objectContaining({
          sessionId: m.id,
          seqs: [1],
          waitedFrom: joinAt,
          targets: [{ lock: "A" }, { lock: "B" }, { lock: "C" }],
        }),
      ]);
    }
    // C is free, yet not granted: no part of the set is held while it waits.
    expect(r.machine.getLock("C").holder).toBeNull();
    expect(a.release("A", ta).events.map((e) => e.type)).toEqual(["released"]);
    expect(r.machine.getLock("A").holder).toBeNull();
    expect(r.machine.getSession(m.id)?.held).toEqual([]);
    const at = r.next;
    const out = b.release("B", tb);
    const t = BigInt(at);
    expect(out.completions).toEqual([
      {
        sessionId: m.id,
        seq: 1,
        answer: grantedAll(
          m,
          t,
          ["A", "B", "C"].map((lock) => ({ lock, token: t, mode: "exclusive" })),
        ),
      },
    ]);
    expect(grantsIn(out)).toEqual([
      [m.id, "A", t],
      [m.id, "B", t],
      [m.id, "C", t],
    ]);
    expect(out.timers.waitsEnded).toEqual([{ sessionId: m.id, acquireSeq: 1 }]);
    expect(r.machine.history("C")).toEqual([
      expect.objectContaining({ sessionId: m.id, token: t, waitedFrom: joinAt, grantedAt: at }),
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("two sets naming the same locks in opposite orders never deadlock: the one that joined first is granted first", () => {
    const r = setup();
    const [h, x, y] = [new Client(r, "h"), new Client(r, "x"), new Client(r, "y")];
    const th = tokenOf(h.all([{ lock: "A" }, { lock: "B" }]).result);
    expect(x.all([{ lock: "A" }, { lock: "B" }], 1000).result.kind).toBe("waiting");
    expect(y.all([{ lock: "B" }, { lock: "A" }], 1000).result.kind).toBe("waiting");
    h.release("A", th);
    const at = r.next;
    const out = h.release("B", th);
    expect(out.completions.map((c) => [c.sessionId, c.answer.kind])).toEqual([[x.id, "granted"]]);
    expect(grantsIn(out)).toEqual([
      [x.id, "A", BigInt(at)],
      [x.id, "B", BigInt(at)],
    ]);
    // y holds neither lock meanwhile, and is granted both when x lets go of the last one.
    expect(r.machine.getSession(y.id)?.held).toEqual([]);
    x.release("B", BigInt(at));
    expect(r.machine.getLock("B").holder).toBeNull();
    const next = r.next;
    const last = x.release("A", BigInt(at));
    expect(grantsIn(last)).toEqual([
      [y.id, "B", BigInt(next)],
      [y.id, "A", BigInt(next)],
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a later request never overtakes a waiting set in a queue they share, even on a free lock", () => {
    const r = setup();
    const [b, m, l, s] = [
      new Client(r, "b"),
      new Client(r, "m"),
      new Client(r, "l"),
      new Client(r, "s"),
    ];
    const tb = tokenOf(b.acquire("B").result);
    m.all([{ lock: "A" }, { lock: "B" }], 1000);
    // A is free but the set is ahead in its queue.
    expect(l.acquire("A").result).toEqual(notAcquired(null));
    expect(l.acquire("A", 1000).result.kind).toBe("waiting");
    expect(r.machine.getLock("A").waiters.map((w) => w.sessionId)).toEqual([m.id, l.id]);
    // Three permits are free, but a set waits ahead for one of them: later permit requests queue behind it.
    m.close();
    const [e, q] = [new Client(r, "e"), new Client(r, "q")];
    const te = tokenOf(e.acquire("X").result);
    q.all([{ lock: "S", permits: 3 }, { lock: "X" }], 1000);
    s.permit("S", 3, 1000);
    const at = r.next;
    const out = e.release("X", te);
    expect(out.completions.map((c) => [c.sessionId, c.answer])).toEqual([
      [
        q.id,
        grantedAll(q, BigInt(at), [
          { lock: "S", token: BigInt(at), mode: "permit", permits: 3, slot: 0 },
          { lock: "X", token: BigInt(at), mode: "exclusive" },
        ]),
      ],
      [s.id, permitGranted(s, "S", 3, 1, BigInt(at))],
    ]);
    expect(tb).toBeGreaterThan(0n);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a set waits in several modes: shared holders let its shared part in only with the rest", () => {
    const r = setup();
    const [a, b, m] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "m")];
    tokenOf(a.shared("R").result);
    const tb = tokenOf(b.acquire("W").result);
    m.all([{ lock: "R", mode: "shared" }, { lock: "W" }], 1000);
    expect(r.machine.getLock("R").holders).toBeUndefined();
    const at = r.next;
    const out = b.release("W", tb);
    expect(grantsIn(out)).toEqual([
      [m.id, "R", BigInt(at)],
      [m.id, "W", BigInt(at)],
    ]);
    expect(r.machine.getLock("R").holders?.map((h) => [h.sessionId, h.mode])).toEqual([
      [a.id, "shared"],
      [m.id, "shared"],
    ]);
  });

  it("CancelWait of a set's seq cancels the whole set, named by any of its locks; a timeout answers with the lock that blocked it", () => {
    const r = setup();
    const [a, m, n] = [new Client(r, "a"), new Client(r, "m"), new Client(r, "n")];
    const ta = tokenOf(a.acquire("B").result);
    m.all([{ lock: "A" }, { lock: "B" }], 1000);
    expect(m.cancel("C", 1).result).toMatchObject({ reason: "ERROR_REASON_NOT_AN_ACQUIRE" });
    const out = m.cancel("B", 1);
    expect(out.result).toEqual({ kind: "cancelled" });
    expect(out.completions).toEqual([{ sessionId: m.id, seq: 1, answer: { kind: "cancelled" } }]);
    expect(out.timers.waitsEnded).toEqual([{ sessionId: m.id, acquireSeq: 1 }]);
    expect(r.machine.getLock("A").waiters).toEqual([]);
    expect(r.machine.getLock("B").waiters).toEqual([]);
    expect(r.machine.getSession(m.id)?.waiting).toEqual([]);
    // A retry of the cancel answers the same, whichever lock of the set it names.
    expect(m.cancel("A", 1).result).toEqual({ kind: "cancelled" });
    n.all([{ lock: "A" }, { lock: "B" }], 1000);
    const timeout = n.cancel("A", 1, "timeout");
    expect(timeout.result).toEqual(notAcquired(a, ta, "B"));
    expect(r.machine.getLock("A").waiters).toEqual([]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a set Acquire with wait_ms 0 is granted whole or answers with the first lock that blocks it, taking nothing", () => {
    const r = setup();
    const [a, m] = [new Client(r, "a"), new Client(r, "m")];
    const ta = tokenOf(a.shared("B").result);
    const out = m.all([{ lock: "A" }, { lock: "B" }, { lock: "C" }]);
    expect(out.result).toEqual(notAcquired(a, ta, "B"));
    expect(out.events).toEqual([]);
    expect(r.machine.getLock("A").holder).toBeNull();
    expect(r.machine.getLock("C").holder).toBeNull();
    expect(m.all([{ lock: "A" }, { lock: "B", mode: "shared" }]).result.kind).toBe("granted");
  });

  it("a set that the session holds part of is refused; one it holds entirely in the same modes returns its tokens", () => {
    const r = setup();
    const a = new Client(r, "a");
    const tA = tokenOf(a.acquire("A").result);
    const before = [r.machine.getLock("A"), r.machine.getLock("B")];
    const partly = a.all([{ lock: "A" }, { lock: "B" }], 1000);
    expect(partly.result).toMatchObject({ reason: "ERROR_REASON_SET_PARTLY_HELD" });
    expect(partly.result.kind === "error" && partly.result.message).toMatch(/A/);
    expect([r.machine.getLock("A"), r.machine.getLock("B")]).toEqual(before);
    const tB = tokenOf(a.shared("B").result);
    expect(a.all([{ lock: "A" }, { lock: "B", mode: "shared" }]).result).toEqual(
      grantedAll(a, tA, [
        { lock: "A", token: tA, mode: "exclusive" },
        { lock: "B", token: tB, mode: "shared" },
      ]),
    );
    expect(a.all([{ lock: "A" }, { lock: "B" }]).result).toMatchObject({
      reason: "ERROR_REASON_HELD_IN_ANOTHER_MODE",
    });
  });

  it("a session waiting for one lock of a set in another request is refused; the same set again joins its wait", () => {
    const r = setup();
    const [a, m] = [new Client(r, "a"), new Client(r, "m")];
    tokenOf(a.acquire("B").result);
    tokenOf(a.acquire("D").result);
    m.acquire("B", 1000);
    expect(m.all([{ lock: "A" }, { lock: "B" }], 1000).result).toMatchObject({
      reason: "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    });
    expect(m.all([{ lock: "C" }, { lock: "D" }], 1000).result.kind).toBe("waiting");
    expect(m.acquire("C", 1000).result).toMatchObject({
      reason: "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    });
    expect(m.all([{ lock: "D" }, { lock: "C" }], 1000).result).toMatchObject({
      reason: "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    });
    expect(m.all([{ lock: "C" }, { lock: "D" }], 1000).result).toEqual({ kind: "waiting" });
    expect(r.machine.getLock("D").waiters).toEqual([
      expect.objectContaining({ sessionId: m.id, seqs: [3, 6] }),
    ]);
  });

  it("a session end while a set waits removes it from every queue and answers every joined seq", () => {
    const r = setup();
    const [a, m] = [new Client(r, "a"), new Client(r, "m")];
    tokenOf(a.acquire("B").result);
    m.all([{ lock: "A" }, { lock: "B" }], 1000);
    m.all([{ lock: "A" }, { lock: "B" }], 1000);
    const out = m.expire();
    expect(out.completions.map((c) => [c.seq, c.answer])).toEqual([
      [1, expect.objectContaining({ reason: "ERROR_REASON_SESSION_ENDED" })],
      [2, expect.objectContaining({ reason: "ERROR_REASON_SESSION_ENDED" })],
    ]);
    expect(r.machine.getLock("A").waiters).toEqual([]);
    expect(r.machine.getLock("B").waiters).toEqual([]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a retried set Acquire with the same seq gets its first answer and takes no second effect", () => {
    const r = setup();
    const a = new Client(r, "a");
    const cmd = a.acquireCommand("A", 0, { more: [{ lock: "B" }] });
    const first = r.run(cmd);
    const retry = r.run(cmd);
    expect(retry.result).toEqual(first.result);
    expect(retry.events).toEqual([]);
    expect(r.machine.history("A")).toHaveLength(1);
    expect(r.machine.history("B")).toHaveLength(1);
  });

  it("every lock of a set counts toward the session's locks, and every queue it joins toward that queue's waiters", () => {
    const r = setup({ maxLocksPerSession: 3, maxWaitersPerLock: 1 });
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    tokenOf(a.acquire("A").result);
    expect(a.all([{ lock: "B" }, { lock: "C" }, { lock: "D" }]).result).toMatchObject({
      reason: "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
    });
    expect(r.machine.getLock("B").holder).toBeNull();
    expect(a.all([{ lock: "B" }, { lock: "C" }]).result.kind).toBe("granted");
    expect(b.all([{ lock: "X" }, { lock: "C" }], 1000).result.kind).toBe("waiting");
    expect(c.all([{ lock: "Y" }, { lock: "C" }], 1000).result).toMatchObject({
      reason: "ERROR_REASON_TOO_MANY_WAITERS",
    });
    expect(r.machine.getLock("Y").waiters).toEqual([]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });
});
