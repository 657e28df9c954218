// A session on the cluster: its writes (Acquire, Release, Upgrade, Downgrade, CloseSession) with the
// exactly-once bookkeeping, its keepalive loop and its own expiry deadline. It talks to the
// cluster through a LockApi and reads time from a ClientClock, both given to it.
import { AckTracker } from "./acks.ts";
import {
  elapsedMs,
  instantOf,
  msToNs,
  sleep,
  sleepUntil,
  type ClientClock,
  type Instant,
  type Timer,
} from "./clock.ts";
import { singleKeepAlives, type KeepAliveSender } from "./keepalive-batch.ts";
import {
  isAnswer,
  type AcquireAnswer,
  type AcquireKinds,
  type CallOptions,
  type LockApi,
  type WriteAcks,
} from "./lock-api.ts";
import { StallWatch } from "./stall-watch.ts";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  LimitError,
  NotHolderError,
  OutcomeUnknownError,
  type PalisadeError,
  PermissionDeniedError,
  ServerError,
  SessionLostError,
  SessionNotFoundError,
  StaleTokenError,
} from "./errors.ts";
import type {
  AcquireResult,
  CancelWaitResult,
  HoldLimitDeadline,
  LockMode,
  LockTarget,
} from "./types.ts";
import type {
  CampaignAnswer,
  DowngradeAnswer,
  DowngradeMode,
  Leadership,
  LockHolderInfo,
  UpgradeAnswer,
} from "../proto/lock-values.ts";

/** Writes a session keeps in flight at most (SPEC "Exactly-once"). */
export const MAX_IN_FLIGHT = 64;

/** Pause between the background sends of a write whose answer has not come yet (and at least between failed keepalives). */
const RESEND_PAUSE_MS = 200;

/**
 * `due` moved back to a multiple of `period` on the process's monotonic clock (never later,
 * and never back to or before the previous send): every session of a process with the same
 * TTL then sends its keepalive in the same turn, so they share one stream message per period.
 */
function alignedDown(due: number, period: number): number {
  return Math.floor(due / period) * period;
}

/** The shortest wait for one keepalive attempt, unless less time is left than that. */
const MIN_ATTEMPT_MS = 100;

export interface SessionSettings {
  id: bigint;
  ttlMs: number;
  clientName: string;
  /** The clock's monotonicMs() when the OpenSession request that created the session was sent. */
  openedSentAt: number;
  /**
   * The clock's wallMs() at that moment. When absent, the wall clock is counted from when
   * the session is made, as if it had read the same time gone by as the monotonic clock.
   */
  openedSentWallMs?: number;
  callTimeoutMs: number;
  retryBudgetMs: number;
  /** Bound ρ on clock-rate drift; the client gives up 2·ρ·TTL + one tick before the server would. */
  driftBound: number;
  /** Interval of the client's deadline check. */
  deadlineTickMs: number;
}

export interface AcquireOptions {
  /** 0 (default): answer at once. Otherwise wait in the lock's FIFO queue up to this long. */
  waitMs?: number;
  /** Aborting sends CancelWait (for the whole set of a multi-lock Acquire); a grant that arrives anyway is released at once. */
  signal?: AbortSignal;
  /** How the lock is taken (default "exclusive"); not with `permits`. */
  mode?: LockMode;
  /** The lock is a semaphore of this many permits; one permit is asked for. */
  permits?: number;
  /** More locks granted with this one at one log index, or none of them. */
  more?: readonly LockTarget[];
  /** Holder data shown with the grant in reads, Watch and history (UTF-8 text, bounded by the cluster). */
  data?: string;
  /** A maximum hold time in ms: the leader revokes the grant once it passes; the result's holdDeadline passes first. */
  holdMs?: number;
}

/** How release() ends a grant: handed to a waiting session, and (for a lead) as Resign. */
export interface ReleaseOptions {
  /** A session waiting for this lock (or election) alone: granted by the same entry. */
  readonly successor?: bigint;
  /** The grant is an election's lead: sent as Resign. */
  readonly election?: boolean;
}

/** How upgrade() waits: for how long the other holders may keep the lock, and a give-up. */
export interface UpgradeOptions {
  /** 0 (default): answer at once. Otherwise wait up to this long for the other holders to leave. */
  waitMs?: number;
  /** Aborting sends CancelWait: the upgradeable grant goes on, unless the Upgrade won the race. */
  signal?: AbortSignal;
}

/**
 * An Upgrade or a Downgrade under way. `result` settles as any write's answer does (with
 * OutcomeUnknownError when none came within the retry budget). `settled` resolves with the
 * final answer however the session learnt it (after a give-up or an unknown outcome: an
 * Upgrade's through CancelWait, a Downgrade's by sending it again), or null when none was
 * learnt before the session ended or the answer was an error. Until then the caller cannot
 * know which of its grants (the token it had or the new one) it holds.
 */
export interface PendingModeChange<A> {
  seq: number;
  result: Promise<A>;
  settled: Promise<A | null>;
  /** When it was first sent: a new grant's hold limit starts on the leader after this. */
  sentAt: Instant;
}

