import { describe, expect, it } from "vitest";
import { LeaseKeeper } from "../../../node/lock/lease-keeper.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { Client, setup, tokenOf } from "./kit.ts";

describe("holder data", () => {
  it("an Acquire's holder data is shown by GetLock, ListLocks, the grant's event and the history", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const at = r.next;
    const out = a.acquire("L", 0, { holderData: "host-7 nightly report" });
    expect(out.events).toEqual([
      {
        type: "acquired",
        index: at,
        lock: "L",
        sessionId: a.id,
        token: BigInt(at),
        wallMs: 0,
        holderData: "host-7 nightly report",
      },
    ]);
    expect(r.machine.getLock("L").holder).toMatchObject({
      sessionId: a.id,
      holderData: "host-7 nightly report",
    });
    expect(r.machine.listLocks().locks[0]?.holder?.holderData).toBe("host-7 nightly report");
    expect(r.machine.history("L")[0]?.holderData).toBe("host-7 nightly report");
    // A waiter's data is shown while it waits, and becomes the holder's at its grant.
    b.shared("L", 1000, { holderData: "reader ü" });
    expect(r.machine.getLock("L").waiters[0]?.holderData).toBe("reader ü");
    const released = a.release("L", BigInt(at));
    expect(released.events[1]).toMatchObject({
      type: "acquired",
      sessionId: b.id,
      holderData: "reader ü",
      mode: "shared",
    });
    expect(r.machine.history("L").map((h) => h.holderData)).toEqual([
      "host-7 nightly report",
      "reader ü",
    ]);
  });

  it("holder data survives a snapshot, for holders, waiters and history", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    a.acquire("L", 0, { holderData: "x".repeat(1024) });
    b.acquire("L", 1000, { holderData: "next" });
    a.all([{ lock: "M" }, { lock: "S", permits: 2 }], 0, { holderData: "set" });
    const restored = LockStateMachine.restore(r.machine.snapshot());
    for (const lock of ["L", "M", "S"]) {
      expect(restored.getLock(lock)).toEqual(r.machine.getLock(lock));
      expect(restored.history(lock)).toEqual(r.machine.history(lock));
    }
    expect(restored.getLock("L").waiters[0]?.holderData).toBe("next");
    expect(restored.snapshot()).toEqual(r.machine.snapshot());
  });
});

describe("holdLimit", () => {
  it("a grant with a hold limit starts a hold timer, and the leader's hold-limit entry ends it with history reason hold limit", () => {
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const at = r.next;
    const t = BigInt(at);
    const out = a.all([{ lock: "A" }, { lock: "B" }], 0, { holdMs: 5_000 });
    expect(out.timers.holdsStarted).toEqual([{ sessionId: a.id, token: t, holdMs: 5_000 }]);
    expect(r.machine.getLock("A").holder).toMatchObject({ holdMs: 5_000 });
    expect(r.machine.holdLimits()).toEqual([{ sessionId: a.id, token: t, holdMs: 5_000 }]);
    b.acquire("A", 10_000);
    const endAt = r.next;
    const ended = r.run({
      type: "holdLimit",
      sessionId: a.id,
      token: t,
      holdMs: 5_000,
      wallMs: 77,
    });
    expect(ended.result).toEqual({ kind: "revoked" });
    expect(ended.events.map((e) => [e.type, e.lock, e.sessionId, e.revokedFor])).toEqual([
      ["revoked", "A", a.id, "holdLimit"],
      ["acquired", "A", b.id, undefined],
      ["revoked", "B", a.id, "holdLimit"],
    ]);
    expect(ended.timers.holdsEnded).toEqual([{ sessionId: a.id, token: t, holdMs: 5_000 }]);
    expect(r.machine.history("A")[0]).toMatchObject({
      reason: "revoked",
      revokedFor: "holdLimit",
      endedAt: endAt,
      endedWallMs: 77,
      holdMs: 5_000,
    });
    expect(r.machine.holdLimits()).toEqual([]);
    // Re-proposed after it applied: nothing left to end, nothing changes.
    const again = r.run({ type: "holdLimit", sessionId: a.id, token: t, holdMs: 5_000, wallMs: 0 });
    expect(again.result).toMatchObject({ reason: "ERROR_REASON_STALE_TOKEN" });
    expect(again.events).toEqual([]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a grant that ended before its hold limit stops the hold timer", () => {
    const r = setup();
    const a = new Client(r, "a");
    const t = tokenOf(a.acquire("L", 0, { holdMs: 2_000 }).result);
    const out = a.release("L", t);
    expect(out.timers.holdsEnded).toEqual([{ sessionId: a.id, token: t, holdMs: 2_000 }]);
    expect(
      r.run({ type: "holdLimit", sessionId: a.id, token: t, holdMs: 2_000, wallMs: 0 }).events,
    ).toEqual([]);
    // A waiter's hold limit starts at its grant.
    const [h, w] = [new Client(r, "h"), new Client(r, "w")];
    const th = tokenOf(h.acquire("M").result);
    expect(w.acquire("M", 1000, { holdMs: 3_000 }).timers.holdsStarted).toEqual([]);
    const grantAt = r.next;
    expect(h.release("M", th).timers.holdsStarted).toEqual([
      { sessionId: w.id, token: BigInt(grantAt), holdMs: 3_000 },
    ]);
    // A session end stops it too.
    expect(w.close().timers.holdsEnded).toEqual([
      { sessionId: w.id, token: BigInt(grantAt), holdMs: 3_000 },
    ]);
  });

  it("the leader proposes the forced release once the hold limit passes on its clock, and a new leader restarts the limit in full", () => {
    const r = setup();
    const a = new Client(r, "a");
    const k = new LeaseKeeper({ reproposeAfterMs: 500 });
    k.becomeLeader(0, r.machine.sessionLeases(), r.machine.pendingWaits(), r.machine.holdLimits());
    k.keepAlive(a.id, 0);
    const out = a.acquire("L", 0, { holdMs: 4_000 });
    const t = tokenOf(out.result);
    k.onApplied(out.timers, 1_000);
    expect(k.trackedHolds).toBe(1);
    expect(k.nextDeadline()).toBe(5_000);
    k.keepAlive(a.id, 4_000);
    expect(k.due(4_999)).toEqual([]);
    expect(k.due(5_000, 9)).toEqual([
      { type: "holdLimit", sessionId: a.id, token: t, holdMs: 4_000, wallMs: 9 },
    ]);
    // Proposed once; again only after the re-proposal interval if it has not applied.
    expect(k.due(5_400)).toEqual([]);
    expect(k.due(5_500)).toEqual([
      { type: "holdLimit", sessionId: a.id, token: t, holdMs: 4_000, wallMs: 0 },
    ]);
    // A new leader starts the whole limit afresh from when it became leader.
    const next = new LeaseKeeper();
    next.becomeLeader(
      20_000,
      r.machine.sessionLeases(),
      r.machine.pendingWaits(),
      r.machine.holdLimits(),
    );
    next.keepAlive(a.id, 23_000);
    expect(next.due(23_999).filter((c) => c.type === "holdLimit")).toEqual([]);
    expect(next.due(24_000)).toEqual([
      { type: "holdLimit", sessionId: a.id, token: t, holdMs: 4_000, wallMs: 0 },
    ]);
    // Once the grant ends, the timer goes.
    const released = a.release("L", t);
    next.onApplied(released.timers, 24_100);
    expect(next.trackedHolds).toBe(0);
  });
});
