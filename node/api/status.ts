// gRPC statuses, made only where a call ends on the wire. A failure (CallFailure, the one
// shape a failed call has on the node: proto/codec/answers.ts) becomes a status whose
// reason fixes its code (proto/wire.ts) and travels in `palisade-reason` trailing metadata,
// with a message a person can act on; an UNAVAILABLE from a node that knows the leader names
// it in `palisade-leader` metadata. The Stream RPC carries the same failure as a
// StreamFailure instead.
import * as grpc from "@grpc/grpc-js";
import type { CallFailure } from "../../proto/codec/answers.ts";
import {
  LEADER_METADATA_KEY,
  REASON_METADATA_KEY,
  WIRE_ERRORS,
  type ErrorReasonName,
} from "../../proto/wire.ts";
import type { RequestFailure } from "../host/failures.ts";

export { CURRENT_INDEX_METADATA_KEY, LEADER_METADATA_KEY } from "../../proto/wire.ts";

/** What a handler hands to grpc-js as the call's error. */
export type StatusError = Partial<grpc.StatusObject> & {
  code: grpc.status;
  details: string;
  metadata: grpc.Metadata;
};

/** The status of `reason` (its code from the wire table), naming it in `palisade-reason`. */
export function statusError(
  reason: ErrorReasonName,
  details: string,
  metadata: grpc.Metadata = new grpc.Metadata(),
): StatusError {
  metadata.set(REASON_METADATA_KEY, reason);
  return { code: WIRE_ERRORS[reason].code, details, metadata };
}

/** A host's failure as a call's failure: its reason fixes the code. */
export function callFailureOf(failure: RequestFailure): CallFailure {
  return {
    code: WIRE_ERRORS[failure.reason].code,
    reason: failure.reason,
    message: failure.message,
    leader: failure.leader,
  };
}

/** The status a failed unary call ends with: the reason and the leader in metadata. */
export function statusOf(failure: CallFailure): StatusError {
  const metadata = new grpc.Metadata();
  if (failure.reason !== null) metadata.set(REASON_METADATA_KEY, failure.reason);
  if (failure.leader) metadata.set(LEADER_METADATA_KEY, failure.leader);
  const details =
    failure.reason === "ERROR_REASON_NOT_LEADER" && failure.leader
      ? `${failure.message} (also in "${LEADER_METADATA_KEY}" metadata)`
      : failure.message;
  return { code: failure.code, details, metadata };
}
