// The replicated lock state machine. Deterministic: apply(index, command) in log order on
// every replica yields the same state, answers and events. Time enters only through
// commands (expiry and wait timeouts are proposed by the leader); wall-clock values in
// commands are copied into history as display data and never compared.
import { AccessState, type Principal } from "../auth/access-state.ts";
import { decodeCaller } from "../auth/caller.ts";
import type { PrefixAction } from "../auth/policy.ts";
import { Policy } from "../auth/policy.ts";
import { utf8Length } from "../../proto/names.ts";
import {
  fail,
  invalid,
  notYourSession,
  sessionEnded,
  sessionNotFound,
  type Answer,
  type ErrorAnswer,
  type OkAnswer,
} from "./answers.ts";
import {
  isSequenced,
  type AcquireCommand,
  type CancelWaitCommand,
  type CloseSessionCommand,
  type Command,
  type DowngradeCommand,
  type HoldLimitCommand,
  type OpenSessionCommand,
  type ProclaimCommand,
  type ReleaseCommand,
  type RevokeCommand,
  type SequencedWrite,
  type SetLimitsCommand,
  type UpgradeCommand,
} from "./commands.ts";
import {
  CommandDecodeError,
  decodeEntry,
  isNodeCommand,
  type DecodedEntry,
} from "./codec/entries.ts";
import { firstWaiter, grantInJoinOrder } from "./grant-order.ts";
import { acquiredEvent, grantedAnswer, holderRef, notAcquired } from "./grant-results.ts";
import {
  addHolder,
  firstHolder,
  fits,
  holderCount,
  holderOf,
  holdersOf,
  inUse,
  isElection,
  otherHolder,
  removeHolder,
  soleHolder,
} from "./holders.ts";
import { HistoryLog } from "./history.ts";
import { checkStateInvariants } from "./invariants.ts";
import { lockPage, type LockPageBounds, type LockPageInfo } from "./lock-pages.ts";
import {
  describeTarget,
  sameTargets,
  targetsOf,
  type DowngradeMode,
  type GrantMode,
  type Target,
} from "./kinds.ts";
import { MAX_EPOCH, MAX_INDEX, resolveLimits, type LockLimits } from "./limits.ts";
import {
  emptyTimers,
  type ApplyOutcome,
  type Completion,
  type HoldLimit,
  type LockEvent,
  type LockEventType,
  type PendingWait,
  type SessionLease,
  type TimerChanges,
} from "./outcome.ts";
import { SlotPool } from "./slot-pool.ts";
import { readSnapshot, SnapshotError, snapshotSteps } from "./codec/snapshot.ts";
import {
  acquiredOf,
  adoptGrants,
  Grant,
  grantTerms,
  historyRecords,
  holdMsOf,
  modeOf,
  newLock,
  newSession,
  type GrantEnd,
  type Holder,
  type LockState,
  type Session,
  type Waiter,
} from "./state.ts";
import { tokenFor } from "./tokens.ts";
import { validateCommand } from "./validate.ts";
import {
  historyEntry,
  lockInfo,
  sessionInfo,
  type HistoryEntry,
  type LockInfo,
  type SessionInfo,
} from "./views.ts";

export type {
  HistoryEntry,
  LockHolderInfo,
  LockInfo,
  LockWaiterInfo,
  SessionInfo,
} from "./views.ts";
export {
  entryBytes,
  type HolderPlace,
  type LockPageBounds,
  type LockPageInfo,
  type PageBounds,
} from "./lock-pages.ts";

export interface ListLocksOptions {
  readonly prefix?: string;
  /** Return names strictly after this one (the previous page's `nextAfter`). */
  readonly after?: string;
  readonly limit?: number;
}

export interface ListLockPagesOptions extends ListLocksOptions {
  readonly limit: number;
  /** The page ends before its locks' bytes (LockPageInfo.bytes) would pass this; it always has one lock if any is left. */
  readonly maxBytes: number;
  /** What each lock lists of its holders and waiters (from the start of each list). */
  readonly each: LockPageBounds;
}

export interface StateStats {
  readonly sessions: number;
  /** Lock entries in memory: held, waited for, or with history. */
  readonly lockEntries: number;
  readonly heldLocks: number;
  readonly waiters: number;
  readonly historyRecords: number;
  readonly rememberedRequestIds: number;
  readonly rememberedClosedSessions: number;
}

export interface LockStateMachineOptions {
  /** Token epoch; 0 for the life of a cluster unless it was restored from a backup. */
  readonly epoch?: number;
}

/** Collects what one entry produces. */
class ApplyContext {
  readonly completions: Completion[] = [];
  readonly events: LockEvent[] = [];
  readonly timers: Required<TimerChanges> = emptyTimers();
  /** The mode of each grant an end event of this entry ended, in event order. */
  readonly endedModes: GrantMode[] = [];
  constructor(
    readonly index: number,
    readonly wallMs: number,
    /** Who asked, resolved at this entry; null for the node's own commands (never checked). */
    readonly who: Principal | null,
  ) {}
}

/** The grant of `mode` an action allows: an election's lead and a permit count as exclusive. */
function acquireAction(mode: GrantMode): PrefixAction {
  return mode === "shared"
    ? "acquire:shared"
    : mode === "upgradeable"
      ? "acquire:upgradeable"
      : "acquire:exclusive";
}

function denied(who: Principal, action: string, lock: string): ErrorAnswer {
  return fail(
    "ERROR_REASON_PERMISSION_DENIED",
    `${who.name === "" ? "an anonymous caller" : `identity ${who.name}`} lacks permission ${action} on ${lock}`,
  );
}

function overQuota(message: string): ErrorAnswer {
  return fail("ERROR_REASON_QUOTA_EXCEEDED", message);
}

const TOO_OLD = (seq: number, mark: number): ErrorAnswer =>
  fail(
    "ERROR_REASON_REQUEST_TOO_OLD",
    `seq ${seq} is at or below the acknowledged mark ${mark}, or its answer was already acknowledged`,
  );
const WAITING: OkAnswer = { kind: "waiting" };

export class LockStateMachine {
  /** Replicated: changed only by an applied setLimits command, kept in snapshots. */
  private limitsValue: LockLimits;
  private applied = 0;
  private epochValue: number;
  private readonly sessions = new Map<bigint, Session>();
  private readonly locks = new Map<string, LockState>();
  /** OpenSession request id → session id, oldest first. */
  private readonly requestIds = new Map<string, bigint>();
  /** Ids of closed (not expired) sessions, oldest first. */
  private readonly closedIds = new Set<bigint>();
  /** Owners of ended sessions (named identities only), oldest first: NOT_FOUND for them alone. */
  private readonly endedOwners = new Map<bigint, string>();
  /** The policy, tokens and quota use (replicated). */
  private readonly access = new AccessState();
  private readonly historyLog: HistoryLog;
  /** Size of the last snapshot taken, to size the next one's buffer. */
  private snapshotSizeHint = 0;

