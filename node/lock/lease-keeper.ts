// Leader-side session, wait and hold-limit timers. Pure: the host passes its monotonic clock
// (ms) into every call. Time decides only *when* the leader proposes an expiry, a wait
// timeout or the end of a grant whose hold limit passed; what happens is decided when that
// command is applied from the log.
//
// Host contract:
// - becomeLeader() when this node becomes leader, with the applied state's sessions, waits
//   and hold limits (every TTL, wait and hold limit restarts in full from that moment: a new
//   leader cannot know when a grant was made, and ending it later than its limit is safe,
//   since a client stops using a grant by its own deadline, which counts the limit from
//   before the grant); stepDown() when it loses it.
// - onApplied(outcome.timers, now) after each applied entry while leader.
// - due(now) only after pending inbound messages (keepalives) were processed; propose what
//   it returns. After an event-loop stall longer than a heartbeat call stalled(stallMs)
//   instead, with the measured length of the stall.
import type { Command } from "./commands.ts";
import { DeadlineQueue } from "./deadline-queue.ts";
import type { HoldLimit, PendingWait, SessionLease, TimerChanges } from "./outcome.ts";

export interface LeaseKeeperOptions {
  /**
   * A proposed expiry or timeout that has not been applied after this long is proposed
   * again (the first proposal may have been lost). Re-proposals are harmless: applying an
   * expiry of an ended session or a timeout of an ended wait changes nothing.
   */
  readonly reproposeAfterMs?: number;
  /**
   * Commands one due() call returns at most (default 1,000); the rest stay due and come
   * with the next calls, in deadline order. A leader that finds 90,000 sessions due at once
   * (their clients all went away) then proposes and applies them over a few ticks instead
   * of blocking its event loop on one batch long enough to lose its followers.
   */
  readonly maxDuePerCall?: number;
}

export type KeepAliveResult = "ok" | "notFound" | "notLeader";

interface SessionTimer {
  readonly ttlMs: number;
  deadline: number;
  /** When the expiry was proposed; the session then refuses keepalives. */
  proposedAt: number | null;
  version: number;
}

interface WaitTimer {
  readonly wait: PendingWait;
  deadline: number;
  proposedAt: number | null;
  version: number;
}

interface HoldTimer {
  readonly hold: HoldLimit;
  deadline: number;
  version: number;
}

const DEFAULT_REPROPOSE_AFTER_MS = 2_000;
const DEFAULT_MAX_DUE_PER_CALL = 1_000;

export class LeaseKeeper {
  private readonly reproposeAfterMs: number;
  private readonly maxDuePerCall: number;
  private leader = false;
  private readonly sessions = new Map<bigint, SessionTimer>();
  private readonly waits = new Map<string, WaitTimer>();
  private readonly sessionQueue = new DeadlineQueue<bigint>();
  private readonly waitQueue = new DeadlineQueue<string>();
  private readonly holds = new Map<string, HoldTimer>();
  private readonly holdQueue = new DeadlineQueue<string>();
  private version = 0;
  /**
   * Session deadlines are kept on the host's clock minus this: the total length of the
   * stalls seen since this node became leader. Adding a stall to it moves every session's
   * deadline later by that much at once (O(1), whatever the number of sessions).
   */
  private stallShiftMs = 0;

  constructor(options: LeaseKeeperOptions = {}) {
    this.reproposeAfterMs = options.reproposeAfterMs ?? DEFAULT_REPROPOSE_AFTER_MS;
    if (!(this.reproposeAfterMs > 0)) throw new RangeError("reproposeAfterMs must be positive");
    this.maxDuePerCall = options.maxDuePerCall ?? DEFAULT_MAX_DUE_PER_CALL;
    if (!(this.maxDuePerCall >= 1)) throw new RangeError("maxDuePerCall must be at least 1");
  }

  get isLeader(): boolean {
    return this.leader;
  }

  get trackedSessions(): number {
    return this.sessions.size;
  }

  get trackedWaits(): number {
    return this.waits.size;
  }

  get trackedHolds(): number {
    return this.holds.size;
  }

  /** Entries in the deadline queues, superseded ones included (bounded by what is tracked). */
  get queuedDeadlines(): number {
    return this.sessionQueue.size + this.waitQueue.size + this.holdQueue.size;
  }

