import { describe, expect, it } from "vitest";
import { expectLinearizable, expectNotLinearizable } from "./linearizable-kit.ts";
import { checkLinearizable, type Model, type Operation } from "../../../verify/linearizable.ts";
import {
  checkLockHistory,
  partitionByLock,
  type LockHistoryEvent,
} from "../../../verify/lock-history.ts";
import { lockModel } from "../../../verify/lock-model.ts";
import type { AcquireOutcome, ReadOutcome, ReleaseOutcome } from "../../../verify/lock-model.ts";

// --- history builders --------------------------------------------------------------

let nextId = 1;
type EventOf<K extends LockHistoryEvent["kind"]> = Extract<LockHistoryEvent, { kind: K }>;
type Interval = [call: number, ret: number | null];

const granted = (token: bigint): AcquireOutcome => ({ kind: "granted", token });
const notAcquired = (holderSession?: bigint, holderToken?: bigint): AcquireOutcome => ({
  kind: "notAcquired",
  holderSession,
  holderToken,
});
const noSession = { kind: "sessionNotFound" } as const;
const released: ReleaseOutcome = { kind: "ok" };
const refused: ReleaseOutcome = { kind: "failedPrecondition" };
const free: ReadOutcome = { kind: "read", holder: null, token: null };
const held = (holder: bigint, token: bigint): ReadOutcome => ({ kind: "read", holder, token });

function acquire(
  session: bigint,
  [call, ret]: Interval,
  out?: AcquireOutcome,
  lock = "L",
): EventOf<"acquire"> {
  return { kind: "acquire", id: nextId++, lock, session, call, ret, out };
}
function release(
  session: bigint,
  token: bigint,
  [call, ret]: Interval,
  out?: ReleaseOutcome,
  lock = "L",
): EventOf<"release"> {
  return { kind: "release", id: nextId++, lock, session, token, call, ret, out };
}
function read([call, ret]: Interval, out?: ReadOutcome, lock = "L"): EventOf<"read"> {
  return { kind: "read", id: nextId++, lock, call, ret, out };
}
function validate(
  token: bigint,
  [call, ret]: Interval,
  valid: boolean,
  lock = "L",
): LockHistoryEvent {
  return {
    kind: "validate",
    id: nextId++,
    lock,
    token,
    call,
    ret,
    out: { kind: "validated", valid },
  };
}
function sessionEnd(session: bigint, [call, ret]: [number, number]): LockHistoryEvent {
  return { kind: "sessionEnd", id: nextId++, session, call, ret };
}

// --- linearizable histories --------------------------------------------------------

