import { describe, expect, it } from "vitest";
import { expectLinearizable, expectNotLinearizable } from "./linearizable-kit.ts";
import type { LockTarget } from "../../../node/lock/kinds.ts";
import {
  checkLockHistory,
  kindsPartitions,
  type AcquireEvent,
  type LockHistoryEvent,
} from "../../../verify/lock-history.ts";
import type {
  AcquireOutcome,
  HolderOutcome,
  ReadOutcome,
  ReleaseOutcome,
} from "../../../verify/lock-model.ts";
import {
  acquireEventFields,
  acquireOutcomeOf,
  readOutcomeOf,
  releaseOutcomeOf,
  revokedGrantsOf,
} from "../../sim/checkers/outcomes.ts";
import { SeededRandom } from "../../../node/util/rng.ts";
import { LOCKS, randomLog, SEMAPHORES } from "../lock/random-log.ts";

// --- history builders --------------------------------------------------------------

let nextId = 1;
type Interval = [call: number, ret: number | null];
type Kind = Partial<Pick<AcquireEvent, "mode" | "permits" | "more">>;

const granted = (
  token: bigint,
  extra: Partial<Extract<AcquireOutcome, { kind: "granted" }>> = {},
): AcquireOutcome => ({ kind: "granted", token, ...extra });
const notAcquired: AcquireOutcome = { kind: "notAcquired" };
const cancelled: AcquireOutcome = { kind: "cancelled" };
const released: ReleaseOutcome = { kind: "ok" };

/** An Acquire that asked to wait. */
function waits(
  session: bigint,
  kind: Kind,
  [call, ret]: Interval,
  out?: AcquireOutcome,
  lock = "L",
): LockHistoryEvent {
  return { kind: "acquire", id: nextId++, lock, session, call, ret, out, waits: true, ...kind };
}
/** An Acquire with wait_ms 0. */
function tries(
  session: bigint,
  kind: Kind,
  [call, ret]: Interval,
  out?: AcquireOutcome,
  lock = "L",
): LockHistoryEvent {
  return { kind: "acquire", id: nextId++, lock, session, call, ret, out, waits: false, ...kind };
}
function release(
  session: bigint,
  token: bigint,
  [call, ret]: Interval,
  lock = "L",
  out: ReleaseOutcome = released,
): LockHistoryEvent {
  return { kind: "release", id: nextId++, lock, session, token, call, ret, out };
}
function read(
  [call, ret]: Interval,
  holders: HolderOutcome[],
  waiters?: bigint[],
  lock = "L",
): LockHistoryEvent {
  const first = holders[0];
  const out: ReadOutcome = {
    kind: "read",
    holder: first?.session ?? null,
    token: first?.token ?? null,
    holders,
    ...(waiters ? { waiters } : {}),
  };
  return { kind: "read", id: nextId++, lock, call, ret, out };
}
function sessionEnd(session: bigint, [call, ret]: [number, number]): LockHistoryEvent {
  return { kind: "sessionEnd", id: nextId++, session, call, ret };
}
const shared: Kind = { mode: "shared" };
const excl: Kind = {};
const permit = (n: number): Kind => ({ permits: n });
const set = (first: LockTarget, ...more: LockTarget[]): [Kind, string] => [
  {
    ...(first.mode ? { mode: first.mode } : {}),
    ...(first.permits ? { permits: first.permits } : {}),
    more,
  },
  first.lock,
];

// --- shared and exclusive ----------------------------------------------------------

