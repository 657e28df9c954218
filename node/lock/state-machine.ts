// The replicated lock state machine. Deterministic: apply(index, command) in log order on
// every replica yields the same state, answers and events. Time enters only through
// commands (expiry and wait timeouts are proposed by the leader); wall-clock values in
// commands are copied into history as display data and never compared.
import {
  fail, invalid, sessionEnded, sessionNotFound, type Answer, type ErrorAnswer, type OkAnswer,
} from "./answers.ts";
import {
  CommandDecodeError, decodeCommand, type AcquireCommand, type CancelWaitCommand, type CloseSessionCommand, type Command,
  type OpenSessionCommand, type ReleaseCommand, type RevokeCommand, type SequencedWrite, type SetLimitsCommand,
} from "./commands.ts";
import { HistoryLog } from "./history.ts";
import { MAX_EPOCH, MAX_INDEX, resolveLimits, type LockLimits } from "./limits.ts";
import { emptyTimers, type ApplyOutcome, type Completion, type LockEvent, type LockEventType, type PendingWait, type SessionLease, type TimerChanges } from "./outcome.ts";
import { readSnapshot, SnapshotError, snapshotSteps } from "./snapshot.ts";
import { newSession, NO_HISTORY, type EndReason, type HistoryRecord, type LockState, type Session, type Waiter } from "./state.ts";
import { tokenFor } from "./tokens.ts";
import { validateCommand } from "./validate.ts";

export interface LockHolderInfo {
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly token: bigint;
  readonly grantedAt: number;
  readonly waitedFrom: number;
}

export interface LockWaiterInfo {
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly waitedFrom: number;
  readonly seqs: readonly number[];
}

export interface LockInfo {
  readonly name: string;
  /** null while the lock is free. */
  readonly holder: LockHolderInfo | null;
  /** FIFO order. */
  readonly waiters: readonly LockWaiterInfo[];
}

export interface SessionInfo {
  readonly id: bigint;
  readonly clientName: string;
  readonly ttlMs: number;
  readonly openedAt: number;
  readonly openedWallMs: number;
  readonly mark: number;
  readonly held: ReadonlyArray<{ readonly lock: string; readonly token: bigint }>;
  readonly waiting: ReadonlyArray<{ readonly lock: string; readonly seqs: readonly number[] }>;
  readonly keptAnswers: number;
}

export interface HistoryEntry {
  readonly lock: string;
  readonly token: bigint;
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly grantedAt: number;
  readonly waitedFrom: number;
  readonly grantedWallMs: number;
  /** null while the grant is current. */
  readonly endedAt: number | null;
  readonly endedWallMs: number | null;
  readonly reason: EndReason | null;
}

export interface ListLocksOptions {
  readonly prefix?: string;
  /** Return names strictly after this one (the previous page's `nextAfter`). */
  readonly after?: string;
  readonly limit?: number;
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
  readonly timers: TimerChanges = emptyTimers();
  constructor(readonly index: number, readonly wallMs: number) {}
}

const TOO_OLD = (seq: number, mark: number): ErrorAnswer =>
  fail("FAILED_PRECONDITION", "request too old", `seq ${seq} is at or below the acknowledged mark ${mark}, or its answer was already acknowledged`);
