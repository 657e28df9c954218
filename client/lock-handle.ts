// A grant held through PalisadeClient.lock(), lockAll() or a semaphore: its token, a signal
// that aborts when the grant can no longer be trusted (session lost or closed, its hold
// limit passed, or the handle released), and a release() that frees this grant only. The
// handle ends (and the client's claim on the name with it) once the release is answered
// or the session ends, not before. An upgradeable grant's handle can upgrade() to
// exclusive, an exclusive one downgrade(): the handle then holds the new grant, its token
// and mode.
import { EventEmitter } from "node:events";
import type { Timer } from "./clock.ts";
import {
  HoldLimitError,
  NotHolderError,
  OutcomeUnknownError,
  SessionLostError,
  SessionNotFoundError,
  StaleTokenError,
} from "./errors.ts";
import type { Session } from "./session.ts";
import type { DowngradeMode, GrantMode, HoldLimitDeadline } from "./types.ts";

/** What a grant is beyond its lock and token. */
export interface GrantTerms {
  /** Default "exclusive". */
  readonly mode?: GrantMode;
  /** A permit: its semaphore's permit count and the permit's slot. */
  readonly permits?: number;
  readonly slot?: number;
  /** The holder data the Acquire carried. */
  readonly data?: string;
  /** A hold limit: the client's deadline for it (the signal aborts when it passes). */
  readonly hold?: HoldLimitDeadline;
}

export interface LockHandleEvents {
  /** The session was lost: stop using the token's protection at once. */
  lost: [error: SessionLostError];
}

/** What withLock hands to its callback. */
export interface LockContext {
  lock: string;
  /** The fencing token: pass it to the resource with every access. */
  token: bigint;
  /** Aborts when the lock is lost (its reason is a SessionLostError, or a HoldLimitError when its hold limit passed). */
  signal: AbortSignal;
}

export class LockHandle extends EventEmitter<LockHandleEvents> implements LockContext {
  private readonly controller = new AbortController();
  /** Set once the grant needs nothing more from this handle: released, gone, or ended with the session. */
  private ended = false;
  private releaseCalled = false;
  private readonly onSessionAbort = (): void => this.sessionEnded();
  private holdTimer: Timer | undefined;
  private grantToken: bigint;
  private grantMode: GrantMode;
  /** The client's deadline for the grant's hold limit, if it has one (a mode change restarts it). */
  private hold: HoldLimitDeadline | undefined;
  /** A permit's slot (0 to permits - 1); the fence guards per (semaphore, slot). */
  readonly slot: number | undefined;
  /** A permit: its semaphore's permit count. */
  readonly permits: number | undefined;
  readonly data: string | undefined;

  constructor(
    private readonly session: Session,
    readonly lock: string,
    token: bigint,
    /** Called once when the handle stops holding (its release answered, or the session ended). */
    private readonly onEnd: (handle: LockHandle) => void,
    terms: GrantTerms = {},
  ) {
    super();
    this.grantToken = token;
    this.grantMode = terms.mode ?? "exclusive";
    this.hold = terms.hold;
    this.slot = terms.slot;
    this.permits = terms.permits;
    this.data = terms.data;
    // Removed when the handle ends: a long-lived session must not keep every released handle.
    if (session.signal.aborted) queueMicrotask(() => this.sessionEnded());
    else session.signal.addEventListener("abort", this.onSessionAbort, { once: true });
    if (terms.hold) this.watchHold();
  }

  /** The fencing token of the grant held now (a new one after upgrade() or downgrade()). */
  get token(): bigint {
    return this.grantToken;
  }

  /** "exclusive", "shared", "upgradeable", "permit" (a semaphore's) or "leader" (an election's). */
  get mode(): GrantMode {
    return this.grantMode;
  }

  /** Time left before the hold limit may have passed on the leader (Infinity without one). */
  get holdTimeLeftMs(): number {
    return this.hold ? this.session.holdTimeLeftMs(this.hold) : Infinity;
  }

  /**
   * Aborts the signal once the hold limit may have passed (before the leader's revoke can
   * apply), and releases the grant, which nothing protects any more.
   */
  private watchHold(): void {
    if (this.ended || this.controller.signal.aborted) return;
    const left = this.holdTimeLeftMs;
    if (left > 0) {
      this.holdTimer = this.session.after(left, () => this.watchHold());
      return;
    }
    this.controller.abort(
      new HoldLimitError(
        `the hold limit of lock ${JSON.stringify(this.lock)} (token ${this.token}) has passed`,
      ),
    );
    this.release().catch(() => undefined);
  }

  get sessionId(): bigint {
    return this.session.id;
  }