export interface PendingAcquire {
  /** The seq of this Acquire, which CancelWait names. */
  seq: number;
  result: Promise<AcquireResult>;
}

/**
 * A grant the session released by itself: the Acquire's caller had given up (aborted its
 * wait) or its outcome was unknown, and the final answer, learnt through CancelWait, was a
 * grant that nobody would use. Times are the clock's monotonic time in nanoseconds (for the
 * system clock, process.hrtime.bigint() values).
 */
export interface LateGrantRelease {
  lock: string;
  /** The seq of the Acquire that was granted. */
  acquireSeq: number;
  token: bigint;
  /** When the CancelWait answer that revealed the grant arrived. */
  learntAtNs: bigint;
  /** When the Release was sent, and when it was answered (null: its outcome is unknown). */
  releaseSentNs: bigint;
  releaseAnsweredNs: bigint | null;
  /** The Release's answer: released, the session had ended, the grant had already ended, or unknown. */
  outcome: "released" | "sessionNotFound" | "notHolder" | "unknown";
}

type LostListener = (reason: string) => void;
type LateGrantListener = (release: LateGrantRelease) => void;
type DeadlineListener = (deadlineNs: bigint) => void;

export class Session {
  readonly id: bigint;
  readonly ttlMs: number;
  readonly clientName: string;
  private readonly acks = new AckTracker();
  private readonly controller = new AbortController();
  private readonly lostListeners: LostListener[] = [];
  private readonly deadlineListeners = new Set<DeadlineListener>();
  private readonly lateGrantListeners = new Set<LateGrantListener>();
  /** When the last acknowledged keepalive (or the OpenSession) was sent: the deadline counts from it. */
  private lastAckSent: Instant;
  private lastCheck: Instant;
  private readonly deadlineTimer: Timer;
  private readonly stalls: StallWatch;
  /** Per lock, the settling of Acquires whose outcome was unknown (see settleAbandoned). */
  private readonly unsettled = new Map<string, Promise<void>>();
  /** Releases not answered yet, by grant (see release). */
  private readonly releases = new Map<string, Promise<void>>();
  private ended: "open" | "closed" | "lost" = "open";
  private lostReason = "";

  /**
   * `keepalives` sends this session's keepalives (default: one KeepAlive call each); a
   * client gives all its sessions one KeepaliveBatcher, so they travel together.
   */
  constructor(
    private readonly api: LockApi,
    private readonly settings: SessionSettings,
    private readonly clock: ClientClock,
    private readonly keepalives: KeepAliveSender = singleKeepAlives(api),
  ) {
    this.id = settings.id;
    this.ttlMs = settings.ttlMs;
    this.clientName = settings.clientName;
    const now = instantOf(clock);
    this.lastAckSent = {
      monotonicMs: settings.openedSentAt,
      wallMs: settings.openedSentWallMs ?? now.wallMs - (now.monotonicMs - settings.openedSentAt),
    };
    this.lastCheck = now;
    this.stalls = new StallWatch(clock);
    this.stalls.retain();
    this.deadlineTimer = clock.setInterval(() => this.checkDeadline(), settings.deadlineTickMs);
    void this.keepaliveLoop();
  }

  /** Aborted when the session is lost or closed; its reason is a SessionLostError. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get state(): "open" | "closed" | "lost" {
    return this.ended;
  }

  /** The seq the next write of this session will carry. */
  peekNextSeq(): number {
    return this.acks.peek();
  }

  /** Writes sent whose answers have not arrived (at most MAX_IN_FLIGHT; the next write is refused with LimitError). */
  get writesInFlight(): number {
    return this.acks.outstanding;
  }

  /** Called once when the session is lost (server ended it, or the client's deadline passed). */
  onLost(listener: LostListener): void {
    if (this.ended === "lost") listener(this.lostReason);
    else this.lostListeners.push(listener);
  }

  /** Called with the new deadline (see deadlineNs) each time an acknowledged keepalive moves it. */
  onDeadlineExtended(listener: DeadlineListener): () => void {
    this.deadlineListeners.add(listener);
    return () => this.deadlineListeners.delete(listener);
  }

  /** Called each time the session releases a grant that came after its caller gave up (see LateGrantRelease). */
  onLateGrantReleased(listener: LateGrantListener): () => void {
    this.lateGrantListeners.add(listener);
    return () => this.lateGrantListeners.delete(listener);
  }

  /**
   * The moment (the clock's monotonicMs()) after which the client treats the session as
   * lost: the send time of the last acknowledged keepalive + TTL − (2·ρ·TTL + one tick),
   * brought forward by any time the wall clock saw pass beyond the monotonic clock since
   * then (a system suspend).
   */
  get deadline(): number {
    const now = instantOf(this.clock);
    const unseenByMonotonic =
      elapsedMs(this.lastAckSent, now) - (now.monotonicMs - this.lastAckSent.monotonicMs);
    return this.lastAckSent.monotonicMs + this.budgetMs - unseenByMonotonic;
  }

  /** Time left before the deadline (0 once the session ended). */
  private timeLeftMs(): number {
    if (this.ended !== "open") return 0;
    return this.budgetMs - elapsedMs(this.lastAckSent, instantOf(this.clock));
  }