describe("linearizable lock histories", () => {
  it("accepts a sequential history using every kind of operation", () => {
    expectLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      read([2, 3], held(1n, 1n)),
      validate(1n, [4, 5], true),
      acquire(2n, [6, 7], notAcquired(1n, 1n)),
      release(2n, 1n, [8, 9], refused),
      acquire(1n, [10, 11], granted(1n)), // re-entrant: the same token
      release(1n, 1n, [12, 13], released),
      read([14, 15], free),
      validate(1n, [16, 17], false),
      release(1n, 1n, [18, 19], refused),
      acquire(2n, [20, 21], granted(8n)),
      sessionEnd(2n, [22, 22]),
      read([23, 24], free),
      acquire(2n, [25, 26], noSession),
      release(2n, 8n, [27, 28], { kind: "sessionNotFound" }),
      acquire(1n, [29, 30], granted(30n)),
    ]);
  });

  it("accepts an empty history", () => {
    const result = checkLockHistory([]);
    expect(result.ok).toBe(true);
    expect(result.perLock.size).toBe(0);
  });

  it("finds an order other than call order for overlapping operations", () => {
    // s2's grant (token 3) and release both happen inside s1's long acquire, which
    // is granted later with a higher token.
    expectLinearizable([
      acquire(1n, [0, 10], granted(5n)),
      acquire(2n, [1, 3], granted(3n)),
      read([2, 9], held(2n, 3n)),
      release(2n, 3n, [4, 5], released),
      read([6, 11], held(1n, 5n)),
    ]);
  });

  it("accepts a waiting acquire that timed out while another session held the lock", () => {
    expectLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      acquire(2n, [2, 20], notAcquired()),
      release(1n, 1n, [3, 4], released),
    ]);
  });

  it("accepts a waiter granted at the holder's session end", () => {
    expectLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      acquire(2n, [2, 10], granted(5n)),
      sessionEnd(1n, [5, 5]),
      read([11, 12], held(2n, 5n)),
    ]);
  });

  it("accepts an unknown acquire that took effect, its token fixed by later observations", () => {
    expectLinearizable([
      acquire(2n, [0, 1], granted(2n)),
      release(2n, 2n, [2, 3], released),
      acquire(1n, [4, null]),
      read([5, 6], held(1n, 7n)),
      acquire(3n, [7, 8], notAcquired(1n, 7n)),
      release(1n, 7n, [9, 10], released),
      acquire(3n, [11, 12], granted(9n)),
    ]);
  });

  it("accepts an unknown acquire that never took effect", () => {
    expectLinearizable([
      acquire(1n, [0, null]),
      acquire(2n, [1, 2], granted(4n)),
      read([3, 4], held(2n, 4n)),
      release(2n, 4n, [5, 6], released),
      read([7, 8], free),
    ]);
  });

  it("accepts an unknown acquire that cannot have taken effect at any point", () => {
    // Not before s2's grant (s2 would have found the lock held), not after its session ended.
    expectLinearizable([
      acquire(1n, [0, null]),
      acquire(2n, [1, 2], granted(3n)),
      sessionEnd(1n, [3, 3]),
      read([4, 5], held(2n, 3n)),
    ]);
  });

  it("accepts unknown releases that did and did not take effect", () => {
    expectLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      release(1n, 1n, [2, null]), // took effect
      read([3, 4], free),
      acquire(2n, [5, 6], granted(6n)),
      release(2n, 6n, [7, null]), // did not
      read([8, 9], held(2n, 6n)),
    ]);
  });

  it("accepts a release concurrent with the end of its session, ordered before it", () => {
    expectLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      sessionEnd(1n, [2, 6]),
      release(1n, 1n, [4, 5], released),
    ]);
  });

  it("accepts a later read seeing a grant that an earlier read did not", () => {
    expectLinearizable([
      acquire(1n, [0, 10], granted(5n)),
      read([1, 2], free),
      read([3, 4], held(1n, 5n)),
    ]);
  });

  it("checks locks independently and projects a session end into each lock it touches", () => {
    const result = expectLinearizable([
      acquire(1n, [0, 1], granted(1n), "A"),
      acquire(1n, [2, 3], granted(2n), "B"),
      acquire(2n, [4, 20], granted(7n), "A"),
      acquire(3n, [4, 20], granted(7n), "B"), // both waiters granted by the same session end
      sessionEnd(1n, [6, 7]),
      read([0, 30], free, "C"),
    ]);
    expect([...result.perLock.keys()]).toEqual(["A", "B", "C"]);
    const parts = partitionByLock([
      acquire(1n, [0, 1], granted(1n), "A"),
      read([0, 1], free, "B"),
      sessionEnd(1n, [2, 2]),
    ]);
    expect(parts.get("A")?.map((op) => op.input.kind)).toEqual(["acquire", "sessionEnd"]);
    expect(parts.get("B")?.map((op) => op.input.kind)).toEqual(["read"]);
  });
});

// --- non-linearizable histories ----------------------------------------------------

