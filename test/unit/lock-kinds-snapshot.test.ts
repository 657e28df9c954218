// Random logs using every lock kind, checked as the exclusive lock's are: the tables stay
// sound after every entry (no waiting request left that the FIFO rule would grant), and a
// snapshot taken anywhere, restored and fed the rest of the log, ends where replaying the
// whole log does, byte for byte.
import { describe, expect, it } from "vitest";
import type { Command, LockTarget } from "../../node/lock/commands.ts";
import type { LockLimits } from "../../node/lock/limits.ts";
import { LogRunner, replay, type LoggedCommand } from "../../node/lock/log-runner.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";
import { SeededRandom } from "../../node/util/rng.ts";

const LIMITS: Partial<LockLimits> = {
  maxSessions: 7, maxLocksPerSession: 5, maxWaitersPerLock: 4, maxInFlightPerSession: 8, historyPerLock: 3, historyTotal: 12,
  rememberedRequestIds: 5, rememberedClosedSessions: 3, maxPermits: 3, maxLocksPerAcquire: 3, minHoldMs: 10,
};
const LOCKS = ["a", "b", "c"];
const SEMAPHORES = ["s", "t"];

function randomTarget(rng: SeededRandom): LockTarget {
  // Now and then a name of the other kind, to be refused while in use.
  if (rng.chance(0.04)) return { lock: "c", permits: 2 };
  if (rng.chance(0.3)) {
    const sem = rng.pick(SEMAPHORES);
    // Now and then another permit count than the one in use, to be refused.
    return { lock: sem, permits: rng.chance(0.9) ? (sem === "s" ? 2 : 3) : 1 };
  }
  return rng.chance(0.5) ? { lock: rng.pick(LOCKS), mode: "shared" } : { lock: rng.pick(LOCKS) };
}

function randomLog(seed: number, length: number): { log: LoggedCommand[]; outcomes: ApplyOutcome[] } {
  const rng = new SeededRandom(seed);
  const runner = new LogRunner(new LockStateMachine(LIMITS, { epoch: seed % 2 }));
  const seqs = new Map<bigint, number>();
  const sent: Command[] = [];
  const outcomes: ApplyOutcome[] = [];
  let requests = 0;
  const write = (sessionId: bigint): { sessionId: bigint; seq: number; ackedUpTo: number; held: number[] } => {
    const seq = (seqs.get(sessionId) ?? 0) + 1;
    seqs.set(sessionId, seq);
    return { sessionId, seq, ackedUpTo: Math.max(0, seq - rng.int(1, 5)), held: [] };
  };
  while (runner.next <= length) {
    const live = [...seqs.keys()];
    const sessionId = live.length === 0 ? null : rng.pick(live);
    const roll = rng.int(0, 99);
    let cmd: Command | null = null;
    if (roll < 8 || sessionId === null) {
      cmd = { type: "openSession", requestId: `r${++requests}`, ttlMs: 5_000, clientName: `c${requests}`, wallMs: 0 };
    } else if (roll < 50) {
      const targets: LockTarget[] = [randomTarget(rng)];
      if (rng.chance(0.35)) for (let n = rng.int(1, 2); n > 0; n--) targets.push(randomTarget(rng));
      const distinct = targets.filter((t, i) => targets.findIndex((u) => u.lock === t.lock) === i);
      const [first, ...more] = distinct as [LockTarget, ...LockTarget[]];
      cmd = {
        type: "acquire", ...write(sessionId), lock: first.lock, waitMs: rng.chance(0.7) ? 1000 : 0, wallMs: runner.next,
        ...(first.mode ? { mode: first.mode } : {}), ...(first.permits ? { permits: first.permits } : {}), ...(more.length > 0 ? { more } : {}),
        ...(rng.chance(0.3) ? { holderData: `d${runner.next}` } : {}), ...(rng.chance(0.3) ? { holdMs: 100 } : {}),
      };
    } else if (roll < 66) {
      const held = runner.machine.getSession(sessionId)?.held ?? [];
      const h = held.length > 0 && rng.chance(0.85) ? rng.pick([...held]) : { lock: rng.pick([...LOCKS, ...SEMAPHORES]), token: BigInt(rng.int(1, runner.next)) };
      cmd = { type: "release", ...write(sessionId), lock: h.lock, token: h.token, wallMs: runner.next };
    } else if (roll < 74) {
      const waiting = runner.machine.getSession(sessionId)?.waiting ?? [];
      const w = waiting.length > 0 ? rng.pick([...waiting]) : null;
      const seq = w?.seqs[0] ?? (seqs.get(sessionId) ?? 0) + 1;
      cmd = { type: "cancelWait", sessionId, lock: w?.lock ?? rng.pick(LOCKS), acquireSeq: seq, reason: rng.chance(0.5) ? "client" : "timeout", wallMs: 0 };
    } else if (roll < 80) {
      const holds = runner.machine.holdLimits();
      if (holds.length > 0) cmd = { type: "holdLimit", ...rng.pick(holds), wallMs: runner.next };
    } else if (roll < 86 && sent.length > 0) {
      cmd = rng.pick(sent);
    } else if (roll < 90) {
      cmd = { type: "closeSession", ...write(sessionId), wallMs: 0 };
    } else if (roll < 94) {
      cmd = { type: "expireSession", sessionId, wallMs: 0 };
    } else if (roll < 97) {
      const lock = rng.pick([...LOCKS, ...SEMAPHORES]);
      const holder = runner.machine.getLock(lock).holder;
      if (holder) cmd = { type: "revoke", lock, token: holder.token, wallMs: 0 };
    } else {
      runner.noop();
      continue;
    }
    if (cmd === null) continue;
    sent.push(cmd);
    const out = runner.run(cmd);
    outcomes.push(out);
    if (out.result.kind === "error" && out.result.code === "INVALID_ARGUMENT" && out.result.reason === "invalid argument") {
      throw new Error(`the generator sent an invalid command at ${out.index}: ${out.result.message}`);
    }
    if (out.result.kind === "sessionOpened" && runner.machine.hasSession(out.result.sessionId) && !seqs.has(out.result.sessionId)) seqs.set(out.result.sessionId, 0);
    for (const id of out.timers.sessionsEnded) seqs.delete(id);
    const problems = runner.machine.checkInvariants();
    if (problems.length > 0) throw new Error(`invariants broken at ${out.index}: ${problems.join("; ")}`);
  }
  return { log: runner.log, outcomes };
}

