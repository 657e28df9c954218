// A session on the cluster: its writes (Acquire, Release, CloseSession) with the
// exactly-once bookkeeping, its keepalive loop and its own expiry deadline.
import { palisade } from "../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../proto/grpc.ts";
import { toU64, u64 } from "../proto/wire.ts";
import type { Connection } from "./connection.ts";
import { AckTracker } from "./acks.ts";
import { monotonicMs, monotonicNs, msToNs } from "./clock.ts";
import { StallWatch } from "./stall-watch.ts";
import {
  FailedPreconditionError, LimitError, NotHolderError, OutcomeUnknownError, SessionLostError, SessionNotFoundError, StaleTokenError,
} from "./errors.ts";
import { cancelWaitFrom, holderFrom, type AcquireResult, type CancelWaitResult } from "./types.ts";

const pb = palisade.v1;

/** Writes a session keeps in flight at most (SPEC "Exactly-once"). */
export const MAX_IN_FLIGHT = 64;

export interface SessionSettings {
  id: bigint;
  ttlMs: number;
  clientName: string;
  /** monotonicMs() when the OpenSession request that created the session was sent. */
  openedSentAt: number;
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
  /** Aborting sends CancelWait; a grant that arrives anyway is released at once. */
  signal?: AbortSignal;
}

export interface PendingAcquire {
  /** The seq of this Acquire, which CancelWait names. */
  seq: number;
  result: Promise<AcquireResult>;
}

