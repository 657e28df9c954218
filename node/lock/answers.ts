// Answers of the lock state machine, in the contract's shapes (proto/lock-values.ts): what a
// client receives is what apply decided, and a refusal names the wire's ErrorReason. Their
// binary form (codec/answers.ts) is how the exactly-once table keeps answers in snapshots.
import type { AcquireAnswer, ErrorAnswer, SessionOpened } from "../../proto/lock-values.ts";
import type { ErrorReasonName } from "../../proto/wire.ts";

export type { AcquireAnswer, ErrorAnswer, SessionOpened } from "../../proto/lock-values.ts";

export type OkAnswer =
  | SessionOpened
  | { readonly kind: "sessionClosed" }
  | { readonly kind: "sessionExpired" }
  | AcquireAnswer
  /** The Acquire joined (or re-attached to) the queue: no final answer yet; it comes as a completion. */
  | { readonly kind: "waiting" }
  | { readonly kind: "released" }
  | { readonly kind: "proclaimed" }
  | { readonly kind: "revoked" }
  | { readonly kind: "limitsSet" }
  /** A policy applied: its version is the entry's index. */
  | { readonly kind: "policySet" }
  | { readonly kind: "tokenCreated" }
  | { readonly kind: "tokenRevoked" };

export type OkKind = OkAnswer["kind"];

export type Answer = OkAnswer | ErrorAnswer;

export function isError(answer: Answer): answer is ErrorAnswer {
  return answer.kind === "error";
}

export function fail(reason: ErrorReasonName, message: string): ErrorAnswer {
  return { kind: "error", reason, message };
}

export const invalid = (message: string): ErrorAnswer =>
  fail("ERROR_REASON_INVALID_ARGUMENT", message);

export function sessionNotFound(sessionId: bigint): ErrorAnswer {
  return fail(
    "ERROR_REASON_SESSION_NOT_FOUND",
    `session ${sessionId} not found (unknown, closed or expired)`,
  );
}

/**
 * A session call naming a session that is not the caller's: the same answer whether the
 * session exists or not, so session ids cannot be probed.
 */
export function notYourSession(sessionId: bigint, identity: string): ErrorAnswer {
  return fail(
    "ERROR_REASON_PERMISSION_DENIED",
    `session ${sessionId} is not a session of ${identity === "" ? "an anonymous caller" : `identity ${identity}`}`,
  );
}

export function sessionEnded(sessionId: bigint): ErrorAnswer {
  return fail(
    "ERROR_REASON_SESSION_ENDED",
    `session ${sessionId} ended while the request was pending`,
  );
}