describe("random logs of every lock kind", () => {
  it("keep the tables sound after every entry and reach shared grants, permits, sets, refusals and hold limits", () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) {
      const { outcomes } = randomLog(seed, 700);
      for (const o of outcomes) {
        seen.add(o.result.kind === "error" ? o.result.refusal ?? o.result.reason : o.result.kind);
        for (const e of o.events) seen.add(`${e.type}:${e.mode ?? "exclusive"}${e.revokedFor ? ":hold limit" : ""}`);
        for (const c of o.completions) if (c.answer.kind === "granted" && c.answer.grants) seen.add("set granted after waiting");
      }
    }
    for (const k of [
      "acquired:shared", "acquired:permit", "acquired:exclusive", "revoked:exclusive:hold limit", "set granted after waiting", "waiting", "cancelled",
      "notAcquired", "held in another mode", "in use as another kind", "other permit count", "set partly held", "waits in another request",
    ]) expect(seen, k).toContain(k);
  });

  it("restoring a snapshot taken anywhere and replaying the tail equals replaying the whole log", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const { log } = randomLog(seed, 600);
      const epoch = seed % 2;
      const full = new LockStateMachine(LIMITS, { epoch });
      replay(full, log);
      const rng = new SeededRandom(seed * 31);
      for (let cut = 0; cut < 5; cut++) {
        const at = rng.int(1, log.length);
        const prefix = new LockStateMachine(LIMITS, { epoch });
        replay(prefix, log.filter((e) => e.index <= at));
        const restored = LockStateMachine.restore(prefix.snapshot());
        expect(restored.checkInvariants()).toEqual([]);
        expect(restored.snapshot()).toEqual(prefix.snapshot());
        expect(restored.holdLimits()).toEqual(prefix.holdLimits());
        expect(restored.pendingWaits()).toEqual(prefix.pendingWaits());
        for (const lock of [...LOCKS, ...SEMAPHORES]) {
          expect(restored.getLock(lock)).toEqual(prefix.getLock(lock));
          expect(restored.history(lock)).toEqual(prefix.history(lock));
        }
        for (const entry of log) {
          if (entry.index <= at) continue;
          const a = entry.cmd === null ? (restored.skip(entry.index), null) : restored.apply(entry.index, entry.cmd);
          const b = entry.cmd === null ? (prefix.skip(entry.index), null) : prefix.apply(entry.index, entry.cmd);
          expect(a).toEqual(b);
        }
        expect(restored.snapshot()).toEqual(full.snapshot());
      }
    }
  });
});