  /**
   * The longest one attempt may wait: a third of the time left to the deadline (so a node
   * that does not answer leaves time for two others), at least MIN_ATTEMPT_MS or what is
   * left, at most `base`.
   */
  private attemptWithin(base: number): number {
    const left = this.timeLeftMs();
    return Math.min(base, Math.max(Math.min(left, MIN_ATTEMPT_MS), left / 3));
  }

  /** For writes: stop retrying once the session has ended (its locks go with it). */
  private readonly whileOpen = (): number => (this.ended === "open" ? Infinity : 0);

  /**
   * For the write `seq`: also stop once its answer is held, since it may come another way
   * (a CancelWait answers for an Acquire) while the write is still being retried.
   */
  private untilAnswered(seq: number): () => number {
    return () => (this.acks.isAnswered(seq) ? 0 : this.whileOpen());
  }

  /** How long after the last acknowledged keepalive was sent the session stays trusted. */
  private get budgetMs(): number {
    const margin = 2 * this.settings.driftBound * this.ttlMs + this.settings.deadlineTickMs;
    return this.ttlMs - margin;
  }

  /** The deadline in nanoseconds; with the system clock an absolute process.hrtime.bigint() value, meaningful to any process on this host. */
  get deadlineNs(): bigint {
    return msToNs(this.deadline);
  }

  /**
   * True while the session is open and its deadline has not passed, checked now rather
   * than on the next tick (so code that just came out of a long synchronous stretch
   * sees the loss at once).
   */
  get live(): boolean {
    this.checkDeadline();
    return this.ended === "open";
  }

  // ---- writes ----------------------------------------------------------------------------

  /** Acquire a lock; resolves with the final answer. */
  async acquire(lock: string, options: AcquireOptions = {}): Promise<AcquireResult> {
    return this.startAcquire(lock, options).result;
  }

  /** Acquire, exposing the seq at once (so a caller can CancelWait it while it waits). */
  startAcquire(lock: string, options: AcquireOptions = {}): PendingAcquire {
    const kinds = acquireKindsOf(options);
    this.ensureLive();
    const seq = this.allocateSeq();
    const waitMs = options.waitMs ?? 0;
    const attemptTimeoutMs = waitMs + this.settings.callTimeoutMs;
    // The leader's hold timer starts when it applies the grant, never before this send.
    const sentAt = instantOf(this.clock);
    const call = this.api.call(
      "Acquire",
      () => ({ sessionId: this.id, lock, waitMs, seq, ...this.acksOf(seq), ...kinds }),
      {
        attemptTimeoutMs,
        budgetMs: waitMs + this.settings.retryBudgetMs,
        timeLeftMs: this.untilAnswered(seq),
        answerMayWait: waitMs > 0,
      },
    );
    const locks = [lock, ...(options.more ?? []).map((t) => t.lock)];
    const hold = kinds.holdMs ? { sentAt, budgetMs: this.marginBelow(kinds.holdMs) } : undefined;
    const result = this.finishAcquire(locks, seq, call, options.signal, hold);
    return { seq, result };
  }

  /**
   * Campaign for `election` with `value` (shown as the leader's): as startAcquire, and
   * answered as an Acquire of the election's lead (a grant of mode "leader").
   */
  startCampaign(
    election: string,
    value: string,
    options: Pick<AcquireOptions, "waitMs" | "signal"> = {},
  ): PendingAcquire {
    this.ensureLive();
    const seq = this.allocateSeq();
    const waitMs = options.waitMs ?? 0;
    const call = this.api
      .call(
        "Campaign",
        () => ({ sessionId: this.id, election, value, waitMs, seq, ...this.acksOf(seq) }),
        {
          attemptTimeoutMs: waitMs + this.settings.callTimeoutMs,
          budgetMs: waitMs + this.settings.retryBudgetMs,
          timeLeftMs: this.untilAnswered(seq),
          answerMayWait: waitMs > 0,
        },
      )
      .then((answer) => acquireAnswerOfCampaign(election, answer));
    return { seq, result: this.finishAcquire([election], seq, call, options.signal, undefined) };
  }

  /**
   * Time left before a grant's hold limit may have passed on the leader (0 once it may have,
   * or once the session ended): counted on both clocks, as the session's own deadline.
   */
  holdTimeLeftMs(hold: HoldLimitDeadline): number {
    if (this.ended !== "open") return 0;
    return Math.max(0, hold.budgetMs - elapsedMs(hold.sentAt, instantOf(this.clock)));
  }

  /** Runs `fn` once `ms` of the session's clock have passed. */
  after(ms: number, fn: () => void): Timer {
    return this.clock.setTimeout(fn, ms);
  }

  /** A span the client may trust out of `ms` counted on the leader's clock: less 2·ρ·ms and one tick, as a session's TTL. */
  private marginBelow(ms: number): number {
    return ms - (2 * this.settings.driftBound * ms + this.settings.deadlineTickMs);
  }

