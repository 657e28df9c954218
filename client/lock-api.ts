// The calls a session makes to the cluster (OpenSession, KeepAlive and the LockService
// writes), in domain types: bigint ids and tokens, numbers for seqs and durations, typed
// answers and the typed errors of errors.ts. Session and LockHandle speak only this, so a
// simulator can run them over its own transport; GrpcLockApi is the one over gRPC, and the
// only place that builds these protobuf requests.
import { palisade } from "../proto/gen/palisade.js";
import { lockServiceDefinition as lockService, type UnaryMethod } from "../proto/grpc.ts";
import { toU64, u64 } from "../proto/wire.ts";
import type { InvokeOptions } from "./connection.ts";
import { OutcomeUnknownError, PalisadeError, SessionLostError, UnavailableError } from "./errors.ts";
import type { AcquireAnswer } from "../proto/lock-values.ts";
import { acquireAnswerFrom, cancelWaitFrom, type CancelWaitResult, type LockMode, type LockTarget } from "./types.ts";

const pb = palisade.v1;

/** What a write acknowledges (SPEC "Exactly-once"). */
export interface WriteAcks {
  /** Highest m such that the answers to 1..m are all held. */
  readonly ackedUpTo: number;
  /** Seqs above the mark whose answers are held. */
  readonly held: readonly number[];
}

export interface CallOptions {
  /** What running out of time means: a write's outcome is unknown (OutcomeUnknownError), a read found no node (UnavailableError). */
  kind?: "write" | "read";
  /**
   * Longest wait for one attempt's answer, in ms (default: the client's call timeout); a
   * function is asked before each attempt (a session sizes them by the time left to its
   * deadline, so a node that does not answer leaves time to try the others).
   */
  attemptTimeoutMs?: number | (() => number);
  /** How long the call keeps retrying through failovers, in ms (default: the client's retry budget). */
  budgetMs?: number;
  /**
   * Time left before an answer is of no use (a session's deadline, or 0 once the session
   * ended), asked before each attempt: no attempt outlasts it, and the call gives up (as if
   * its budget ran out) once it is gone.
   */
  timeLeftMs?: () => number;
  /**
   * The node may hold its answer on purpose (an Acquire waiting in the queue): how long the
   * call took says nothing about how fast the node answers.
   */
  answerMayWait?: boolean;
}

export interface OpenSessionCall {
  /** 0: the cluster's default. */
  ttlMs: number;
  clientName: string;
  /** Client-generated, so that a retry does not open a second session. */
  requestId: string;
}

export interface OpenedSession {
  sessionId: bigint;
  ttlMs: number;
}

/** Every write but CancelWait carries its seq and, read at each attempt, the latest acknowledgements. */
interface SequencedCall {
  sessionId: bigint;
  seq: number;
  acks: () => WriteAcks;
}

/** What an Acquire asks for beyond one exclusive lock; every field left out keeps the exclusive Acquire's bytes. */
export interface AcquireKinds {
  /** How `lock` is taken (default exclusive); not with `permits`. */
  mode?: LockMode;
  /** `lock` is a semaphore of this many permits, and one permit is asked for. */
  permits?: number;
  /** The other locks of an atomic multi-lock Acquire, granted with `lock` at one index or not at all. */
  more?: readonly LockTarget[];
  /** Small UTF-8 text shown with the grant (who holds it and why). */
  holderData?: string;
  /** A maximum hold time in ms: the leader revokes the grant (every lock of it) once it passes. */
  holdMs?: number;
}

export interface AcquireCall extends SequencedCall, AcquireKinds {
  lock: string;
  /** 0: answer at once; otherwise wait in the lock's queue up to this long. */
  waitMs: number;
}

/** The final answer of an Acquire (proto/lock-values.ts). */
export type { AcquireAnswer } from "../proto/lock-values.ts";

export interface ReleaseCall extends SequencedCall {
  lock: string;
  token: bigint;
}

export interface CancelWaitCall {
  sessionId: bigint;
  lock: string;
  acquireSeq: number;
}

export type CloseSessionCall = SequencedCall;

/** One session's outcome in a KeepAliveSessions answer: acknowledged, or gone (as NOT_FOUND). */
export type KeptAlive = "ok" | "notFound";

/**
 * Each call resolves with the cluster's answer or rejects with the typed error it answered
 * (SessionNotFoundError, StaleTokenError, LimitError, ...); when no answer came in time, a
 * write rejects with OutcomeUnknownError and a read with UnavailableError.
 */
export interface LockApi {
  openSession(call: OpenSessionCall, options?: CallOptions): Promise<OpenedSession>;
  /** Resolves once the leader acknowledged the keepalive. */
  keepAlive(sessionId: bigint, options?: CallOptions): Promise<void>;
  /**
   * Keeps many sessions alive in one request (see KeepAliveBatcher): each id's outcome, in
   * order; a failure of the whole request (no leader in time) rejects as keepAlive does.
   */
  keepAliveSessions?(sessionIds: readonly bigint[], options?: CallOptions): Promise<KeptAlive[]>;
  acquire(call: AcquireCall, options?: CallOptions): Promise<AcquireAnswer>;
  release(call: ReleaseCall, options?: CallOptions): Promise<void>;
  cancelWait(call: CancelWaitCall, options?: CallOptions): Promise<CancelWaitResult>;
  closeSession(call: CloseSessionCall, options?: CallOptions): Promise<void>;
}

/**
 * Whether a call's failure is the cluster's answer (so the write's effect, or that it had
 * none, is known) rather than the lack of one.
 */
export function isAnswer(err: unknown): boolean {
  return err instanceof PalisadeError && !(err instanceof OutcomeUnknownError) &&
    !(err instanceof UnavailableError) && !(err instanceof SessionLostError);
}