describe("non-linearizable lock histories", () => {
  it("rejects two overlapping grants with no release between them", () => {
    const result = expectNotLinearizable([
      acquire(1n, [0, 5], granted(3n)),
      acquire(2n, [1, 6], granted(4n)),
    ]);
    expect(result.detail).toContain('lock "L"');
    expect(result.detail).toContain("acquire(s");
  });

  it("rejects a grant with a token lower than an earlier completed grant", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(5n)),
      release(1n, 5n, [2, 3], released),
      acquire(2n, [4, 5], granted(4n)),
    ]);
  });

  it("rejects a read that sees the holder after its release completed", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      release(1n, 1n, [2, 3], released),
      read([4, 5], held(1n, 1n)),
    ]);
  });

  it("rejects a stale read: called after a read of the newer state returned", () => {
    // Each read alone matches some state inside its interval, but the second read
    // (called after the first returned) would have to come before the grant.
    expectNotLinearizable([
      acquire(1n, [0, 10], granted(5n)),
      read([1, 2], held(1n, 5n)),
      read([3, 4], free),
    ]);
  });

  it("rejects a successful release by a session that had already ended", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      sessionEnd(1n, [2, 3]),
      release(1n, 1n, [4, 5], released),
    ]);
  });

  it("rejects a grant to a session that ended, even when the end was seen on another lock", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n), "A"),
      sessionEnd(1n, [2, 3]),
      acquire(1n, [4, 5], granted(6n), "B"),
    ]);
  });

  it("remembers an ended session for as long as it has operations on the lock", () => {
    const between: LockHistoryEvent[] = [];
    for (let i = 0; i < 5; i++) {
      const t = 10 + 10 * i;
      between.push(
        acquire(2n, [t, t + 1], granted(BigInt(t))),
        release(2n, BigInt(t), [t + 2, t + 3], released),
      );
    }
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      release(1n, 1n, [2, 3], released),
      sessionEnd(1n, [4, 5]),
      ...between,
      acquire(1n, [100, 101], granted(100n)),
    ]);
  });

  it("rejects a wait that timed out although the lock was free for the whole wait", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      release(1n, 1n, [2, 3], released),
      acquire(2n, [4, 20], notAcquired()),
    ]);
  });

  it("rejects notAcquired naming the wrong holder or token", () => {
    expectNotLinearizable([acquire(1n, [0, 1], granted(1n)), acquire(2n, [2, 3], notAcquired(3n))]);
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      acquire(2n, [2, 3], notAcquired(1n, 2n)),
    ]);
  });

  it("rejects an unknown acquire whose token, seen later, is not above an earlier grant's", () => {
    for (const seen of [2n, 3n]) {
      expectNotLinearizable([
        acquire(2n, [0, 1], granted(3n)),
        release(2n, 3n, [2, 3], released),
        acquire(1n, [4, null]),
        read([5, 6], held(1n, seen)),
      ]);
    }
  });

  it("rejects a grant of a lock held through an unknown acquire that must have taken effect", () => {
    // The read proves s1's unknown acquire took effect before it; nothing released it.
    expectNotLinearizable([
      acquire(1n, [0, null]),
      read([1, 2], held(1n, 4n)),
      acquire(2n, [3, 4], granted(5n)),
    ]);
  });

  it("rejects a validate that accepts a released token", () => {
    expectNotLinearizable([
      acquire(1n, [0, 1], granted(1n)),
      release(1n, 1n, [2, 3], released),
      validate(1n, [4, 5], true),
    ]);
  });
});

// --- the lock model ----------------------------------------------------------------