describe("the shared and exclusive model", () => {
  it("accepts shared holders at once, each with its own token, and a writer after them", () => {
    expectLinearizable([
      tries(1n, shared, [0, 1], granted(1n)),
      tries(2n, shared, [0, 2], granted(2n)),
      read(
        [3, 4],
        [
          { session: 1n, token: 1n, mode: "shared" },
          { session: 2n, token: 2n, mode: "shared" },
        ],
      ),
      waits(3n, excl, [3, 20], granted(9n)),
      release(1n, 1n, [5, 6]),
      release(2n, 2n, [8, 9]),
      read([21, 22], [{ session: 3n, token: 9n }]),
    ]);
  });

  it("accepts a shared request kept out by a queued writer, and readers let in together after it", () => {
    expectLinearizable([
      tries(1n, shared, [0, 1], granted(1n)),
      waits(2n, excl, [2, 12], granted(7n)),
      read([3, 4], [{ session: 1n, token: 1n, mode: "shared" }], [2n]),
      tries(3n, shared, [5, 6], notAcquired),
      waits(4n, shared, [5, 20], granted(11n)),
      waits(5n, shared, [5, 20], granted(11n)),
      release(1n, 1n, [6.5, 7]),
      release(2n, 7n, [10, 11]),
      read(
        [21, 22],
        [
          { session: 4n, token: 11n, mode: "shared" },
          { session: 5n, token: 11n, mode: "shared" },
        ],
      ),
    ]);
  });

  it("accepts a writer whose wait was cancelled: while it waited it kept a reader out", () => {
    expectLinearizable([
      tries(1n, shared, [0, 1], granted(1n)),
      waits(2n, excl, [2, 9], cancelled),
      read([3, 4], [{ session: 1n, token: 1n, mode: "shared" }], [2n]),
      tries(3n, shared, [5, 6], notAcquired),
      tries(3n, shared, [10, 11], granted(10n)),
    ]);
  });

  it("accepts a wait that timed out, and an Acquire whose answer was lost", () => {
    expectLinearizable([
      tries(1n, excl, [0, 1], granted(1n)),
      waits(2n, shared, [2, 10], notAcquired),
      waits(3n, excl, [3, null]),
      release(1n, 1n, [11, 12]),
      read([13, 14], []),
    ]);
  });

  it("rejects a shared grant while an exclusive request is queued ahead of it", () => {
    expectNotLinearizable([
      tries(1n, shared, [0, 1], granted(1n)),
      waits(2n, excl, [1.5, 20], granted(9n)),
      read([2, 3], [{ session: 1n, token: 1n, mode: "shared" }], [2n]),
      tries(3n, shared, [4, 5], granted(4n)),
      release(1n, 1n, [6, 7]),
      release(3n, 4n, [8, 9]),
    ]);
  });

  it("rejects an exclusive grant beside a shared holder", () => {
    expectNotLinearizable([
      tries(1n, shared, [0, 1], granted(1n)),
      tries(2n, excl, [2, 3], granted(3n)),
      release(1n, 1n, [4, 5]),
    ]);
  });

  it("rejects shared waiters granted at two indexes when one entry let both in", () => {
    expectNotLinearizable([
      tries(1n, excl, [0, 1], granted(1n)),
      waits(2n, shared, [2, 10], granted(5n)),
      waits(3n, shared, [2, 10], granted(6n)),
      read([2.5, 3], [{ session: 1n, token: 1n }], [2n, 3n]),
      release(1n, 1n, [4, 5]),
    ]);
  });
});

// --- semaphores ---------------------------------------------------------------------

describe("the semaphore model", () => {
  it("accepts N holders with the lowest free slots, and a waiter served the freed slot", () => {
    expectLinearizable([
      tries(1n, permit(2), [0, 1], granted(1n, { slot: 0 }), "S"),
      tries(2n, permit(2), [0, 2], granted(2n, { slot: 1 }), "S"),
      waits(3n, permit(2), [3, 10], granted(6n, { slot: 0 }), "S"),
      tries(4n, permit(2), [3.5, 4], notAcquired, "S"),
      release(1n, 1n, [5, 6], "S"),
      read(
        [11, 12],
        [
          { session: 2n, token: 2n, mode: "permit", slot: 1 },
          { session: 3n, token: 6n, mode: "permit", slot: 0 },
        ],
        [],
        "S",
      ),
    ]);
  });

  it("rejects more grants than permits at once", () => {
    expectNotLinearizable([
      tries(1n, permit(2), [0, 1], granted(1n, { slot: 0 }), "S"),
      tries(2n, permit(2), [0, 1], granted(2n, { slot: 1 }), "S"),
      tries(3n, permit(2), [2, 3], granted(3n, { slot: 0 }), "S"),
      release(1n, 1n, [4, 5], "S"),
    ]);
  });

  it("rejects a permit granted a slot that is not the lowest free one", () => {
    expectNotLinearizable([
      tries(1n, permit(3), [0, 1], granted(1n, { slot: 0 }), "S"),
      tries(2n, permit(3), [2, 3], granted(2n, { slot: 2 }), "S"),
    ]);
  });
});

