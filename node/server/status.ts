// gRPC statuses for everything a handler can answer. Each status is built from its
// ErrorReason, which fixes its code (proto/wire.ts) and travels in `palisade-reason`
// trailing metadata, with a message a person can act on; an UNAVAILABLE from a node that
// knows the leader names it in `palisade-leader` metadata. The reasons themselves are the
// host's (node/host/failures.ts): this file only puts them on the wire.
import * as grpc from "@grpc/grpc-js";
import { LEADER_METADATA_KEY, REASON_METADATA_KEY, WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import { answerFailure, failureOf, notLeader as notLeaderFailure, type RequestFailure } from "../host/failures.ts";
import type { ErrorAnswer } from "../lock/index.ts";

export { CURRENT_INDEX_METADATA_KEY, LEADER_METADATA_KEY } from "../../proto/wire.ts";

/** What a handler hands to grpc-js as the call's error. */
export type StatusError = Partial<grpc.StatusObject> & { code: grpc.status; details: string; metadata: grpc.Metadata };

/** The status of `reason` (its code from the wire table), naming it in `palisade-reason`. */
export function statusError(reason: ErrorReasonName, details: string, metadata: grpc.Metadata = new grpc.Metadata()): StatusError {
  metadata.set(REASON_METADATA_KEY, reason);
  return { code: WIRE_ERRORS[reason].code, details, metadata };
}

/** Metadata naming the leader's client address (empty when no leader is known). */
export function leaderMetadata(leaderClientAddress: string | null): grpc.Metadata {
  const md = new grpc.Metadata();
  if (leaderClientAddress) md.set(LEADER_METADATA_KEY, leaderClientAddress);
  return md;
}

/** The status of a host's failure, with the leader it names in metadata. */
export function failureStatus(failure: RequestFailure): StatusError {
  const details = failure.reason === "ERROR_REASON_NOT_LEADER" && failure.leader
    ? `${failure.message} (also in "${LEADER_METADATA_KEY}" metadata)`
    : failure.message;
  return statusError(failure.reason, details, leaderMetadata(failure.leader));
}

/** The status of a state-machine error answer: its reason, and its message for people. */
export function answerStatus(answer: ErrorAnswer): StatusError {
  return failureStatus(answerFailure(answer));
}

export function invalidArgument(details: string): StatusError {
  return statusError("ERROR_REASON_INVALID_ARGUMENT", details);
}

/** UNAVAILABLE for a write or keepalive that reached a node that is not the leader. */
export function notLeader(leaderClientAddress: string | null): StatusError {
  return failureStatus(notLeaderFailure(leaderClientAddress));
}

/**
 * The status for an error thrown by the driver while proposing or reading. Proposal
 * failures are UNAVAILABLE: the client retries with the same seq, and the dedup table
 * makes the retry take effect at most once.
 */
export function driverErrorStatus(error: unknown, leaderClientAddress: string | null): StatusError {
  return failureStatus(failureOf(error, leaderClientAddress));
}
