// Typed errors of the client library, one per answer a caller may want to handle.
// Each keeps the gRPC status code it came from (when it came from one) and the node's
// ErrorReason; which class a status becomes is decided by proto/wire.ts.
import { status as Status } from "@grpc/grpc-js";
import type { ErrorReasonName } from "../proto/wire.ts";

/** Base of every error the client throws. */
export class PalisadeError extends Error {
  /** gRPC status code of the answer, when the error came from the server. */
  readonly code: Status | undefined;
  /**
   * The node's reason (an ErrorReason name such as "ERROR_REASON_TOO_MANY_WAITERS"), when
   * the answer named one: which limit a LimitError hit, why a node was unavailable.
   */
  readonly reason: ErrorReasonName | undefined;

  constructor(message: string, code?: Status, reason?: ErrorReasonName) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.reason = reason;
  }
}

/** The session is unknown, closed or expired (NOT_FOUND). */
export class SessionNotFoundError extends PalisadeError {}

/** The token is not the lock's current grant (FAILED_PRECONDITION). */
export class StaleTokenError extends PalisadeError {}

/** The session does not hold the lock (FAILED_PRECONDITION). */
export class NotHolderError extends PalisadeError {}

/** The request's seq is at or below the acknowledged mark (FAILED_PRECONDITION). */
export class RequestTooOldError extends PalisadeError {}

/** Another FAILED_PRECONDITION answer (such as a membership change the cluster refuses now). */
export class FailedPreconditionError extends PalisadeError {}

/** A configured limit was reached (RESOURCE_EXHAUSTED), or the client's own in-flight bound. */
export class LimitError extends PalisadeError {}

/**
 * The request was malformed (INVALID_ARGUMENT: a bad field, undecodable bytes, or a
 * CancelWait for a seq that was not an Acquire of that lock), or rejected by the client
 * before sending.
 */
export class InvalidArgumentError extends PalisadeError {}

/** No node could answer a read within the retry budget, or a node answered UNAVAILABLE; nothing changed. */
export class UnavailableError extends PalisadeError {}

/**
 * A write got no answer within the retry budget: it may or may not have taken effect.
 * It can never take effect twice (the same seq was retried).
 */
export class OutcomeUnknownError extends PalisadeError {}

/** The client closed the session or lost it (its own deadline passed, or the server ended it). */
export class SessionLostError extends PalisadeError {}

/**
 * A grant's hold limit has (or may have) passed: the leader revokes it, so its token no
 * longer protects anything. The reason of the handle's signal when it aborts for that.
 */
export class HoldLimitError extends PalisadeError {}

/**
 * This client already holds a grant of the lock, or has an Acquire of it outstanding.
 * Refused before any request is sent, so two tasks never share one grant.
 */
export class LockBusyError extends PalisadeError {
  constructor(readonly lock: string) {
    super(
      `lock ${JSON.stringify(lock)} is already held or being acquired by this client; release that handle first`,
    );
  }
}

/** The lock was held by another session and the wait ended (or waitMs was 0). */
export class LockNotAcquiredError extends PalisadeError {
  constructor(
    readonly lock: string,
    /** The current holder's session and token, when the lock was held. */
    readonly holder: { sessionId: bigint; token: bigint; clientName: string } | undefined,
  ) {
    super(
      holder
        ? `lock ${JSON.stringify(lock)} not acquired: held by session ${holder.sessionId} with token ${holder.token}`
        : `lock ${JSON.stringify(lock)} not acquired`,
    );
  }
}

/** An answer that fits none of the above (such as OUT_OF_RANGE, UNIMPLEMENTED or an internal error). */
export class ServerError extends PalisadeError {}

/**
 * The caller may not do this (PERMISSION_DENIED): the policy grants its identity no such
 * action on the name, the call needs the admin role, or the session is another identity's.
 * The message names the identity and what it lacks. A subclass of ServerError, which such
 * answers were before access control.
 */
export class PermissionDeniedError extends ServerError {}

/**
 * The caller's credential was refused (UNAUTHENTICATED): a bearer token that is malformed,
 * unknown, revoked or expired, or no client certificate where mutual TLS requires one.
 */
export class UnauthenticatedError extends ServerError {}
