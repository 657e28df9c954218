import { describe, expect, it } from "vitest";
import { LeaseKeeper } from "../../../node/lock/lease-keeper.ts";
import { LogRunner } from "../../lock/log-runner.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

const S1 = 1n;
const S2 = 2n;

function leaderWith(now: number, ...sessions: Array<[bigint, number]>): LeaseKeeper {
  const k = new LeaseKeeper({ reproposeAfterMs: 500 });
  k.becomeLeader(
    now,
    sessions.map(([id, ttlMs]) => ({ id, ttlMs })),
    [],
  );
  return k;
}

describe("LeaseKeeper", () => {
  it("expires a session only after a full TTL without keepalive", () => {
    const k = leaderWith(0, [S1, 1000], [S2, 3000]);
    expect(k.due(999)).toEqual([]);
    expect(k.keepAlive(S1, 600)).toBe("ok");
    expect(k.due(1599)).toEqual([]);
    expect(k.due(1600, 42)).toEqual([{ type: "expireSession", sessionId: S1, wallMs: 42 }]);
    k.sessionEnded(S1); // the expiry was applied
    expect(k.due(2999)).toEqual([]);
    expect(k.due(3000)).toEqual([{ type: "expireSession", sessionId: S2, wallMs: 0 }]);
  });

  it("refuses keepalives once the expiry is proposed, and re-proposes only after the interval", () => {
    const k = leaderWith(0, [S1, 1000]);
    expect(k.due(1000)).toHaveLength(1);
    expect(k.keepAlive(S1, 1001)).toBe("notFound");
    expect(k.isLive(S1)).toBe(false);
    expect(k.expiryProposed(S1)).toBe(true);
    expect(k.due(1499)).toEqual([]);
    expect(k.due(1500)).toEqual([{ type: "expireSession", sessionId: S1, wallMs: 0 }]);
    k.sessionEnded(S1);
    expect(k.due(10_000)).toEqual([]);
    expect(k.keepAlive(S1, 10_000)).toBe("notFound");
  });

  it("proposes at most its per-call bound of due commands, and the rest at the next calls in deadline order, none twice", () => {
    const k = new LeaseKeeper({ maxDuePerCall: 1_000 });
    const sessions = Array.from({ length: 2_500 }, (_, i) => ({
      id: BigInt(i + 1),
      ttlMs: 1_000 + i,
    }));
    k.becomeLeader(0, sessions, [{ sessionId: 9_999n, lock: "L", acquireSeq: 1, waitMs: 500 }]);
    const calls = [k.due(10_000), k.due(10_050), k.due(10_100), k.due(10_150)];
    expect(calls.map((c) => c.length)).toEqual([1_000, 1_000, 501, 0]);
    const expired = calls
      .flat()
      .filter((c) => c.type === "expireSession")
      .map((c) => c.sessionId);
    expect(expired).toEqual(sessions.map((s) => s.id));
    expect(calls[2]!.at(-1)).toMatchObject({ type: "cancelWait", sessionId: 9_999n });
    // A session still waiting its turn is not proposed yet: a keepalive keeps it.
    const later = new LeaseKeeper({ maxDuePerCall: 1 });
    later.becomeLeader(
      0,
      [
        { id: S1, ttlMs: 1000 },
        { id: S2, ttlMs: 1000 },
      ],
      [],
    );
    expect(later.due(1_000)).toEqual([{ type: "expireSession", sessionId: S1, wallMs: 0 }]);
    expect(later.keepAlive(S2, 1_010)).toBe("ok");
    expect(later.due(1_020)).toEqual([]);
  });

  it("a new leader restarts every TTL and wait from when it became leader", () => {
    const k = new LeaseKeeper();
    k.becomeLeader(
      5000,
      [{ id: S1, ttlMs: 1000 }],
      [{ sessionId: S2, lock: "L", acquireSeq: 3, waitMs: 2000 }],
    );
    expect(k.due(5999)).toEqual([]);
    expect(k.due(6000)).toEqual([{ type: "expireSession", sessionId: S1, wallMs: 0 }]);
    expect(k.due(6999)).toEqual([]);
    expect(k.due(7000)).toEqual([
      { type: "cancelWait", sessionId: S2, lock: "L", acquireSeq: 3, reason: "timeout", wallMs: 0 },
    ]);
    // Leading again later starts afresh: nothing carried over, including proposals.
    k.stepDown();
    expect(k.due(100_000)).toEqual([]);
    expect(k.keepAlive(S1, 100_000)).toBe("notLeader");
    k.becomeLeader(200_000, [{ id: S1, ttlMs: 1000 }], []);
    expect(k.keepAlive(S1, 200_500)).toBe("ok");
    expect(k.due(201_499)).toEqual([]);
  });

  it("after a stall moves every live session's deadline later by the stall instead of expiring", () => {
    const k = leaderWith(0, [S1, 1000], [S2, 1500]);
    k.stalled(5000); // the loop was blocked from 0 to 5000: both deadlines passed unseen
    expect(k.due(5000)).toEqual([]);
    expect(k.due(5999)).toEqual([]);
    expect(k.due(6000).map((c) => c.type === "expireSession" && c.sessionId)).toEqual([S1]);
    k.sessionEnded(S1); // its expiry was applied
    expect(k.due(6499)).toEqual([]);
    expect(k.due(6500).map((c) => c.type === "expireSession" && c.sessionId)).toEqual([S2]);
  });

  it("repeated stalls do not keep a dead session alive: it expires after a TTL of time without stalls", () => {
    // TTL 10 s; the loop stalls for 900 ms every 5 s (a snapshot, a long GC pause); ticks every 50 ms.
    const k = leaderWith(0, [S1, 10_000]);
    let proposedAt: number | null = null;
    for (let now = 0; now <= 120_000 && proposedAt === null; now += 50) {
      if (now > 0 && now % 5_000 === 0) {
        now += 900;
        k.stalled(900);
        continue;
      }
      if (k.due(now).some((c) => c.type === "expireSession")) proposedAt = now;
    }
    // 10 s of loop time plus the two stalls that fell inside it.
    expect(proposedAt).toBe(10_000 + 2 * 900);
  });

  it("does not revive a session whose expiry was proposed before a stall", () => {
    const k = leaderWith(0, [S1, 1000]);
    expect(k.due(1000)).toHaveLength(1);
    k.stalled(200);
    expect(k.keepAlive(S1, 1200)).toBe("notFound");
  });

  it("follows the state machine: proposes wait timeouts, and the applied timeout ends the wait", () => {
    const r = new LogRunner(new LockStateMachine());
    const k = new LeaseKeeper();
    k.becomeLeader(0, [], []);
    const apply = (now: number, cmd: Parameters<LogRunner["run"]>[0]) => {
      const out = r.run(cmd);
      k.onApplied(out.timers, now);
      return out;
    };
    const a = apply(0, {
      type: "openSession",
      requestId: "a",
      ttlMs: 10_000,
      clientName: "a",
      wallMs: 0,
    }).result;
    const b = apply(0, {
      type: "openSession",
      requestId: "b",
      ttlMs: 10_000,
      clientName: "b",
      wallMs: 0,
    }).result;
    if (a.kind !== "sessionOpened" || b.kind !== "sessionOpened") throw new Error("open failed");
    apply(0, {
      type: "acquire",
      sessionId: a.sessionId,
      lock: "L",
      waitMs: 0,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
    apply(100, {
      type: "acquire",
      sessionId: b.sessionId,
      lock: "L",
      waitMs: 300,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
    expect(k.trackedWaits).toBe(1);
    expect(k.nextDeadline()).toBe(400);
    k.keepAlive(a.sessionId, 350);
    k.keepAlive(b.sessionId, 350);
    const due = k.due(400);
    expect(due).toEqual([
      {
        type: "cancelWait",
        sessionId: b.sessionId,
        lock: "L",
        acquireSeq: 1,
        reason: "timeout",
        wallMs: 0,
      },
    ]);
    const out = apply(410, due[0] as Parameters<LogRunner["run"]>[0]);
    expect(out.completions).toEqual([
      { sessionId: b.sessionId, seq: 1, answer: expect.objectContaining({ kind: "notAcquired" }) },
    ]);
    expect(k.trackedWaits).toBe(0);
    expect(k.due(5000)).toEqual([]);
    expect(k.keepAlive(b.sessionId, 6000)).toBe("ok");
    // Session a stops sending keepalives: it expires one TTL after its last one, and L goes free.
    const expiry = k.due(10_350);
    expect(expiry).toEqual([{ type: "expireSession", sessionId: a.sessionId, wallMs: 0 }]);
    apply(10_360, expiry[0] as Parameters<LogRunner["run"]>[0]);
    expect(k.trackedSessions).toBe(1);
    expect(r.machine.getLock("L").holder).toBeNull();
  });

  it("a re-proposed expiry or timeout applied twice changes nothing the second time", () => {
    const r = new LogRunner(new LockStateMachine());
    const opened = r.run({
      type: "openSession",
      requestId: "a",
      ttlMs: 1000,
      clientName: "a",
      wallMs: 0,
    });
    const k = new LeaseKeeper({ reproposeAfterMs: 100 });
    k.becomeLeader(0, r.machine.sessionLeases(), r.machine.pendingWaits());
    k.onApplied(opened.timers, 0); // already known: restarting its TTL is harmless
    const first = k.due(1000);
    const second = k.due(1100);
    expect(second).toEqual(first);
    expect(r.run(first[0] as Parameters<LogRunner["run"]>[0]).result.kind).toBe("sessionExpired");
    expect(r.run(second[0] as Parameters<LogRunner["run"]>[0]).result).toMatchObject({
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
  });

  it("keeps its queues proportional to what it tracks under many keepalives", () => {
    const k = leaderWith(0, [S1, 1000], [S2, 1000]);
    for (let t = 1; t <= 20_000; t++) {
      k.keepAlive(S1, t);
      k.keepAlive(S2, t);
    }
    expect(k.queuedDeadlines).toBeLessThanOrEqual(2 * 2 + 1024 + 1);
    expect(k.due(20_999)).toEqual([]);
    expect(k.due(21_000)).toHaveLength(2);
  });
});
