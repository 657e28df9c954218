// A grant held through PalisadeClient.lock(): its token, a signal that aborts when the
// grant can no longer be trusted (session lost or closed, or the handle released), and a
// release() that frees this grant only. The handle ends (and the client's claim on the
// name with it) once the release is answered or the session ends, not before.
import { EventEmitter } from "node:events";
import {
  NotHolderError, OutcomeUnknownError, SessionLostError, SessionNotFoundError, StaleTokenError,
} from "./errors.ts";
import type { Session } from "./session.ts";

export interface LockHandleEvents {
  /** The session was lost: stop using the token's protection at once. */
  lost: [error: SessionLostError];
}

/** What withLock hands to its callback. */
export interface LockContext {
  lock: string;
  /** The fencing token: pass it to the resource with every access. */
  token: bigint;
  /** Aborts when the lock is lost (its reason is a SessionLostError). */
  signal: AbortSignal;
}

export class LockHandle extends EventEmitter<LockHandleEvents> implements LockContext {
  private readonly controller = new AbortController();
  /** Set once the grant needs nothing more from this handle: released, gone, or ended with the session. */
  private ended = false;
  private releaseCalled = false;
  private readonly onSessionAbort = (): void => this.sessionEnded();

  constructor(
    private readonly session: Session,
    readonly lock: string,
    readonly token: bigint,
    /** Called once when the handle stops holding (its release answered, or the session ended). */
    private readonly onEnd: (handle: LockHandle) => void,
  ) {
    super();
    // Removed when the handle ends: a long-lived session must not keep every released handle.
    if (session.signal.aborted) queueMicrotask(() => this.sessionEnded());
    else session.signal.addEventListener("abort", this.onSessionAbort, { once: true });
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
    return !this.releaseCalled && !this.controller.signal.aborted && this.session.live;
  }

  /** True once release() was called until its release is answered (or the session ends). */
  get releasing(): boolean {
    return this.releaseCalled && !this.ended;
  }

  /**
   * Releases this handle's grant (only it: the request names its token); the signal aborts
   * at once. Releasing after the session ended, or again once released, is a no-op; a grant
   * already revoked counts as released. When the release gets no answer in time this
   * rejects with OutcomeUnknownError while the session goes on sending it (same seq) in
   * the background: the name stays claimed, and calling release() again waits for it.
   */
  async release(): Promise<void> {
    if (this.ended) return;
    this.releaseCalled = true;
    if (!this.controller.signal.aborted) this.controller.abort(new Error(`lock ${JSON.stringify(this.lock)} released`));
    if (this.session.state !== "open") {
      this.finish();
      return;
    }
    try {
      await this.session.release(this.lock, this.token);
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        // Ends the handle once the background release is answered.
        this.session.release(this.lock, this.token).then(() => this.finish(), (later: unknown) => {
          if (gone(later)) this.finish();
        });
        throw err;
      }
      // Anything else but "gone" (such as LimitError: too many writes in flight) released
      // nothing: the handle still holds, and release() may be called again.
      if (!gone(err)) throw err;
    }
    this.finish();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }

  private sessionEnded(): void {
    if (this.ended) return;
    const inUse = !this.controller.signal.aborted;
    const reason = this.session.signal.reason instanceof SessionLostError
      ? this.session.signal.reason
      : new SessionLostError(`session ${this.session.id} ended`);
    if (inUse) this.controller.abort(reason);
    this.finish();
    if (inUse && this.session.state === "lost") this.emit("lost", reason);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.session.signal.removeEventListener("abort", this.onSessionAbort);
    this.onEnd(this);
  }
}

/** An answer meaning the grant is gone already (or goes with the session). */
function gone(err: unknown): boolean {
  return err instanceof StaleTokenError || err instanceof NotHolderError ||
    err instanceof SessionNotFoundError || err instanceof SessionLostError;
}