  /** `locks`: every lock the Acquire names, its own first (a late grant of a set is released whole). */
  private async finishAcquire(
    locks: readonly string[],
    seq: number,
    call: Promise<AcquireAnswer>,
    signal: AbortSignal | undefined,
    hold: HoldLimitDeadline | undefined,
  ): Promise<AcquireResult> {
    const outcome = await outcomeOf(call, signal);
    if ("aborted" in outcome) return this.cancelAfterAbort(locks, seq);
    if (outcome.ok) {
      this.acks.answered(seq);
      return acquireResultOf(outcome.response, seq, hold);
    }
    // No answer: the Acquire stays in flight until CancelWait learns its final answer.
    if (isAnswer(outcome.error)) this.acks.answered(seq);
    else void this.settleAbandoned(locks, seq);
    throw outcome.error;
  }

  /** The caller gave up on a wait: cancel it (the whole set), and release a grant that won the race. */
  private async cancelAfterAbort(locks: readonly string[], seq: number): Promise<AcquireResult> {
    const lock = locks[0] as string;
    let answer: CancelWaitResult;
    try {
      answer = await this.cancelWait(lock, seq);
    } catch (err) {
      if (!cancelSettled(err)) void this.settleAbandoned(locks, seq);
      else if (!(err instanceof SessionNotFoundError)) this.acks.answered(seq);
      throw err;
    }
    this.acks.answered(seq);
    if (answer.outcome !== "granted") return { acquired: false, seq, cancelled: true };
    await this.releaseLateGrants(locks, seq, answer.token);
    return { acquired: false, seq, cancelled: true, lateToken: answer.token };
  }

  /**
   * An Acquire whose outcome is unknown: learn its final answer through CancelWait (which
   * also stops a pending wait), release a grant nobody will use, then count it as answered.
   * Registered under every lock of the Acquire, so none is claimed again before it settles.
   */
  private settleAbandoned(locks: readonly string[], seq: number): Promise<void> {
    const previous = Promise.all(locks.map((l) => this.unsettled.get(l) ?? Promise.resolve()));
    const settled = this.settleOne(locks, seq)
      .then(() => previous)
      .then(() => undefined);
    for (const lock of locks) this.unsettled.set(lock, settled);
    void settled.finally(() => {
      for (const lock of locks)
        if (this.unsettled.get(lock) === settled) this.unsettled.delete(lock);
    });
    return settled;
  }

  /**
   * Resolves once every Acquire of `lock` whose outcome was unknown has been settled
   * (cancelled, or its late grant released and that release answered); undefined when
   * there is none.
   */
  unsettledAcquire(lock: string): Promise<void> | undefined {
    return this.unsettled.get(lock);
  }

  private async settleOne(locks: readonly string[], seq: number): Promise<void> {
    const lock = locks[0] as string;
    while (this.ended === "open") {
      try {
        const answer = await this.api.call(
          "CancelWait",
          () => ({ sessionId: this.id, lock, acquireSeq: seq }),
          { timeLeftMs: this.whileOpen },
        );
        this.acks.answered(seq);
        if (answer.outcome === "granted") await this.releaseLateGrants(locks, seq, answer.token);
        return;
      } catch (err) {
        if (err instanceof SessionNotFoundError) return;
        // Another answer about that seq (such as "request too old"): nothing is left to learn.
        if (cancelSettled(err)) {
          this.acks.answered(seq);
          return;
        }
      }
      await sleep(this.clock, RESEND_PAUSE_MS);
    }
  }

  /** Releases every lock of a grant nobody will use (the locks of one Acquire share its token). */
  private async releaseLateGrants(
    locks: readonly string[],
    acquireSeq: number,
    token: bigint,
  ): Promise<void> {
    await Promise.all(locks.map((lock) => this.releaseLateGrant(lock, acquireSeq, token)));
  }

  /** Releases a grant nobody will use, and tells the listeners how that went (once its release is answered). */
  private async releaseLateGrant(lock: string, acquireSeq: number, token: bigint): Promise<void> {
    const learntAtNs = this.nowNs();
    const releaseSentNs = this.nowNs();
    let outcome: LateGrantRelease["outcome"] = "released";
    let releaseAnsweredNs: bigint | null = null;
    const first = this.release(lock, token);
    // Registered at once when sent; refused before sending (session ended, too many writes in flight) it is not.
    const sent = this.releases.has(releaseKey(lock, token));
    try {
      // A Release without an answer goes on in the background; the second call waits for its answer.
      await first.catch((err: unknown) => {
        if (err instanceof OutcomeUnknownError) return this.release(lock, token);
        throw err;
      });
      releaseAnsweredNs = this.nowNs();
    } catch (err) {
      // Never sent: nothing happened, nothing to report (the grant ends with the session).
      if (!sent) return;
      if (err instanceof SessionNotFoundError) outcome = "sessionNotFound";
      else if (
        err instanceof NotHolderError ||
        err instanceof StaleTokenError ||
        err instanceof FailedPreconditionError
      )
        outcome = "notHolder";
      else outcome = "unknown";
      if (outcome !== "unknown") releaseAnsweredNs = this.nowNs();
    }
    const event: LateGrantRelease = {
      lock,
      acquireSeq,
      token,
      learntAtNs,
      releaseSentNs,
      releaseAnsweredNs,
      outcome,
    };
    for (const listener of this.lateGrantListeners) listener(event);
  }

