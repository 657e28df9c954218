// gRPC statuses for everything a handler can answer: state-machine answers, proposal and
// read failures, and bad input. Each error carries a message a person can act on, and an
// UNAVAILABLE from a node that knows the leader names it in `palisade-leader` metadata.
import * as grpc from "@grpc/grpc-js";
import type { ErrorCode } from "../lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../raft/core.ts";
import { DriverStoppedError, ProposalLostError, ReadIndexFailedError } from "./driver.ts";

export const LEADER_METADATA_KEY = "palisade-leader";
export const CURRENT_INDEX_METADATA_KEY = "palisade-current-index";

/** What a handler hands to grpc-js as the call's error. */
export type StatusError = Partial<grpc.StatusObject> & { code: grpc.status; details: string };

const ANSWER_STATUS: Readonly<Record<ErrorCode, grpc.status>> = {
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  NOT_FOUND: grpc.status.NOT_FOUND,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: grpc.status.RESOURCE_EXHAUSTED,
};

/** The gRPC status of a state-machine error answer. */
export function answerStatus(code: ErrorCode): grpc.status {
  return ANSWER_STATUS[code];
}

export function statusError(code: grpc.status, details: string, metadata?: grpc.Metadata): StatusError {
  return metadata ? { code, details, metadata } : { code, details };
}

export function invalidArgument(details: string): StatusError {
  return statusError(grpc.status.INVALID_ARGUMENT, details);
}

/** Metadata naming the leader's client address, or undefined when no leader is known. */
export function leaderMetadata(leaderClientAddress: string | null): grpc.Metadata | undefined {
  if (!leaderClientAddress) return undefined;
  const md = new grpc.Metadata();
  md.set(LEADER_METADATA_KEY, leaderClientAddress);
  return md;
}

/** UNAVAILABLE for a write or keepalive that reached a node that is not the leader. */
export function notLeader(leaderClientAddress: string | null): StatusError {
  const details = leaderClientAddress
    ? `this node is not the leader; retry at the leader ${leaderClientAddress} (also in "${LEADER_METADATA_KEY}" metadata)`
    : "no leader is known yet (election in progress or no quorum); retry shortly";
  return statusError(grpc.status.UNAVAILABLE, details, leaderMetadata(leaderClientAddress));
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
    return statusError(grpc.status.UNAVAILABLE, `the leader did not take the request (${error.message}); retry with the same seq`, md);
  }
  if (error instanceof ProposalLostError) {
    return statusError(grpc.status.UNAVAILABLE, "leadership changed before the request committed; its outcome is unknown, retry with the same seq", md);
  }
  if (error instanceof ReadIndexFailedError) {
    return statusError(grpc.status.UNAVAILABLE, "no leader could confirm a linearizable read (election in progress or no quorum); retry shortly", md);
  }
  if (error instanceof DriverStoppedError) {
    return statusError(grpc.status.UNAVAILABLE, "this node is shutting down or stopped; retry on another node", md);
  }
  return statusError(grpc.status.INTERNAL, `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
