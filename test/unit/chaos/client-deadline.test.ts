// The chaos suite's client-deadline check (chaos/checks.ts) on synthetic records: session
// A holds lock L and expires, session B is granted L next. B's grant must not be known
// before A's client deadline (nor before A's release or close, whichever came first).
import { describe, expect, it } from "vitest";
import { checkClientDeadlines, runChecks, type RunRecords } from "../../../chaos/checks.ts";
import type { OpRecord, SessionRecord, WatchRecord } from "../../../chaos/protocol.ts";

const LOCK = "plain/p1";
/** A's client deadline (µs). */
const DEADLINE = 10_000;

interface Shape {
  /** When B's Acquire was answered granted. */
  bRet: number;
  /** When the observer received B's grant from the watch. */
  bWatchAt?: number;
  /** How A's grant ended in the log. */
  aEnd?: WatchRecord["kind"];
  /** When A sent a release of its grant (answered NOT_FOUND: the session had expired). */
  aReleaseCall?: number;
  /** A read by a third worker that showed B holding the lock. */
  readShowingB?: number;
  /** A's session record, with the deadline, present. */
  aRecord?: boolean;
}

function records(shape: Shape): RunRecords {
  const ops: OpRecord[] = [
    {
      t: "op",
      id: "w1.1",
      worker: "w1",
      kind: "acquire",
      lock: LOCK,
      session: "1",
      call: 100,
      ret: 200,
      out: { kind: "granted", token: "5" },
    },
    {
      t: "op",
      id: "w2.1",
      worker: "w2",
      kind: "acquire",
      lock: LOCK,
      session: "2",
      call: 300,
      ret: shape.bRet,
      out: { kind: "granted", token: "6" },
    },
  ];
  if (shape.aReleaseCall !== undefined) {
    ops.push({
      t: "op",
      id: "w1.2",
      worker: "w1",
      kind: "release",
      lock: LOCK,
      session: "1",
      token: "5",
      call: shape.aReleaseCall,
      ret: 40_000,
      out: { kind: "sessionNotFound" },
    });
  }
  if (shape.readShowingB !== undefined) {
    ops.push({
      t: "op",
      id: "w3.1",
      worker: "w3",
      kind: "read",
      lock: LOCK,
      call: 250,
      ret: shape.readShowingB,
      out: { kind: "read", holder: "2", token: "6" },
    });
  }
  const sessions: SessionRecord[] = [
    {
      t: "session",
      worker: "w2",
      session: "2",
      opened: 250,
      deadline: 50_000,
      closing: 45_000,
      closeCall: 45_000,
      closeRet: 46_000,
    },
  ];
  if (shape.aRecord ?? true)
    sessions.push({
      t: "session",
      worker: "w1",
      session: "1",
      opened: 50,
      deadline: DEADLINE,
      lostAt: DEADLINE + 100,
    });
  const watch: WatchRecord[] = [
    { t: "watch", kind: "acquired", index: "10", lock: LOCK, session: "1", token: "5", at: 150 },
    {
      t: "watch",
      kind: shape.aEnd ?? "sessionExpired",
      index: "11",
      lock: LOCK,
      session: "1",
      token: "5",
      at: 9_000,
    },
    {
      t: "watch",
      kind: "acquired",
      index: "11",
      lock: LOCK,
      session: "2",
      token: "6",
      at: shape.bWatchAt ?? 60_000,
    },
    {
      t: "watch",
      kind: "sessionClosed",
      index: "12",
      lock: LOCK,
      session: "2",
      token: "6",
      at: 45_500,
    },
  ];
  return {
    ops,
    sessions,
    watch,
    increments: [],
    sharedReads: [],
    admissions: [],
    refusals: [],
    final: { t: "final", live: [], call: 70_000, ret: 71_000, syncedIndex: "20" },
  };
}

function deadlineCheck(shape: Shape): { out: string[]; counts: Record<string, number> } {
  const out: string[] = [];
  const counts: Record<string, number> = {};
  checkClientDeadlines(records(shape), out, counts);
  return { out, counts };
}

describe("chaos client-deadline check", () => {
  it("passes a grant that comes after the expired holder's client deadline", () => {
    const report = runChecks(records({ bRet: DEADLINE + 500 }));
    expect(report.violations).toEqual([]);
    expect(report.counts["client deadline pairs checked"]).toBe(1);
    expect(report.skipped).toEqual([]);
  });

  it("fails a grant answered before the expired holder's client deadline", () => {
    const report = runChecks(records({ bRet: DEADLINE - 500 }));
    expect(report.counts["client deadline pairs checked"]).toBe(1);
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatch(
      /^client deadline plain\/p1: session 2 was granted token 6 .*500 µs before session 1 .*client deadline 10000/,
    );
  });

  it("takes the earliest upper bound on the grant: the observer's watch receipt or a read that showed it", () => {
    expect(deadlineCheck({ bRet: DEADLINE + 500, bWatchAt: DEADLINE - 1 }).out[0]).toMatch(
      /observer received its watch event/,
    );
    expect(deadlineCheck({ bRet: DEADLINE + 500, readShowingB: DEADLINE - 2 }).out[0]).toMatch(
      /read w3\.1 showed it/,
    );
    expect(deadlineCheck({ bRet: DEADLINE + 500, bWatchAt: DEADLINE + 1 }).out).toEqual([]);
  });

  it("stops the holder's belief at its own release", () => {
    expect(deadlineCheck({ bRet: DEADLINE - 500, aReleaseCall: DEADLINE - 1_000 }).out).toEqual([]);
    expect(deadlineCheck({ bRet: DEADLINE - 500, aReleaseCall: DEADLINE - 200 }).out[0]).toMatch(
      /it sent a release at 9800/,
    );
  });

  it("checks only grants that followed an expiry, and counts what it could not check", () => {
    const released = deadlineCheck({ bRet: DEADLINE - 500, aEnd: "released" });
    expect(released.out).toEqual([]);
    expect(released.counts["client deadline pairs checked"]).toBe(0);
    const noRecord = deadlineCheck({ bRet: DEADLINE - 500, aRecord: false });
    expect(noRecord.out).toEqual([]);
    expect(noRecord.counts["client deadline pairs unchecked: no time"]).toBe(1);
  });

  it("is skipped, with the reason, when asked (clock-rate runs)", () => {
    const report = runChecks(records({ bRet: DEADLINE - 500 }), { clientDeadline: false });
    expect(report.violations).toEqual([]);
    expect(report.counts["client deadline pairs checked"]).toBeUndefined();
    expect(report.skipped[0]).toMatch(/not checked under --clock-rate.*drift bound/);
  });
});