  /**
   * `limits`: the limits in force until a setLimits command is applied. Every replica must
   * start from the same ones (a node uses the defaults; its cluster file's limits reach the
   * state only through the log).
   */
  constructor(limits: Partial<LockLimits> = {}, options: LockStateMachineOptions = {}) {
    this.limitsValue = resolveLimits(limits);
    const epoch = options.epoch ?? 0;
    if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH)
      throw new RangeError(`epoch out of range: ${epoch}`);
    this.epochValue = epoch;
    this.historyLog = new HistoryLog(
      this.limitsValue.historyPerLock,
      this.limitsValue.historyTotal,
      (name) => this.locks.get(name),
      (lock) => this.dropIfUnused(lock),
    );
  }

  /** The limits apply-time answers are decided with (replicated state). */
  get limits(): LockLimits {
    return this.limitsValue;
  }

  /** Index of the last entry applied (or skipped). */
  get appliedIndex(): number {
    return this.applied;
  }

  get epoch(): number {
    return this.epochValue;
  }

  // ---------------------------------------------------------------- apply

  /**
   * Applies the command of entry `index`. Indexes must increase (gaps are entries without a
   * command). A command that fails validation gets an INVALID_ARGUMENT answer and changes
   * nothing but the applied index. Throws only on a non-increasing index (a host bug).
   */
  apply(
    index: number,
    cmd: Command,
    caller: string | null = isNodeCommand(cmd) ? null : "",
  ): ApplyOutcome {
    this.advanceTo(index);
    const wallMs = typeof cmd.wallMs === "number" ? cmd.wallMs : 0;
    const who = caller === null ? null : this.access.resolve(decodeCaller(caller), wallMs);
    const ctx = new ApplyContext(index, wallMs, typeof who === "string" ? null : who);
    const bad = validateCommand(cmd, this.limitsValue);
    // A retried write keeps its first answer, even if the limits changed since it applied.
    const result =
      typeof who === "string"
        ? fail("ERROR_REASON_UNAUTHENTICATED", who)
        : bad !== null
          ? (this.firstAnswerOf(cmd, ctx.who) ?? invalid(bad))
          : this.dispatch(ctx, cmd);
    return {
      index,
      result,
      completions: ctx.completions,
      events: ctx.events,
      timers: ctx.timers,
      ...(ctx.endedModes.length > 0 ? { endedModes: ctx.endedModes } : {}),
    };
  }

  /** Decodes and applies an entry's bytes; undecodable bytes get INVALID_ARGUMENT and change nothing. */
  applyBytes(index: number, bytes: Uint8Array): ApplyOutcome {
    let entry;
    try {
      entry = decodeEntry(bytes);
    } catch (err) {
      if (!(err instanceof CommandDecodeError)) throw err;
      this.advanceTo(index);
      return {
        index,
        result: invalid(err.message),
        completions: [],
        events: [],
        timers: emptyTimers(),
      };
    }
    return this.applyDecoded(index, entry);
  }

  /** Applies an entry whose bytes were already decoded (by the leader that proposed it). */
  applyDecoded(index: number, entry: DecodedEntry): ApplyOutcome {
    return this.apply(index, entry.command, entry.identity);
  }

  /** Records an entry without a command (a leader's no-op, a membership change). */
  skip(index: number): void {
    this.advanceTo(index);
  }

  private advanceTo(index: number): void {
    // The driver hands over every index in order (no-ops and membership changes as skips),
    // so a gap or a repeat is a bug upstream, not something to paper over.
    if (index !== this.applied + 1 || index > MAX_INDEX) {
      throw new RangeError(`entry ${index} applied out of order (applied index ${this.applied})`);
    }
    this.applied = index;
  }

  private dispatch(ctx: ApplyContext, cmd: Command): Answer {
    switch (cmd.type) {
      case "openSession":
        return this.openSession(ctx, cmd);
      case "closeSession":
        return this.closeSession(ctx, cmd);
      case "expireSession": {
        const session = this.sessions.get(cmd.sessionId);
        if (!session) return sessionNotFound(cmd.sessionId);
        this.endSession(ctx, session, "expired");
        return { kind: "sessionExpired" };
      }
      case "acquire":
        return this.acquire(ctx, cmd);
      case "cancelWait":
        return this.cancelWait(ctx, cmd);
      case "release":
        return this.release(ctx, cmd);
      case "proclaim":
        return this.proclaim(ctx, cmd);
      case "upgrade":
        return this.upgrade(ctx, cmd);
      case "downgrade":
        return this.downgrade(ctx, cmd);
      case "revoke":
        return this.revoke(ctx, cmd);
      case "holdLimit":
        return this.holdLimit(ctx, cmd);
      case "setLimits":
        return this.setLimits(cmd);
      case "setPolicy":
        return this.adminOnly(ctx) ?? this.setPolicy(ctx, cmd.text, cmd.source ?? cmd.text);
      case "createToken":
        return this.adminOnly(ctx) ?? this.createToken(ctx, cmd);
      case "revokeToken":
        return this.adminOnly(ctx) ?? this.revokeToken(cmd.id);
    }
  }

  // ---------------------------------------------------------------- access

  private adminOnly(ctx: ApplyContext): ErrorAnswer | null {
    return ctx.who === null || ctx.who.rights.admin
      ? null
      : denied(ctx.who, "admin", "the cluster");
  }

  private setPolicy(ctx: ApplyContext, text: string, source: string): Answer {
    this.access.setPolicy(Policy.parse(text), ctx.index, source);
    return { kind: "policySet" };
  }

  private createToken(ctx: ApplyContext, cmd: Extract<Command, { type: "createToken" }>): Answer {
    if (this.access.tokens.has(cmd.id)) return invalid(`token ${cmd.id} exists already`);
    this.access.tokens.set(cmd.id, {
      id: cmd.id,
      identity: cmd.identity,
      roles: [...cmd.roles],
      hash: cmd.hash,
      createdAt: ctx.index,
      createdWallMs: ctx.wallMs,
      expiresAtMs: cmd.expiresAtMs,
    });
    return { kind: "tokenCreated" };
  }

  /** Idempotent: a token revoked twice (or never created) is revoked. */
  private revokeToken(id: string): Answer {
    this.access.tokens.delete(id);
    return { kind: "tokenRevoked" };
  }

  /**
   * The caller's session `id`, or the refusal: a session of another identity, and an id that
   * never existed, answer alike (PERMISSION_DENIED), so ids cannot be probed; NOT_FOUND is
   * for the caller's own ended sessions (and every unknown id in an open cluster's
   * anonymous calls, as before identities).
   */
  private sessionFor(ctx: ApplyContext, id: bigint): Session | ErrorAnswer {
    const session = this.sessions.get(id);
    const who = ctx.who;
    if (who === null) return session ?? sessionNotFound(id);
    switch (this.whoseSession(id, who.name)) {
      case "live":
        return session as Session;
      case "foreign":
        return notYourSession(id, who.name);
      default:
        return sessionNotFound(id);
    }
  }

  /**
   * What session `id` is to identity `name`: its live session ("live"), its ended one
   * ("ended"), an id never known here asked by an open cluster's anonymous caller, as before
   * identities ("unknown"), or another identity's, live or ended, or an id that never existed
   * ("foreign": answered alike, so ids cannot be probed). The one rule of apply, keepalives
   * and session reads.
   */
  whoseSession(id: bigint, name: string): "live" | "ended" | "unknown" | "foreign" {
    const session = this.sessions.get(id);
    if (session) return this.access.owns(name, session.owner) ? "live" : "foreign";
    const owner = this.endedOwners.get(id);
    if (owner === undefined)
      return name === "" && this.access.policy === null ? "unknown" : "foreign";
    return owner === name ? "ended" : "foreign";
  }

  /** The first target the caller may not acquire in its mode, as a refusal. */
  private acquireRefusal(ctx: ApplyContext, targets: readonly Target[]): ErrorAnswer | null {
    const who = ctx.who;
    if (who === null) return null;
    for (const t of targets) {
      const action = acquireAction(t.mode);
      if (!who.rights.allows(action, t.lock)) return denied(who, action, t.lock);
    }
    return null;
  }

  private waitQuota(ctx: ApplyContext): ErrorAnswer | null {
    const over = ctx.who === null ? null : this.access.quotaRefusal(ctx.who, "waits", 1);
    return over === null ? null : overQuota(over);
  }

  /** A wait's share of its owner's quotas: one wait, and the locks and data it asks for (none for an upgrade, which converts a grant). */
  private countWait(owner: string, waiter: Waiter, upgrade: boolean, sign: 1 | -1): void {
    this.access.count(owner, "waits", sign);
    if (!upgrade) this.countHold(owner, waiter.targets.length, waiter.holderData, sign);
  }

  private ownerOf(id: bigint): string {
    return this.sessions.get(id)?.owner ?? this.endedOwners.get(id) ?? "";
  }

  /** Quota refusal of locks held (or waited for) and holder data the request would add. */
  private holdQuota(ctx: ApplyContext, locks: number, holderData: string): ErrorAnswer | null {
    const who = ctx.who;
    if (who === null) return null;
    const over =
      this.access.quotaRefusal(who, "heldLocks", locks) ??
      this.access.quotaRefusal(who, "holderDataBytes", locks * utf8Length(holderData));
    return over === null ? null : overQuota(over);
  }

  /** Counts a grant's or a wait's reservation of `owner`'s quotas (`sign` -1 gives it back). */
  private countHold(owner: string, locks: number, holderData: string, sign: 1 | -1): void {
    if (locks === 0) return;
    this.access.count(owner, "heldLocks", sign * locks);
    const bytes = holderData === "" ? 0 : utf8Length(holderData) * locks;
    if (bytes > 0) this.access.count(owner, "holderDataBytes", sign * bytes);
  }

  /** New replicated limits; what is kept over the new caps is evicted, oldest first. */
  private setLimits(cmd: SetLimitsCommand): Answer {
    const limits = resolveLimits(cmd.limits);
    this.limitsValue = limits;
    this.historyLog.setCaps(limits.historyPerLock, limits.historyTotal);
    while (this.requestIds.size > limits.rememberedRequestIds)
      this.requestIds.delete(this.requestIds.keys().next().value as string);
    while (this.closedIds.size > limits.rememberedClosedSessions)
      this.closedIds.delete(this.closedIds.values().next().value as bigint);
    while (this.endedOwners.size > limits.rememberedClosedSessions)
      this.endedOwners.delete(this.endedOwners.keys().next().value as bigint);
    return { kind: "limitsSet" };
  }

  // ---------------------------------------------------------------- sessions

  private openSession(ctx: ApplyContext, cmd: OpenSessionCommand): Answer {
    // Without a request id a retry opens another session: the client asked for no dedup.
    const known = cmd.requestId === "" ? undefined : this.requestIds.get(cmd.requestId);
    const who = ctx.who;
    const owner = who?.name ?? "";
    // A request id is the opener's: another identity's retry of it opens nothing.
    if (known !== undefined && who !== null && !this.access.owns(owner, this.ownerOf(known)))
      return fail(
        "ERROR_REASON_PERMISSION_DENIED",
        `request id ${cmd.requestId} belongs to another identity`,
      );
    if (known !== undefined)
      return {
        kind: "sessionOpened",
        sessionId: known,
        ttlMs: this.sessions.get(known)?.ttlMs ?? cmd.ttlMs,
      };
    if (who !== null && !who.rights.mayAcquire)
      return denied(who, "acquire", "any lock (a session would be of no use)");
    const over = who === null ? null : this.access.quotaRefusal(who, "sessions", 1);
    if (over !== null) return overQuota(over);
    if (this.sessions.size >= this.limitsValue.maxSessions) {
      return fail(
        "ERROR_REASON_TOO_MANY_SESSIONS",
        `the cluster already has ${this.sessions.size} sessions`,
      );
    }
    // Like a token, the id carries the epoch: a restored cluster (a higher epoch) never
    // hands out an id an old cluster's client may still use.
    const id = tokenFor(this.epochValue, ctx.index);
    this.sessions.set(
      id,
      newSession({
        id,
        owner,
        clientName: cmd.clientName,
        ttlMs: cmd.ttlMs,
        openedAt: ctx.index,
        openedWallMs: ctx.wallMs,
        requestId: cmd.requestId,
        mark: 0,
      }),
    );
    this.access.count(owner, "sessions", 1);
    if (cmd.requestId !== "")
      rememberInMap(this.requestIds, cmd.requestId, id, this.limitsValue.rememberedRequestIds);
    ctx.timers.sessionsOpened.push({ id, ttlMs: cmd.ttlMs });
    return { kind: "sessionOpened", sessionId: id, ttlMs: cmd.ttlMs };
  }

  private closeSession(ctx: ApplyContext, cmd: CloseSessionCommand): Answer {
    const session = this.sessionFor(ctx, cmd.sessionId);
    if (isRefusal(session)) {
      // A retried close of the caller's own closed session succeeds.
      const own = session.reason === "ERROR_REASON_SESSION_NOT_FOUND";
      return own && this.closedIds.has(cmd.sessionId) ? { kind: "sessionClosed" } : session;
    }
    const earlier = this.admit(session, cmd);
    if (earlier) return earlier;
    this.endSession(ctx, session, "closed");
    return { kind: "sessionClosed" };
  }

  /** Close or expiry: cancels the session's waits, then releases its locks one at a time in the order it got them, each to its next waiters. */
  private endSession(ctx: ApplyContext, session: Session, how: "closed" | "expired"): void {
    const ended = sessionEnded(session.id);
    // Every wait first (a multi-lock wait, listed under each of its locks, once), then one pass
    // over the queues they left, so that no other wait of this session is granted meanwhile.
    const left: LockState[] = [];
    for (const waiter of new Set(session.waits?.values() ?? [])) {
      left.push(...this.leaveQueues(waiter, session));
      this.finishWaitSeqs(ctx, session, waiter, ended, false);
    }
    this.grantWaiting(ctx, left);
    for (const lock of left) this.dropIfUnused(lock);
    const reason: GrantEnd = how === "closed" ? "sessionClosed" : "sessionExpired";
    const event: LockEventType = how === "closed" ? "sessionClosed" : "sessionExpired";
    for (const name of [...session.held]) {
      const lock = this.locks.get(name);
      const holder = lock ? holderOf(lock, session.id) : undefined;
      if (lock && holder) this.endGrant(ctx, lock, holder, reason, event);
    }
    this.sessions.delete(session.id);
    this.access.count(session.owner, "sessions", -1);
    if (session.owner !== "")
      rememberInMap(
        this.endedOwners,
        session.id,
        session.owner,
        this.limitsValue.rememberedClosedSessions,
      );
    if (how === "closed" && this.limitsValue.rememberedClosedSessions > 0) {
      this.closedIds.add(session.id);
      if (this.closedIds.size > this.limitsValue.rememberedClosedSessions) {
        this.closedIds.delete(this.closedIds.values().next().value as bigint);
      }
    }
    ctx.timers.sessionsEnded.push(session.id);
  }

  // ---------------------------------------------------------------- exactly-once

  /**
   * Applies the request's acknowledgements, then answers it if it is not new: too old,
   * a retry with a kept answer, or a retry of a pending wait. Null for a new request.
   */
  private admit(session: Session, write: SequencedWrite): Answer | null {
    if (write.ackedUpTo > session.mark) {
      session.mark = write.ackedUpTo;
      for (const seq of [...session.answers.keys()])
        if (seq <= session.mark) session.answers.delete(seq);
      if (session.dropped) {
        for (const seq of [...session.dropped])
          if (seq <= session.mark) session.dropped.delete(seq);
        if (session.dropped.size === 0) session.dropped = null;
      }
    }
    // A dropped seq is remembered until the mark passes it, so a delayed duplicate is refused.
    // Past the bound (only a misbehaving client gets there) the answer is kept instead.
    const droppedBound = 2 * this.limitsValue.maxInFlightPerSession;
    for (const seq of write.held) {
      if (
        seq <= session.mark ||
        !session.answers.has(seq) ||
        (session.dropped?.size ?? 0) >= droppedBound
      )
        continue;
      session.answers.delete(seq);
      (session.dropped ??= new Set()).add(seq);
    }
    if (write.seq <= session.mark || session.dropped?.has(write.seq))
      return TOO_OLD(write.seq, session.mark);
    const kept = session.answers.get(write.seq);
    if (kept) return kept.answer;
    if (session.pending?.has(write.seq)) return WAITING;
    return null;
  }

  private inFlightFull(session: Session): ErrorAnswer | null {
    const inFlight = session.answers.size + (session.pending?.size ?? 0);
    if (inFlight < this.limitsValue.maxInFlightPerSession) return null;
    return fail(
      "ERROR_REASON_TOO_MANY_IN_FLIGHT",
      `session ${session.id} has ${inFlight} unacknowledged answers and pending waits (limit ${this.limitsValue.maxInFlightPerSession})`,
    );
  }

  /** Keeps the final answer of a seq until the client acknowledges it. */
  private keep(
    session: Session,
    seq: number,
    acquireOf: string | readonly string[] | null,
    answer: Answer,
  ): void {
    if (seq > session.mark && !session.dropped?.has(seq))
      session.answers.set(seq, { acquireOf, answer });
  }

  // ---------------------------------------------------------------- locks

  private acquire(ctx: ApplyContext, cmd: AcquireCommand): Answer {
    const targets = targetsOf(cmd);
    return this.numberedWrite(
      ctx,
      cmd,
      (session) => this.decideAcquire(ctx, session, cmd, targets),
      namesOf(targets),
    );
  }

  /** See grant-order.ts for when a request is granted at once, waits, or is not acquired. */
  private decideAcquire(
    ctx: ApplyContext,
    session: Session,
    cmd: AcquireCommand,
    targets: readonly Target[],
  ): Answer {
    const refused =
      this.acquireRefusal(ctx, targets) ??
      this.kindRefusal(targets) ??
      this.heldAlready(session, targets);
    if (refused) return refused;
    // A second Acquire while waiting joins the existing wait and keeps its timer.
    const joined = this.joinWait(session, cmd, targets);
    if (joined) return joined;
    const holderData = cmd.holderData ?? "";
    const holdMs = cmd.holdMs ?? 0;
    const blocked = this.blockerOf(targets, null);
    if (blocked === null) {
      const limit =
        this.locksFull(session, targets.length) ?? this.holdQuota(ctx, targets.length, holderData);
      if (limit) return limit;
      return grantedAnswer(
        this.grant(ctx, session, targets, holderData, holdMs, ctx.index),
        targets,
      );
    }
    if (cmd.waitMs === 0) return notAcquired(blocked, this.locks.get(blocked.lock), targets.length);
    const limit =
      this.locksFull(session, targets.length) ??
      this.holdQuota(ctx, targets.length, holderData) ??
      this.waitQuota(ctx);
    if (limit) return limit;
    for (const t of targets) {
      const queued = this.locks.get(t.lock)?.waiters?.size ?? 0;
      if (queued >= this.limitsValue.maxWaitersPerLock) {
        return fail(
          "ERROR_REASON_TOO_MANY_WAITERS",
          `lock ${t.lock} already has ${queued} waiters`,
        );
      }
    }
    // One request in every queue at once, the same object in each.
    const waiter: Waiter = {
      sessionId: session.id,
      lock: cmd.lock,
      seqs: [cmd.seq],
      waitedFrom: ctx.index,
      waitMs: cmd.waitMs,
      targets,
      holderData,
      holdMs,
    };
    for (const t of targets) {
      const lock = this.locks.get(t.lock) ?? this.createLock(t.lock);
      claimKind(lock, t);
      lock.waiters ??= new Map();
      lock.waiters.set(session.id, waiter);
      (session.waits ??= new Map()).set(t.lock, waiter);
    }
    // A wait holds its share of the quotas until it ends: granted, it becomes the grant's.
    this.countWait(session.owner, waiter, false, 1);
    return this.startWait(ctx, session, cmd.seq, cmd.lock, cmd.waitMs);
  }

  /** A new wait's seq is pending under the lock that names it, and the leader times it out. */
  private startWait(
    ctx: ApplyContext,
    session: Session,
    seq: number,
    lock: string,
    waitMs: number,
  ): Answer {
    (session.pending ??= new Map()).set(seq, lock);
    ctx.timers.waitsStarted.push({ sessionId: session.id, lock, acquireSeq: seq, waitMs });
    return WAITING;
  }

  /** A name is one kind at a time while held or waited for: a lock, an election, or a semaphore of one permit count. */
  private kindRefusal(targets: readonly Target[]): ErrorAnswer | null {
    for (const t of targets) {
      const lock = this.locks.get(t.lock);
      if (!lock || !inUse(lock)) continue;
      const election = isElection(lock);
      if (election !== (t.mode === "leader")) {
        return fail(
          "ERROR_REASON_KIND_MISMATCH",
          election
            ? `${t.lock} is in use as an election, not as a ${t.mode === "permit" ? "semaphore" : "lock"}`
            : `${t.lock} is in use as a ${lock.semaphore !== null ? "semaphore" : "lock"}, not as an election`,
        );
      }
      const semaphore = lock.semaphore;
      if ((semaphore !== null) !== (t.mode === "permit")) {
        return fail(
          "ERROR_REASON_KIND_MISMATCH",
          semaphore !== null
            ? `${t.lock} is in use as a semaphore of ${semaphore.permits} permits, not as a lock`
            : `${t.lock} is in use as a lock, not as a semaphore`,
        );
      }
      if (semaphore !== null && semaphore.permits !== t.permits) {
        return fail(
          "ERROR_REASON_PERMITS_MISMATCH",
          `permits ${t.permits} of semaphore ${t.lock} differ from its ${semaphore.permits} while it is held or waited for`,
        );
      }
    }
    return null;
  }

  /**
   * Not reentrant by count: a session holding every lock asked for, in the modes asked for,
   * gets its grants back; holding one in the other mode, or only part of a set, is refused.
   */
  private heldAlready(session: Session, targets: readonly Target[]): Answer | null {
    const grants: Holder[] = [];
    for (const t of targets) {
      const lock = this.locks.get(t.lock);
      const holder = lock ? holderOf(lock, session.id) : undefined;
      if (!holder) continue;
      const mode = modeOf(holder);
      if (mode !== t.mode) {
        return fail(
          "ERROR_REASON_HELD_IN_ANOTHER_MODE",
          `session ${session.id} holds ${t.lock} in ${mode} mode and asks for it in ${t.mode} mode; release it first (only Upgrade and Downgrade change a grant's mode)`,
        );
      }
      grants.push(holder);
    }
    if (grants.length === 0) return null;
    if (grants.length < targets.length) {
      return fail(
        "ERROR_REASON_SET_PARTLY_HELD",
        `session ${session.id} holds ${grants.map((g) => g.lock).join(", ")} of the ${targets.length} locks this Acquire names; a set is granted whole, never while the session holds part of it`,
      );
    }
    return grantedAnswer(grants, targets);
  }

  /** A second Acquire of the same locks in the same modes joins the session's wait; of any of them otherwise, it is refused. */
  private joinWait(
    session: Session,
    cmd: AcquireCommand,
    targets: readonly Target[],
  ): Answer | null {
    if (session.waits === null) return null;
    let waiter: Waiter | undefined;
    for (const t of targets) if ((waiter = session.waits.get(t.lock))) break;
    if (!waiter) return null;
    if (!sameTargets(waiter.targets, targets)) {
      return fail(
        "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
        `session ${session.id} already waits for ${waiter.targets.map(describeTarget).join(", ")} (Acquire seq ${waiter.seqs[0]}); cancel that wait, or ask for the same`,
      );
    }
    waiter.seqs.push(cmd.seq);
    (session.pending ??= new Map()).set(cmd.seq, waiter.lock);
    return WAITING;
  }

  /**
   * The first target that keeps the request out now: a lock with a request queued ahead of
   * it (of `waiter` itself, for a request already waiting) or whose grants it cannot join.
   * Null when all of it can be granted.
   */
  private blockerOf(targets: readonly Target[], waiter: Waiter | null): Target | null {
    for (const t of targets) {
      const lock = this.locks.get(t.lock);
      if (!lock) continue;
      // A pending Upgrade is ahead of every request too.
      const ahead = firstWaiter(lock) !== waiter;
      if (ahead || !fits(lock, t)) return t;
    }
    return null;
  }

  private locksFull(session: Session, adding: number): ErrorAnswer | null {
    let count = session.held.size + (session.waits?.size ?? 0);
    // A pending upgrade waits for a lock the session holds: one lock, counted once.
    for (const name of session.waits?.keys() ?? []) if (session.held.has(name)) count--;
    if (count + adding <= this.limitsValue.maxLocksPerSession) return null;
    return fail(
      "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
      `session ${session.id} holds or waits for ${count} locks (limit ${this.limitsValue.maxLocksPerSession})`,
    );
  }

  private cancelWait(ctx: ApplyContext, cmd: CancelWaitCommand): Answer {
    const session = this.sessionFor(ctx, cmd.sessionId);
    if (isRefusal(session)) return session;
    const seq = cmd.acquireSeq;
    if (seq <= session.mark || session.dropped?.has(seq)) return TOO_OLD(seq, session.mark);
    const notThisLock = (): ErrorAnswer =>
      fail(
        "ERROR_REASON_NOT_AN_ACQUIRE",
        `seq ${seq} of session ${session.id} is not an Acquire of lock ${cmd.lock}`,
      );

    const pendingLock = session.pending?.get(seq);
    if (pendingLock !== undefined) {
      // Any lock of a multi-lock Acquire names it; the whole set is cancelled.
      const waiter = session.waits?.get(pendingLock) as Waiter;
      if (!waiter.targets.some((t) => t.lock === cmd.lock)) return notThisLock();
      const answer: Answer =
        cmd.reason === "timeout" ? this.timedOut(waiter) : { kind: "cancelled" };
      this.endWait(ctx, session, waiter, answer, true);
      return answer;
    }
    const kept = session.answers.get(seq);
    if (kept) return acquiredOf(kept, cmd.lock) ? kept.answer : notThisLock();
    // The leader only times out waits it saw applied; nothing to do for an unknown one.
    if (cmd.reason === "timeout")
      return fail("ERROR_REASON_NO_SUCH_WAIT", `no wait for seq ${seq} of session ${session.id}`);
    // The Acquire has not been applied yet: record the answer now; when it arrives it takes no effect.
    const full = this.inFlightFull(session);
    if (full) return full;
    const cancelled: OkAnswer = { kind: "cancelled" };
    session.answers.set(seq, { acquireOf: cmd.lock, answer: cancelled });
    return cancelled;
  }

  /** The answer of a wait that ran out: not acquired, naming what kept it out. */
  private timedOut(waiter: Waiter): Answer {
    const upgrading = this.locks.get(waiter.lock);
    if (upgrading?.upgrade === waiter) return notUpgraded(upgrading, waiter.sessionId);
    const t = this.blockerOf(waiter.targets, waiter) ?? (waiter.targets[0] as Target);
    return notAcquired(t, this.locks.get(t.lock), waiter.targets.length);
  }

  private release(ctx: ApplyContext, cmd: ReleaseCommand): Answer {
    return this.numberedWrite(ctx, cmd, (session) => this.decideRelease(ctx, session, cmd));
  }

  /**
   * A numbered write: its session, the exactly-once table and the in-flight bound first,
   * then `decide`, whose answer is kept (under `waitOf`, the locks a wait of the seq names,
   * for CancelWait). A wait's final answer is kept when it comes, as a completion.
   */
  private numberedWrite(
    ctx: ApplyContext,
    cmd: SequencedWrite,
    decide: (session: Session) => Answer,
    waitOf: string | string[] | null = null,
  ): Answer {
    const session = this.sessionFor(ctx, cmd.sessionId);
    if (isRefusal(session)) return session;
    const earlier = this.admit(session, cmd);
    if (earlier) return earlier;
    const full = this.inFlightFull(session);
    if (full) return full;
    const answer = decide(session);
    if (answer.kind !== "waiting") this.keep(session, cmd.seq, waitOf, answer);
    return answer;
  }

  /** Release (or Resign) of the session's grant with that token, handed to `successor` if named. */
  private decideRelease(ctx: ApplyContext, session: Session, cmd: ReleaseCommand): Answer {
    const lock = this.locks.get(cmd.lock);
    const holder = lock ? holderOf(lock, session.id) : undefined;
    const what = cmd.election === true ? "election" : "lock";
    // Release ends any grant, an election's lead too; Resign insists on an election.
    if (lock && holder && cmd.election === true && !isElection(lock))
      return fail(
        "ERROR_REASON_KIND_MISMATCH",
        `${cmd.lock} is a lock, not an election: Release it`,
      );
    if (!lock || !holder) {
      return fail(
        "ERROR_REASON_NOT_HOLDER",
        cmd.election === true
          ? `session ${session.id} does not lead election ${cmd.lock}`
          : `session ${session.id} does not hold lock ${cmd.lock}`,
      );
    }
    if (holder.token !== cmd.token) {
      return fail(
        "ERROR_REASON_STALE_TOKEN",
        `token ${cmd.token} is not the current grant of ${what} ${cmd.lock}`,
      );
    }
    if (cmd.successor === undefined) {
      this.endGrant(ctx, lock, holder, "released", "released");
      return { kind: "released" };
    }
    const successor = this.successorOf(lock, holder, cmd.successor);
    if (successor.kind === "error") return successor;
    this.endGrant(ctx, lock, holder, "handedOff", "released", successor.waiter);
    return { kind: "released" };
  }

  /**
   * The wait a handoff grants: the successor's, for this lock alone and exclusive (or for
   * the election), of a grant that is itself exclusive. A shared hold, a permit or a set is
   * not handed off: the FIFO rule decides those.
   */
  private successorOf(
    lock: LockState,
    holder: Holder,
    successor: bigint,
  ): { kind: "ok"; waiter: Waiter } | ErrorAnswer {
    const mode = modeOf(holder);
    if (mode !== "exclusive" && mode !== "leader") {
      return fail(
        "ERROR_REASON_HELD_IN_ANOTHER_MODE",
        `only an exclusive grant is handed off: session ${holder.sessionId} holds ${lock.name} in ${mode} mode`,
      );
    }
    const waiter = lock.waiters?.get(successor);
    if (waiter === undefined) {
      return fail(
        "ERROR_REASON_SUCCESSOR_NOT_WAITING",
        `session ${successor} is not waiting for ${lock.name}: only a waiting session can take it over`,
      );
    }
    const target = waiter.targets[0] as Target;
    if (waiter.targets.length !== 1 || target.mode !== mode) {
      return fail(
        "ERROR_REASON_SUCCESSOR_NOT_WAITING",
        `session ${successor} waits for ${waiter.targets.map(describeTarget).join(", ")}: a handoff goes only to a wait for ${lock.name} alone, ${mode}`,
      );
    }
    return { kind: "ok", waiter };
  }

  /** A new value for an election's leader: only the leader, with its current token. */
  private proclaim(ctx: ApplyContext, cmd: ProclaimCommand): Answer {
    return this.numberedWrite(ctx, cmd, (session) => this.decideProclaim(ctx, session, cmd));
  }

  private decideProclaim(ctx: ApplyContext, session: Session, cmd: ProclaimCommand): Answer {
    const lock = this.locks.get(cmd.lock);
    const holder = lock ? holderOf(lock, session.id) : undefined;
    if (!lock || !holder)
      return fail(
        "ERROR_REASON_NOT_HOLDER",
        `session ${session.id} does not lead election ${cmd.lock}`,
      );
    if (!isElection(lock))
      return fail("ERROR_REASON_KIND_MISMATCH", `${cmd.lock} is a lock, not an election`);
    if (holder.token !== cmd.token)
      return fail(
        "ERROR_REASON_STALE_TOKEN",
        `token ${cmd.token} is not the current leader's of election ${cmd.lock}`,
      );
    const before = holder.terms?.holderData ?? "";
    const growth = utf8Length(cmd.value) - utf8Length(before);
    const over =
      ctx.who === null
        ? null
        : this.access.quotaRefusal(ctx.who, "holderDataBytes", Math.max(0, growth));
    if (over !== null) return overQuota(over);
    this.countHold(session.owner, 1, before, -1);
    this.countHold(session.owner, 1, cmd.value, 1);
    holder.terms = grantTerms("leader", -1, cmd.value, holdMsOf(holder));
    ctx.events.push({
      type: "proclaimed",
      index: ctx.index,
      lock: lock.name,
      sessionId: holder.sessionId,
      token: holder.token,
      wallMs: ctx.wallMs,
      mode: "leader",
      ...(cmd.value !== "" ? { holderData: cmd.value } : {}),
    });
    return { kind: "proclaimed" };
  }

  // ---------------------------------------------------------------- mode changes

  /** An Upgrade: a numbered write that may wait, as an Acquire does. */
  private upgrade(ctx: ApplyContext, cmd: UpgradeCommand): Answer {
    // Kept under its lock, so that a CancelWait of the seq finds the answer (as an Acquire's).
    return this.numberedWrite(
      ctx,
      cmd,
      (session) => this.decideUpgrade(ctx, session, cmd),
      cmd.lock,
    );
  }

  /**
   * Exclusive at once when the session is the only holder; otherwise a wait ahead of the
   * lock's queue (it converts a hold: requests queued after the upgradeable grant, and
   * shared ones that come while it waits, stay behind it). Until then, and after a timeout or
   * a cancel, the upgradeable grant is left as it was.
   */
  private decideUpgrade(ctx: ApplyContext, session: Session, cmd: UpgradeCommand): Answer {
    const allowed = this.acquireRefusal(ctx, [{ lock: cmd.lock, mode: "exclusive", permits: 0 }]);
    if (allowed) return allowed;
    const found = this.heldInMode(session, cmd, "upgradeable", "upgraded");
    if (found.kind === "error") return found;
    const { lock: l, holder } = found;
    // A second Upgrade while one waits joins it and keeps its timer (as a second Acquire).
    if (l.upgrade !== null) {
      l.upgrade.seqs.push(cmd.seq);
      (session.pending ??= new Map()).set(cmd.seq, l.name);
      return WAITING;
    }
    if (soleHolder(l, session.id))
      return this.changedMode(ctx, session, l, holder, "exclusive", ctx.index);
    if (cmd.waitMs === 0) return notUpgraded(l, session.id);
    const full = this.waitQuota(ctx);
    if (full) return full;
    const waiter: Waiter = {
      sessionId: session.id,
      lock: l.name,
      seqs: [cmd.seq],
      waitedFrom: ctx.index,
      waitMs: cmd.waitMs,
      targets: [{ lock: l.name, mode: "exclusive", permits: 0 }],
      holderData: holder.terms?.holderData ?? "",
      holdMs: holdMsOf(holder),
    };
    l.upgrade = waiter;
    (session.waits ??= new Map()).set(l.name, waiter);
    this.countWait(session.owner, waiter, true, 1);
    return this.startWait(ctx, session, cmd.seq, l.name, cmd.waitMs);
  }

  /** A Downgrade: exclusive to shared or upgradeable at once, and the queue's head let in beside it. */
  private downgrade(ctx: ApplyContext, cmd: DowngradeCommand): Answer {
    return this.numberedWrite(ctx, cmd, (session) => {
      const allowed = this.acquireRefusal(ctx, [{ lock: cmd.lock, mode: cmd.mode, permits: 0 }]);
      if (allowed) return allowed;
      const found = this.heldInMode(session, cmd, "exclusive", "downgraded");
      if (found.kind === "error") return found;
      const l = found.lock;
      const answer = this.changedMode(ctx, session, l, found.holder, cmd.mode, ctx.index);
      this.grantWaiting(ctx, [l]);
      return answer;
    });
  }

  /**
   * The session's grant of the lock a mode change names, if it is that token's and in the
   * mode that changes: otherwise the refusal (not held, a stale token, another mode; an
   * election's lead never changes mode).
   */
  private heldInMode(
    session: Session,
    cmd: { readonly lock: string; readonly token: bigint },
    mode: GrantMode,
    change: "upgraded" | "downgraded",
  ): { kind: "ok"; lock: LockState; holder: Holder } | ErrorAnswer {
    const lock = this.locks.get(cmd.lock);
    const holder = lock ? holderOf(lock, session.id) : undefined;
    if (!lock || !holder)
      return fail(
        "ERROR_REASON_NOT_HOLDER",
        `session ${session.id} does not hold lock ${cmd.lock}`,
      );
    if (holder.token !== cmd.token)
      return fail(
        "ERROR_REASON_STALE_TOKEN",
        `token ${cmd.token} is not the current grant of lock ${cmd.lock}`,
      );
    const held = modeOf(holder);
    if (held === "leader")
      return fail(
        "ERROR_REASON_KIND_MISMATCH",
        `${cmd.lock} is an election: its lead is not ${change}`,
      );
    if (held !== mode)
      return fail(
        "ERROR_REASON_HELD_IN_ANOTHER_MODE",
        `session ${session.id} holds ${cmd.lock} in ${held} mode: only an ${mode} grant is ${change}`,
      );
    return { kind: "ok", lock, holder };
  }

  /**
   * Ends `holder`'s grant as upgraded or downgraded and grants its session `mode` at this
   * entry, with the grant's holder data and hold limit (counted from the new grant). Lets no
   * other request in: the caller does, when the new mode admits any.
   */
  private changedMode(
    ctx: ApplyContext,
    session: Session,
    lock: LockState,
    holder: Holder,
    mode: Extract<GrantMode, "exclusive" | DowngradeMode>,
    waitedFrom: number,
  ): Answer {
    this.closeGrant(
      ctx,
      lock,
      holder,
      mode === "exclusive" ? "upgraded" : "downgraded",
      "released",
    );
    const target: Target = { lock: lock.name, mode, permits: 0 };
    const grants = this.grant(
      ctx,
      session,
      [target],
      holder.terms?.holderData ?? "",
      holdMsOf(holder),
      waitedFrom,
    );
    return grantedAnswer(grants, [target]);
  }

  /** Ends every current grant of the lock with that token (shared grants of one entry share it). */
  private revoke(ctx: ApplyContext, cmd: RevokeCommand): Answer {
    if (ctx.who !== null && !ctx.who.rights.allows("revoke", cmd.lock))
      return denied(ctx.who, "revoke", cmd.lock);
    const lock = this.locks.get(cmd.lock);
    const ending = lock ? holdersOf(lock).filter((h) => h.token === cmd.token) : [];
    if (lock && ending.length > 0) {
      for (const holder of ending) this.endGrant(ctx, lock, holder, "revoked", "revoked");
      return { kind: "revoked" };
    }
    // A retried revoke of a grant that already ended as revoked succeeds.
    for (const r of lock ? historyRecords(lock) : [])
      if (r.token === cmd.token && (r.reason === "revoked" || r.reason === "holdLimit"))
        return { kind: "revoked" };
    return fail(
      "ERROR_REASON_STALE_TOKEN",
      `token ${cmd.token} is not the current grant of lock ${cmd.lock}`,
    );
  }

  /** The leader's forced release once a hold limit passed: every lock the Acquire got ends at this index. */
  private holdLimit(ctx: ApplyContext, cmd: HoldLimitCommand): Answer {
    const session = this.sessions.get(cmd.sessionId);
    if (!session) return sessionNotFound(cmd.sessionId);
    const ending: Array<[LockState, Holder]> = [];
    for (const name of session.held) {
      const lock = this.locks.get(name) as LockState;
      const holder = holderOf(lock, session.id) as Holder;
      if (holder.token === cmd.token && holdMsOf(holder) === cmd.holdMs)
        ending.push([lock, holder]);
    }
    if (ending.length === 0) {
      // Re-proposed after it applied, or the grant ended first: nothing to end.
      return fail(
        "ERROR_REASON_STALE_TOKEN",
        `session ${session.id} holds no grant of token ${cmd.token} with a hold limit of ${cmd.holdMs} ms`,
      );
    }
    for (const [lock, holder] of ending) this.endGrant(ctx, lock, holder, "holdLimit", "revoked");
    return { kind: "revoked" };
  }

  // ---------------------------------------------------------------- grants and waits

  private createLock(name: string): LockState {
    const lock = newLock(name);
    this.locks.set(name, lock);
    return lock;
  }

  /** A lock with no holder, no waiters and no history takes no memory. */
  private dropIfUnused(lock: LockState): void {
    if (lock.holders === null && lock.waiters === null && lock.historyLength === 0)
      this.locks.delete(lock.name);
  }

  /** Grants every target to `session` with the token of the applying entry; the grants in target order. */
  private grant(
    ctx: ApplyContext,
    session: Session,
    targets: readonly Target[],
    holderData: string,
    holdMs: number,
    waitedFrom: number,
  ): Holder[] {
    const token = tokenFor(this.epochValue, ctx.index);
    const grants: Holder[] = [];
    for (const t of targets) {
      const lock = this.locks.get(t.lock) ?? this.createLock(t.lock);
      claimKind(lock, t);
      const slot =
        t.mode === "permit"
          ? (lock.semaphore as NonNullable<LockState["semaphore"]>).slots.take()
          : -1;
      // The grant's history record is also the lock's holder.
      const record = new Grant(
        lock.name,
        this.epochValue,
        session.id,
        session.clientName,
        ctx.index,
        waitedFrom,
        ctx.wallMs,
        grantTerms(t.mode, slot, holderData, holdMs),
      );
      addHolder(lock, record);
      session.held.add(lock.name);
      this.countHold(session.owner, 1, holderData, 1);
      this.historyLog.add(lock, record);
      ctx.events.push(acquiredEvent(ctx.index, ctx.wallMs, record, lock));
      grants.push(record);
    }
    if (holdMs > 0) pushHold(ctx.timers.holdsStarted, { sessionId: session.id, token, holdMs });
    return grants;
  }

  /**
   * Ends one grant and hands the lock on: to `successor` first when named (a handoff), then
   * to the requests the FIFO rule lets in.
   */
  private endGrant(
    ctx: ApplyContext,
    lock: LockState,
    holder: Holder,
    reason: GrantEnd,
    event: LockEventType,
    successor?: Waiter,
  ): void {
    this.closeGrant(ctx, lock, holder, reason, event);
    if (successor !== undefined) this.grantWaiter(ctx, successor);
    this.grantWaiting(ctx, [lock]);
    this.dropIfUnused(lock);
  }

  /** Ends one grant: its holder, history record, event and hold timer; hands nothing on. */
  private closeGrant(
    ctx: ApplyContext,
    lock: LockState,
    holder: Holder,
    reason: GrantEnd,
    event: LockEventType,
  ): void {
    removeHolder(lock, holder);
    // An Upgrade waiting on a grant that ended (released, revoked, past its hold limit) ends too.
    const upgrade = lock.upgrade;
    const session = this.sessions.get(holder.sessionId);
    if (upgrade !== null && upgrade.sessionId === holder.sessionId && session) {
      this.leaveQueues(upgrade, session);
      const gone = fail(
        "ERROR_REASON_NOT_HOLDER",
        `the upgradeable grant of session ${session.id} on ${lock.name} ended while its Upgrade waited`,
      );
      this.finishWaitSeqs(ctx, session, upgrade, gone, true);
    }
    const slot = holder.terms?.slot ?? -1;
    if (slot >= 0) lock.semaphore?.slots.free(slot);
    if (session?.held.delete(lock.name))
      this.countHold(session.owner, 1, holder.terms?.holderData ?? "", -1);
    // A record that already left the history is not updated: nothing reads it any more.
    if (!holder.evicted) {
      holder.endedAt = ctx.index;
      holder.endedWallMs = ctx.wallMs;
      holder.reason = reason;
    }
    ctx.events.push({
      type: event,
      index: ctx.index,
      lock: lock.name,
      sessionId: holder.sessionId,
      token: holder.token,
      wallMs: ctx.wallMs,
      ...(reason === "holdLimit" ? { revokedFor: "holdLimit" as const } : {}),
      ...(reason === "handedOff" || reason === "upgraded" || reason === "downgraded"
        ? { ended: reason }
        : {}),
      // An election's end events say so: Observe streams only an election's grants.
      ...(modeOf(holder) === "leader" ? { mode: "leader" as const } : {}),
    });
    ctx.endedModes.push(modeOf(holder));
    const holdMs = holdMsOf(holder);
    if (holdMs > 0 && !(session && this.holdsAny(session, holder.token, holdMs))) {
      pushHold(ctx.timers.holdsEnded, { sessionId: holder.sessionId, token: holder.token, holdMs });
    }
  }

  /** Does the session still hold a grant of this token and hold limit (a lock of the same Acquire)? */
  private holdsAny(session: Session, token: bigint, holdMs: number): boolean {
    for (const name of session.held) {
      const lock = this.locks.get(name);
      const h = lock ? holderOf(lock, session.id) : undefined;
      if (h && h.token === token && holdMsOf(h) === holdMs) return true;
    }
    return false;
  }

  /** Grants, at this entry's index, what the FIFO rule lets in after `changed` lost a grant or a waiter. */
  private grantWaiting(ctx: ApplyContext, changed: readonly LockState[]): void {
    grantInJoinOrder(
      changed,
      (name) => this.locks.get(name),
      (waiter) => this.grantWaiter(ctx, waiter),
    );
  }

  /** Takes a waiting request out of its queues and grants it at this entry's index. */
  private grantWaiter(ctx: ApplyContext, waiter: Waiter): void {
    const session = this.sessions.get(waiter.sessionId);
    const upgrading = this.locks.get(waiter.lock);
    const isUpgrade = upgrading?.upgrade === waiter;
    this.leaveQueues(waiter, session);
    // Re-check at apply time that the grantee's session is live.
    if (!session) return;
    if (isUpgrade) {
      const lock = upgrading as LockState;
      const holder = holderOf(lock, session.id) as Holder;
      const answer = this.changedMode(ctx, session, lock, holder, "exclusive", waiter.waitedFrom);
      this.finishWaitSeqs(ctx, session, waiter, answer, true);
      return;
    }
    const grants = this.grant(
      ctx,
      session,
      waiter.targets,
      waiter.holderData,
      waiter.holdMs,
      waiter.waitedFrom,
    );
    this.finishWaitSeqs(ctx, session, waiter, grantedAnswer(grants, waiter.targets), true);
  }

  /** Takes a request out of every queue it is in and out of its session's tables; the locks it left. */
  private leaveQueues(waiter: Waiter, session: Session | undefined): LockState[] {
    const left: LockState[] = [];
    if (session)
      this.countWait(session.owner, waiter, this.locks.get(waiter.lock)?.upgrade === waiter, -1);
    for (const t of waiter.targets) {
      const lock = this.locks.get(t.lock);
      if (lock?.upgrade === waiter) lock.upgrade = null;
      else if (lock?.waiters?.get(waiter.sessionId) === waiter) {
        lock.waiters.delete(waiter.sessionId);
        if (lock.waiters.size === 0) lock.waiters = null;
      }
      if (session) forgetWait(session, t.lock);
      if (lock) left.push(lock);
    }
    return left;
  }

  /** Removes a wait without a grant (cancel, timeout, session end); the requests behind it may go in. */
  private endWait(
    ctx: ApplyContext,
    session: Session,
    waiter: Waiter,
    answer: Answer,
    keep: boolean,
  ): void {
    const left = this.leaveQueues(waiter, session);
    this.finishWaitSeqs(ctx, session, waiter, answer, keep);
    this.grantWaiting(ctx, left);
    for (const lock of left) this.dropIfUnused(lock);
  }

  /** Every Acquire seq joined to a wait gets the same final answer. */
  private finishWaitSeqs(
    ctx: ApplyContext,
    session: Session,
    waiter: Waiter,
    answer: Answer,
    keep: boolean,
  ): void {
    for (const seq of waiter.seqs) {
      if (session.pending?.delete(seq) && session.pending.size === 0) session.pending = null;
      if (keep) this.keep(session, seq, namesOf(waiter.targets), answer);
      ctx.completions.push({ sessionId: session.id, seq, answer });
    }
    ctx.timers.waitsEnded.push({ sessionId: session.id, acquireSeq: waiter.seqs[0] as number });
  }

  // ---------------------------------------------------------------- reads

  getLock(name: string): LockInfo {
    const lock = this.locks.get(name);
    if (!lock) return { name, holder: null, waiters: [] };
    return lockInfo(lock, this.clientNameOf);
  }

  private readonly clientNameOf = (id: bigint): string => this.sessions.get(id)?.clientName ?? "";
  private readonly lockOf = (name: string): LockState | undefined => this.locks.get(name);

  /** A lock with a page of its holders and one of its waiters, as `bounds` say. */
  lockPage(name: string, bounds: LockPageBounds): LockPageInfo {
    return lockPage(name, this.locks.get(name), bounds, this.clientNameOf);
  }

  /** Held or waited-for locks, sorted by name (code point order), paged. */
  listLocks(options: ListLocksOptions = {}): { locks: LockInfo[]; nextAfter: string | null } {
    const names = this.namesInUse(options);
    const limit = Math.max(1, options.limit ?? 1000);
    const page = names.slice(0, limit);
    return {
      locks: page.map((name) => lockInfo(this.locks.get(name) as LockState, this.clientNameOf)),
      nextAfter: names.length > limit ? (page[page.length - 1] as string) : null,
    };
  }

  /**
   * Held or waited-for locks as listLocks orders them, each with the first page of its lists;
   * a page ends at `limit` locks or before its bytes would pass `maxBytes`.
   */
  listLockPages(options: ListLockPagesOptions): {
    locks: LockPageInfo[];
    nextAfter: string | null;
  } {
    const names = this.namesInUse(options);
    const limit = Math.max(1, options.limit);
    const locks: LockPageInfo[] = [];
    let bytes = 0;
    for (const name of names) {
      if (locks.length === limit) break;
      const page = lockPage(name, this.locks.get(name), options.each, this.clientNameOf);
      if (locks.length > 0 && bytes + page.bytes > options.maxBytes) break;
      locks.push(page);
      bytes += page.bytes;
    }
    return {
      locks,
      nextAfter: locks.length < names.length ? (locks[locks.length - 1]?.name ?? null) : null,
    };
  }

  /** Names of held or waited-for locks with the prefix, after `after`, in code point order. */
  private namesInUse(options: ListLocksOptions): string[] {
    const prefix = options.prefix ?? "";
    const after = options.after;
    const names: string[] = [];
    for (const lock of this.locks.values()) {
      if (!inUse(lock)) continue;
      if (!lock.name.startsWith(prefix)) continue;
      if (after !== undefined && compareCodePoints(lock.name, after) <= 0) continue;
      names.push(lock.name);
    }
    return names.sort(compareCodePoints);
  }

  getSession(id: bigint): SessionInfo | null {
    const session = this.sessions.get(id);
    return session ? sessionInfo(session, this.lockOf) : null;
  }

  /** Sessions with id above `after`, ascending, paged. */
  listSessions(after = 0n, limit = 1000): { sessions: SessionInfo[]; nextAfter: bigint | null } {
    const max = Math.max(1, limit);
    const sessions: SessionInfo[] = [];
    // The map is in ascending id order: ids are epoch × 2^48 + entry index, inserted in log
    // order, and every live session has the state's epoch (a restore drops all sessions).
    for (const session of this.sessions.values()) {
      if (session.id <= after) continue;
      if (sessions.length === max)
        return { sessions, nextAfter: sessions[sessions.length - 1]?.id ?? null };
      sessions.push(sessionInfo(session, this.lockOf));
    }
    return { sessions, nextAfter: null };
  }

  /** Retained history of a lock, oldest first. */
  history(lock: string): HistoryEntry[] {
    const state = this.locks.get(lock);
    return state ? [...historyRecords(state)].map(historyEntry) : [];
  }

  /** True if `token` is a current grant of `lock` (at this applied index only). */
  validateToken(lock: string, token: bigint): boolean {
    const state = this.locks.get(lock);
    if (!state) return false;
    const first = firstHolder(state);
    if (first?.token === token) return true;
    return holderCount(state) > 1 && holdersOf(state).some((h) => h.token === token);
  }

  /**
   * The answer a sequenced write's seq already has (kept, or "waiting"), or null. Only for
   * the session's own identity: another's write answers as for a session it cannot see.
   */
  private firstAnswerOf(cmd: Command, who: Principal | null): Answer | null {
    if (!isSequenced(cmd)) return null;
    if (who !== null && this.sessions.get(cmd.sessionId)?.owner !== who.name) return null;
    return this.answerFor(cmd.sessionId, cmd.seq);
  }

  /** The kept answer for a seq, "waiting" for a pending Acquire, or null (unknown, acknowledged, or no session). */
  answerFor(sessionId: bigint, seq: number): Answer | null {
    const session = this.sessions.get(sessionId);
    if (!session) return null;
    if (session.pending?.has(seq)) return WAITING;
    return session.answers.get(seq)?.answer ?? null;
  }

  hasSession(id: bigint): boolean {
    return this.sessions.has(id);
  }

  /** A live session's TTL (ms), or null: constant work, for keepalives of many sessions. */
  sessionTtl(id: bigint): number | null {
    return this.sessions.get(id)?.ttlMs ?? null;
  }

  sessionIds(): bigint[] {
    return [...this.sessions.keys()];
  }

  /** Every live session with its TTL, for a new leader's lease timers. */
  sessionLeases(): SessionLease[] {
    return [...this.sessions.values()].map((s) => ({ id: s.id, ttlMs: s.ttlMs }));
  }

  /** Every pending wait, for a new leader's wait timers. */
  pendingWaits(): PendingWait[] {
    const waits: PendingWait[] = [];
    for (const session of this.sessions.values()) {
      for (const w of new Set(session.waits?.values() ?? [])) {
        waits.push({
          sessionId: session.id,
          lock: w.lock,
          acquireSeq: w.seqs[0] as number,
          waitMs: w.waitMs,
        });
      }
    }
    return waits;
  }

  /** Every current grant's hold limit (one per Acquire), for a new leader's hold timers. */
  holdLimits(): HoldLimit[] {
    const holds: HoldLimit[] = [];
    for (const session of this.sessions.values()) {
      for (const name of session.held) {
        const h = holderOf(this.locks.get(name) as LockState, session.id) as Holder;
        const holdMs = holdMsOf(h);
        if (holdMs > 0) pushHold(holds, { sessionId: session.id, token: h.token, holdMs });
      }
    }
    return holds;
  }

  stats(): StateStats {
    let held = 0;
    let waiters = 0;
    for (const lock of this.locks.values()) {
      if (lock.holders !== null) held++;
      waiters += lock.waiters?.size ?? 0;
    }
    return {
      sessions: this.sessions.size,
      lockEntries: this.locks.size,
      heldLocks: held,
      waiters,
      historyRecords: this.historyLog.size,
      rememberedRequestIds: this.requestIds.size,
      rememberedClosedSessions: this.closedIds.size,
    };
  }

  /** Cross-checks the internal tables; returns a description of each violation (empty when sound). */
  checkInvariants(): string[] {
    return checkStateInvariants(this.sessions, this.locks);
  }

  /** Counts every identity's quota use from the sessions, as applying their log would have. */
  private countUsage(): void {
    this.access.clearUsage();
    for (const session of this.sessions.values()) {
      this.access.count(session.owner, "sessions", 1);
      for (const name of session.held) {
        const holder = holderOf(this.locks.get(name) as LockState, session.id) as Holder;
        this.countHold(session.owner, 1, holder.terms?.holderData ?? "", 1);
      }
      for (const waiter of new Set(session.waits?.values() ?? []))
        this.countWait(session.owner, waiter, this.locks.get(waiter.lock)?.upgrade === waiter, 1);
    }
  }

  // ---------------------------------------------------------------- access reads

  /** The replicated policy, tokens and quota use (read only: changed by applying entries). */
  get accessState(): Pick<
    AccessState,
    "policy" | "policyIndex" | "policySource" | "resolve" | "usageOf" | "tokens" | "owns"
  > {
    return this.access;
  }

  /** The identity a live session belongs to, or null when there is no such session. */
  sessionOwner(id: bigint): string | null {
    return this.sessions.get(id)?.owner ?? null;
  }

  /** Locks a live session holds or waits for (for the rights its keepalive still needs). */
  sessionLocks(id: bigint): string[] {
    const session = this.sessions.get(id);
    if (!session) return [];
    return [...session.held, ...(session.waits?.keys() ?? [])];
  }

  // ---------------------------------------------------------------- snapshots

  /** Deterministic bytes of the whole state, with a CRC-32 trailer. */
  snapshot(): Uint8Array {
    const steps = this.snapshotSteps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The snapshot bytes of the state at this applied index, written a slice at a time (see
   * snapshotSteps in snapshot.ts): nothing may be applied until the generator returns.
   */
  *snapshotSteps(): Generator<void, Uint8Array, void> {
    const bytes = yield* snapshotSteps(
      {
        applied: this.applied,
        epoch: this.epochValue,
        limits: this.limitsValue,
        sessions: this.sessions,
        locks: this.locks,
        history: this.historyLog.records(),
        historyCount: this.historyLog.size,
        requestIds: this.requestIds,
        closedIds: this.closedIds,
        endedOwners: this.endedOwners,
        access: {
          policyText: this.access.policy?.text ?? null,
          policySource: this.access.policySource,
          policyIndex: this.access.policyIndex,
          tokens: this.access.tokens.values(),
        },
      },
      this.snapshotSizeHint,
    );
    // The next snapshot is about as large: it is written into one buffer of about that size.
    this.snapshotSizeHint = bytes.byteLength;
    return bytes;
  }

  /** Rebuilds a state machine from snapshot bytes; throws SnapshotError on a bad checksum or content. */
  static restore(bytes: Uint8Array): LockStateMachine {
    const data = readSnapshot(bytes);
    const machine = new LockStateMachine(data.limits, { epoch: data.epoch });
    machine.applied = data.applied;
    machine.snapshotSizeHint = bytes.byteLength;
    for (const [id, session] of data.sessions) machine.sessions.set(id, session);
    for (const [name, lock] of data.locks) machine.locks.set(name, lock);
    for (const [requestId, id] of data.requestIds) machine.requestIds.set(requestId, id);
    for (const id of data.closedIds) machine.closedIds.add(id);
    for (const [id, owner] of data.endedOwners) machine.endedOwners.set(id, owner);
    if (data.access.policyText !== null)
      machine.access.setPolicy(
        Policy.parse(data.access.policyText),
        data.access.policyIndex,
        data.access.policySource,
      );
    for (const token of data.access.tokens) machine.access.tokens.set(token.id, token);
    machine.countUsage();
    // Plain records from the reader become Grants: one shape, no bigint per grant.
    machine.historyLog.load(adoptGrants(machine.locks.values(), data.history));
    const problems = machine.checkInvariants();
    if (problems.length > 0)
      throw new SnapshotError(`inconsistent snapshot: ${problems.slice(0, 3).join("; ")}`);
    return machine;
  }
}