// --- multi-lock ---------------------------------------------------------------------

describe("the multi-lock model", () => {
  it("accepts a set granted whole at one index once the last of its locks is free", () => {
    const [kind, lock] = set({ lock: "A" }, { lock: "B" });
    expectLinearizable([
      tries(1n, excl, [0, 1], granted(1n), "B"),
      waits(
        2n,
        kind,
        [2, 10],
        granted(6n, {
          grants: [
            { lock: "A", token: 6n },
            { lock: "B", token: 6n },
          ],
        }),
        lock,
      ),
      read([3, 4], [], [2n], "A"),
      release(1n, 1n, [5, 6], "B"),
      read([11, 12], [{ session: 2n, token: 6n }], [], "A"),
    ]);
  });

  it("accepts two sets naming the same locks in opposite orders, served in the order they joined", () => {
    const [ab, a] = set({ lock: "A" }, { lock: "B" });
    const [ba, b] = set({ lock: "B" }, { lock: "A" });
    expectLinearizable([
      tries(
        1n,
        ab,
        [0, 1],
        granted(1n, {
          grants: [
            { lock: "A", token: 1n },
            { lock: "B", token: 1n },
          ],
        }),
        a,
      ),
      waits(
        2n,
        ab,
        [2, 12],
        granted(6n, {
          grants: [
            { lock: "A", token: 6n },
            { lock: "B", token: 6n },
          ],
        }),
        a,
      ),
      waits(
        3n,
        ba,
        [3, 20],
        granted(14n, {
          grants: [
            { lock: "B", token: 14n },
            { lock: "A", token: 14n },
          ],
        }),
        b,
      ),
      read([4, 5], [{ session: 1n, token: 1n }], [2n, 3n], "A"),
      release(1n, 1n, [5.5, 5.8], "A"),
      release(1n, 1n, [5.9, 6], "B"),
      release(2n, 6n, [13, 13.5], "A"),
      release(2n, 6n, [13.6, 14], "B"),
    ]);
  });

  it("rejects part of a multi-lock set granted while another of its locks is still held", () => {
    const [kind, lock] = set({ lock: "A" }, { lock: "B" });
    expectNotLinearizable([
      tries(1n, excl, [0, 1], granted(1n), "B"),
      waits(
        2n,
        kind,
        [2, 20],
        granted(8n, {
          grants: [
            { lock: "A", token: 8n },
            { lock: "B", token: 8n },
          ],
        }),
        lock,
      ),
      read([3, 4], [{ session: 2n, token: 8n }], [], "A"),
      read([3, 4], [{ session: 1n, token: 1n }], [2n], "B"),
      release(1n, 1n, [6, 8], "B"),
    ]);
  });

  it("rejects a set whose locks got different tokens", () => {
    const [kind, lock] = set({ lock: "A" }, { lock: "B" });
    expectNotLinearizable([
      tries(
        1n,
        kind,
        [0, 1],
        granted(1n, {
          grants: [
            { lock: "A", token: 1n },
            { lock: "B", token: 2n },
          ],
        }),
        lock,
      ),
    ]);
  });

  it("rejects a later set overtaking an earlier one in a queue they share", () => {
    const [ab, a] = set({ lock: "A" }, { lock: "B" });
    const [ba, b] = set({ lock: "B" }, { lock: "A" });
    expectNotLinearizable([
      tries(
        1n,
        ab,
        [0, 1],
        granted(1n, {
          grants: [
            { lock: "A", token: 1n },
            { lock: "B", token: 1n },
          ],
        }),
        a,
      ),
      waits(
        2n,
        ab,
        [2, 30],
        granted(20n, {
          grants: [
            { lock: "A", token: 20n },
            { lock: "B", token: 20n },
          ],
        }),
        a,
      ),
      waits(
        3n,
        ba,
        [3, 12],
        granted(6n, {
          grants: [
            { lock: "B", token: 6n },
            { lock: "A", token: 6n },
          ],
        }),
        b,
      ),
      read([4, 5], [{ session: 1n, token: 1n }], [2n, 3n], "A"),
      release(1n, 1n, [5.5, 5.8], "A"),
      release(1n, 1n, [5.9, 6], "B"),
      release(3n, 6n, [13, 14], "A"),
      release(3n, 6n, [15, 20], "B"),
    ]);
  });
});

