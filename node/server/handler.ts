// Shared plumbing for unary handlers: every handler runs inside one wrapper that turns
// whatever it throws into a gRPC status, so a bad request never escapes as an exception.
import * as grpc from "@grpc/grpc-js";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { failureOf, RequestFailure } from "../host/failures.ts";
import type { ServiceContext } from "./context.ts";
import { RequestError } from "./requests.ts";
import { malformedReason } from "./tolerant.ts";
import { failureStatus, invalidArgument, statusError, type StatusError } from "./status.ts";

/** Thrown inside a handler to end the call with this status. */
export class Failure extends Error {
  constructor(readonly status: StatusError) {
    super(status.details);
  }
}

/** Ends the call with the status of `reason` (which fixes its code). */
export function fail(reason: ErrorReasonName, details: string): never {
  throw new Failure(statusError(reason, details));
}

/** The status for anything a handler threw. Unexpected errors are logged and answered INTERNAL. */
export function toStatus(ctx: ServiceContext, method: string, error: unknown): StatusError {
  if (error instanceof Failure) return error.status;
  if (error instanceof RequestError) return invalidArgument(error.message);
  const failure = error instanceof RequestFailure ? error : failureOf(error, ctx.host.leaderHint());
  if (failure.reason === "ERROR_REASON_INTERNAL") ctx.logger.error({ err: error, method }, "request failed unexpectedly");
  return failureStatus(failure);
}

/** Wraps an async handler body: its value is the response, its exception the status. */
export function unary<Req, Res>(
  ctx: ServiceContext,
  method: string,
  body: (call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    let result: Promise<Res>;
    try {
      const malformed = malformedReason(call.request);
      if (malformed !== null) fail("ERROR_REASON_MALFORMED_REQUEST", `the request is not a valid ${method} message: ${malformed}`);
      result = body(call);
    } catch (error) {
      callback(toStatus(ctx, method, error));
      return;
    }
    result.then(
      (response) => callback(null, response),
      (error: unknown) => callback(toStatus(ctx, method, error)),
    );
  };
}
