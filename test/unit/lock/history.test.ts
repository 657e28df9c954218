import { describe, expect, it } from "vitest";
import type { Answer } from "../../../node/lock/answers.ts";
import { LogRunner } from "../../lock/log-runner.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";

function token(answer: Answer): bigint {
  if (answer.kind !== "granted") throw new Error(`not granted: ${answer.kind}`);
  return answer.token;
}

function setup(limits: Partial<LockLimits> = {}): { r: LogRunner; open: (name: string) => bigint } {
  const r = new LogRunner(new LockStateMachine(limits));
  const open = (name: string): bigint => {
    const out = r.run({
      type: "openSession",
      requestId: name,
      ttlMs: 10_000,
      clientName: name,
      wallMs: 1_000,
    });
    if (out.result.kind !== "sessionOpened") throw new Error("open failed");
    return out.result.sessionId;
  };
  return { r, open };
}

describe("lock history", () => {
  it("records each grant and how it ended, with display wall-clock values", () => {
    const { r, open } = setup();
    const [a, b, c] = [open("a"), open("b"), open("c")];
    const grantIndex = r.next;
    const t1 = token(
      r.run({
        type: "acquire",
        sessionId: a,
        lock: "L",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 111,
      }).result,
    );
    const waitIndex = r.next;
    r.run({
      type: "acquire",
      sessionId: b,
      lock: "L",
      waitMs: 500,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 112,
    });
    r.run({
      type: "acquire",
      sessionId: c,
      lock: "L",
      waitMs: 500,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 113,
    });
    const releaseIndex = r.next;
    r.run({
      type: "release",
      sessionId: a,
      lock: "L",
      token: t1,
      seq: 2,
      ackedUpTo: 1,
      held: [],
      wallMs: 120,
    });
    const closeIndex = r.next;
    r.run({ type: "closeSession", sessionId: b, seq: 2, ackedUpTo: 1, held: [], wallMs: 130 });
    const expireIndex = r.next;
    r.run({ type: "expireSession", sessionId: c, wallMs: 140 });
    expect(r.machine.history("L")).toEqual([
      {
        lock: "L",
        token: t1,
        sessionId: a,
        clientName: "a",
        grantedAt: grantIndex,
        waitedFrom: grantIndex,
        grantedWallMs: 111,
        endedAt: releaseIndex,
        endedWallMs: 120,
        reason: "released",
      },
      {
        lock: "L",
        token: BigInt(releaseIndex),
        sessionId: b,
        clientName: "b",
        grantedAt: releaseIndex,
        waitedFrom: waitIndex,
        grantedWallMs: 120,
        endedAt: closeIndex,
        endedWallMs: 130,
        reason: "sessionClosed",
      },
      {
        lock: "L",
        token: BigInt(closeIndex),
        sessionId: c,
        clientName: "c",
        grantedAt: closeIndex,
        waitedFrom: waitIndex + 1,
        grantedWallMs: 130,
        endedAt: expireIndex,
        endedWallMs: 140,
        reason: "sessionExpired",
      },
    ]);
  });

  it("keeps at most historyPerLock records per lock, evicting the oldest", () => {
    const { r, open } = setup();
    const a = open("a");
    const tokens: bigint[] = [];
    for (let seq = 1; seq <= 40; seq += 2) {
      const t = token(
        r.run({
          type: "acquire",
          sessionId: a,
          lock: "L",
          waitMs: 0,
          seq,
          ackedUpTo: seq - 1,
          held: [],
          wallMs: 0,
        }).result,
      );
      r.run({
        type: "release",
        sessionId: a,
        lock: "L",
        token: t,
        seq: seq + 1,
        ackedUpTo: seq,
        held: [],
        wallMs: 0,
      });
      tokens.push(t);
    }
    const history = r.machine.history("L");
    expect(history).toHaveLength(16);
    expect(history.map((h) => h.token)).toEqual(tokens.slice(-16));
    expect(r.machine.stats().historyRecords).toBe(16);
  });

  it("stays flat with 100,000 locks: the global cap evicts the oldest records and forgets idle locks", () => {
    const historyTotal = 20_000;
    const { r, open } = setup({ historyTotal });
    const a = open("a");
    let seq = 0;
    for (let i = 0; i < 100_000; i++) {
      const lock = `lock/${i}`;
      seq++;
      const t = token(
        r.run({
          type: "acquire",
          sessionId: a,
          lock,
          waitMs: 0,
          seq,
          ackedUpTo: seq - 1,
          held: [],
          wallMs: 0,
        }).result,
      );
      seq++;
      r.run({
        type: "release",
        sessionId: a,
        lock,
        token: t,
        seq,
        ackedUpTo: seq - 1,
        held: [],
        wallMs: 0,
      });
    }
    const stats = r.machine.stats();
    expect(stats.historyRecords).toBe(historyTotal);
    expect(stats.lockEntries).toBe(historyTotal);
    expect(r.machine.history("lock/0")).toEqual([]);
    expect(r.machine.history(`lock/${100_000 - historyTotal - 1}`)).toEqual([]);
    expect(r.machine.history(`lock/${100_000 - historyTotal}`)).toHaveLength(1);
    expect(r.machine.history("lock/99999")).toHaveLength(1);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("does not grow past the default global cap of 100,000 records", () => {
    const { r, open } = setup();
    const a = open("a");
    let seq = 0;
    for (let i = 0; i < 100_500; i++) {
      seq++;
      const t = token(
        r.run({
          type: "acquire",
          sessionId: a,
          lock: `k${i}`,
          waitMs: 0,
          seq,
          ackedUpTo: seq - 1,
          held: [],
          wallMs: 0,
        }).result,
      );
      seq++;
      r.run({
        type: "release",
        sessionId: a,
        lock: `k${i}`,
        token: t,
        seq,
        ackedUpTo: seq - 1,
        held: [],
        wallMs: 0,
      });
    }
    expect(r.machine.stats().historyRecords).toBe(100_000);
    expect(r.machine.stats().lockEntries).toBe(100_000);
    expect(r.machine.history("k499")).toEqual([]);
    expect(r.machine.history("k500")).toHaveLength(1);
  });

  it("a held lock whose record was evicted still releases cleanly", () => {
    const { r, open } = setup({ historyTotal: 2 });
    const a = open("a");
    const t = token(
      r.run({
        type: "acquire",
        sessionId: a,
        lock: "held",
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      }).result,
    );
    r.run({
      type: "acquire",
      sessionId: a,
      lock: "x",
      waitMs: 0,
      seq: 2,
      ackedUpTo: 1,
      held: [],
      wallMs: 0,
    });
    r.run({
      type: "acquire",
      sessionId: a,
      lock: "y",
      waitMs: 0,
      seq: 3,
      ackedUpTo: 2,
      held: [],
      wallMs: 0,
    });
    expect(r.machine.history("held")).toEqual([]);
    expect(r.machine.getLock("held").holder?.token).toBe(t);
    const out = r.run({
      type: "release",
      sessionId: a,
      lock: "held",
      token: t,
      seq: 4,
      ackedUpTo: 3,
      held: [],
      wallMs: 0,
    });
    expect(out.result.kind).toBe("released");
    expect(r.machine.stats().lockEntries).toBe(2); // "held" is free with no history: forgotten
    expect(r.machine.checkInvariants()).toEqual([]);
  });
});
