// Random logs that use every lock kind: sessions asking for locks in either mode, semaphore
// permits (now and then with another count, or a lock's name), multi-lock sets, holder data
// and hold limits; releasing, cancelling, retrying, closing, expiring, revoking and ending
// hold limits. With `upgrades`, also upgradeable grants, Upgrades (at once or waiting, and
// cancelled like waits) and Downgrades. With `access`, callers with identities, a policy and
// quotas (random-access.ts). Each entry is checked by `check` (by default the state's own
// invariants).
import type { Command, LockTarget } from "../../../node/lock/commands.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";
import { LogRunner, type LoggedCommand } from "../../lock/log-runner.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { SeededRandom } from "../../../node/util/rng.ts";
import { AccessPlay, ADMIN } from "./random-access.ts";

export const LIMITS: Partial<LockLimits> = {
  maxSessions: 7,
  maxLocksPerSession: 5,
  maxWaitersPerLock: 4,
  maxInFlightPerSession: 8,
  historyPerLock: 3,
  historyTotal: 12,
  rememberedRequestIds: 5,
  rememberedClosedSessions: 3,
  maxPermits: 3,
  maxLocksPerAcquire: 3,
  minHoldMs: 10,
};
export const LOCKS = ["a", "b", "c"];
export const SEMAPHORES = ["s", "t"];

/** What a random log uses beyond the lock kinds. */
export interface RandomLogOptions {
  /** Upgradeable grants, Upgrades and Downgrades (off: the log is the same as before they existed). */
  readonly upgrades?: boolean;
  /**
   * Callers with identities: two tenants and anonymous callers, a policy with quotas from a
   * random entry on, calls on another identity's sessions; each entry checked for them too.
   */
  readonly access?: boolean;
}

function randomTarget(rng: SeededRandom, options: RandomLogOptions): LockTarget {
  // Now and then a name of the other kind, to be refused while in use.
  if (rng.chance(0.04)) return { lock: "c", permits: 2 };
  if (rng.chance(0.3)) {
    const sem = rng.pick(SEMAPHORES);
    // Now and then another permit count than the one in use, to be refused.
    return { lock: sem, permits: rng.chance(0.9) ? (sem === "s" ? 2 : 3) : 1 };
  }
  if (options.upgrades && rng.chance(0.3)) return { lock: rng.pick(LOCKS), mode: "upgradeable" };
  return rng.chance(0.5) ? { lock: rng.pick(LOCKS), mode: "shared" } : { lock: rng.pick(LOCKS) };
}