/**
 * A grant the session released by itself: the Acquire's caller had given up (aborted its
 * wait) or its outcome was unknown, and the final answer, learnt through CancelWait, was a
 * grant that nobody would use. Times are monotonicNs() values.
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

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export class Session {
  readonly id: bigint;
  readonly ttlMs: number;
  readonly clientName: string;
  private readonly acks = new AckTracker();
  private readonly controller = new AbortController();
  private readonly lostListeners: LostListener[] = [];
  private readonly deadlineListeners = new Set<DeadlineListener>();
  private readonly lateGrantListeners = new Set<LateGrantListener>();
  private lastAckSentAt: number;
  private lastCheckAt: number;
  private readonly deadlineTimer: NodeJS.Timeout;
  private readonly stalls = new StallWatch();
  /** Per lock, the settling of Acquires whose outcome was unknown (see settleAbandoned). */
  private readonly unsettled = new Map<string, Promise<void>>();
  private ended: "open" | "closed" | "lost" = "open";
  private lostReason = "";

  constructor(private readonly connection: Connection, private readonly settings: SessionSettings) {
    this.id = settings.id;
    this.ttlMs = settings.ttlMs;
    this.clientName = settings.clientName;
    this.lastAckSentAt = settings.openedSentAt;
    this.lastCheckAt = monotonicMs();
    this.stalls.retain();
    this.deadlineTimer = setInterval(() => this.checkDeadline(), settings.deadlineTickMs);
    this.deadlineTimer.unref();
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

  /** The moment (monotonicMs()) after which the client treats the session as lost. */
  get deadline(): number {
    const margin = 2 * this.settings.driftBound * this.ttlMs + this.settings.deadlineTickMs;
    return this.lastAckSentAt + this.ttlMs - margin;
  }

  /** The deadline as an absolute process.hrtime.bigint() value, meaningful to any process on this host. */
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
    this.ensureOpen();
    const seq = this.allocateSeq();
    const waitMs = options.waitMs ?? 0;
    const attemptTimeoutMs = waitMs + this.settings.callTimeoutMs;
    const call = this.connection.invoke(
      lockApi.Acquire,
      () => pb.AcquireRequest.create({ sessionId: toU64(this.id), lock, waitMs: toU64(waitMs, "waitMs"), seq: toU64(seq), ...this.wireAcks() }),
      { kind: "write", attemptTimeoutMs, budgetMs: waitMs + this.settings.retryBudgetMs },
    );
    const result = this.finishAcquire(lock, seq, call, options.signal);
    return { seq, result };
  }

  private async finishAcquire(
    lock: string,
    seq: number,
    call: Promise<palisade.v1.AcquireResponse>,
    signal: AbortSignal | undefined,
  ): Promise<AcquireResult> {
    type Settled = { ok: true; response: palisade.v1.AcquireResponse } | { ok: false; error: unknown } | { aborted: true };
    const settled: Promise<Settled> = call.then(
      (response) => ({ ok: true as const, response }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const outcome = signal ? await Promise.race([settled, abortedPromise(signal)]) : await settled;
    if ("aborted" in outcome) return this.cancelAfterAbort(lock, seq);
    if (outcome.ok) {
      this.acks.answered(seq);
      const response = outcome.response;
      const holder = holderFrom(response.holder);
      const result: AcquireResult = { acquired: response.acquired, seq };
      if (response.acquired) result.token = u64(response.token, "token");
      if (holder) result.holder = holder;
      return result;
    }
    if (outcome.error instanceof OutcomeUnknownError) {
      void this.settleAbandoned(lock, seq);
    } else {
      this.acks.answered(seq);
    }
    throw outcome.error;
  }

  /** The caller gave up on a wait: cancel it, and release a grant that won the race. */
  private async cancelAfterAbort(lock: string, seq: number): Promise<AcquireResult> {
    let answer: CancelWaitResult;
    try {
      answer = await this.cancelWait(lock, seq);
    } catch (err) {
      if (err instanceof OutcomeUnknownError) void this.settleAbandoned(lock, seq);
      throw err;
    }
    this.acks.answered(seq);
    if (answer.outcome === "granted") await this.releaseLateGrant(lock, seq, answer.token);
    return { acquired: false, seq, cancelled: true };
  }

  /**
   * An Acquire whose outcome is unknown: learn its final answer through CancelWait (which
   * also stops a pending wait), release a grant nobody will use, then count it as answered.
   */
  private settleAbandoned(lock: string, seq: number): Promise<void> {
    const previous = this.unsettled.get(lock) ?? Promise.resolve();
    const settled = this.settleOne(lock, seq).then(() => previous);
    this.unsettled.set(lock, settled);
    void settled.finally(() => {
      if (this.unsettled.get(lock) === settled) this.unsettled.delete(lock);
    });
    return settled;
  }

  /**
   * Resolves once every Acquire of `lock` whose outcome was unknown has been settled
   * (cancelled, or its late grant released); undefined when there is none.
   */
  unsettledAcquire(lock: string): Promise<void> | undefined {
    return this.unsettled.get(lock);
  }

  private async settleOne(lock: string, seq: number): Promise<void> {
    while (this.ended === "open") {
      try {
        const answer = await this.cancelWait(lock, seq);
        this.acks.answered(seq);
        if (answer.outcome === "granted") await this.releaseLateGrant(lock, seq, answer.token);
        return;
      } catch (err) {
        if (err instanceof SessionNotFoundError) return;
        if (!(err instanceof OutcomeUnknownError)) {
          this.acks.answered(seq);
          return;
        }
      }
      await sleep(200);
    }
  }

  /** Releases a grant nobody will use, and tells the listeners how that went. */
  private async releaseLateGrant(lock: string, acquireSeq: number, token: bigint): Promise<void> {
    const learntAtNs = monotonicNs();
    const releaseSentNs = monotonicNs();
    let outcome: LateGrantRelease["outcome"] = "released";
    let releaseAnsweredNs: bigint | null = null;
    try {
      await this.release(lock, token);
      releaseAnsweredNs = monotonicNs();
    } catch (err) {
      // Never sent (the session had ended here, or too many writes in flight): nothing happened.
      if (err instanceof SessionLostError || err instanceof LimitError) return;
      if (err instanceof SessionNotFoundError) outcome = "sessionNotFound";
      else if (err instanceof NotHolderError || err instanceof StaleTokenError || err instanceof FailedPreconditionError) outcome = "notHolder";
      else outcome = "unknown";
      if (outcome !== "unknown") releaseAnsweredNs = monotonicNs();
    }
    const event: LateGrantRelease = { lock, acquireSeq, token, learntAtNs, releaseSentNs, releaseAnsweredNs, outcome };
    for (const listener of this.lateGrantListeners) listener(event);
  }

  /**
   * Cancel the wait of the Acquire sent with `acquireSeq`. Idempotent; answers the final
   * answer recorded for that seq. Sent before its Acquire, it makes that Acquire take no effect.
   */
  async cancelWait(lock: string, acquireSeq: number): Promise<CancelWaitResult> {
    const response = await this.connection.invoke(
      lockApi.CancelWait,
      () => pb.CancelWaitRequest.create({ sessionId: toU64(this.id), lock, acquireSeq: toU64(acquireSeq, "acquireSeq") }),
      { kind: "write" },
    );
    return cancelWaitFrom(response);
  }

  /** Release a lock this session holds with `token`. */
  async release(lock: string, token: bigint): Promise<void> {
    this.ensureOpen();
    const seq = this.allocateSeq();
    try {
      await this.connection.invoke(
        lockApi.Release,
        () => pb.ReleaseRequest.create({ sessionId: toU64(this.id), lock, token: toU64(token, "token"), seq: toU64(seq), ...this.wireAcks() }),
        { kind: "write" },
      );
    } finally {
      // Answered, failed for good, or given up: this seq is never sent again.
      this.acks.answered(seq);
    }
  }

  /** Close the session, releasing its locks and cancelling its waits. Closing twice is a no-op. */
  async close(): Promise<void> {
    if (this.ended !== "open") return;
    const seq = this.allocateSeq();
    this.end("closed", "session closed by the client");
    try {
      await this.connection.invoke(
        lockApi.CloseSession,
        () => pb.CloseSessionRequest.create({ sessionId: toU64(this.id), seq: toU64(seq), ...this.wireAcks() }),
        { kind: "write" },
      );
    } catch (err) {
      // Already gone on the server: the outcome the caller wanted.
      if (!(err instanceof SessionNotFoundError)) throw err;
    } finally {
      this.acks.answered(seq);
    }
  }

  // ---- keepalive and deadline --------------------------------------------------------------

  private async keepaliveLoop(): Promise<void> {
    const period = Math.max(1, Math.floor(this.ttlMs / 3));
    while (this.ended === "open") {
      const sentAt = monotonicMs();
      try {
        await this.connection.invoke(
          lockApi.KeepAlive,
          () => pb.KeepAliveRequest.create({ sessionId: toU64(this.id) }),
          { kind: "read", budgetMs: period },
        );
        // A keepalive acknowledged after the deadline does not revive the session.
        this.checkDeadline();
        if (this.ended !== "open") return;
        if (sentAt > this.lastAckSentAt) {
          this.lastAckSentAt = sentAt;
          const deadlineNs = this.deadlineNs;
          for (const listener of this.deadlineListeners) listener(deadlineNs);
        }
      } catch (err) {
        if (err instanceof SessionNotFoundError) {
          this.lose(`the cluster ended session ${this.id}: ${err.message}`);
          return;
        }
        // Otherwise try again next period; the deadline decides when to give up.
      }
      const next = sentAt + period - monotonicMs();
      if (next > 0) await sleep(next);
    }
  }

  private checkDeadline(): void {
    if (this.ended !== "open") return;
    const now = monotonicMs();
    // A stall since the last check began at or after it; if the loop was blocked past the
    // deadline, timers and answers processed after it prove nothing about that time.
    const stallEnd = this.lastCheckAt + this.stalls.takeMaxStallMs();
    this.lastCheckAt = now;
    if (now > this.deadline || stallEnd > this.deadline) {
      this.lose(`session ${this.id}: no keepalive acknowledged within its TTL (${this.ttlMs} ms) minus the drift margin`);
      // Best effort: tell the cluster, so its locks go to the next waiter sooner.
      const seq = this.allocateSeqUnchecked();
      void this.connection
        .invoke(
          lockApi.CloseSession,
          () => pb.CloseSessionRequest.create({ sessionId: toU64(this.id), seq: toU64(seq), ...this.wireAcks() }),
          { kind: "write", budgetMs: this.settings.callTimeoutMs },
        )
        .catch(() => undefined);
    }
  }

  private lose(reason: string): void {
    if (this.ended !== "open") return;
    this.end("lost", reason);
    for (const listener of this.lostListeners.splice(0)) listener(reason);
  }

  private end(state: "closed" | "lost", reason: string): void {
    this.ended = state;
    this.lostReason = reason;
    clearInterval(this.deadlineTimer);
    this.stalls.release();
    this.deadlineListeners.clear();
    this.controller.abort(new SessionLostError(reason));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private ensureOpen(): void {
    if (this.ended !== "open") throw new SessionLostError(`session ${this.id} is ${this.ended}: ${this.lostReason}`);
  }

  private allocateSeq(): number {
    if (this.acks.outstanding >= MAX_IN_FLIGHT) {
      throw new LimitError(`session ${this.id} already has ${MAX_IN_FLIGHT} writes in flight`);
    }
    return this.acks.allocate();
  }

  private allocateSeqUnchecked(): number {
    return this.acks.allocate();
  }

  private wireAcks(): { ackedUpTo: ReturnType<typeof toU64>; held: Array<ReturnType<typeof toU64>> } {
    const { ackedUpTo, held } = this.acks.acks();
    return { ackedUpTo: toU64(ackedUpTo), held: held.map((seq) => toU64(seq)) };
  }
}

function abortedPromise(signal: AbortSignal): Promise<{ aborted: true }> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ aborted: true });
    else signal.addEventListener("abort", () => resolve({ aborted: true }), { once: true });
  });
}