describe("lockModel", () => {
  it("forgets an ended session once the search is past its last operation on the lock", () => {
    const held1 = lockModel.step(
      lockModel.init(),
      { kind: "acquire", session: 1n },
      granted(3n),
      0,
    );
    expect(held1).not.toBeNull();
    if (held1 === null) return;
    const end = { kind: "sessionEnd", session: 1n, relevantUntil: 10 } as const;
    const ended = lockModel.step(held1, end, undefined, 5);
    expect(ended).toEqual({
      holder: null,
      token: null,
      highest: 3n,
      ended: [{ session: 1n, relevantUntil: 10 }],
    });
    if (ended === null) return;
    expect(lockModel.step(ended, { kind: "acquire", session: 1n }, noSession, 10)).toEqual(ended);
    const later = lockModel.step(ended, { kind: "read" }, free, 11);
    expect(later?.ended).toEqual([]);
  });

  it("keeps an unknown grant's token open until an observation fixes it", () => {
    const s0 = lockModel.step(lockModel.init(), { kind: "acquire", session: 1n }, granted(4n), 0);
    const s1 = s0 && lockModel.step(s0, { kind: "release", session: 1n, token: 4n }, released, 1);
    const s2 = s1 && lockModel.step(s1, { kind: "acquire", session: 2n }, undefined, 2);
    expect(s2).toMatchObject({ holder: 2n, token: null, highest: 5n });
    if (s2 === null || s2 === undefined) return;
    expect(lockModel.step(s2, { kind: "read" }, held(2n, 4n), 3)).toBeNull();
    expect(lockModel.step(s2, { kind: "read" }, held(2n, 9n), 3)).toMatchObject({
      token: 9n,
      highest: 9n,
    });
    expect(lockModel.step(s2, { kind: "acquire", session: 3n }, granted(9n), 3)).toBeNull();
  });
});

// --- the generic engine ------------------------------------------------------------

type RegisterInput = { kind: "write"; value: number } | { kind: "read" };
const register: Model<number, RegisterInput, number> = {
  init: () => 0,
  step: (state, input, output) => {
    if (input.kind === "write") return input.value;
    return output === undefined || output === state ? state : null;
  },
  key: (state) => String(state),
};

describe("checkLinearizable", () => {
  it("checks a register: a write may take effect anywhere in its interval", () => {
    const ops: Operation<RegisterInput, number>[] = [
      { id: 1, call: 0, ret: 10, input: { kind: "write", value: 1 } },
      { id: 2, call: 1, ret: 2, input: { kind: "read" }, output: 0 },
      { id: 3, call: 3, ret: 4, input: { kind: "read" }, output: 1 },
    ];
    expect(checkLinearizable(register, ops, 1000).ok).toBe(true);
    const stale = ops.map((op) =>
      op.id === 3 ? { ...op, output: 0 } : op.id === 2 ? { ...op, output: 1 } : op,
    );
    const result = checkLinearizable(register, stale, 1000);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe("not linearizable");
  });

  it("lets an unknown write take effect late, or never", () => {
    const late: Operation<RegisterInput, number>[] = [
      { id: 1, call: 0, ret: null, input: { kind: "write", value: 7 } },
      { id: 2, call: 1, ret: 2, input: { kind: "read" }, output: 0 },
      { id: 3, call: 3, ret: 4, input: { kind: "read" }, output: 7 },
    ];
    expect(checkLinearizable(register, late, 1000).ok).toBe(true);
    const never = late.map((op) => (op.id === 3 ? { ...op, output: 0 } : op));
    expect(checkLinearizable(register, never, 1000).ok).toBe(true);
    const wrong = late.map((op) => (op.id === 3 ? { ...op, output: 8 } : op));
    expect(checkLinearizable(register, wrong, 1000).ok).toBe(false);
  });

  it("refuses an operation that returns before its call", () => {
    expect(() =>
      checkLinearizable(
        register,
        [{ id: 1, call: 5, ret: 4, input: { kind: "read" }, output: 0 }],
        10,
      ),
    ).toThrow(/before its call/);
  });
});

// --- search budget -----------------------------------------------------------------