  /**
   * Cancel the wait of the Acquire sent with `acquireSeq`. Idempotent; answers the final
   * answer recorded for that seq. Sent before its Acquire, it makes that Acquire take no effect.
   */
  async cancelWait(lock: string, acquireSeq: number): Promise<CancelWaitResult> {
    return this.api.call("CancelWait", () => ({ sessionId: this.id, lock, acquireSeq }));
  }

  /**
   * Release a lock this session holds with `token`. When no answer comes within the retry
   * budget this rejects with OutcomeUnknownError, and the session goes on sending the same
   * seq in the background until an answer arrives or the session ends (it stays in flight
   * meanwhile). Calling release() again for that grant then waits for that answer.
   */
  release(lock: string, token: bigint, options: ReleaseOptions = {}): Promise<void> {
    const key = releaseKey(lock, token);
    const underway = this.releases.get(key);
    if (underway) return underway;
    let seq: number;
    try {
      this.ensureLive();
      seq = this.allocateSeq();
    } catch (err) {
      return Promise.reject(err);
    }
    const successor = options.successor !== undefined ? { successor: options.successor } : {};
    const timing = { timeLeftMs: this.untilAnswered(seq) };
    const send = async (): Promise<void> =>
      void (options.election === true
        ? await this.api.call(
            "Resign",
            () => ({
              sessionId: this.id,
              election: lock,
              token,
              seq,
              ...this.acksOf(seq),
              ...successor,
            }),
            timing,
          )
        : await this.api.call(
            "Release",
            () => ({ sessionId: this.id, lock, token, seq, ...this.acksOf(seq), ...successor }),
            timing,
          ));
    const first = this.answerOf(seq, send());
    const settled = first.catch((err: unknown) => {
      if (isAnswer(err)) throw err;
      return this.resendUntilAnswered(seq, send);
    });
    this.releases.set(key, settled);
    const forget = (): void => {
      if (this.releases.get(key) === settled) this.releases.delete(key);
    };
    settled.then(forget, forget);
    return first.catch((err: unknown) => {
      if (isAnswer(err)) throw err;
      if (this.ended !== "open")
        throw new SessionLostError(
          `session ${this.id} ended before the release of ${JSON.stringify(lock)} was answered: ${this.lostReason}`,
        );
      const known = err instanceof OutcomeUnknownError ? err : undefined;
      throw new OutcomeUnknownError(
        `${(err as Error).message}; the release goes on in the background with the same seq until answered (release again to wait for it)`,
        known?.code,
        known?.reason,
      );
    });
  }

  /**
   * Makes the session's upgradeable grant `token` of `lock` exclusive: at once when it is
   * the lock's only holder, else (with `waitMs`) once the other holders have left, ahead of
   * every queued request. Answered "upgraded" with the exclusive grant's token (the
   * upgradeable one has ended), or "notUpgraded" / "cancelled" (the upgradeable grant goes
   * on as it was); NotHolderError if that grant ended meanwhile.
   */
  startUpgrade(
    lock: string,
    token: bigint,
    options: UpgradeOptions = {},
  ): PendingModeChange<UpgradeAnswer> {
    this.ensureLive();
    const seq = this.allocateSeq();
    const waitMs = options.waitMs ?? 0;
    const sentAt = instantOf(this.clock);
    const call = this.api.call(
      "Upgrade",
      () => ({ sessionId: this.id, lock, token, waitMs, seq, ...this.acksOf(seq) }),
      {
        attemptTimeoutMs: waitMs + this.settings.callTimeoutMs,
        budgetMs: waitMs + this.settings.retryBudgetMs,
        timeLeftMs: this.untilAnswered(seq),
        answerMayWait: waitMs > 0,
      },
    );
    let learnt: (answer: UpgradeAnswer | null) => void = () => undefined;
    const settled = new Promise<UpgradeAnswer | null>((resolve) => (learnt = resolve));
    const result = this.finishUpgrade(lock, seq, call, options.signal, learnt);
    return { seq, result, settled, sentAt };
  }

  private async finishUpgrade(
    lock: string,
    seq: number,
    call: Promise<UpgradeAnswer>,
    signal: AbortSignal | undefined,
    learnt: (answer: UpgradeAnswer | null) => void,
  ): Promise<UpgradeAnswer> {
    const outcome = await outcomeOf(call, signal);
    if ("aborted" in outcome) {
      try {
        const answer = upgradeAnswerOfCancel(await this.cancelWait(lock, seq));
        this.acks.answered(seq);
        learnt(answer);
        return answer;
      } catch (err) {
        if (!cancelSettled(err)) void this.learnUpgrade(lock, seq).then(learnt);
        else {
          if (!(err instanceof SessionNotFoundError)) this.acks.answered(seq);
          learnt(null);
        }
        throw err;
      }
    }
    if (outcome.ok) {
      this.acks.answered(seq);
      learnt(outcome.response);
      return outcome.response;
    }
    if (isAnswer(outcome.error)) {
      this.acks.answered(seq);
      learnt(null);
    } else void this.learnUpgrade(lock, seq).then(learnt);
    throw outcome.error;
  }

