// Why a request to a host failed, in the wire's terms: an ErrorReason (which fixes the
// status code, proto/wire.ts), a message a person can act on, and the leader's client
// address when a node that is not the leader knows it. The gRPC services and the
// simulator's client API both turn these into their own answers.
import type { ErrorReasonName } from "../../proto/wire.ts";
import type { ErrorAnswer, ErrorReason, Refusal } from "../lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../raft/core.ts";
import { DriverStoppedError, ProposalLostError, ReadIndexFailedError } from "./driver.ts";

export class RequestFailure extends Error {
  override readonly name = "RequestFailure";
  constructor(
    readonly reason: ErrorReasonName,
    message: string,
    /** The leader's client address, for a request that must go there (UNAVAILABLE). */
    readonly leader: string | null = null,
  ) {
    super(message);
  }
}

/** The wire reason of each reason the lock state machine answers with. */
const ANSWER_REASONS: Readonly<Record<ErrorReason, ErrorReasonName>> = {
  "invalid argument": "ERROR_REASON_INVALID_ARGUMENT",
  "session not found": "ERROR_REASON_SESSION_NOT_FOUND",
  "session ended": "ERROR_REASON_SESSION_ENDED",
  "no such wait": "ERROR_REASON_NO_SUCH_WAIT",
  "not an acquire of this lock": "ERROR_REASON_NOT_AN_ACQUIRE",
  "stale token": "ERROR_REASON_STALE_TOKEN",
  "not holder": "ERROR_REASON_NOT_HOLDER",
  "request too old": "ERROR_REASON_REQUEST_TOO_OLD",
  "too many sessions": "ERROR_REASON_TOO_MANY_SESSIONS",
  "too many locks in session": "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
  "too many waiters": "ERROR_REASON_TOO_MANY_WAITERS",
  "too many in flight": "ERROR_REASON_TOO_MANY_IN_FLIGHT",
};

/** The wire reason of each refusal of the lock kinds (answers whose reason is "not holder" with a refusal). */
const REFUSAL_REASONS: Readonly<Record<Refusal, ErrorReasonName>> = {
  "held in another mode": "ERROR_REASON_HELD_IN_ANOTHER_MODE",
  "in use as another kind": "ERROR_REASON_KIND_MISMATCH",
  "other permit count": "ERROR_REASON_PERMITS_MISMATCH",
  "set partly held": "ERROR_REASON_SET_PARTLY_HELD",
  "waits in another request": "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
};

/** The wire reason of a state-machine error answer (a refusal of the kinds has its own). */
export function answerReason(reason: ErrorReason, refusal?: Refusal): ErrorReasonName {
  return refusal !== undefined ? REFUSAL_REASONS[refusal] : ANSWER_REASONS[reason];
}

/** The state machine's reason and refusal of a wire reason it answers with (undefined for the others). */
export function machineReasonOf(name: ErrorReasonName): { reason: ErrorReason; refusal?: Refusal } | undefined {
  for (const [refusal, wire] of Object.entries(REFUSAL_REASONS)) if (wire === name) return { reason: "not holder", refusal: refusal as Refusal };
  for (const [reason, wire] of Object.entries(ANSWER_REASONS)) if (wire === name) return { reason: reason as ErrorReason };
  return undefined;
}

export function answerFailure(answer: ErrorAnswer): RequestFailure {
  return new RequestFailure(answerReason(answer.reason, answer.refusal), answer.message);
}

/** A write or keepalive reached a node that is not the leader. */
export function notLeader(leader: string | null): RequestFailure {
  if (!leader) return new RequestFailure("ERROR_REASON_NO_LEADER", "no leader is known yet (election in progress or no quorum); retry shortly");
  return new RequestFailure("ERROR_REASON_NOT_LEADER", `this node is not the leader; retry at the leader ${leader}`, leader);
}

/**
 * The failure for an error from the driver while proposing or reading. Proposal failures
 * mean "retry": the client retries with the same seq, and the dedup table makes the retry
 * take effect at most once. Anything else is a bug, answered INTERNAL.
 */
export function failureOf(error: unknown, leader: string | null): RequestFailure {
  if (error instanceof RequestFailure) return error;
  if (error instanceof NotLeaderError) return notLeader(leader);
  if (error instanceof ProposalDroppedError) {
    return new RequestFailure("ERROR_REASON_PROPOSAL_DROPPED", `the leader did not take the request (${error.message}); retry with the same seq`, leader);
  }
  if (error instanceof ProposalLostError) {
    return new RequestFailure("ERROR_REASON_LEADERSHIP_CHANGED", "leadership changed before the request committed; its outcome is unknown, retry with the same seq", leader);
  }
  if (error instanceof ReadIndexFailedError) {
    return new RequestFailure("ERROR_REASON_READ_NOT_CONFIRMED", "no leader could confirm a linearizable read (election in progress or no quorum); retry shortly", leader);
  }
  if (error instanceof DriverStoppedError) {
    return new RequestFailure("ERROR_REASON_SHUTTING_DOWN", "this node is shutting down or stopped; retry on another node", leader);
  }
  return new RequestFailure("ERROR_REASON_INTERNAL", `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
