import { describe, expect, it } from "vitest";
import { Client, grantsIn, notAcquired, permitGranted, setup, slotOf, tokenOf } from "./kit.ts";

describe("counted semaphores", () => {
  it("a semaphore of N permits grants N sessions at once, each a token and the lowest free slot", () => {
    const r = setup();
    const [a, b, c, d] = [
      new Client(r, "a"),
      new Client(r, "b"),
      new Client(r, "c"),
      new Client(r, "d"),
    ];
    const ia = r.next;
    const out = a.permit("S", 3);
    expect(out.result).toEqual(permitGranted(a, "S", 3, 0, BigInt(ia)));
    expect(out.events).toEqual([
      {
        type: "acquired",
        index: ia,
        lock: "S",
        sessionId: a.id,
        token: BigInt(ia),
        wallMs: 0,
        mode: "permit",
        slot: 0,
        permits: 3,
      },
    ]);
    expect(slotOf(b.permit("S", 3).result)).toBe(1);
    expect(slotOf(c.permit("S", 3).result)).toBe(2);
    expect(d.permit("S", 3).result).toEqual(notAcquired(a, BigInt(ia)));
    const info = r.machine.getLock("S");
    expect(info).toMatchObject({ name: "S", kind: "semaphore", permits: 3 });
    expect(info.holders?.map((h) => [h.sessionId, h.mode, h.slot])).toEqual([
      [a.id, "permit", 0],
      [b.id, "permit", 1],
      [c.id, "permit", 2],
    ]);
    expect(r.machine.getSession(b.id)?.held).toEqual([
      { lock: "S", token: BigInt(ia + 1), mode: "permit", slot: 1 },
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a waiter for a permit is served in FIFO order and gets the slot that was freed", () => {
    const r = setup();
    const [a, b, c, d] = [
      new Client(r, "a"),
      new Client(r, "b"),
      new Client(r, "c"),
      new Client(r, "d"),
    ];
    const ta = tokenOf(a.permit("S", 2).result);
    const tb = tokenOf(b.permit("S", 2).result);
    expect(c.permit("S", 2, 1000).result.kind).toBe("waiting");
    expect(d.permit("S", 2, 1000).result.kind).toBe("waiting");
    const at = r.next;
    const out = a.release("S", ta);
    expect(out.completions).toEqual([
      { sessionId: c.id, seq: 1, answer: permitGranted(c, "S", 2, 0, BigInt(at)) },
    ]);
    expect(grantsIn(out)).toEqual([[c.id, "S", BigInt(at)]]);
    const next = r.next;
    expect(b.release("S", tb).completions).toEqual([
      { sessionId: d.id, seq: 1, answer: permitGranted(d, "S", 2, 1, BigInt(next)) },
    ]);
    expect(r.machine.history("S").map((h) => [h.sessionId, h.slot, h.reason])).toEqual([
      [a.id, 0, "released"],
      [b.id, 1, "released"],
      [c.id, 0, null],
      [d.id, 1, null],
    ]);
  });

  it("a session end or a revoke frees a permit for the next waiter, with that entry's index", () => {
    const r = setup();
    const [a, b, c, d] = [
      new Client(r, "a"),
      new Client(r, "b"),
      new Client(r, "c"),
      new Client(r, "d"),
    ];
    tokenOf(a.permit("S", 2).result);
    const tb = tokenOf(b.permit("S", 2).result);
    c.permit("S", 2, 1000);
    d.permit("S", 2, 1000);
    const closeAt = r.next;
    const closed = a.close();
    expect(closed.completions).toEqual([
      { sessionId: c.id, seq: 1, answer: permitGranted(c, "S", 2, 0, BigInt(closeAt)) },
    ]);
    expect(r.machine.getLock("S").waiters.map((w) => w.sessionId)).toEqual([d.id]);
    const revokeAt = r.next;
    const revoked = r.run({ type: "revoke", lock: "S", token: tb, wallMs: 0 });
    expect(revoked.completions).toEqual([
      { sessionId: d.id, seq: 1, answer: permitGranted(d, "S", 2, 1, BigInt(revokeAt)) },
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a holder's second Acquire returns its token and slot", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    b.permit("S", 2);
    const first = a.permit("S", 2);
    const again = a.permit("S", 2, 1000);
    expect(again.result).toEqual(first.result);
    expect(slotOf(again.result)).toBe(1);
    expect(again.events).toEqual([]);
  });

  it("a different permit count is refused while the semaphore is held or waited for; once idle the next Acquire sets it anew", () => {
    const r = setup();
    const [a, b, c] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "c")];
    const ta = tokenOf(a.permit("S", 1).result);
    b.permit("S", 1, 1000);
    const before = [r.machine.getLock("S"), r.machine.history("S")];
    const other = c.permit("S", 4, 1000);
    expect(other.result).toMatchObject({ kind: "error", reason: "ERROR_REASON_PERMITS_MISMATCH" });
    expect(other.result.kind === "error" && other.result.message).toMatch(/permits 4.*1/);
    expect([r.machine.getLock("S"), r.machine.history("S")]).toEqual(before);
    a.release("S", ta);
    const tb = r.machine.getLock("S").holder?.token as bigint;
    expect(c.permit("S", 4, 1000).result).toMatchObject({
      reason: "ERROR_REASON_PERMITS_MISMATCH",
    });
    b.release("S", tb);
    expect(r.machine.getLock("S").holder).toBeNull();
    expect(slotOf(c.permit("S", 4).result)).toBe(0);
    expect(r.machine.getLock("S")).toMatchObject({ kind: "semaphore", permits: 4 });
  });

  it("a name in use as a lock is refused as a semaphore, and a semaphore's name as a lock, in either mode", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const tl = tokenOf(a.acquire("L").result);
    tokenOf(a.permit("S", 2).result);
    expect(b.permit("L", 2, 1000).result).toMatchObject({ reason: "ERROR_REASON_KIND_MISMATCH" });
    expect(b.acquire("S", 1000).result).toMatchObject({ reason: "ERROR_REASON_KIND_MISMATCH" });
    expect(b.shared("S").result).toMatchObject({ reason: "ERROR_REASON_KIND_MISMATCH" });
    const refused = b.shared("S").result;
    expect(refused.kind === "error" && refused.message).toMatch(/semaphore/);
    expect(r.machine.getLock("S").waiters).toEqual([]);
    // Idle again, the name may be used as the other kind.
    a.release("L", tl);
    expect(slotOf(b.permit("L", 2).result)).toBe(0);
    expect(r.machine.history("L").map((h) => h.mode)).toEqual([undefined, "permit"]);
  });
});