  /** An Upgrade without an answer: CancelWait (which also ends its wait) until one comes for its seq. */
  private async learnUpgrade(lock: string, seq: number): Promise<UpgradeAnswer | null> {
    while (this.ended === "open") {
      try {
        const answer = await this.api.call(
          "CancelWait",
          () => ({ sessionId: this.id, lock, acquireSeq: seq }),
          { timeLeftMs: this.whileOpen },
        );
        this.acks.answered(seq);
        return upgradeAnswerOfCancel(answer);
      } catch (err) {
        if (err instanceof SessionNotFoundError) return null;
        if (cancelSettled(err)) {
          this.acks.answered(seq);
          return null;
        }
      }
      await sleep(this.clock, RESEND_PAUSE_MS);
    }
    return null;
  }

  /**
   * Makes the session's exclusive grant `token` of `lock` shared or upgradeable, at once: the
   * answer is the new grant's token (the exclusive one has ended). Requests queued for the
   * lock that the new mode admits are granted with it.
   */
  startDowngrade(
    lock: string,
    token: bigint,
    mode: DowngradeMode,
  ): PendingModeChange<DowngradeAnswer> {
    this.ensureLive();
    const seq = this.allocateSeq();
    const sentAt = instantOf(this.clock);
    const send = (): Promise<DowngradeAnswer> =>
      this.api.call(
        "Downgrade",
        () => ({ sessionId: this.id, lock, token, mode, seq, ...this.acksOf(seq) }),
        { timeLeftMs: this.untilAnswered(seq) },
      );
    const result = this.answerOf(seq, send());
    const settled = result.catch((err: unknown) =>
      isAnswer(err) ? null : this.resendUntilAnswered(seq, send).catch(() => null),
    );
    return { seq, result, settled, sentAt };
  }

  /**
   * An Upgrade to its end: the new exclusive grant, or null when it was not upgraded (the
   * upgradeable grant goes on as it was). The outcome is never left unknown while the
   * session lives (see PendingModeChange). One granted as `signal` aborted is downgraded
   * back, since the caller asked to keep its upgradeable grant: the result then names that
   * new upgradeable grant.
   */
  async upgrade(
    lock: string,
    token: bigint,
    options: UpgradeOptions = {},
  ): Promise<ModeChange | null> {
    const pending = this.startUpgrade(lock, token, options);
    const answer = await settledAnswer(pending);
    if (answer.kind !== "upgraded") return null;
    if (options.signal?.aborted !== true)
      return { token: answer.token, mode: "exclusive", sentAt: pending.sentAt };
    return this.downgrade(lock, answer.token, "upgradeable");
  }

  /** A Downgrade to its end: the new grant (never unknown while the session lives). */
  async downgrade(lock: string, token: bigint, mode: DowngradeMode): Promise<ModeChange> {
    const pending = this.startDowngrade(lock, token, mode);
    const answer = await settledAnswer(pending);
    return { token: answer.token, mode, sentAt: pending.sentAt };
  }

  /**
   * A new value for the election this session leads with `token`. Without an answer in the
   * retry budget it rejects with OutcomeUnknownError and goes on sending the same seq in the
   * background until answered or the session ends.
   */
  async proclaim(election: string, token: bigint, value: string): Promise<void> {
    this.ensureLive();
    const seq = this.allocateSeq();
    const send = async (): Promise<void> =>
      void (await this.api.call(
        "Proclaim",
        () => ({ sessionId: this.id, election, token, value, seq, ...this.acksOf(seq) }),
        { timeLeftMs: this.untilAnswered(seq) },
      ));
    try {
      await this.answerOf(seq, send());
    } catch (err) {
      if (isAnswer(err)) throw err;
      void this.resendUntilAnswered(seq, send).catch(() => undefined);
      throw err;
    }
  }

  /** Close the session, releasing its locks and cancelling its waits. Closing twice is a no-op. */
  async close(): Promise<void> {
    if (this.ended !== "open") return;
    // Not bound by the in-flight limit: a session can always be closed.
    const seq = this.acks.allocate();
    this.end("closed", "session closed by the client");
    try {
      await this.answerOf(seq, this.closeCall(seq));
    } catch (err) {
      // Already gone on the server: the outcome the caller wanted. Without an answer the
      // session, no longer kept alive, expires after its TTL.
      if (!(err instanceof SessionNotFoundError)) throw err;
    }
  }

  /** The call's outcome; only an answer (a value or an answer error) counts its seq as answered. */
  private async answerOf<T>(seq: number, call: Promise<T>): Promise<T> {
    try {
      const value = await call;
      this.acks.answered(seq);
      return value;
    } catch (err) {
      if (isAnswer(err)) this.acks.answered(seq);
      throw err;
    }
  }