describe("partitions", () => {
  it("checks locks tied by a set as one group with the kinds' model, and exclusive-only locks as before", () => {
    const [kind, lock] = set({ lock: "A" }, { lock: "B", mode: "shared" });
    const result = expectLinearizable([
      tries(
        1n,
        kind,
        [0, 1],
        granted(1n, {
          grants: [
            { lock: "A", token: 1n },
            { lock: "B", token: 1n },
          ],
        }),
        lock,
      ),
      { kind: "acquire", id: nextId++, lock: "X", session: 2n, call: 0, ret: 1, out: granted(1n) },
      sessionEnd(1n, [2, 2]),
    ]);
    expect([...result.perLock.keys()].sort()).toEqual(["A+B", "X"]);
    const parts = kindsPartitions([
      tries(1n, kind, [0, 1], granted(1n), lock),
      sessionEnd(1n, [2, 2]),
    ]);
    expect(parts.get("A+B")?.map((op) => op.input.kind)).toEqual(["try", "sessionEnd"]);
  });
});

// --- recorded from the state machine -------------------------------------------------

/**
 * The history a client would see of a random log of every kind applied by the state machine:
 * each request is called when its entry applies and returns half a step later, a wait at the
 * entry that ends it; reads of random locks come between entries; session ends and revokes
 * come from the log. Recorded with the outcome helpers a workload uses.
 */
function recordedHistory(seed: number, length: number): LockHistoryEvent[] {
  const events: LockHistoryEvent[] = [];
  const waiting = new Map<string, AcquireEvent>();
  const seen = new Set<string>();
  const rng = new SeededRandom(seed * 7);
  randomLog(seed, length, (cmd, out, machine) => {
    const t = out.index;
    if (cmd.type === "acquire" || cmd.type === "release") {
      const key = `${cmd.sessionId}:${cmd.seq}`;
      // A retry or a joined seq is no new request of the client's.
      const joined =
        out.result.kind === "waiting" &&
        !out.timers.waitsStarted.some(
          (w) => w.sessionId === cmd.sessionId && w.acquireSeq === cmd.seq,
        );
      if (!seen.has(key) && !joined) {
        seen.add(key);
        if (cmd.type === "acquire") {
          const ev: AcquireEvent = {
            kind: "acquire",
            id: key,
            session: cmd.sessionId,
            call: t,
            ret: null,
            ...acquireEventFields(cmd, true),
          };
          if (out.result.kind === "waiting") {
            waiting.set(key, ev);
            events.push(ev);
          } else {
            const o = acquireOutcomeOf(out.result);
            if (o) events.push({ ...ev, ret: t + 0.5, out: o });
          }
        } else {
          const o = releaseOutcomeOf(out.result);
          if (o)
            events.push({
              kind: "release",
              id: key,
              lock: cmd.lock,
              session: cmd.sessionId,
              token: cmd.token,
              call: t,
              ret: t + 0.5,
              out: o,
            });
        }
      }
    }
    for (const c of out.completions) {
      const ev = waiting.get(`${c.sessionId}:${c.seq}`);
      const o = acquireOutcomeOf(c.answer, true);
      if (!ev || !o) continue;
      waiting.delete(`${c.sessionId}:${c.seq}`);
      ev.ret = t + 0.5;
      ev.out = o;
    }
    const revoked = revokedGrantsOf(out);
    if (revoked.length > 0)
      events.push({ kind: "revoke", id: `revoke-${t}`, grants: revoked, call: t, ret: t + 0.5 });
    for (const id of out.timers.sessionsEnded)
      events.push({ kind: "sessionEnd", id: `end-${id}`, session: id, call: t, ret: t + 0.5 });
    if (rng.chance(0.3)) {
      const lock = rng.pick([...LOCKS, ...SEMAPHORES]);
      events.push({
        kind: "read",
        id: `read-${t}`,
        lock,
        call: t + 0.6,
        ret: t + 0.7,
        out: readOutcomeOf(machine.getLock(lock), true),
      });
    }
  });
  return events;
}

