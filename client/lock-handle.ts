// A grant held through PalisadeClient.lock(): its token, a signal that aborts when the
// grant can no longer be trusted (session lost or closed, or the handle released), and a
// release() that frees this grant only.
import { EventEmitter } from "node:events";
import {
  NotHolderError, SessionLostError, SessionNotFoundError, StaleTokenError,
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
  private released = false;
  private readonly onSessionAbort = (): void => this.sessionEnded();

  constructor(
    private readonly session: Session,
    readonly lock: string,
    readonly token: bigint,
    /** Called once when the handle stops holding (released or lost). */
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
    return !this.released && !this.controller.signal.aborted && this.session.live;
  }

  /**
   * Releases this handle's grant (only it: the request names its token). Releasing twice,
   * or after the session ended, is a no-op; a grant already revoked counts as released.
   */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const wasLive = !this.controller.signal.aborted && this.session.state === "open";
    this.end(new Error(`lock ${JSON.stringify(this.lock)} released`));
    if (!wasLive) return;
    try {
      await this.session.release(this.lock, this.token);
    } catch (err) {
      const gone = err instanceof StaleTokenError || err instanceof NotHolderError ||
        err instanceof SessionNotFoundError || err instanceof SessionLostError;
      if (!gone) throw err;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }

  private sessionEnded(): void {
    if (this.released || this.controller.signal.aborted) return;
    const reason = this.session.signal.reason instanceof SessionLostError
      ? this.session.signal.reason
      : new SessionLostError(`session ${this.session.id} ended`);
    this.end(reason);
    if (this.session.state === "lost") this.emit("lost", reason);
  }

  private end(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.session.signal.removeEventListener("abort", this.onSessionAbort);
    this.onEnd(this);
  }
}