  /** Sends a write again (same seq, latest acknowledgements) until it is answered or the session ends. */
  private async resendUntilAnswered<T>(seq: number, send: () => Promise<T>): Promise<T> {
    for (;;) {
      await sleep(this.clock, RESEND_PAUSE_MS);
      if (this.ended !== "open")
        throw new SessionLostError(
          `session ${this.id} ended before write ${seq} was answered: ${this.lostReason}`,
        );
      try {
        return await this.answerOf(seq, send());
      } catch (err) {
        if (isAnswer(err)) throw err;
      }
    }
  }

  // ---- keepalive and deadline --------------------------------------------------------------

  private async keepaliveLoop(): Promise<void> {
    const period = Math.max(1, Math.floor(this.ttlMs / 3));
    while (this.ended === "open") {
      const sent = instantOf(this.clock);
      let failed = false;
      try {
        // Each attempt waits at most a third of the time left, then the next node is tried,
        // so a stopped leader costs the session only if no new one answers in time.
        await this.keepalives.keepAlive(this.id, {
          kind: "read",
          attemptTimeoutMs: () => this.attemptWithin(this.settings.callTimeoutMs),
          budgetMs: this.budgetMs,
          timeLeftMs: () => this.timeLeftMs(),
        });
        // A keepalive acknowledged after the deadline does not revive the session.
        this.checkDeadline();
        if (this.ended !== "open") return;
        if (sent.monotonicMs > this.lastAckSent.monotonicMs) {
          this.lastAckSent = sent;
          const deadlineNs = this.deadlineNs;
          for (const listener of this.deadlineListeners) listener(deadlineNs);
        }
      } catch (err) {
        if (err instanceof SessionNotFoundError) {
          this.lose(`the cluster ended session ${this.id}: ${err.message}`, err);
          return;
        }
        // Refused, its TTL does not restart: the cluster ends it within one TTL.
        if (err instanceof PermissionDeniedError) {
          this.lose(`session ${this.id} lost: ${err.message}`, err);
          return;
        }
        // Otherwise no node answered before the deadline (then the session is lost now), or
        // one answered an error: try again at the next period, and never in a tight loop.
        failed = true;
        this.checkDeadline();
      }
      if (this.ended !== "open") return;
      const at = alignedDown(sent.monotonicMs + period, period);
      if (failed && at - this.clock.monotonicMs() < RESEND_PAUSE_MS)
        await sleep(this.clock, RESEND_PAUSE_MS);
      else if (at > this.clock.monotonicMs()) await sleepUntil(this.clock, at);
    }
  }

  private checkDeadline(): void {
    if (this.ended !== "open") return;
    // Elapsed times since the last acknowledged keepalive was sent, on whichever clock saw
    // more pass: the monotonic clock stops while the host is suspended.
    const now = instantOf(this.clock);
    const sinceAck = elapsedMs(this.lastAckSent, now);
    // A stall since the last check began at or after it; if the loop was blocked past the
    // deadline, timers and answers processed after it prove nothing about that time.
    const stallEnd = elapsedMs(this.lastAckSent, this.lastCheck) + this.stalls.takeMaxStallMs();
    this.lastCheck = now;
    if (sinceAck > this.budgetMs || stallEnd > this.budgetMs) {
      this.lose(
        `session ${this.id}: no keepalive acknowledged within its TTL (${this.ttlMs} ms) minus the drift margin`,
      );
      // Best effort: tell the cluster, so its locks go to the next waiter sooner.
      const seq = this.acks.allocate();
      void this.answerOf(seq, this.closeCall(seq, { budgetMs: this.settings.callTimeoutMs })).catch(
        () => undefined,
      );
    }
  }

  /** `cause`: the cluster's answer that ended it, whose code and reason the loss carries. */
  private lose(reason: string, cause?: PalisadeError): void {
    if (this.ended !== "open") return;
    this.end("lost", reason, cause);
    for (const listener of this.lostListeners.splice(0)) listener(reason);
  }

  private end(state: "closed" | "lost", reason: string, cause?: PalisadeError): void {
    this.ended = state;
    this.lostReason = reason;
    this.deadlineTimer.cancel();
    this.stalls.release();
    this.deadlineListeners.clear();
    this.controller.abort(new SessionLostError(reason, cause?.code, cause?.reason));
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** Every write checks the deadline first (as `live` does): after a pause it may have passed before any tick ran. */
  private ensureLive(): void {
    if (!this.live)
      throw new SessionLostError(`session ${this.id} is ${this.ended}: ${this.lostReason}`);
  }

  private allocateSeq(): number {
    if (this.acks.outstanding >= MAX_IN_FLIGHT) {
      throw new LimitError(`session ${this.id} already has ${MAX_IN_FLIGHT} writes in flight`);
    }
    return this.acks.allocate();
  }

  /** What the write with `seq` acknowledges, read as each attempt is sent. */
  private acksOf(seq: number): WriteAcks {
    return this.acks.acksFor(seq);
  }

  private async closeCall(seq: number, options: CallOptions = {}): Promise<void> {
    await this.api.call(
      "CloseSession",
      () => ({ sessionId: this.id, seq, ...this.acksOf(seq) }),
      options,
    );
  }

  private nowNs(): bigint {
    return msToNs(this.clock.monotonicMs());
  }
}

/**
 * The kinds' fields of an Acquire, checked before anything is sent (a mode the cluster does
 * not know would otherwise travel as exclusive).
 */
function acquireKindsOf(options: AcquireOptions): AcquireKinds {
  const checkMode = (mode: unknown, field: string): void => {
    if (mode !== undefined && mode !== "shared" && mode !== "exclusive" && mode !== "upgradeable") {
      throw new InvalidArgumentError(
        `${field}: ${JSON.stringify(mode)} is not a lock mode ("shared", "exclusive" or "upgradeable")`,
      );
    }
  };
  checkMode(options.mode, "mode");
  (options.more ?? []).forEach((t, i) => checkMode(t.mode, `more[${i}].mode`));
  return {
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.permits !== undefined ? { permits: options.permits } : {}),
    ...(options.more && options.more.length > 0 ? { more: options.more } : {}),
    ...(options.data ? { holderData: options.data } : {}),
    ...(options.holdMs ? { holdMs: options.holdMs } : {}),
  };
}

