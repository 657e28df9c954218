import { crc32 } from "../../../node/lock/codec/checksum.ts";
import { describe, expect, it } from "vitest";
import type { Command } from "../../../node/lock/commands.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";
import { LogRunner, replay, type LoggedCommand } from "../../lock/log-runner.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { SnapshotError } from "../../../node/lock/codec/snapshot.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

// Small limits so that random runs reach every cap and eviction path.
const LIMITS: Partial<LockLimits> = {
  maxSessions: 6,
  maxLocksPerSession: 3,
  maxWaitersPerLock: 3,
  maxInFlightPerSession: 8,
  historyPerLock: 3,
  historyTotal: 10,
  rememberedRequestIds: 5,
  rememberedClosedSessions: 3,
};
const LOCKS = ["a", "b", "c", "d/1", "d/2"];

/** Builds a random log: clients with seqs and acknowledgements, retries, cancels, expiries, revokes. */
function randomLog(
  seed: number,
  length: number,
): { log: LoggedCommand[]; outcomes: ApplyOutcome[] } {
  const rng = new SeededRandom(seed);
  const runner = new LogRunner(new LockStateMachine(LIMITS, { epoch: seed % 3 }));
  const seqs = new Map<bigint, number>();
  const sent: Command[] = [];
  const outcomes: ApplyOutcome[] = [];
  let requests = 0;

  const pickSession = (): bigint | null => {
    const live = [...seqs.keys()];
    return live.length === 0 ? null : rng.pick(live);
  };
  const nextWrite = (
    sessionId: bigint,
  ): { sessionId: bigint; seq: number; ackedUpTo: number; held: number[] } => {
    const seq = (seqs.get(sessionId) ?? 0) + 1;
    seqs.set(sessionId, seq);
    const ackedUpTo = Math.max(0, seq - rng.int(1, 6));
    const held: number[] = [];
    for (let s = ackedUpTo + 1; s < seq; s++) if (rng.chance(0.4)) held.push(s);
    return { sessionId, seq, ackedUpTo, held };
  };

  while (runner.next <= length) {
    const roll = rng.int(0, 99);
    const sessionId = pickSession();
    let cmd: Command | null = null;
    if (roll < 10 || sessionId === null) {
      const requestId =
        rng.chance(0.2) && requests > 0 ? `r${rng.int(1, requests)}` : `r${++requests}`;
      cmd = {
        type: "openSession",
        requestId,
        ttlMs: 1000 * rng.int(1, 10),
        clientName: `c${requests}`,
        wallMs: runner.next * 10,
      };
    } else if (roll < 45) {
      cmd = {
        type: "acquire",
        ...nextWrite(sessionId),
        lock: rng.pick(LOCKS),
        waitMs: rng.chance(0.6) ? 1000 : 0,
        wallMs: runner.next * 10,
      };
    } else if (roll < 60) {
      const lock = rng.pick(LOCKS);
      const holder = runner.machine.getLock(lock).holder;
      const token = holder && rng.chance(0.8) ? holder.token : BigInt(rng.int(1, runner.next));
      const owner = holder && rng.chance(0.8) ? holder.sessionId : sessionId;
      if (seqs.has(owner))
        cmd = { type: "release", ...nextWrite(owner), lock, token, wallMs: runner.next * 10 };
    } else if (roll < 68) {
      const seq = (seqs.get(sessionId) ?? 0) + rng.int(-3, 1);
      if (seq >= 1) {
        cmd = {
          type: "cancelWait",
          sessionId,
          lock: rng.pick(LOCKS),
          acquireSeq: seq,
          reason: rng.chance(0.5) ? "client" : "timeout",
          wallMs: 0,
        };
      }
    } else if (roll < 80 && sent.length > 0) {
      cmd = rng.pick(sent); // a retry or a delayed duplicate
    } else if (roll < 85) {
      cmd = { type: "closeSession", ...nextWrite(sessionId), wallMs: runner.next * 10 };
    } else if (roll < 90) {
      cmd = { type: "expireSession", sessionId, wallMs: runner.next * 10 };
    } else if (roll < 95) {
      const lock = rng.pick(LOCKS);
      const holder = runner.machine.getLock(lock).holder;
      cmd = {
        type: "revoke",
        lock,
        token: holder && rng.chance(0.7) ? holder.token : BigInt(rng.int(1, runner.next)),
        wallMs: 0,
      };
    } else {
      runner.noop();
      continue;
    }
    if (cmd === null) continue;
    sent.push(cmd);
    const out = runner.run(cmd);
    outcomes.push(out);
    if (out.result.kind === "sessionOpened") {
      if (!seqs.has(out.result.sessionId) && runner.machine.hasSession(out.result.sessionId))
        seqs.set(out.result.sessionId, 0);
    }
    for (const id of out.timers.sessionsEnded) seqs.delete(id);
    const problems = runner.machine.checkInvariants();
    if (problems.length > 0)
      throw new Error(`invariants broken at ${out.index}: ${problems.join("; ")}`);
  }
  return { log: runner.log, outcomes };
}