const WAITING: OkAnswer = { code: "OK", kind: "waiting" };

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
    if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH) throw new RangeError(`epoch out of range: ${epoch}`);
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
  apply(index: number, cmd: Command): ApplyOutcome {
    this.advanceTo(index);
    const ctx = new ApplyContext(index, typeof cmd.wallMs === "number" ? cmd.wallMs : 0);
    const bad = validateCommand(cmd, this.limitsValue);
    const result = bad !== null ? invalid(bad) : this.dispatch(ctx, cmd);
    return { index, result, completions: ctx.completions, events: ctx.events, timers: ctx.timers };
  }

  /** Decodes and applies an entry's bytes; undecodable bytes get INVALID_ARGUMENT and change nothing. */
  applyBytes(index: number, bytes: Uint8Array): ApplyOutcome {
    let cmd: Command;
    try {
      cmd = decodeCommand(bytes);
    } catch (err) {
      if (!(err instanceof CommandDecodeError)) throw err;
      this.advanceTo(index);
      return { index, result: invalid(err.message), completions: [], events: [], timers: emptyTimers() };
    }
    return this.apply(index, cmd);
  }

  /** Records an entry without a command (a leader's no-op, a membership change). */
  skip(index: number): void {
    this.advanceTo(index);
  }

  private advanceTo(index: number): void {
    if (!Number.isSafeInteger(index) || index <= this.applied || index > MAX_INDEX) {
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
        return { code: "OK", kind: "sessionExpired" };
      }
      case "acquire":
        return this.acquire(ctx, cmd);
      case "cancelWait":
        return this.cancelWait(ctx, cmd);
      case "release":
        return this.release(ctx, cmd);
      case "revoke":
        return this.revoke(ctx, cmd);
      case "setLimits":
        return this.setLimits(cmd);
    }
  }

  /** New replicated limits; what is kept over the new caps is evicted, oldest first. */
  private setLimits(cmd: SetLimitsCommand): Answer {
    const limits = resolveLimits(cmd.limits);
    this.limitsValue = limits;
    this.historyLog.setCaps(limits.historyPerLock, limits.historyTotal);
    while (this.requestIds.size > limits.rememberedRequestIds) this.requestIds.delete(this.requestIds.keys().next().value as string);
    while (this.closedIds.size > limits.rememberedClosedSessions) this.closedIds.delete(this.closedIds.values().next().value as bigint);
    return { code: "OK", kind: "limitsSet" };
  }

  // ---------------------------------------------------------------- sessions

  private openSession(ctx: ApplyContext, cmd: OpenSessionCommand): Answer {
    const known = this.requestIds.get(cmd.requestId);
    if (known !== undefined) return { code: "OK", kind: "sessionOpened", sessionId: known };
    if (this.sessions.size >= this.limitsValue.maxSessions) {
      return fail("RESOURCE_EXHAUSTED", "too many sessions", `the cluster already has ${this.sessions.size} sessions`);
    }
    // Like a token, the id carries the epoch: a restored cluster (a higher epoch) never
    // hands out an id an old cluster's client may still use.
    const id = tokenFor(this.epochValue, ctx.index);
    this.sessions.set(id, newSession({
      id, clientName: cmd.clientName, ttlMs: cmd.ttlMs, openedAt: ctx.index, openedWallMs: ctx.wallMs, requestId: cmd.requestId, mark: 0,
    }));
    rememberInMap(this.requestIds, cmd.requestId, id, this.limitsValue.rememberedRequestIds);
    ctx.timers.sessionsOpened.push({ id, ttlMs: cmd.ttlMs });
    return { code: "OK", kind: "sessionOpened", sessionId: id };
  }

  private closeSession(ctx: ApplyContext, cmd: CloseSessionCommand): Answer {
    const session = this.sessions.get(cmd.sessionId);
    if (!session) {
      return this.closedIds.has(cmd.sessionId) ? { code: "OK", kind: "sessionClosed" } : sessionNotFound(cmd.sessionId);
    }
    const earlier = this.admit(session, cmd);
    if (earlier) return earlier;
    this.endSession(ctx, session, "closed");
    return { code: "OK", kind: "sessionClosed" };
  }

  /** Close or expiry: cancels the session's waits, then releases its locks to their next waiters. */
  private endSession(ctx: ApplyContext, session: Session, how: "closed" | "expired"): void {
    const ended = sessionEnded(session.id);
    if (session.waits) for (const waiter of [...session.waits.values()]) this.endWait(ctx, session, waiter, ended, false);
    const reason: EndReason = how === "closed" ? "session closed" : "session expired";
    const event: LockEventType = how === "closed" ? "sessionClosed" : "expired";
    for (const name of [...session.held]) {
      const lock = this.locks.get(name);
      if (lock) this.endGrant(ctx, lock, reason, event);
    }
    this.sessions.delete(session.id);
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
      for (const seq of [...session.answers.keys()]) if (seq <= session.mark) session.answers.delete(seq);
      if (session.dropped) {
        for (const seq of [...session.dropped]) if (seq <= session.mark) session.dropped.delete(seq);
        if (session.dropped.size === 0) session.dropped = null;
      }
    }
    // A dropped seq is remembered until the mark passes it, so a delayed duplicate is refused.
    // Past the bound (only a misbehaving client gets there) the answer is kept instead.
    const droppedBound = 2 * this.limitsValue.maxInFlightPerSession;
    for (const seq of write.held) {
      if (seq <= session.mark || !session.answers.has(seq) || (session.dropped?.size ?? 0) >= droppedBound) continue;
      session.answers.delete(seq);
      (session.dropped ??= new Set()).add(seq);
    }
    if (write.seq <= session.mark || session.dropped?.has(write.seq)) return TOO_OLD(write.seq, session.mark);
    const kept = session.answers.get(write.seq);
    if (kept) return kept.answer;
    if (session.pending?.has(write.seq)) return WAITING;
    return null;
  }

  private inFlightFull(session: Session): ErrorAnswer | null {
    const inFlight = session.answers.size + (session.pending?.size ?? 0);
    if (inFlight < this.limitsValue.maxInFlightPerSession) return null;
    return fail("RESOURCE_EXHAUSTED", "too many in flight",
      `session ${session.id} has ${inFlight} unacknowledged answers and pending waits (limit ${this.limitsValue.maxInFlightPerSession})`);
  }

  /** Keeps the final answer of a seq until the client acknowledges it. */
  private keep(session: Session, seq: number, acquireOf: string | null, answer: Answer): void {
    if (seq > session.mark && !session.dropped?.has(seq)) session.answers.set(seq, { acquireOf, answer });
  }

  // ---------------------------------------------------------------- locks

  private acquire(ctx: ApplyContext, cmd: AcquireCommand): Answer {
    const session = this.sessions.get(cmd.sessionId);
    if (!session) return sessionNotFound(cmd.sessionId);
    const earlier = this.admit(session, cmd);
    if (earlier) return earlier;
    const full = this.inFlightFull(session);
    if (full) return full;

    const answer = this.decideAcquire(ctx, session, cmd);
    if (answer.kind !== "waiting") this.keep(session, cmd.seq, cmd.lock, answer);
    return answer;
  }

  private decideAcquire(ctx: ApplyContext, session: Session, cmd: AcquireCommand): Answer {
    const existing = this.locks.get(cmd.lock);
    const holder = existing?.holder ?? null;
    if (holder === null) {
      const limit = this.locksFull(session);
      if (limit) return limit;
      const lock = existing ?? this.createLock(cmd.lock);
      return { code: "OK", kind: "granted", token: this.grant(ctx, lock, session, ctx.index) };
    }
    const lock = existing as LockState;
    // Not reentrant by count: the holder gets its existing token back.
    if (holder.sessionId === session.id) return { code: "OK", kind: "granted", token: holder.token };
    // A second Acquire while waiting joins the existing wait and keeps its timer.
    const waiting = session.waits?.get(cmd.lock);
    if (waiting) {
      waiting.seqs.push(cmd.seq);
      (session.pending ??= new Map()).set(cmd.seq, cmd.lock);
      return WAITING;
    }
    if (cmd.waitMs === 0) return { code: "OK", kind: "notAcquired", holderSessionId: holder.sessionId, holderToken: holder.token };
    const limit = this.locksFull(session);
    if (limit) return limit;
    const queued = lock.waiters?.size ?? 0;
    if (queued >= this.limitsValue.maxWaitersPerLock) {
      return fail("RESOURCE_EXHAUSTED", "too many waiters", `lock ${cmd.lock} already has ${queued} waiters`);
    }
    const waiter: Waiter = { sessionId: session.id, lock: cmd.lock, seqs: [cmd.seq], waitedFrom: ctx.index, waitMs: cmd.waitMs };
    lock.waiters ??= new Map();
    lock.waiters.set(session.id, waiter);
    (session.waits ??= new Map()).set(cmd.lock, waiter);
    (session.pending ??= new Map()).set(cmd.seq, cmd.lock);
    ctx.timers.waitsStarted.push({ sessionId: session.id, lock: cmd.lock, acquireSeq: cmd.seq, waitMs: cmd.waitMs });
    return WAITING;
  }

  private locksFull(session: Session): ErrorAnswer | null {
    const count = session.held.size + (session.waits?.size ?? 0);
    if (count < this.limitsValue.maxLocksPerSession) return null;
    return fail("RESOURCE_EXHAUSTED", "too many locks in session",
      `session ${session.id} holds or waits for ${count} locks (limit ${this.limitsValue.maxLocksPerSession})`);
  }

  private cancelWait(ctx: ApplyContext, cmd: CancelWaitCommand): Answer {
    const session = this.sessions.get(cmd.sessionId);
    if (!session) return sessionNotFound(cmd.sessionId);
    const seq = cmd.acquireSeq;
    if (seq <= session.mark || session.dropped?.has(seq)) return TOO_OLD(seq, session.mark);
    const notThisLock = (): ErrorAnswer =>
      fail("INVALID_ARGUMENT", "not an acquire of this lock", `seq ${seq} of session ${session.id} is not an Acquire of lock ${cmd.lock}`);

    const pendingLock = session.pending?.get(seq);
    if (pendingLock !== undefined) {
      if (pendingLock !== cmd.lock) return notThisLock();
      const waiter = session.waits?.get(pendingLock) as Waiter;
      const holder = this.locks.get(pendingLock)?.holder ?? null;
      const answer: Answer = cmd.reason === "timeout" && holder !== null
        ? { code: "OK", kind: "notAcquired", holderSessionId: holder.sessionId, holderToken: holder.token }
        : { code: "OK", kind: "cancelled" };
      this.endWait(ctx, session, waiter, answer, true);
      return answer;
    }
    const kept = session.answers.get(seq);
    if (kept) return kept.acquireOf === cmd.lock ? kept.answer : notThisLock();
    // The leader only times out waits it saw applied; nothing to do for an unknown one.
    if (cmd.reason === "timeout") return fail("NOT_FOUND", "no such wait", `no wait for seq ${seq} of session ${session.id}`);
    // The Acquire has not been applied yet: record the answer now; when it arrives it takes no effect.
    const full = this.inFlightFull(session);
    if (full) return full;
    const cancelled: OkAnswer = { code: "OK", kind: "cancelled" };
    session.answers.set(seq, { acquireOf: cmd.lock, answer: cancelled });
    return cancelled;
  }

  private release(ctx: ApplyContext, cmd: ReleaseCommand): Answer {
    const session = this.sessions.get(cmd.sessionId);
    if (!session) return sessionNotFound(cmd.sessionId);
    const earlier = this.admit(session, cmd);
    if (earlier) return earlier;
    const full = this.inFlightFull(session);
    if (full) return full;

    const lock = this.locks.get(cmd.lock);
    const holder = lock?.holder ?? null;
    let answer: Answer;
    if (lock && holder && holder.sessionId === session.id && holder.token === cmd.token) {
      this.endGrant(ctx, lock, "released", "released");
      answer = { code: "OK", kind: "released" };
    } else if (holder && holder.sessionId === session.id) {
      answer = fail("FAILED_PRECONDITION", "stale token", `token ${cmd.token} is not the current grant of lock ${cmd.lock}`);
    } else {
      answer = fail("FAILED_PRECONDITION", "not holder", `session ${session.id} does not hold lock ${cmd.lock}`);
    }
    this.keep(session, cmd.seq, null, answer);
    return answer;
  }

  private revoke(ctx: ApplyContext, cmd: RevokeCommand): Answer {
    const lock = this.locks.get(cmd.lock);
    if (lock?.holder && lock.holder.token === cmd.token) {
      this.endGrant(ctx, lock, "revoked", "revoked");
      return { code: "OK", kind: "revoked" };
    }
    // A retried revoke of a grant that already ended as revoked succeeds.
    if (lock?.history.some((r) => r.token === cmd.token && r.reason === "revoked")) return { code: "OK", kind: "revoked" };
    return fail("FAILED_PRECONDITION", "stale token", `token ${cmd.token} is not the current grant of lock ${cmd.lock}`);
  }

  // ---------------------------------------------------------------- grants and waits

  private createLock(name: string): LockState {
    const lock: LockState = { name, holder: null, waiters: null, history: NO_HISTORY };
    this.locks.set(name, lock);
    return lock;
  }

  /** A lock with no holder, no waiters and no history takes no memory. */
  private dropIfUnused(lock: LockState): void {
    if (lock.holder === null && lock.waiters === null && lock.history.length === 0) this.locks.delete(lock.name);
  }

  /** Grants `lock` to `session` with the token of the applying entry. */
  private grant(ctx: ApplyContext, lock: LockState, session: Session, waitedFrom: number): bigint {
    const token = tokenFor(this.epochValue, ctx.index);
    // The grant's history record is also the lock's holder.
    const record: HistoryRecord = {
      lock: lock.name, token, sessionId: session.id, clientName: session.clientName, grantedAt: ctx.index, waitedFrom,
      grantedWallMs: ctx.wallMs, endedAt: null, endedWallMs: null, reason: null, evicted: false,
    };
    lock.holder = record;
    session.held.add(lock.name);
    this.historyLog.add(lock, record);
    ctx.events.push({ type: "acquired", index: ctx.index, lock: lock.name, sessionId: session.id, token, wallMs: ctx.wallMs });
    return token;
  }

  /** Ends the current grant and hands the lock to the next live waiter. */
  private endGrant(ctx: ApplyContext, lock: LockState, reason: EndReason, event: LockEventType): void {
    const holder = lock.holder;
    if (!holder) return;
    lock.holder = null;
    this.sessions.get(holder.sessionId)?.held.delete(lock.name);
    // A record that already left the history is not updated: nothing reads it any more.
    if (!holder.evicted) {
      holder.endedAt = ctx.index;
      holder.endedWallMs = ctx.wallMs;
      holder.reason = reason;
    }
    ctx.events.push({ type: event, index: ctx.index, lock: lock.name, sessionId: holder.sessionId, token: holder.token, wallMs: ctx.wallMs });
    this.grantNext(ctx, lock);
    this.dropIfUnused(lock);
  }

  private grantNext(ctx: ApplyContext, lock: LockState): void {
    while (lock.waiters !== null && lock.waiters.size > 0) {
      const [sessionId, waiter] = lock.waiters.entries().next().value as [bigint, Waiter];
      lock.waiters.delete(sessionId);
      if (lock.waiters.size === 0) lock.waiters = null;
      // Re-check at apply time that the grantee's session is live.
      const session = this.sessions.get(sessionId);
      if (!session) continue;
      forgetWait(session, lock.name);
      const answer: Answer = { code: "OK", kind: "granted", token: this.grant(ctx, lock, session, waiter.waitedFrom) };
      this.finishWaitSeqs(ctx, session, waiter, answer, true);
      return;
    }
  }

  /** Removes a wait without a grant (cancel, timeout, session end). Never frees a held lock. */
  private endWait(ctx: ApplyContext, session: Session, waiter: Waiter, answer: Answer, keep: boolean): void {
    const lock = this.locks.get(waiter.lock);
    if (lock?.waiters) {
      lock.waiters.delete(session.id);
      if (lock.waiters.size === 0) lock.waiters = null;
    }
    forgetWait(session, waiter.lock);
    this.finishWaitSeqs(ctx, session, waiter, answer, keep);
    if (lock) this.dropIfUnused(lock);
  }

  /** Every Acquire seq joined to a wait gets the same final answer. */
  private finishWaitSeqs(ctx: ApplyContext, session: Session, waiter: Waiter, answer: Answer, keep: boolean): void {
    for (const seq of waiter.seqs) {
      if (session.pending?.delete(seq) && session.pending.size === 0) session.pending = null;
      if (keep) this.keep(session, seq, waiter.lock, answer);
      ctx.completions.push({ sessionId: session.id, seq, answer });
    }
    ctx.timers.waitsEnded.push({ sessionId: session.id, acquireSeq: waiter.seqs[0] as number });
  }

  // ---------------------------------------------------------------- reads

  getLock(name: string): LockInfo {
    const lock = this.locks.get(name);
    if (!lock) return { name, holder: null, waiters: [] };
    return this.lockInfo(lock);
  }

  private lockInfo(lock: LockState): LockInfo {
    const holder = lock.holder;
    return {
      name: lock.name,
      holder: holder === null ? null : {
        sessionId: holder.sessionId,
        clientName: this.sessions.get(holder.sessionId)?.clientName ?? "",
        token: holder.token,
        grantedAt: holder.grantedAt,
        waitedFrom: holder.waitedFrom,
      },
      waiters: [...(lock.waiters?.values() ?? [])].map((w) => ({
        sessionId: w.sessionId,
        clientName: this.sessions.get(w.sessionId)?.clientName ?? "",
        waitedFrom: w.waitedFrom,
        seqs: [...w.seqs],
      })),
    };
  }

  /** Held or waited-for locks, sorted by name (code point order), paged. */
  listLocks(options: ListLocksOptions = {}): { locks: LockInfo[]; nextAfter: string | null } {
    const prefix = options.prefix ?? "";
    const after = options.after;
    const limit = Math.max(1, options.limit ?? 1000);
    const names: string[] = [];
    for (const lock of this.locks.values()) {
      if (lock.holder === null && lock.waiters === null) continue;
      if (!lock.name.startsWith(prefix)) continue;
      if (after !== undefined && compareCodePoints(lock.name, after) <= 0) continue;
      names.push(lock.name);
    }
    names.sort(compareCodePoints);
    const page = names.slice(0, limit);
    return {
      locks: page.map((name) => this.lockInfo(this.locks.get(name) as LockState)),
      nextAfter: names.length > limit ? (page[page.length - 1] as string) : null,
    };
  }

  getSession(id: bigint): SessionInfo | null {
    const session = this.sessions.get(id);
    return session ? this.sessionInfo(session) : null;
  }

  private sessionInfo(session: Session): SessionInfo {
    return {
      id: session.id,
      clientName: session.clientName,
      ttlMs: session.ttlMs,
      openedAt: session.openedAt,
      openedWallMs: session.openedWallMs,
      mark: session.mark,
      held: [...session.held].map((lock) => ({ lock, token: this.locks.get(lock)?.holder?.token ?? 0n })),
      waiting: [...(session.waits?.values() ?? [])].map((w) => ({ lock: w.lock, seqs: [...w.seqs] })),
      keptAnswers: session.answers.size,
    };
  }

  /** Sessions with id above `after`, ascending, paged. */
  listSessions(after = 0n, limit = 1000): { sessions: SessionInfo[]; nextAfter: bigint | null } {
    const max = Math.max(1, limit);
    const sessions: SessionInfo[] = [];
    // The map is in ascending id order: ids are epoch × 2^48 + entry index, inserted in log
    // order, and every live session has the state's epoch (a restore drops all sessions).
    for (const session of this.sessions.values()) {
      if (session.id <= after) continue;
      if (sessions.length === max) return { sessions, nextAfter: sessions[sessions.length - 1]?.id ?? null };
      sessions.push(this.sessionInfo(session));
    }
    return { sessions, nextAfter: null };
  }

  /** Retained history of a lock, oldest first. */
  history(lock: string): HistoryEntry[] {
    return (this.locks.get(lock)?.history ?? []).map((r) => ({
      lock: r.lock, token: r.token, sessionId: r.sessionId, clientName: r.clientName, grantedAt: r.grantedAt,
      waitedFrom: r.waitedFrom, grantedWallMs: r.grantedWallMs, endedAt: r.endedAt, endedWallMs: r.endedWallMs, reason: r.reason,
    }));
  }

  /** True if `token` is the current grant of `lock` (at this applied index only). */
  validateToken(lock: string, token: bigint): boolean {
    return this.locks.get(lock)?.holder?.token === token;
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
      for (const w of session.waits?.values() ?? []) {
        waits.push({ sessionId: session.id, lock: w.lock, acquireSeq: w.seqs[0] as number, waitMs: w.waitMs });
      }
    }
    return waits;
  }

  stats(): StateStats {
    let held = 0;
    let waiters = 0;
    for (const lock of this.locks.values()) {
      if (lock.holder) held++;
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
    const problems: string[] = [];
    for (const lock of this.locks.values()) {
      const holder = lock.holder;
      if (holder) {
        const session = this.sessions.get(holder.sessionId);
        if (!session) problems.push(`lock ${lock.name} held by missing session ${holder.sessionId}`);
        else if (!session.held.has(lock.name)) problems.push(`session ${holder.sessionId} does not list held lock ${lock.name}`);
      } else if (lock.waiters) {
        problems.push(`free lock ${lock.name} has waiters`);
      }
      if (lock.waiters?.size === 0) problems.push(`lock ${lock.name} keeps an empty queue`);
      for (const w of lock.waiters?.values() ?? []) {
        const session = this.sessions.get(w.sessionId);
        if (!session) problems.push(`lock ${lock.name} has a waiter from missing session ${w.sessionId}`);
        else if (session.waits?.get(lock.name) !== w) problems.push(`session ${w.sessionId} does not list its wait on ${lock.name}`);
        if (holder?.sessionId === w.sessionId) problems.push(`holder of ${lock.name} also waits for it`);
      }
      if (!holder && !lock.waiters && lock.history.length === 0) problems.push(`unused lock entry ${lock.name}`);
    }
    for (const session of this.sessions.values()) {
      for (const name of session.held) {
        if (this.locks.get(name)?.holder?.sessionId !== session.id) problems.push(`session ${session.id} lists ${name} but does not hold it`);
      }
      let pendingSeqs = 0;
      for (const w of session.waits?.values() ?? []) {
        pendingSeqs += w.seqs.length;
        for (const seq of w.seqs) if (session.pending?.get(seq) !== w.lock) problems.push(`seq ${seq} of session ${session.id} not pending`);
      }
      if (pendingSeqs !== (session.pending?.size ?? 0)) problems.push(`session ${session.id} pending count mismatch`);
      if (session.waits?.size === 0 || session.pending?.size === 0 || session.dropped?.size === 0) problems.push(`session ${session.id} keeps an empty table`);
      for (const seq of session.answers.keys()) if (seq <= session.mark) problems.push(`session ${session.id} keeps acknowledged seq ${seq}`);
    }
    return problems;
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
    const bytes = yield* snapshotSteps({
      applied: this.applied,
      epoch: this.epochValue,
      limits: this.limitsValue,
      sessions: this.sessions,
      locks: this.locks,
      history: this.historyLog.records(),
      historyCount: this.historyLog.size,
      requestIds: this.requestIds,
      closedIds: this.closedIds,
    }, this.snapshotSizeHint);
    // The next snapshot is about as large: it is written into one buffer of about that size.
    this.snapshotSizeHint = bytes.byteLength;
    return bytes;
  }

  /**
   * Rebuilds a state machine from snapshot bytes; throws SnapshotError on a bad checksum or
   * content. The limits come from the snapshot; `limits` only stands in for a snapshot of the
   * first format, which did not carry them.
   */
  static restore(bytes: Uint8Array, limits: Partial<LockLimits> = {}): LockStateMachine {
    const data = readSnapshot(bytes);
    const machine = new LockStateMachine(data.limits ?? limits, { epoch: data.epoch });
    machine.applied = data.applied;
    machine.snapshotSizeHint = bytes.byteLength;
    for (const [id, session] of data.sessions) machine.sessions.set(id, session);
    for (const [name, lock] of data.locks) machine.locks.set(name, lock);
    for (const [requestId, id] of data.requestIds) machine.requestIds.set(requestId, id);
    for (const id of data.closedIds) machine.closedIds.add(id);
    machine.historyLog.load(data.history);
    const problems = machine.checkInvariants();
    if (problems.length > 0) throw new SnapshotError(`inconsistent snapshot: ${problems.slice(0, 3).join("; ")}`);
    return machine;
  }
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
