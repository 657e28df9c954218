// The edge of the node's gRPC handlers: whatever a handler throws becomes one CallFailure
// (a request the codec refused is INVALID_ARGUMENT; the host's failures keep their reason;
// anything else is logged and answered INTERNAL), which a unary call ends with as a status
// and the Stream RPC carries as a StreamFailure, so a bad request never escapes as an
// exception and both paths fail alike.
import type * as grpc from "@grpc/grpc-js";
import type { CallFailure } from "../../proto/codec/answers.ts";
import { CodecError, type ErrorReasonName } from "../../proto/wire.ts";
import { failureOf, RequestFailure } from "../host/failures.ts";
import type { ServiceContext } from "./context.ts";
import { malformedReason } from "./tolerant.ts";
import { callFailureOf, statusOf, type StatusError } from "./status.ts";

/** Ends the call with `reason` (which fixes its code). */
export function fail(reason: ErrorReasonName, details: string): never {
  throw new RequestFailure(reason, details);
}

/** The failure of anything a handler threw. Unexpected errors are logged and answered INTERNAL. */
export function callFailure(
  ctx: Pick<ServiceContext, "host" | "logger">,
  method: string,
  error: unknown,
): CallFailure {
  const failure =
    error instanceof CodecError
      ? new RequestFailure("ERROR_REASON_INVALID_ARGUMENT", error.message)
      : failureOf(error, ctx.host.leaderHint());
  if (failure.reason === "ERROR_REASON_INTERNAL")
    ctx.logger.error({ err: error, method }, "request failed unexpectedly");
  return callFailureOf(failure);
}

/** The status for anything a handler threw. */
export function toStatus(ctx: ServiceContext, method: string, error: unknown): StatusError {
  return statusOf(callFailure(ctx, method, error));
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
      if (malformed !== null)
        fail(
          "ERROR_REASON_MALFORMED_REQUEST",
          `the request is not a valid ${method} message: ${malformed}`,
        );
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