function isRefusal(found: Session | ErrorAnswer): found is ErrorAnswer {
  return (found as ErrorAnswer).kind === "error";
}

/** The lock an Acquire's answer is kept for: its lock, or every lock of a multi-lock Acquire. */
function namesOf(targets: readonly Target[]): string | string[] {
  return targets.length === 1 ? (targets[0] as Target).lock : targets.map((t) => t.lock);
}

/** A refused or timed-out Upgrade: not acquired, naming the oldest other holder it waited for. */
function notUpgraded(lock: LockState, sessionId: bigint): Answer {
  const h = otherHolder(lock, sessionId);
  return { kind: "notAcquired", holder: h === null ? null : holderRef(h) };
}

/** An idle name takes the kind (and permit count) of the request that puts it in use. */
function claimKind(lock: LockState, t: Target): void {
  if (inUse(lock)) return;
  if (t.mode !== "permit") lock.semaphore = null;
  else if (lock.semaphore?.permits !== t.permits)
    lock.semaphore = { permits: t.permits, slots: new SlotPool(t.permits) };
}

/** Adds a hold limit to a list unless it is there (grants of one entry may share it). */
function pushHold(list: HoldLimit[], hold: HoldLimit): void {
  if (
    !list.some(
      (h) => h.sessionId === hold.sessionId && h.token === hold.token && h.holdMs === hold.holdMs,
    )
  )
    list.push(hold);
}

/** Removes a session's wait on `lock`, dropping the table once it is empty. */
function forgetWait(session: Session, lock: string): void {
  if (session.waits?.delete(lock) && session.waits.size === 0) session.waits = null;
}

function rememberInMap<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (limit === 0) return;
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}

/** Orders strings by Unicode code point (the order of their UTF-8 bytes). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (0xD800–0xDFFF) stands for a code point above every BMP character.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