describe("search budget", () => {
  // n concurrent reads of a free lock, then a read of a holder that never acquired it:
  // not linearizable, and proving it visits every subset of the concurrent reads.
  function hardHistory(n: number): LockHistoryEvent[] {
    const events: LockHistoryEvent[] = [];
    for (let i = 0; i < n; i++) events.push(read([i, 100 + i], free));
    events.push(read([1000, 1001], held(99n, 1n)));
    return events;
  }

  it("reports an exhausted budget as a failure, never a pass", () => {
    const result = checkLockHistory(hardHistory(20), 1000);
    expect(result.ok).toBe(false);
    const verdict = result.perLock.get("L");
    expect(verdict?.ok).toBe(false);
    expect(verdict && !verdict.ok && verdict.reason).toBe("budget exhausted");
    expect(verdict?.explored).toBe(1000);
    expect(result.detail).toContain("budget exhausted");
  });

  it("decides the same kind of history when the budget suffices", () => {
    const result = checkLockHistory(hardHistory(8), 100_000);
    const verdict = result.perLock.get("L");
    expect(verdict && !verdict.ok && verdict.reason).toBe("not linearizable");
  });

  // Sessions that took and released the lock early, whose ends the history bounds only by
  // the end of the run (as for sessions a worker dropped without closing), then the hard
  // history above. Each such end may be taken anywhere in its window; taken or not, it
  // changes nothing, and the search must not try the rest both ways for each of them.
  function withLongEnds(sessions: number, waits?: boolean): LockHistoryEvent[] {
    const events: LockHistoryEvent[] = [];
    for (let i = 0; i < sessions; i++) {
      const session = BigInt(i + 1);
      const t = i * 3;
      events.push({
        ...acquire(session, [t, t + 1], granted(session)),
        ...(waits === undefined ? {} : { waits }),
      });
      events.push(release(session, session, [t + 1.5, t + 2], released));
      events.push(sessionEnd(session, [t + 2.5, 10_000]));
    }
    const later = hardHistory(6).map((e) => ({
      ...e,
      call: e.call + sessions * 3 + 10,
      ret: (e.ret as number) + sessions * 3 + 10,
    }));
    return [...events, ...later];
  }

  it("decides a history with many long-pending ends of sessions that hold nothing, with either model", () => {
    for (const waits of [undefined, false]) {
      const result = checkLockHistory(withLongEnds(16, waits));
      const verdict = result.perLock.get("L");
      expect(verdict && !verdict.ok && verdict.reason, `waits ${waits}`).toBe("not linearizable");
      expect(result.explored).toBeLessThan(10_000);
    }
  });

  it("reports a linearizable history that needs more than the budget as exhausted", () => {
    const events = hardHistory(12).slice(0, -1);
    events.push(acquire(1n, [0, 2000], granted(1n)));
    events.push(read([1000, 1001], held(1n, 1n)));
    expect(checkLockHistory(events, 5).ok).toBe(false);
    expect(checkLockHistory(events).ok).toBe(true);
  });
});

// --- a generated workload ----------------------------------------------------------

// Small seeded PRNG (mulberry32) so the generated history is the same on every run.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Pending {
  event: EventOf<"acquire" | "release" | "read">;
  applied: boolean;
  unknown: boolean;
}

/**
 * A history produced by a correct lock service: each operation takes effect at one tick
 * between its call and its return. At most 4 operations per lock are in flight and at
 * most 2 per lock end with an unknown outcome.
 */