export function randomLog(
  seed: number,
  length: number,
  check: (
    cmd: Command,
    out: ApplyOutcome,
    machine: LockStateMachine,
    caller?: string | null,
  ) => void = defaultCheck,
  options: RandomLogOptions = {},
): { log: LoggedCommand[]; outcomes: ApplyOutcome[]; access: AccessPlay | null } {
  const rng = new SeededRandom(seed);
  const runner = new LogRunner(new LockStateMachine(LIMITS, { epoch: seed % 2 }));
  const seqs = new Map<bigint, number>();
  /** Each command sent, with its caller (undefined: apply's default) and whether it was another identity's call. */
  const sent: Array<{ cmd: Command; caller: string | undefined; foreign: boolean }> = [];
  const outcomes: ApplyOutcome[] = [];
  const play = options.access ? new AccessPlay(rng, length) : null;
  let requests = 0;
  const write = (
    sessionId: bigint,
  ): { sessionId: bigint; seq: number; ackedUpTo: number; held: number[] } => {
    const seq = (seqs.get(sessionId) ?? 0) + 1;
    seqs.set(sessionId, seq);
    return { sessionId, seq, ackedUpTo: Math.max(0, seq - rng.int(1, 5)), held: [] };
  };
  while (runner.next <= length) {
    const admin = play?.adminEntry(runner.next) ?? null;
    const live = admin !== null ? [] : [...seqs.keys()];
    const sessionId = live.length === 0 ? null : rng.pick(live);
    const roll = admin !== null ? -1 : rng.int(0, 99);
    let cmd: Command | null = admin;
    // The caller of the command (undefined: apply's default), and whether it is another identity's.
    let caller: string | undefined = admin !== null ? ADMIN : undefined;
    let foreign = false;
    const by = (session: bigint): void => {
      if (play === null) return;
      ({ caller, foreign } = play.callerFor(runner.machine, session));
    };
    if (admin !== null) {
      // The admin's entry of this index.
    } else if (options.upgrades && sessionId !== null && roll >= 8 && rng.chance(0.2)) {
      by(sessionId);
      cmd = modeChange(rng, runner.machine, sessionId, write(sessionId), runner.next);
    } else if (roll < 8 || sessionId === null) {
      caller = play?.opener();
      cmd = {
        type: "openSession",
        requestId: `r${++requests}`,
        ttlMs: 5_000,
        clientName: `c${requests}`,
        wallMs: 0,
      };
    } else if (roll < 50) {
      const targets: LockTarget[] = [randomTarget(rng, options)];
      if (rng.chance(0.35))
        for (let n = rng.int(1, 2); n > 0; n--) targets.push(randomTarget(rng, options));
      by(sessionId);
      const distinct = targets.filter((t, i) => targets.findIndex((u) => u.lock === t.lock) === i);
      const [first, ...more] = distinct as [LockTarget, ...LockTarget[]];
      cmd = {
        type: "acquire",
        ...write(sessionId),
        lock: first.lock,
        waitMs: rng.chance(0.7) ? 1000 : 0,
        wallMs: runner.next,
        ...(first.mode ? { mode: first.mode } : {}),
        ...(first.permits ? { permits: first.permits } : {}),
        ...(more.length > 0 ? { more } : {}),
        ...(rng.chance(0.3) ? { holderData: `d${runner.next}` } : {}),
        ...(rng.chance(0.3) ? { holdMs: 100 } : {}),
      };
    } else if (roll < 66) {
      const held = runner.machine.getSession(sessionId)?.held ?? [];
      const h =
        held.length > 0 && rng.chance(0.85)
          ? rng.pick([...held])
          : { lock: rng.pick([...LOCKS, ...SEMAPHORES]), token: BigInt(rng.int(1, runner.next)) };
      by(sessionId);
      cmd = {
        type: "release",
        ...write(sessionId),
        lock: h.lock,
        token: h.token,
        wallMs: runner.next,
      };
    } else if (roll < 74) {
      const waiting = runner.machine.getSession(sessionId)?.waiting ?? [];
      const w = waiting.length > 0 ? rng.pick([...waiting]) : null;
      const seq = w?.seqs[0] ?? (seqs.get(sessionId) ?? 0) + 1;
      // A cancel ahead of its Acquire always names the same lock: a second one naming another would be refused as invalid.
      const reason = rng.chance(0.5) ? "client" : "timeout";
      // A timeout is the node's own command.
      if (reason === "client") by(sessionId);
      cmd = {
        type: "cancelWait",
        sessionId,
        lock: w?.lock ?? "a",
        acquireSeq: seq,
        reason,
        wallMs: 0,
      };
    } else if (roll < 80) {
      const holds = runner.machine.holdLimits();
      if (holds.length > 0) cmd = { type: "holdLimit", ...rng.pick(holds), wallMs: runner.next };
    } else if (roll < 86 && sent.length > 0) {
      ({ cmd, caller, foreign } = rng.pick(sent));
    } else if (roll < 90) {
      by(sessionId);
      cmd = { type: "closeSession", ...write(sessionId), wallMs: 0 };
    } else if (roll < 94) {
      cmd = { type: "expireSession", sessionId, wallMs: 0 };
    } else if (roll < 97) {
      const lock = rng.pick([...LOCKS, ...SEMAPHORES]);
      const holder = runner.machine.getLock(lock).holder;
      if (holder) {
        cmd = { type: "revoke", lock, token: holder.token, wallMs: 0 };
        caller = play?.revoker();
      }
    } else {
      runner.noop();
      continue;
    }
    if (cmd === null) continue;
    if (admin === null) sent.push({ cmd, caller, foreign });
    const before =
      play?.before(runner.machine, cmd, foreign || caller?.startsWith("t:") === true) ?? null;
    const out = runner.run(cmd, caller);
    outcomes.push(out);
    if (out.result.kind === "error" && out.result.reason === "ERROR_REASON_INVALID_ARGUMENT") {
      throw new Error(
        `the generator sent an invalid command at ${out.index}: ${out.result.message}`,
      );
    }
    if (
      out.result.kind === "sessionOpened" &&
      runner.machine.hasSession(out.result.sessionId) &&
      !seqs.has(out.result.sessionId)
    )
      seqs.set(out.result.sessionId, 0);
    for (const id of out.timers.sessionsEnded) seqs.delete(id);
    if (play !== null && before !== null)
      play.check(cmd, caller ?? null, foreign, before, out, runner.machine);
    check(cmd, out, runner.machine, caller);
  }
  return { log: runner.log, outcomes, access: play };
}

/**
 * An Upgrade of one of the session's grants, or a Downgrade (mostly of the right mode and
 * token; now and then of another, to be refused).
 */
function modeChange(
  rng: SeededRandom,
  machine: LockStateMachine,
  sessionId: bigint,
  sequenced: { sessionId: bigint; seq: number; ackedUpTo: number; held: number[] },
  wallMs: number,
): Command {
  const held = (machine.getSession(sessionId)?.held ?? []).filter((h) => LOCKS.includes(h.lock));
  const h =
    held.length > 0 && rng.chance(0.9)
      ? rng.pick([...held])
      : { lock: rng.pick(LOCKS), token: BigInt(rng.int(1, wallMs)), mode: undefined };
  const upgrade = rng.chance(0.1) ? h.mode !== "upgradeable" : h.mode === "upgradeable";
  if (upgrade)
    return {
      type: "upgrade",
      ...sequenced,
      lock: h.lock,
      token: h.token,
      waitMs: rng.chance(0.7) ? 1000 : 0,
      wallMs,
    };
  return {
    type: "downgrade",
    ...sequenced,
    lock: h.lock,
    token: h.token,
    mode: rng.chance(0.5) ? "shared" : "upgradeable",
    wallMs,
  };
}

function defaultCheck(_cmd: Command, out: ApplyOutcome, machine: LockStateMachine): void {
  const problems = machine.checkInvariants();
  if (problems.length > 0)
    throw new Error(`invariants broken at ${out.index}: ${problems.join("; ")}`);
}
