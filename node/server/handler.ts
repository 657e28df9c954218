// Shared plumbing for unary handlers: every handler runs inside one wrapper that turns
// whatever it throws into a gRPC status, so a bad request never escapes as an exception.
import * as grpc from "@grpc/grpc-js";
import { isError, type Answer, type ApplyOutcome, type Command } from "../lock/index.ts";
import { encodeCommand } from "../lock/index.ts";
import type { EntryResult, NodeContext } from "./context.ts";
import type { Driver } from "../host/driver.ts";
import { ProposalBatcher } from "../host/proposal-batcher.ts";
import { RequestError } from "./requests.ts";
import { malformedReason } from "./tolerant.ts";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { answerStatus, driverErrorStatus, invalidArgument, notLeader, statusError, type StatusError } from "./status.ts";

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
export function toStatus(ctx: NodeContext, method: string, error: unknown): StatusError {
  if (error instanceof Failure) return error.status;
  if (error instanceof RequestError) return invalidArgument(error.message);
  const status = driverErrorStatus(error, ctx.leaderHint());
  if (status.code === grpc.status.INTERNAL) ctx.logger.error({ err: error, method }, "request failed unexpectedly");
  return status;
}

/** Wraps an async handler body: its value is the response, its exception the status. */
export function unary<Req, Res>(
  ctx: NodeContext,
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

/** Throws the answer's status if it is an error answer. */
export function expectOk(answer: Answer): Exclude<Answer, { kind: "error" }> {
  if (isError(answer)) throw new Failure(answerStatus(answer));
  return answer;
}

export function unexpected(answer: Answer, what: string): never {
  fail("ERROR_REASON_INTERNAL", `unexpected answer "${answer.kind}" to ${what}`);
}

/** Writes go to the leader only; elsewhere UNAVAILABLE names the leader when known. */
export function requireLeader(ctx: NodeContext): void {
  if (!ctx.isLeader()) throw new Failure(notLeader(ctx.leaderHint()));
}

/** One batcher per driver: the proposals of concurrent requests travel together. */
const batchers = new WeakMap<Driver<EntryResult>, ProposalBatcher<{ index: number; result: EntryResult }>>();

function batcherOf(driver: Driver<EntryResult>): ProposalBatcher<{ index: number; result: EntryResult }> {
  let batcher = batchers.get(driver);
  if (!batcher) {
    batcher = new ProposalBatcher((data) => driver.propose(data), (flush) => setImmediate(flush));
    batchers.set(driver, batcher);
  }
  return batcher;
}

/** Proposes one command (with the others of this event-loop turn) and waits until it is committed and applied here. */
export async function propose(ctx: NodeContext, cmd: Command): Promise<{ index: number; outcome: ApplyOutcome }> {
  requireLeader(ctx);
  const { index, result } = await batcherOf(ctx.driver).submit(encodeCommand(cmd));
  if (!result) fail("ERROR_REASON_INTERNAL", `entry ${index} carried no command`);
  return { index, outcome: result };
}

/** A linearizable read point: resolves once this node applied everything committed when the read began. */
export async function linearizable(ctx: NodeContext): Promise<void> {
  await ctx.driver.readIndex();
}