function generateHistory(seed: number, opCount: number, lockCount: number): LockHistoryEvent[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const locks = Array.from({ length: lockCount }, (_, i) => `lock-${i}`);
  const holders = new Map<string, { session: bigint; token: bigint } | null>(
    locks.map((l) => [l, null]),
  );
  const lastToken = new Map<string, bigint>(locks.map((l) => [l, 0n]));
  const pending = new Map<string, Pending[]>(locks.map((l) => [l, []]));
  const unknownCount = new Map<string, number>(locks.map((l) => [l, 0]));
  const ended = new Set<bigint>();
  let live: bigint[] = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n];
  let nextSession = 9n;
  let index = 0n;
  let time = 0;
  let started = 0;
  const events: LockHistoryEvent[] = [];

  const apply = (lock: string, p: Pending): void => {
    p.applied = true;
    const e = p.event;
    const h = holders.get(lock) ?? null;
    if (p.unknown && rand() < 0.5) return; // never took effect
    if (e.kind === "read") {
      e.out = h === null ? free : held(h.session, h.token);
    } else if (e.kind === "acquire") {
      if (ended.has(e.session)) e.out = noSession;
      else if (h === null) {
        index += 1n + BigInt(Math.floor(rand() * 3));
        holders.set(lock, { session: e.session, token: index });
        lastToken.set(lock, index);
        e.out = granted(index);
      } else if (h.session === e.session) e.out = granted(h.token);
      else e.out = rand() < 0.5 ? notAcquired(h.session, h.token) : notAcquired();
    } else {
      if (ended.has(e.session)) e.out = { kind: "sessionNotFound" };
      else if (h !== null && h.session === e.session && h.token === e.token) {
        holders.set(lock, null);
        e.out = released;
      } else e.out = refused;
    }
  };

  const finish = (lock: string, p: Pending): void => {
    pending.set(
      lock,
      (pending.get(lock) ?? []).filter((q) => q !== p),
    );
    if (p.unknown) {
      p.event.ret = null;
      p.event.out = undefined;
    } else p.event.ret = time;
    events.push(p.event);
  };

  while (started < opCount || [...pending.values()].some((ps) => ps.length > 0)) {
    time++;
    const lock = pick(locks);
    const inFlight = pending.get(lock) ?? [];
    const r = rand();
    if (r < 0.01 && started < opCount) {
      const session = pick(live);
      ended.add(session);
      live = [...live.filter((s) => s !== session), nextSession++];
      for (const l of locks) if (holders.get(l)?.session === session) holders.set(l, null);
      events.push(sessionEnd(session, [time, time]));
    } else if (r < 0.4 && started < opCount && inFlight.length < 4) {
      started++;
      const unknown = rand() < 0.03 && (unknownCount.get(lock) ?? 0) < 2;
      if (unknown) unknownCount.set(lock, (unknownCount.get(lock) ?? 0) + 1);
      const h = holders.get(lock) ?? null;
      const kind = rand();
      let event: Pending["event"];
      if (kind < 0.45) event = acquire(pick(live), [time, null], undefined, lock);
      else if (kind < 0.75) {
        const own = h !== null && rand() < 0.8;
        event = own
          ? release(h.session, h.token, [time, null], undefined, lock)
          : release(pick(live), lastToken.get(lock) ?? 0n, [time, null], undefined, lock);
      } else event = read([time, null], undefined, lock);
      inFlight.push({ event, applied: false, unknown });
      pending.set(lock, inFlight);
    } else if (r < 0.75) {
      const waiting = inFlight.filter((p) => !p.applied);
      if (waiting.length > 0) apply(lock, pick(waiting));
    } else {
      const done = inFlight.filter((p) => p.applied);
      if (done.length > 0) finish(lock, pick(done));
    }
  }
  return events;
}

describe("generated workload", () => {
  it("checks ~2,000 operations over 20 locks with up to 4 in flight per lock", () => {
    const events = generateHistory(42, 2000, 20);
    const ops = events.filter((e) => e.kind !== "sessionEnd");
    expect(ops.length).toBe(2000);
    expect(events.some((e) => e.kind === "sessionEnd")).toBe(true);
    expect(ops.some((e) => e.ret === null)).toBe(true);
    const result = checkLockHistory(events);
    expect(result.detail).toBe("");
    expect(result.ok).toBe(true);
    expect(result.perLock.size).toBe(20);
  });

  it("detects a grant duplicated into the generated history", () => {
    const events = generateHistory(7, 600, 5);
    const grant = events.find(
      (e) => e.kind === "acquire" && e.out?.kind === "granted" && e.ret !== null,
    );
    expect(grant).toBeDefined();
    if (grant === undefined || grant.kind !== "acquire") return;
    // A second session granted the same lock over the same interval breaks mutual
    // exclusion (and token order) whatever else happens around it.
    const copy: LockHistoryEvent = { ...grant, id: "dup", session: 1_000_000n };
    const result = checkLockHistory([...events, copy]);
    expect(result.ok).toBe(false);
    expect(result.perLock.get(grant.lock)?.ok).toBe(false);
  });
});