  /** Aborted when the grant ends for this holder: lost, session closed, or released. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether this handle still holds its grant, checked against the session deadline now. */
  get held(): boolean {
    if (this.hold && this.holdTimeLeftMs <= 0) this.watchHold();
    return !this.releaseCalled && !this.controller.signal.aborted && this.session.live;
  }

  /** True once release() was called until its release is answered (or the session ends). */
  get releasing(): boolean {
    return this.releaseCalled && !this.ended;
  }

  /**
   * Releases this handle's grant (only it: the request names its token); the signal aborts
   * at once. With `successor` (a session waiting for this lock alone, exclusive) the lock is
   * handed to it by the same log entry, ahead of the queue. Releasing after the session ended, or again once released, is a no-op; a grant
   * already revoked counts as released. When the release gets no answer in time this
   * rejects with OutcomeUnknownError while the session goes on sending it (same seq) in
   * the background: the name stays claimed, and calling release() again waits for it.
   */
  async release(options: { successor?: bigint } = {}): Promise<void> {
    if (this.ended) return;
    this.releaseCalled = true;
    if (!this.controller.signal.aborted)
      this.controller.abort(new Error(`lock ${JSON.stringify(this.lock)} released`));
    if (this.session.state !== "open") {
      this.finish();
      return;
    }
    const how = {
      ...(options.successor !== undefined ? { successor: options.successor } : {}),
      ...(this.mode === "leader" ? { election: true } : {}),
    };
    try {
      await this.session.release(this.lock, this.token, how);
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        // Ends the handle once the background release is answered.
        this.session.release(this.lock, this.token, how).then(
          () => this.finish(),
          (later: unknown) => {
            if (gone(later)) this.finish();
          },
        );
        throw err;
      }
      // Anything else but "gone" (such as LimitError: too many writes in flight) released
      // nothing: the handle still holds, and release() may be called again.
      if (!gone(err)) throw err;
    }
    this.finish();
  }

  /**
   * Makes this upgradeable grant exclusive without letting go: once the other holders have
   * left (readers only: no other upgradeable or exclusive holder can be there), ahead of
   * every request queued behind it, and with new readers kept out meanwhile. Resolves true
   * with the handle holding the exclusive grant (a new token: give the resource the new one
   * from now on), or false when `waitMs` (default 0: only if no one else holds it now) ran
   * out: the upgradeable grant goes on, its token unchanged. Aborting `signal` gives the
   * upgrade up (CancelWait) and rejects with the signal's reason, as lock() does; the
   * upgradeable grant goes on (an upgrade granted just before the cancel is downgraded back,
   * and the handle holds that new upgradeable grant).
   */
  async upgrade(options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<boolean> {
    this.ensureHolding("upgrade");
    const change = await this.session.upgrade(this.lock, this.grantToken, options);
    if (change !== null) this.changedTo(change.token, change.mode, change.sentAt);
    if (options.signal?.aborted === true) throw options.signal.reason;
    return change !== null;
  }

  /**
   * Makes this exclusive grant shared or upgradeable: a new grant with a new token, and the
   * readers (and an upgradeable request) waiting at the head of the queue are let in by the
   * same log entry.
   */
  async downgrade(mode: DowngradeMode): Promise<void> {
    this.ensureHolding("downgrade");
    const change = await this.session.downgrade(this.lock, this.grantToken, mode);
    this.changedTo(change.token, change.mode, change.sentAt);
  }

  private ensureHolding(what: string): void {
    if (this.releaseCalled || this.ended)
      throw new NotHolderError(
        `cannot ${what} lock ${JSON.stringify(this.lock)}: the handle was released`,
      );
  }

  /** Holds the grant a mode change made; its hold limit (if any) counts from that request. */
  private changedTo(token: bigint, mode: GrantMode, sentAt: HoldLimitDeadline["sentAt"]): void {
    this.grantToken = token;
    this.grantMode = mode;
    if (this.hold) {
      this.hold = { sentAt, budgetMs: this.hold.budgetMs };
      this.holdTimer?.cancel();
      this.watchHold();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }

  private sessionEnded(): void {
    if (this.ended) return;
    const inUse = !this.controller.signal.aborted;
    const reason =
      this.session.signal.reason instanceof SessionLostError
        ? this.session.signal.reason
        : new SessionLostError(`session ${this.session.id} ended`);
    if (inUse) this.controller.abort(reason);
    this.finish();
    if (inUse && this.session.state === "lost") this.emit("lost", reason);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.holdTimer?.cancel();
    this.session.signal.removeEventListener("abort", this.onSessionAbort);
    this.onEnd(this);
  }
}

/** An answer meaning the grant is gone already (or goes with the session). */
function gone(err: unknown): boolean {
  return (
    err instanceof StaleTokenError ||
    err instanceof NotHolderError ||
    err instanceof SessionNotFoundError ||
    err instanceof SessionLostError
  );
}
