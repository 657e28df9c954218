// Maps a gRPC error status to the client's typed errors.
import { Metadata, status as Status } from "@grpc/grpc-js";
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

/**
 * The typed error for a non-OK status. FAILED_PRECONDITION is split by its reason: the
 * `palisade-reason` metadata when a node sends it, else the wording of the message.
 */
export function errorFromStatus(code: Status, details: string, metadata?: Metadata): PalisadeError {
  const reason = String(metadata?.get("palisade-reason")[0] ?? "");
  const text = `${reason} ${details}`.toLowerCase();
  switch (code) {
    case Status.NOT_FOUND:
      return new SessionNotFoundError(details, code);
    case Status.INVALID_ARGUMENT:
      return new InvalidArgumentError(details, code);
    case Status.RESOURCE_EXHAUSTED:
      return new LimitError(details, code);
    case Status.UNAVAILABLE:
      return new UnavailableError(details, code);
    case Status.FAILED_PRECONDITION:
      if (text.includes("too old") || text.includes("acknowledged mark")) return new RequestTooOldError(details, code);
      if (text.includes("stale token") || text.includes("not the current grant")) return new StaleTokenError(details, code);
      if (text.includes("not holder") || text.includes("does not hold")) return new NotHolderError(details, code);
      return new FailedPreconditionError(details, code);
    default:
      return new ServerError(`${Status[code] ?? code}: ${details}`, code);
  }
}
