import { describe, expect, it } from "vitest";
import { Client, grantedAll, notAcquired, setup, slotOf, tokenOf } from "./kit.ts";

describe("exactly-once and CancelWait for every lock kind", () => {
  it("a retried shared or permit Acquire with the same seq gets its first answer, slot included, and no second grant", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const shared = a.acquireCommand("L", 0, { mode: "shared" });
    const first = r.run(shared);
    a.seq = shared.seq;
    const permit = a.acquireCommand("S", 0, { permits: 2 });
    const firstPermit = r.run(permit);
    a.seq = permit.seq;
    tokenOf(b.permit("S", 2).result);
    for (const [cmd, answer] of [
      [shared, first.result],
      [permit, firstPermit.result],
    ] as const) {
      const retry = r.run(cmd);
      expect(retry.result).toEqual(answer);
      expect(retry.events).toEqual([]);
    }
    expect(slotOf(firstPermit.result)).toBe(0);
    expect(r.machine.getLock("S").holders?.map((h) => h.sessionId)).toEqual([a.id, b.id]);
  });

  it("CancelWait ends a shared wait and a permit wait; after a grant it answers the grant, slot and set included", () => {
    const r = setup();
    const [h, w, m] = [new Client(r, "h"), new Client(r, "w"), new Client(r, "m")];
    const th = tokenOf(h.acquire("L").result);
    const ts = tokenOf(h.permit("S", 1).result);
    w.shared("L", 1000);
    w.permit("S", 1, 1000);
    expect(w.cancel("L", 1).result).toEqual({ kind: "cancelled" });
    expect(w.cancel("S", 2, "timeout").result).toEqual(notAcquired(h, ts));
    expect(r.machine.getLock("L").waiters).toEqual([]);
    expect(r.machine.getLock("S").waiters).toEqual([]);
    m.all(
      [
        { lock: "L", mode: "shared" },
        { lock: "S", permits: 1 },
      ],
      1000,
    );
    h.release("L", th);
    const at = r.next;
    h.release("S", ts);
    const grant = grantedAll(m, BigInt(at), [
      { lock: "L", token: BigInt(at), mode: "shared" },
      { lock: "S", token: BigInt(at), mode: "permit", permits: 1, slot: 0 },
    ]);
    expect(m.cancel("S", 1).result).toEqual(grant);
    expect(m.cancel("L", 1).result).toEqual(grant);
    expect(r.machine.getLock("S").holder?.sessionId).toBe(m.id);
  });

  it("a CancelWait recorded before its set Acquire applies makes that Acquire take no effect", () => {
    const r = setup();
    const m = new Client(r, "m");
    expect(m.cancel("A", 1).result).toEqual({ kind: "cancelled" });
    const late = m.all([{ lock: "A" }, { lock: "B" }], 1000);
    expect(late.result).toEqual({ kind: "cancelled" });
    expect([...late.events, ...late.timers.waitsStarted]).toEqual([]);
    expect(r.machine.getLock("A").holder).toBeNull();
    expect(r.machine.getLock("B").holder).toBeNull();
  });
});