  /** Starts every session's TTL, every pending wait and every grant's hold limit afresh from `now`. */
  becomeLeader(
    now: number,
    sessions: readonly SessionLease[],
    waits: readonly PendingWait[],
    holds: readonly HoldLimit[] = [],
  ): void {
    this.clear();
    this.leader = true;
    for (const s of sessions) this.sessionOpened(s.id, s.ttlMs, now);
    for (const w of waits) this.waitStarted(w, now);
    for (const h of holds) this.holdStarted(h, now);
  }

  /** Forgets every timer: only a leader decides expiries. */
  stepDown(): void {
    this.clear();
    this.leader = false;
  }

  sessionOpened(id: bigint, ttlMs: number, now: number): void {
    if (!this.leader) return;
    const timer: SessionTimer = {
      ttlMs,
      deadline: this.sessionClock(now) + ttlMs,
      proposedAt: null,
      version: ++this.version,
    };
    this.sessions.set(id, timer);
    this.sessionQueue.push(timer.deadline, id, timer.version);
  }

  sessionEnded(id: bigint): void {
    this.sessions.delete(id);
  }

  waitStarted(wait: PendingWait, now: number): void {
    if (!this.leader) return;
    const timer: WaitTimer = {
      wait,
      deadline: now + wait.waitMs,
      proposedAt: null,
      version: ++this.version,
    };
    const key = waitKey(wait.sessionId, wait.acquireSeq);
    this.waits.set(key, timer);
    this.waitQueue.push(timer.deadline, key, timer.version);
  }

  waitEnded(sessionId: bigint, acquireSeq: number): void {
    this.waits.delete(waitKey(sessionId, acquireSeq));
  }

  /** A grant with a hold limit was made (applied): its end is due `holdMs` from `now`. */
  holdStarted(hold: HoldLimit, now: number): void {
    if (!this.leader) return;
    const timer: HoldTimer = { hold, deadline: now + hold.holdMs, version: ++this.version };
    const key = holdKey(hold);
    this.holds.set(key, timer);
    this.holdQueue.push(timer.deadline, key, timer.version);
  }

  holdEnded(hold: HoldLimit): void {
    this.holds.delete(holdKey(hold));
  }

  /** Follows the sessions, waits and hold limits an applied entry started or ended. */
  onApplied(timers: TimerChanges, now: number): void {
    if (!this.leader) return;
    for (const s of timers.sessionsOpened) this.sessionOpened(s.id, s.ttlMs, now);
    for (const w of timers.waitsStarted) this.waitStarted(w, now);
    for (const w of timers.waitsEnded) this.waitEnded(w.sessionId, w.acquireSeq);
    for (const h of timers.holdsStarted ?? []) this.holdStarted(h, now);
    for (const h of timers.holdsEnded ?? []) this.holdEnded(h);
    for (const id of timers.sessionsEnded) this.sessionEnded(id);
    this.shed();
  }

  /**
   * Restarts the session's TTL. "notFound" for an unknown session or one whose expiry was
   * proposed (it must not be revived). The caller acknowledges an "ok" to the client only
   * after an entry of its own term was applied and a quorum round that started after the
   * keepalive arrived confirmed its leadership.
   */
  keepAlive(id: bigint, now: number): KeepAliveResult {
    if (!this.leader) return "notLeader";
    const timer = this.sessions.get(id);
    if (!timer || timer.proposedAt !== null) return "notFound";
    this.schedule(id, timer, this.sessionClock(now) + timer.ttlMs);
    return "ok";
  }

  /** True while the session is tracked and its expiry has not been proposed. */
  isLive(id: bigint): boolean {
    const timer = this.sessions.get(id);
    return this.leader && timer !== undefined && timer.proposedAt === null;
  }

  expiryProposed(id: bigint): boolean {
    return this.sessions.get(id)?.proposedAt != null;
  }