/** What GrpcLockApi needs of a Connection. */
export interface LockCallInvoker {
  invoke<Req, Res>(method: UnaryMethod<Req, Res>, build: () => Req, options: InvokeOptions): Promise<Res>;
}

export class GrpcLockApi implements LockApi {
  constructor(private readonly connection: LockCallInvoker) {}

  async openSession(call: OpenSessionCall, options: CallOptions = {}): Promise<OpenedSession> {
    const response = await this.connection.invoke(
      lockService.OpenSession,
      () => pb.OpenSessionRequest.create({ ttlMs: toU64(call.ttlMs, "ttlMs"), clientName: call.clientName, requestId: call.requestId }),
      invokeOptions("write", options),
    );
    return { sessionId: u64(response.sessionId, "session_id"), ttlMs: Number(u64(response.ttlMs, "ttl_ms")) };
  }

  async keepAlive(sessionId: bigint, options: CallOptions = {}): Promise<void> {
    await this.connection.invoke(
      lockService.KeepAlive,
      () => pb.KeepAliveRequest.create({ sessionId: toU64(sessionId) }),
      invokeOptions("read", options),
    );
  }

  async keepAliveSessions(sessionIds: readonly bigint[], options: CallOptions = {}): Promise<KeptAlive[]> {
    const response = await this.connection.invoke(
      lockService.KeepAliveSessions,
      () => pb.KeepAliveSessionsRequest.create({ sessionIds: sessionIds.map((id) => toU64(id)) }),
      invokeOptions("read", options),
    );
    const kept = response.sessions ?? [];
    if (kept.length !== sessionIds.length) throw new PalisadeError(`KeepAliveSessions answered ${kept.length} sessions for ${sessionIds.length} asked`);
    return kept.map((k, i) => {
      if (u64(k.sessionId, "session_id") !== sessionIds[i]) throw new PalisadeError(`KeepAliveSessions answered session ${String(k.sessionId)} in the place of ${sessionIds[i]}`);
      return k.notFound ? "notFound" : "ok";
    });
  }

  async acquire(call: AcquireCall, options: CallOptions = {}): Promise<AcquireAnswer> {
    const response = await this.connection.invoke(
      lockService.Acquire,
      () => pb.AcquireRequest.create({
        sessionId: toU64(call.sessionId), lock: call.lock, waitMs: toU64(call.waitMs, "waitMs"), seq: toU64(call.seq), ...wireAcks(call.acks()),
        ...wireKinds(call),
      }),
      invokeOptions("write", options),
    );
    return acquireAnswerFrom(response);
  }

  async release(call: ReleaseCall, options: CallOptions = {}): Promise<void> {
    await this.connection.invoke(
      lockService.Release,
      () => pb.ReleaseRequest.create({
        sessionId: toU64(call.sessionId), lock: call.lock, token: toU64(call.token, "token"), seq: toU64(call.seq), ...wireAcks(call.acks()),
      }),
      invokeOptions("write", options),
    );
  }

  async cancelWait(call: CancelWaitCall, options: CallOptions = {}): Promise<CancelWaitResult> {
    const response = await this.connection.invoke(
      lockService.CancelWait,
      () => pb.CancelWaitRequest.create({ sessionId: toU64(call.sessionId), lock: call.lock, acquireSeq: toU64(call.acquireSeq, "acquireSeq") }),
      invokeOptions("write", options),
    );
    return cancelWaitFrom(response);
  }

  async closeSession(call: CloseSessionCall, options: CallOptions = {}): Promise<void> {
    await this.connection.invoke(
      lockService.CloseSession,
      () => pb.CloseSessionRequest.create({ sessionId: toU64(call.sessionId), seq: toU64(call.seq), ...wireAcks(call.acks()) }),
      invokeOptions("write", options),
    );
  }
}

function invokeOptions(kind: "write" | "read", options: CallOptions): InvokeOptions {
  const out: InvokeOptions = { kind: options.kind ?? kind };
  if (options.attemptTimeoutMs !== undefined) out.attemptTimeoutMs = options.attemptTimeoutMs;
  if (options.budgetMs !== undefined) out.budgetMs = options.budgetMs;
  if (options.timeLeftMs !== undefined) out.timeLeftMs = options.timeLeftMs;
  if (options.answerMayWait !== undefined) out.answerMayWait = options.answerMayWait;
  return out;
}

const utf8 = new TextEncoder();

/** Exclusive is the unset mode: an exclusive Acquire sends what it did before the modes. */
function wireMode(mode: LockMode | undefined): { mode?: palisade.v1.LockMode } {
  return mode === "shared" ? { mode: pb.LockMode.LOCK_MODE_SHARED } : {};
}

/** The kinds' fields of an AcquireRequest, each set only when asked for (so an exclusive Acquire keeps its bytes). */
function wireKinds(call: AcquireKinds): Partial<palisade.v1.AcquireRequest.$Properties> {
  return {
    ...wireMode(call.mode),
    ...(call.permits !== undefined ? { permits: toU64(call.permits, "permits") } : {}),
    ...(call.more && call.more.length > 0
      ? { moreLocks: call.more.map((t) => ({ lock: t.lock, ...wireMode(t.mode), ...(t.permits !== undefined ? { permits: toU64(t.permits, "permits") } : {}) })) }
      : {}),
    ...(call.holderData ? { holderData: utf8.encode(call.holderData) } : {}),
    ...(call.holdMs ? { holdMs: toU64(call.holdMs, "holdMs") } : {}),
  };
}

function wireAcks(acks: WriteAcks): { ackedUpTo: ReturnType<typeof toU64>; held: Array<ReturnType<typeof toU64>> } {
  return { ackedUpTo: toU64(acks.ackedUpTo), held: acks.held.map((seq) => toU64(seq)) };
}