function fullReplay(log: readonly LoggedCommand[], epoch: number): LockStateMachine {
  const m = new LockStateMachine(LIMITS, { epoch });
  replay(m, log);
  return m;
}

function json(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

describe("snapshot and restore", () => {
  it("restoring a snapshot and replaying the tail equals replaying the whole log", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { log } = randomLog(seed, 600);
      const epoch = seed % 3;
      const full = fullReplay(log, epoch);
      const expected = full.snapshot();
      const rng = new SeededRandom(seed * 7919);
      for (let cut = 0; cut < 6; cut++) {
        const at = rng.int(1, log.length);
        const prefix = new LockStateMachine(LIMITS, { epoch });
        replay(
          prefix,
          log.filter((e) => e.index <= at),
        );
        const restored = LockStateMachine.restore(prefix.snapshot());
        expect(restored.appliedIndex).toBe(at);
        expect(restored.snapshot()).toEqual(prefix.snapshot());
        // Same answers for the tail, then the same state.
        const tailA: string[] = [];
        const tailB: string[] = [];
        const twin = LockStateMachine.restore(prefix.snapshot());
        for (const entry of log) {
          if (entry.index <= at) continue;
          if (entry.cmd === null) {
            restored.skip(entry.index);
            prefix.skip(entry.index);
            continue;
          }
          tailA.push(json(restored.apply(entry.index, entry.cmd)));
          tailB.push(json(prefix.apply(entry.index, entry.cmd)));
        }
        expect(tailA).toEqual(tailB);
        expect(restored.snapshot()).toEqual(expected);
        replay(twin, log);
        expect(twin.snapshot()).toEqual(expected);
      }
    }
  });

  it("random runs reach waiters, kept answers and history, and the snapshot carries them", () => {
    const { log, outcomes } = randomLog(99, 800);
    const kinds = new Set(
      outcomes.map((o) => (o.result.kind === "error" ? o.result.reason : o.result.kind)),
    );
    for (const k of [
      "granted",
      "waiting",
      "notAcquired",
      "cancelled",
      "released",
      "revoked",
      "ERROR_REASON_REQUEST_TOO_OLD",
      "ERROR_REASON_STALE_TOKEN",
    ]) {
      expect(kinds, k).toContain(k);
    }
    expect(outcomes.some((o) => o.completions.some((c) => c.answer.kind === "granted"))).toBe(true);
    // Take a snapshot at a point with waiters, kept answers and history.
    const machine = new LockStateMachine(LIMITS, { epoch: 0 });
    let found = false;
    for (const entry of log) {
      if (entry.cmd === null) machine.skip(entry.index);
      else machine.apply(entry.index, entry.cmd);
      const stats = machine.stats();
      const kept = machine.listSessions().sessions.some((s) => s.keptAnswers > 0);
      if (stats.waiters > 0 && stats.historyRecords > 0 && kept) {
        found = true;
        break;
      }
    }
    expect(found).toBe(true);
    const restored = LockStateMachine.restore(machine.snapshot());
    expect(restored.stats()).toEqual(machine.stats());
    expect(restored.listSessions()).toEqual(machine.listSessions());
    expect(restored.listLocks()).toEqual(machine.listLocks());
    for (const lock of LOCKS) expect(restored.history(lock)).toEqual(machine.history(lock));
    expect(restored.pendingWaits()).toEqual(machine.pendingWaits());
  });

  it("is deterministic: the same log gives the same bytes", () => {
    const { log } = randomLog(5, 300);
    expect(fullReplay(log, 2).snapshot()).toEqual(fullReplay(log, 2).snapshot());
  });

  it("detects a corrupt or truncated snapshot", () => {
    const { log } = randomLog(3, 200);
    const bytes = fullReplay(log, 0).snapshot();
    for (const at of [0, 5, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const bad = bytes.slice();
      bad[at] = (bad[at] as number) ^ 0x40;
      expect(() => LockStateMachine.restore(bad)).toThrow(SnapshotError);
    }
    expect(() => LockStateMachine.restore(bytes.subarray(0, bytes.length - 10))).toThrow(
      SnapshotError,
    );
    expect(() => LockStateMachine.restore(new Uint8Array(3))).toThrow(SnapshotError);
  });

  it("carries the epoch, remembered request ids and closed session ids", () => {
    // Session ids carry the epoch, as tokens do.
    const epoch7 = (index: number): bigint => 7n * 2n ** 48n + BigInt(index);
    const r = new LogRunner(new LockStateMachine({}, { epoch: 7 }));
    r.run({ type: "openSession", requestId: "keep-me", ttlMs: 5000, clientName: "x", wallMs: 0 });
    r.run({
      type: "closeSession",
      sessionId: epoch7(1),
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
    const restored = LockStateMachine.restore(r.machine.snapshot());
    expect(restored.epoch).toBe(7);
    expect(
      restored.apply(3, {
        type: "openSession",
        requestId: "keep-me",
        ttlMs: 5000,
        clientName: "x",
        wallMs: 0,
      }).result,
    ).toEqual({ kind: "sessionOpened", sessionId: epoch7(1), ttlMs: 5000 });
    expect(
      restored.apply(4, {
        type: "closeSession",
        sessionId: epoch7(1),
        seq: 2,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      }).result.kind,
    ).toBe("sessionClosed");
    const t = restored.apply(5, {
      type: "openSession",
      requestId: "n",
      ttlMs: 5000,
      clientName: "x",
      wallMs: 0,
    });
    expect(t.result).toMatchObject({ sessionId: epoch7(5) });
    const g = restored.apply(6, {
      type: "acquire",
      sessionId: epoch7(5),
      lock: "L",
      waitMs: 0,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
    expect(g.result).toMatchObject({
      kind: "granted",
      token: 7n * 2n ** 48n + 6n,
      holder: { sessionId: epoch7(5), grantedIndex: 6n },
    });
  });

  it("carries the replicated limits; a setLimits entry changes them on every replica alike and trims what is over the new caps", () => {
    const r = new LogRunner(new LockStateMachine());
    const open = (requestId: string): bigint => {
      const opened = r.run({
        type: "openSession",
        requestId,
        ttlMs: 5_000,
        clientName: "x",
        wallMs: 0,
      }).result;
      if (opened.kind !== "sessionOpened") throw new Error("not opened");
      return opened.sessionId;
    };
    const a = open("a");
    for (let seq = 1; seq <= 6; seq += 2) {
      const got = r.run({
        type: "acquire",
        sessionId: a,
        lock: "L",
        waitMs: 0,
        seq,
        ackedUpTo: seq - 1,
        held: [],
        wallMs: 0,
      }).result;
      if (got.kind !== "granted") throw new Error("not granted");
      r.run({
        type: "release",
        sessionId: a,
        lock: "L",
        token: got.token,
        seq: seq + 1,
        ackedUpTo: seq,
        held: [],
        wallMs: 0,
      });
    }
    expect(r.machine.history("L")).toHaveLength(3);
    const limits = { ...r.machine.limits, maxTtlMs: 4_000, historyPerLock: 2 };
    expect(r.run({ type: "setLimits", limits, wallMs: 0 }).result).toEqual({ kind: "limitsSet" });
    expect(r.machine.limits).toEqual(limits);
    expect(r.machine.history("L").map((h) => h.grantedAt)).toEqual([4, 6]);
    // A TTL the new limits refuse is refused at apply time.
    expect(
      r.run({ type: "openSession", requestId: "b", ttlMs: 5_000, clientName: "x", wallMs: 0 })
        .result,
    ).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    // Bad limits change nothing.
    expect(
      r.run({ type: "setLimits", limits: { ...limits, minTtlMs: 10_000 }, wallMs: 0 }).result,
    ).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    expect(r.machine.limits).toEqual(limits);
    // The snapshot carries them: a replica restored from it decides the same way, whatever it was started with.
    const restored = LockStateMachine.restore(r.machine.snapshot());
    expect(restored.limits).toEqual(limits);
    expect(restored.checkInvariants()).toEqual([]);
  });

  /**
   * The snapshot's bytes with another format version byte and a good checksum; `tail` bytes
   * before the checksum left out (a section the older format does not have).
   */
  function withVersion(bytes: Uint8Array, version: number, tail = 0): Uint8Array {
    const body = bytes.slice(0, bytes.length - 4 - tail);
    body[4] = version;
    const out = new Uint8Array(body.length + 4);
    out.set(body);
    new DataView(out.buffer).setUint32(body.length, crc32(body));
    return out;
  }

  it("refuses a snapshot of a format version it does not read, even with a good checksum", () => {
    const r = new LogRunner(new LockStateMachine());
    r.run({ type: "openSession", requestId: "a", ttlMs: 5_000, clientName: "x", wallMs: 0 });
    const bytes = r.machine.snapshot();
    expect(bytes[4]).toBe(6);
    expect(() => LockStateMachine.restore(withVersion(bytes, 7))).toThrow(SnapshotError);
    expect(() => LockStateMachine.restore(withVersion(bytes, 3))).toThrow(SnapshotError);
  });

  it("reads snapshots of formats 4 and 5, written before access control and pending upgrades", () => {
    // Without locks, owners, policy or tokens, the formats differ only in the version byte
    // and format 6's access section: four empty counts.
    const r = new LogRunner(new LockStateMachine());
    r.run({ type: "openSession", requestId: "a", ttlMs: 5_000, clientName: "x", wallMs: 0 });
    for (const version of [4, 5]) {
      const restored = LockStateMachine.restore(withVersion(r.machine.snapshot(), version, 4));
      expect(restored.sessionIds()).toEqual(r.machine.sessionIds());
      expect(restored.snapshot()).toEqual(r.machine.snapshot());
    }
  });

  it("written a slice at a time, a snapshot has the same bytes and yields between slices", () => {
    const r = new LogRunner(new LockStateMachine());
    for (let i = 0; i < 3_000; i++) {
      const opened = r.run({
        type: "openSession",
        requestId: `s${i}`,
        ttlMs: 5_000,
        clientName: "x",
        wallMs: 0,
      }).result;
      if (opened.kind !== "sessionOpened") throw new Error("not opened");
      r.run({
        type: "acquire",
        sessionId: opened.sessionId,
        lock: `L${i}`,
        waitMs: 0,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      });
    }
    const whole = r.machine.snapshot();
    const steps = r.machine.snapshotSteps();
    let slices = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) slices++;
    expect(step.value).toEqual(whole);
    // 3,000 sessions, 3,000 locks, 3,000 history records and 3,000 request ids, 512 a slice.
    expect(slices).toBeGreaterThanOrEqual(20);
    expect(LockStateMachine.restore(step.value).checkInvariants()).toEqual([]);
  });
});