describe("a holder paused while waiters pile up", () => {
  // What a chaos run records when a holder's process stops: its Release gets no answer and
  // its session ends unseen, some time in a long window; meanwhile waves of waits time out
  // behind it and readers are refused; then the session expires and the queue drains in
  // join order.
  function pausedHolder(waves: number, perWave: number, sharedEvery = 3): LockHistoryEvent[] {
    const events: LockHistoryEvent[] = [
      tries(1n, excl, [0, 1], granted(1n)),
      { kind: "release", id: nextId++, lock: "L", session: 1n, token: 1n, call: 1.5, ret: null },
    ];
    let session = 10n;
    for (let w = 0; w < waves; w++) {
      for (let i = 0; i < perWave; i++) {
        const t = 10 * w + i * 0.5 + 2;
        const s = session++;
        events.push(waits(s, i % sharedEvery === 0 ? shared : excl, [t, t + 6], notAcquired));
        events.push(tries(s, shared, [t + 6.1, t + 6.2], notAcquired));
        events.push(sessionEnd(s, [t + 6.3, 10_000]));
      }
    }
    const expiry = 10 * waves + 5;
    events.push(sessionEnd(1n, [1, expiry]));
    for (let j = 0; j < 4; j++) {
      const s = session++;
      const token = 100n + 10n * BigInt(j);
      events.push(waits(s, excl, [expiry - 2 + 0.1 * j, expiry + 0.5 + j], granted(token)));
      events.push(release(s, token, [expiry + 1 + j, expiry + 1.05 + j]));
    }
    return events;
  }

  it("is checked without running out of search: a wait answered not acquired is never granted in any order tried", () => {
    const result = expectLinearizable(pausedHolder(5, 8));
    expect(result.explored).toBeLessThan(10_000);
  });

  it("is found not linearizable when a read between the waves saw the lock free", () => {
    // Then the session had ended by the read, and the waits after it could not time out.
    // Proving it visits every state of the waves before; the orders in which a wave's
    // writers could have joined are one state (no read shows the queue).
    const result = checkLockHistory(
      [...pausedHolder(5, 7, Infinity), read([30, 30.1], [])],
      400_000,
    );
    const verdict = result.perLock.get("L");
    expect(verdict && !verdict.ok && verdict.reason).toBe("not linearizable");
  });

  it("is found not linearizable without trying both ways whether a granted wait with no answer still has one to come", () => {
    // Five waits whose answers never came and whose sessions end unseen, then a read of a
    // holder that never asked: proving it visits every state the waits could leave.
    const events: LockHistoryEvent[] = [];
    for (let i = 0; i < 5; i++) {
      const session = BigInt(i + 1);
      events.push(
        waits(session, excl, [i * 0.1, null]),
        sessionEnd(session, [i * 0.1 + 0.05, 1000]),
      );
    }
    events.push(read([500, 501], [{ session: 99n, token: 1n }]));
    const verdict = checkLockHistory(events, 300_000).perLock.get("L");
    expect(verdict && !verdict.ok && verdict.reason).toBe("not linearizable");
  });

  it("rejects a wait answered not acquired although the lock was free from before its call", () => {
    expectNotLinearizable([
      tries(1n, excl, [0, 1], granted(1n)),
      sessionEnd(1n, [1.2, 1.5]),
      waits(2n, shared, [2, 10], notAcquired),
    ]);
  });
});

describe("histories recorded from the state machine", () => {
  it("a history of random logs of every kind, recorded as a workload records it, is linearizable against the kinds' model", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const events = recordedHistory(seed, 500);
      expect(
        events.filter((e) => e.kind === "acquire" && e.more).length,
        `seed ${seed}`,
      ).toBeGreaterThan(0);
      const result = checkLockHistory(events);
      expect(result.detail, `seed ${seed}`).toBe("");
      expect(result.ok).toBe(true);
    }
  });

  it("the same history with one grant's token changed is not", () => {
    const events = recordedHistory(2, 500);
    const target = events.find(
      (e): e is AcquireEvent =>
        e.kind === "acquire" && e.out?.kind === "granted" && e.out.slot !== undefined,
    );
    if (!target || target.out?.kind !== "granted")
      throw new Error("no permit grant in the history");
    target.out = { ...target.out, slot: (target.out.slot ?? 0) + 1 };
    expect(checkLockHistory(events).ok).toBe(false);
  });
});