/**
 * `settled`, or { aborted: true } if `signal` aborts first. The listener goes once either
 * happens: a caller's long-lived signal must not collect one per call.
 */
/** A call's answer, its failure, or the caller's give-up (`signal`), whichever comes first. */
function outcomeOf<T>(
  call: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; response: T } | { ok: false; error: unknown } | { aborted: true }> {
  const settled = call.then(
    (response) => ({ ok: true as const, response }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return signal ? untilAborted(settled, signal) : settled;
}

async function untilAborted<T>(
  settled: Promise<T>,
  signal: AbortSignal,
): Promise<T | { aborted: true }> {
  if (signal.aborted) return { aborted: true };
  let onAbort = (): void => undefined;
  const aborted = new Promise<{ aborted: true }>((resolve) => {
    onAbort = () => resolve({ aborted: true });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([settled, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Names one grant among the session's releases. */
function releaseKey(lock: string, token: bigint): string {
  return `${token} ${lock}`;
}

/**
 * Whether a CancelWait's failure settles its Acquire's seq: an answer about that seq, not
 * the lack of one, nor a limit that kept the cancel from being recorded, nor a server error
 * (nothing says the cancel was recorded; it is idempotent, so sending it again is safe).
 */
/** The grant a mode change made: its token and mode, and when its request was first sent. */
export interface ModeChange {
  readonly token: bigint;
  readonly mode: "exclusive" | DowngradeMode;
  readonly sentAt: Instant;
}

/**
 * A mode change's final answer: its own, or, when that was lost, the one the session learnt
 * afterwards (a holder must know which grant it holds). Refusals are thrown as they come.
 */
async function settledAnswer<A>(pending: PendingModeChange<A>): Promise<A> {
  try {
    return await pending.result;
  } catch (err) {
    if (isAnswer(err)) throw err;
    const learnt = await pending.settled;
    if (learnt === null)
      throw new SessionLostError("the session ended before the mode change was answered");
    return learnt;
  }
}

function cancelSettled(err: unknown): boolean {
  return isAnswer(err) && !(err instanceof LimitError) && !(err instanceof ServerError);
}

/** What a CancelWait of an Upgrade's seq says of it. */
function upgradeAnswerOfCancel(answer: CancelWaitResult): UpgradeAnswer {
  switch (answer.outcome) {
    case "granted":
      return { kind: "upgraded", token: answer.token };
    case "notAcquired":
      return { kind: "notUpgraded", holder: null };
    case "cancelled":
      return { kind: "cancelled" };
  }
}

/** What the library tells the caller of an Acquire's answer (a cancelled one was not acquired). */
/** A Campaign's answer as the Acquire of the election's lead it is. */
function acquireAnswerOfCampaign(election: string, answer: CampaignAnswer): AcquireAnswer {
  const holderOf = (l: Leadership): LockHolderInfo => ({
    sessionId: l.sessionId,
    clientName: l.clientName,
    token: l.token,
    grantedIndex: l.sinceIndex,
    mode: "leader",
    ...(l.value ? { data: l.value } : {}),
  });
  switch (answer.kind) {
    case "elected":
      return {
        kind: "granted",
        token: answer.token,
        holder: holderOf(answer.leader),
        grants: [{ lock: election, token: answer.token, mode: "leader" }],
      };
    case "notElected":
      return { kind: "notAcquired", holder: answer.leader ? holderOf(answer.leader) : null };
    case "cancelled":
      return answer;
  }
}

function acquireResultOf(
  answer: AcquireAnswer,
  seq: number,
  hold: HoldLimitDeadline | undefined,
): AcquireResult {
  switch (answer.kind) {
    case "granted":
      return {
        acquired: true,
        seq,
        token: answer.token,
        holder: answer.holder,
        grants: [...answer.grants],
        ...(hold !== undefined ? { hold } : {}),
      };
    case "notAcquired":
      return {
        acquired: false,
        seq,
        ...(answer.holder ? { holder: answer.holder } : {}),
        ...(answer.blockedLock !== undefined ? { blockedLock: answer.blockedLock } : {}),
      };
    case "cancelled":
      return { acquired: false, seq };
  }
}
