// gRPC statuses for everything a handler can answer: state-machine answers, proposal and
// read failures, and bad input. Each status is built from its ErrorReason, which fixes
// its code (proto/wire.ts) and travels in `palisade-reason` trailing metadata, with a
// message a person can act on; an UNAVAILABLE from a node that knows the leader names it
// in `palisade-leader` metadata.
import * as grpc from "@grpc/grpc-js";
import { LEADER_METADATA_KEY, REASON_METADATA_KEY, WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import type { ErrorAnswer, ErrorReason } from "../lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../raft/core.ts";
import { DriverStoppedError, ProposalLostError, ReadIndexFailedError } from "../host/driver.ts";

export { CURRENT_INDEX_METADATA_KEY, LEADER_METADATA_KEY } from "../../proto/wire.ts";

/** What a handler hands to grpc-js as the call's error. */
export type StatusError = Partial<grpc.StatusObject> & { code: grpc.status; details: string; metadata: grpc.Metadata };

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

/** The wire reason of a state-machine error answer. */
export function answerReason(reason: ErrorReason): ErrorReasonName {
  return ANSWER_REASONS[reason];
}

/** The status of `reason` (its code from the wire table), naming it in `palisade-reason`. */
export function statusError(reason: ErrorReasonName, details: string, metadata: grpc.Metadata = new grpc.Metadata()): StatusError {
  metadata.set(REASON_METADATA_KEY, reason);
  return { code: WIRE_ERRORS[reason].code, details, metadata };
}

/** The status of a state-machine error answer: its reason, and its message for people. */
export function answerStatus(answer: ErrorAnswer): StatusError {
  return statusError(answerReason(answer.reason), answer.message);
}

export function invalidArgument(details: string): StatusError {
  return statusError("ERROR_REASON_INVALID_ARGUMENT", details);
}

/** Metadata naming the leader's client address (empty when no leader is known). */
export function leaderMetadata(leaderClientAddress: string | null): grpc.Metadata {
  const md = new grpc.Metadata();
  if (leaderClientAddress) md.set(LEADER_METADATA_KEY, leaderClientAddress);
  return md;
}

/** UNAVAILABLE for a write or keepalive that reached a node that is not the leader. */
export function notLeader(leaderClientAddress: string | null): StatusError {
  if (!leaderClientAddress) {
    return statusError("ERROR_REASON_NO_LEADER", "no leader is known yet (election in progress or no quorum); retry shortly");
  }
  const details = `this node is not the leader; retry at the leader ${leaderClientAddress} (also in "${LEADER_METADATA_KEY}" metadata)`;
  return statusError("ERROR_REASON_NOT_LEADER", details, leaderMetadata(leaderClientAddress));
}

/**
 * The status for an error thrown by the driver while proposing or reading. Proposal
 * failures are UNAVAILABLE: the client retries with the same seq, and the dedup table
 * makes the retry take effect at most once.
 */
export function driverErrorStatus(error: unknown, leaderClientAddress: string | null): StatusError {
  const md = leaderMetadata(leaderClientAddress);
  if (error instanceof NotLeaderError) return notLeader(leaderClientAddress);
  if (error instanceof ProposalDroppedError) {
    return statusError("ERROR_REASON_PROPOSAL_DROPPED", `the leader did not take the request (${error.message}); retry with the same seq`, md);
  }
  if (error instanceof ProposalLostError) {
    return statusError("ERROR_REASON_LEADERSHIP_CHANGED", "leadership changed before the request committed; its outcome is unknown, retry with the same seq", md);
  }
  if (error instanceof ReadIndexFailedError) {
    return statusError("ERROR_REASON_READ_NOT_CONFIRMED", "no leader could confirm a linearizable read (election in progress or no quorum); retry shortly", md);
  }
  if (error instanceof DriverStoppedError) {
    return statusError("ERROR_REASON_SHUTTING_DOWN", "this node is shutting down or stopped; retry on another node", md);
  }
  return statusError("ERROR_REASON_INTERNAL", `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
