// A failed call's one shape on the client (CallFailure: code, reason, message, leader) and
// the typed error it becomes. A unary call's status gives its reason and leader in metadata
// (`palisade-reason`, `palisade-leader`), a stream answer gives them as fields; either way
// the reason decides the error class (proto/wire.ts), never the wording of the message.
import { status as Status, type Metadata } from "@grpc/grpc-js";
import type { CallFailure } from "../proto/codec/answers.ts";
import {
  errorClassOf,
  LEADER_METADATA_KEY,
  reasonOf,
  type ClientErrorClass,
  type ErrorReasonName,
} from "../proto/wire.ts";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  LimitError,
  NotHolderError,
  type PalisadeError,
  PermissionDeniedError,
  RequestTooOldError,
  ServerError,
  SessionNotFoundError,
  StaleTokenError,
  UnauthenticatedError,
  UnavailableError,
} from "./errors.ts";

type ErrorConstructor = new (
  message: string,
  code?: Status,
  reason?: ErrorReasonName,
) => PalisadeError;

const CLASSES: Readonly<Record<ClientErrorClass, ErrorConstructor>> = {
  InvalidArgumentError,
  SessionNotFoundError,
  StaleTokenError,
  NotHolderError,
  RequestTooOldError,
  FailedPreconditionError,
  LimitError,
  UnavailableError,
  PermissionDeniedError,
  UnauthenticatedError,
  ServerError,
};

/** A unary call's status as a failure. */
export function failureOfStatus(code: Status, details: string, metadata?: Metadata): CallFailure {
  const leader = metadata?.get(LEADER_METADATA_KEY)[0];
  return {
    code,
    reason: reasonOf(metadata) ?? null,
    message: details,
    leader: typeof leader === "string" && leader !== "" ? leader : null,
  };
}

/** The typed error of a failed call; without a known reason its code decides. */
export function errorOf(failure: CallFailure): PalisadeError {
  const reason = failure.reason ?? undefined;
  const errorClass = errorClassOf(failure.code, reason);
  // A ServerError's message says which status it was; the others' class says it.
  const message =
    errorClass === "ServerError"
      ? `${Status[failure.code] ?? failure.code}: ${failure.message}`
      : failure.message;
  return new CLASSES[errorClass](message, failure.code, reason);
}

/** The typed error for a non-OK status. */
export function errorFromStatus(code: Status, details: string, metadata?: Metadata): PalisadeError {
  return errorOf(failureOfStatus(code, details, metadata));
}
