import { describe, expect, it } from "vitest";
import type { Answer, LockEvent } from "../../../node/lock/index.ts";
import { AcquireWaiters, type WaitOutcome } from "../../../node/host/acquire-waiters.ts";
import { WatchRing } from "../../../node/api/watch-ring.ts";
import { toWatchEvent } from "../../../node/api/watch-hub.ts";
import { completedEndFrom } from "../../../proto/codec/answers.ts";
import { palisade } from "../../../proto/gen/palisade.js";

function ev(index: number, lock: string, type: LockEvent["type"] = "acquired"): LockEvent {
  return { type, index, lock, sessionId: 1n, token: BigInt(index), wallMs: 0 };
}

describe("watch ring", () => {
  it("serves retained events from an index and a prefix", () => {
    const ring = new WatchRing(10, 1);
    ring.append([ev(2, "a/1")]);
    ring.append([ev(4, "b/1")]);
    ring.append([ev(5, "a/2", "released"), ev(5, "a/3")]);
    const found = ring.since(3, "a/");
    expect(found).toEqual({ kind: "ok", events: [ev(5, "a/2", "released"), ev(5, "a/3")] });
    expect(ring.since(1, "")).toEqual({
      kind: "ok",
      events: [ev(2, "a/1"), ev(4, "b/1"), ev(5, "a/2", "released"), ev(5, "a/3")],
    });
  });

  it("answers OUT_OF_RANGE below the first index it was started with", () => {
    const ring = new WatchRing(10, 50);
    expect(ring.since(49, "")).toEqual({ kind: "outOfRange", firstRetained: 50 });
    expect(ring.since(50, "")).toEqual({ kind: "ok", events: [] });
  });

  it("evicts whole indexes and moves the first retained index past them", () => {
    const ring = new WatchRing(3, 1);
    ring.append([ev(1, "x"), ev(1, "y")]);
    ring.append([ev(2, "x")]);
    expect(ring.firstRetained).toBe(1);
    ring.append([ev(3, "x")]);
    // Four events exceed three: both events of index 1 leave together.
    expect(ring.size).toBe(2);
    expect(ring.firstRetained).toBe(2);
    expect(ring.since(1, "")).toEqual({ kind: "outOfRange", firstRetained: 2 });
    expect(ring.since(2, "")).toEqual({ kind: "ok", events: [ev(2, "x"), ev(3, "x")] });
  });

  it("keeps working across many evictions", () => {
    const ring = new WatchRing(5, 1);
    for (let i = 1; i <= 100; i++) ring.append([ev(i, `l${i}`)]);
    expect(ring.firstRetained).toBe(96);
    const found = ring.since(96, "");
    expect(found.kind === "ok" ? found.events.map((e) => e.index) : []).toEqual([
      96, 97, 98, 99, 100,
    ]);
  });

  it("forgets everything after a snapshot install", () => {
    const ring = new WatchRing(5, 1);
    ring.append([ev(1, "x")]);
    ring.reset(41);
    expect(ring.since(1, "")).toEqual({ kind: "outOfRange", firstRetained: 41 });
    expect(ring.since(41, "")).toEqual({ kind: "ok", events: [] });
  });
});

describe("acquire waiters", () => {
  it("delivers a completion to every call waiting for that session and seq, once", () => {
    const waiters = new AcquireWaiters();
    const got: WaitOutcome[] = [];
    waiters.register(5n, 2, (o) => got.push(o));
    waiters.register(5n, 2, (o) => got.push(o));
    waiters.register(5n, 3, (o) => got.push(o));
    const granted = (token: bigint): Answer => ({
      kind: "granted",
      token,
      holder: { sessionId: 5n, clientName: "", token, grantedIndex: token },
      grants: [{ lock: "L", token, mode: "exclusive" }],
    });
    waiters.complete(5n, 2, granted(9n));
    waiters.complete(5n, 2, granted(10n));
    expect(got).toEqual([
      { kind: "answer", answer: granted(9n) },
      { kind: "answer", answer: granted(9n) },
    ]);
    expect(waiters.size).toBe(1);
  });

  it("drops a waiter without delivering to it", () => {
    const waiters = new AcquireWaiters();
    const got: WaitOutcome[] = [];
    const handle = waiters.register(1n, 1, (o) => got.push(o));
    handle.drop();
    waiters.complete(1n, 1, { kind: "cancelled" });
    expect(got).toEqual([]);
    expect(waiters.size).toBe(0);
  });

  it("re-checks waiters against a restored state and fails them all on stop", () => {
    const waiters = new AcquireWaiters();
    const got: Array<[number, WaitOutcome]> = [];
    waiters.register(1n, 1, (o) => got.push([1, o]));
    waiters.register(2n, 1, (o) => got.push([2, o]));
    waiters.register(3n, 1, (o) => got.push([3, o]));
    const gone = { kind: "error", reason: "ERROR_REASON_SESSION_ENDED", message: "gone" } as const;
    waiters.recheck(
      (sid) => (sid === 1n ? "waiting" : sid === 2n ? { kind: "released" } : null),
      () => gone,
    );
    expect(got).toEqual([
      [2, { kind: "answer", answer: { kind: "released" } }],
      [3, { kind: "answer", answer: gone }],
    ]);
    waiters.failAll("stopping");
    expect(got[2]).toEqual([1, { kind: "unavailable", reason: "stopping" }]);
    expect(waiters.size).toBe(0);
  });
});

describe("watch events on the wire", () => {
  it("a released event says when a handoff, an upgrade or a downgrade ended its grant", () => {
    const through = (e: LockEvent): palisade.v1.WatchEvent =>
      palisade.v1.WatchEvent.decode(palisade.v1.WatchEvent.encode(toWatchEvent(e)).finish());
    for (const ended of ["handedOff", "upgraded", "downgraded"] as const) {
      const wire = through({ ...ev(7, "L", "released"), ended });
      expect(wire.kind).toBe(palisade.v1.WatchEventKind.WATCH_EVENT_KIND_RELEASED);
      expect(completedEndFrom(wire.ended)).toEqual({ ended });
    }
    expect(completedEndFrom(through(ev(7, "L", "released")).ended)).toEqual({});
  });
});
