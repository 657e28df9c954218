import { describe, expect, it } from "vitest";
import { Client, granted, grantsIn, notAcquired, setup, tokenOf } from "./kit.ts";

describe("shared and exclusive modes", () => {
  it("several sessions hold a lock shared at once, each grant with the token of its own entry", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const ia = r.next;
    expect(a.shared("L").result).toEqual(granted(a, "L", BigInt(ia), "shared"));
    const ib = r.next;
    const out = b.shared("L");
    expect(out.result).toEqual(granted(b, "L", BigInt(ib), "shared"));
    expect(out.events).toEqual([
      {
        type: "acquired",
        index: ib,
        lock: "L",
        sessionId: b.id,
        token: BigInt(ib),
        wallMs: 0,
        mode: "shared",
      },
    ]);
    const info = r.machine.getLock("L");
    expect(info.holder).toMatchObject({ sessionId: a.id, token: BigInt(ia), mode: "shared" });
    expect(info.holders?.map((h) => [h.sessionId, h.token, h.mode])).toEqual([
      [a.id, BigInt(ia), "shared"],
      [b.id, BigInt(ib), "shared"],
    ]);
    expect(r.machine.validateToken("L", BigInt(ia))).toBe(true);
    expect(r.machine.validateToken("L", BigInt(ib))).toBe(true);
    // An exclusive request with wait_ms 0 is not granted; the answer names the oldest holder.
    expect(c.acquire("L").result).toEqual(notAcquired(a, BigInt(ia)));
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("an exclusive holder is alone: a shared request waits until it releases", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const t = tokenOf(a.acquire("L").result);
    expect(b.shared("L").result).toEqual(notAcquired(a, t));
    expect(b.shared("L", 1000).result.kind).toBe("waiting");
    const at = r.next;
    const out = a.release("L", t);
    expect(out.completions).toEqual([
      { sessionId: b.id, seq: 2, answer: granted(b, "L", BigInt(at), "shared") },
    ]);
    expect(r.machine.getLock("L").holder).toMatchObject({
      sessionId: b.id,
      mode: "shared",
      waitedFrom: at - 1,
    });
  });

  it("an exclusive waiter is granted once the last shared holder releases", () => {
    const r = setup();
    const [a, b, w] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "w")];
    const ta = tokenOf(a.shared("L").result);
    const tb = tokenOf(b.shared("L").result);
    expect(w.acquire("L", 1000).result.kind).toBe("waiting");
    expect(a.release("L", ta).completions).toEqual([]);
    const at = r.next;
    const out = b.release("L", tb);
    expect(out.completions).toEqual([
      { sessionId: w.id, seq: 1, answer: granted(w, "L", BigInt(at)) },
    ]);
    expect(r.machine.getLock("L").holder).toMatchObject({ sessionId: w.id, token: BigInt(at) });
    expect(r.machine.getLock("L").holder?.mode).toBeUndefined();
  });

  it("a queued exclusive request blocks later shared ones, so a stream of readers never starves a writer", () => {
    const r = setup();
    const [a, w, b, c] = [
      new Client(r, "a"),
      new Client(r, "w"),
      new Client(r, "b"),
      new Client(r, "c"),
    ];
    const ta = tokenOf(a.shared("L").result);
    expect(w.acquire("L", 1000).result.kind).toBe("waiting");
    // The lock is held shared, yet a new shared request waits behind the writer.
    expect(b.shared("L").result).toEqual(notAcquired(a, ta));
    expect(c.shared("L", 1000).result.kind).toBe("waiting");
    expect(r.machine.getLock("L").waiters.map((x) => [x.sessionId, x.mode])).toEqual([
      [w.id, undefined],
      [c.id, "shared"],
    ]);
    const at = r.next;
    const out = a.release("L", ta);
    expect(grantsIn(out)).toEqual([[w.id, "L", BigInt(at)]]);
    const next = r.next;
    expect(grantsIn(w.release("L", BigInt(at)))).toEqual([[c.id, "L", BigInt(next)]]);
  });

  it("consecutive shared requests at the head of the queue are granted together at one index, up to the next exclusive one", () => {
    const r = setup();
    const [e, s1, s2, x, s3] = [
      new Client(r, "e"),
      new Client(r, "s1"),
      new Client(r, "s2"),
      new Client(r, "x"),
      new Client(r, "s3"),
    ];
    const te = tokenOf(e.acquire("L").result);
    s1.shared("L", 1000);
    s2.shared("L", 1000);
    x.acquire("L", 1000);
    s3.shared("L", 1000);
    const at = r.next;
    const out = e.release("L", te);
    expect(out.completions).toEqual([
      { sessionId: s1.id, seq: 1, answer: granted(s1, "L", BigInt(at), "shared") },
      { sessionId: s2.id, seq: 1, answer: granted(s2, "L", BigInt(at), "shared") },
    ]);
    expect(grantsIn(out)).toEqual([
      [s1.id, "L", BigInt(at)],
      [s2.id, "L", BigInt(at)],
    ]);
    expect(r.machine.getLock("L").waiters.map((w) => w.sessionId)).toEqual([x.id, s3.id]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("an exclusive waiter that gives up lets the shared requests behind it in at once", () => {
    const r = setup();
    const [a, w, b] = [new Client(r, "a"), new Client(r, "w"), new Client(r, "b")];
    tokenOf(a.shared("L").result);
    w.acquire("L", 1000);
    b.shared("L", 1000);
    const at = r.next;
    const out = w.cancel("L", 1, "timeout");
    expect(out.result).toMatchObject({ kind: "notAcquired", holder: { sessionId: a.id } });
    expect(out.completions).toEqual([
      { sessionId: w.id, seq: 1, answer: out.result },
      { sessionId: b.id, seq: 1, answer: granted(b, "L", BigInt(at), "shared") },
    ]);
    expect(r.machine.getLock("L").holders?.map((h) => h.sessionId)).toEqual([a.id, b.id]);
  });

  it("releasing one shared grant leaves the others; a stale token or a session that does not hold it is refused", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const ta = tokenOf(a.shared("L").result);
    const tb = tokenOf(b.shared("L").result);
    expect(a.release("L", tb).result).toMatchObject({ reason: "ERROR_REASON_STALE_TOKEN" });
    expect(c.release("L", ta).result).toMatchObject({ reason: "ERROR_REASON_NOT_HOLDER" });
    expect(a.release("L", ta).result).toEqual({ kind: "released" });
    expect(r.machine.getLock("L").holder).toMatchObject({ sessionId: b.id, token: tb });
    expect(r.machine.getLock("L").holders).toBeUndefined();
    expect(r.machine.validateToken("L", ta)).toBe(false);
    expect(r.machine.history("L").map((h) => [h.sessionId, h.mode, h.reason])).toEqual([
      [a.id, "shared", "released"],
      [b.id, "shared", null],
    ]);
  });

  it("an Acquire by a holder in its own mode returns its token; in the other mode it is refused and changes nothing", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const ta = tokenOf(a.shared("L").result);
    const tb = tokenOf(b.acquire("M").result);
    const again = a.shared("L", 1000);
    expect(again.result).toEqual(granted(a, "L", ta, "shared"));
    expect(again.events).toEqual([]);
    const before = [
      r.machine.getLock("L"),
      r.machine.getLock("M"),
      r.machine.history("L"),
      r.machine.history("M"),
    ];
    const upgrade = a.exclusive("L", 1000);
    expect(upgrade.result).toMatchObject({
      kind: "error",
      reason: "ERROR_REASON_HELD_IN_ANOTHER_MODE",
    });
    expect(upgrade.result.kind === "error" && upgrade.result.message).toMatch(/mode/);
    const downgrade = b.shared("M");
    expect(downgrade.result).toMatchObject({ reason: "ERROR_REASON_HELD_IN_ANOTHER_MODE" });
    expect([
      ...upgrade.events,
      ...downgrade.events,
      ...upgrade.completions,
      ...upgrade.timers.waitsStarted,
    ]).toEqual([]);
    expect([
      r.machine.getLock("L"),
      r.machine.getLock("M"),
      r.machine.history("L"),
      r.machine.history("M"),
    ]).toEqual(before);
    expect(r.machine.getLock("L").holder).toMatchObject({
      sessionId: a.id,
      token: ta,
      mode: "shared",
    });
    expect(r.machine.getLock("M").holder).toMatchObject({ sessionId: b.id, token: tb });
  });

  it("a session waiting for a lock in one mode cannot ask for it in the other; asking again in the same mode joins the wait", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    tokenOf(a.acquire("L").result);
    expect(b.shared("L", 1000).result.kind).toBe("waiting");
    expect(b.exclusive("L", 1000).result).toMatchObject({
      reason: "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    });
    const joined = b.shared("L", 1000);
    expect(joined.result.kind).toBe("waiting");
    expect(r.machine.getLock("L").waiters).toEqual([
      expect.objectContaining({ sessionId: b.id, seqs: [1, 3], mode: "shared" }),
    ]);
  });

  it("an Acquire with mode exclusive is the Acquire with no mode", () => {
    const r = setup();
    const twin = setup();
    const [a, b] = [new Client(r, "a", 10_000, "a"), new Client(r, "b", 10_000, "b")];
    const [ta2, tb2] = [new Client(twin, "a", 10_000, "a"), new Client(twin, "b", 10_000, "b")];
    const outs = [a.exclusive("L"), b.exclusive("L", 1000)];
    const twins = [ta2.acquire("L"), tb2.acquire("L", 1000)];
    outs.push(a.release("L", tokenOf(outs[0]!.result)));
    twins.push(ta2.release("L", tokenOf(twins[0]!.result)));
    expect(outs).toEqual(twins);
    expect(outs[2]?.completions).toHaveLength(1);
    expect(r.machine.snapshot()).toEqual(twin.machine.snapshot());
  });

  it("a revoke of a token that several shared grants carry ends them all; a close ends a session's shared grants", () => {
    const r = setup();
    const [e, s1, s2, s3] = [
      new Client(r, "e"),
      new Client(r, "s1"),
      new Client(r, "s2"),
      new Client(r, "s3"),
    ];
    const te = tokenOf(e.acquire("L").result);
    s1.shared("L", 1000);
    s2.shared("L", 1000);
    const at = r.next;
    e.release("L", te);
    const t3 = tokenOf(s3.shared("L").result);
    const out = r.run({ type: "revoke", lock: "L", token: BigInt(at), wallMs: 0 });
    expect(out.result).toEqual({ kind: "revoked" });
    expect(out.events.map((x) => [x.type, x.sessionId])).toEqual([
      ["revoked", s1.id],
      ["revoked", s2.id],
    ]);
    expect(r.run({ type: "revoke", lock: "L", token: BigInt(at), wallMs: 0 }).result).toEqual({
      kind: "revoked",
    });
    expect(r.machine.getLock("L").holder).toMatchObject({ sessionId: s3.id, token: t3 });
    const closed = s3.close();
    expect(closed.events.map((x) => [x.type, x.sessionId, x.token])).toEqual([
      ["sessionClosed", s3.id, t3],
    ]);
    expect(r.machine.getLock("L").holder).toBeNull();
    expect(r.machine.checkInvariants()).toEqual([]);
  });
});
