// Maps a gRPC error status to the client's typed errors, by the ErrorReason the node
// names in `palisade-reason` metadata (proto/wire.ts decides the class), never by the
// wording of the message.
import { status as Status, type Metadata } from "@grpc/grpc-js";
import { errorClassOf, reasonOf, type ClientErrorClass, type ErrorReasonName } from "../proto/wire.ts";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  LimitError,
  NotHolderError,
  type PalisadeError,
  RequestTooOldError,
  ServerError,
  SessionNotFoundError,
  StaleTokenError,
  UnavailableError,
} from "./errors.ts";

type ErrorConstructor = new (message: string, code?: Status, reason?: ErrorReasonName) => PalisadeError;

const CLASSES: Readonly<Record<ClientErrorClass, ErrorConstructor>> = {
  InvalidArgumentError,
  SessionNotFoundError,
  StaleTokenError,
  NotHolderError,
  RequestTooOldError,
  FailedPreconditionError,
  LimitError,
  UnavailableError,
  ServerError,
};

/** The typed error for a non-OK status; without a known reason its code decides. */
export function errorFromStatus(code: Status, details: string, metadata?: Metadata): PalisadeError {
  const reason = reasonOf(metadata);
  const errorClass = errorClassOf(code, reason);
  // A ServerError's message says which status it was; the others' class says it.
  const message = errorClass === "ServerError" ? `${Status[code] ?? code}: ${details}` : details;
  return new CLASSES[errorClass](message, code, reason);
}