  /**
   * The expiries and wait timeouts to propose now, in deadline order, at most maxDuePerCall
   * of them. Each is marked proposed and comes back only after reproposeAfterMs if it still
   * has not been applied.
   * `wallMs` is display data copied into the commands.
   */
  due(now: number, wallMs = 0): Command[] {
    if (!this.leader) return [];
    const out: Command[] = [];
    const sessionNow = this.sessionClock(now);
    // The next due entry of `queue`, or null once the call has its fill.
    const next = <K>(queue: DeadlineQueue<K>, at: number): { key: K; version: number } | null =>
      out.length < this.maxDuePerCall ? queue.popDue(at) : null;
    for (
      let e = next(this.sessionQueue, sessionNow);
      e !== null;
      e = next(this.sessionQueue, sessionNow)
    ) {
      const timer = this.sessions.get(e.key);
      if (!timer || timer.version !== e.version) continue;
      timer.proposedAt = now;
      this.schedule(e.key, timer, sessionNow + this.reproposeAfterMs);
      out.push({ type: "expireSession", sessionId: e.key, wallMs });
    }
    for (let e = next(this.waitQueue, now); e !== null; e = next(this.waitQueue, now)) {
      const timer = this.waits.get(e.key);
      if (!timer || timer.version !== e.version) continue;
      timer.proposedAt = now;
      timer.deadline = now + this.reproposeAfterMs;
      timer.version = ++this.version;
      this.waitQueue.push(timer.deadline, e.key, timer.version);
      const w = timer.wait;
      out.push({
        type: "cancelWait",
        sessionId: w.sessionId,
        lock: w.lock,
        acquireSeq: w.acquireSeq,
        reason: "timeout",
        wallMs,
      });
    }
    for (let e = next(this.holdQueue, now); e !== null; e = next(this.holdQueue, now)) {
      const timer = this.holds.get(e.key);
      if (!timer || timer.version !== e.version) continue;
      // Proposed again later if it has not applied by then (a lost proposal); applying it twice changes nothing.
      timer.deadline = now + this.reproposeAfterMs;
      timer.version = ++this.version;
      this.holdQueue.push(timer.deadline, e.key, timer.version);
      const h = timer.hold;
      out.push({
        type: "holdLimit",
        sessionId: h.sessionId,
        token: h.token,
        holdMs: h.holdMs,
        wallMs,
      });
    }
    return out;
  }

  /**
   * After an event-loop stall of `stallMs` the leader cannot tell stopped keepalives from
   * unprocessed ones, so it moves every session's deadline later by the stall and expires
   * none now. Only by the stall: a full TTL afresh would let repeated stalls (snapshots,
   * long GC pauses) keep a dead session alive for ever. Sessions whose expiry was already
   * proposed stay that way; wait timers are left alone.
   */
  stalled(stallMs: number): void {
    if (!this.leader || !(stallMs > 0)) return;
    this.stallShiftMs += stallMs;
  }

  /** Earliest time due() may have work (possibly early), or null when nothing is tracked. */
  nextDeadline(): number | null {
    const queued = this.sessionQueue.peekDeadline();
    const deadlines = [
      queued === null ? null : queued + this.stallShiftMs,
      this.waitQueue.peekDeadline(),
      this.holdQueue.peekDeadline(),
    ].filter((d): d is number => d !== null);
    return deadlines.length === 0 ? null : Math.min(...deadlines);
  }

  private schedule(id: bigint, timer: SessionTimer, deadline: number): void {
    timer.deadline = deadline;
    timer.version = ++this.version;
    this.sessionQueue.push(deadline, id, timer.version);
    this.shed();
  }

  /** Drops superseded queue entries once they dominate, keeping memory proportional to what is tracked. */
  private shed(): void {
    if (this.sessionQueue.size > 2 * this.sessions.size + 1024) {
      this.sessionQueue.retain((id, version) => this.sessions.get(id)?.version === version);
    }
    if (this.waitQueue.size > 2 * this.waits.size + 1024) {
      this.waitQueue.retain((key, version) => this.waits.get(key)?.version === version);
    }
    if (this.holdQueue.size > 2 * this.holds.size + 1024) {
      this.holdQueue.retain((key, version) => this.holds.get(key)?.version === version);
    }
  }

  /** The clock session deadlines are kept on: the host's, less every stall seen. */
  private sessionClock(now: number): number {
    return now - this.stallShiftMs;
  }

  private clear(): void {
    this.stallShiftMs = 0;
    this.sessions.clear();
    this.waits.clear();
    this.holds.clear();
    this.sessionQueue.clear();
    this.waitQueue.clear();
    this.holdQueue.clear();
  }
}

function waitKey(sessionId: bigint, acquireSeq: number): string {
  return `${sessionId}:${acquireSeq}`;
}

function holdKey(hold: HoldLimit): string {
  return `${hold.sessionId}:${hold.token}:${hold.holdMs}`;
}
