// One request of the Stream RPC from its bytes to its answer's bytes, apart from any
// stream's state (flow control, the in-flight table, the rate budget): the request decoded,
// its call served by the node's dispatcher and its answer, or its failure, encoded under a
// frame's size. The node's client streams (lock-stream.ts) run every request through these,
// and so does the simulator's node, so simulated clients meet the shipped framing and codec.
import { status as Status } from "@grpc/grpc-js";
import Long from "long";
import { palisade } from "../../proto/gen/palisade.js";
import { encodeFailure, type CallFailure } from "../../proto/codec/answers.ts";
import {
  callOfField,
  decodeRequest,
  encodeAnswer,
  type CallName,
  type StreamField,
  type WireRequestOf,
} from "../../proto/lock-calls.ts";
import { entryBytes } from "../../proto/stream-frames.ts";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { RequestFailure } from "../host/failures.ts";
import type { LockRequests } from "../host/lock-requests.ts";
import type { ServiceContext } from "./context.ts";
import { callFailure } from "./handler.ts";
import { callFailureOf } from "./status.ts";

const pb = palisade.v1;

/** A StreamAnswer without its id: the call's answer field, or its failure. */
export type Result = Omit<palisade.v1.StreamAnswer.$Properties, "id">;

/** The node's dispatcher of calls (LockRequests.serve). */
export type Serve = LockRequests["serve"];

/** What answering a request needs of the node: its leader hint and its logger. */
export type CallContext = Pick<ServiceContext, "host" | "logger">;

export function failed(reason: ErrorReasonName, message: string): Result {
  return { failure: encodeFailure(callFailureOf(new RequestFailure(reason, message))) };
}

/** A size limit's failure of one call: RESOURCE_EXHAUSTED with no reason, as grpc-js answers a unary call over its message limit. */
export function tooLarge(message: string): Result {
  const failure: CallFailure = {
    code: Status.RESOURCE_EXHAUSTED,
    reason: null,
    message,
    leader: null,
  };
  return { failure: encodeFailure(failure) };
}

/** A StreamRequest read: a call to serve, a Forget, or a request answered as it stands. */
export type StreamRequestRead =
  | {
      readonly kind: "call";
      readonly name: CallName;
      readonly field: StreamField;
      readonly body: unknown;
    }
  | { readonly kind: "forget" }
  | { readonly kind: "answer"; readonly result: Result };

/** Reads an encoded StreamRequest; throws (protobufjs's error) when the bytes are not one, which ends the stream. */
export function readStreamRequest(bytes: Uint8Array, id: string): StreamRequestRead {
  const request = pb.StreamRequest.decode(bytes);
  const field = request.call;
  if (field === "forget") return { kind: "forget" };
  const name = field === undefined || field === null ? undefined : callOfField(field);
  if (field === undefined || field === null || name === undefined) {
    return {
      kind: "answer",
      result: failed("ERROR_REASON_MALFORMED_REQUEST", `request ${id} carries no call`),
    };
  }
  return { kind: "call", name, field, body: request[field] };
}

/**
 * Decodes a call's request, serves it and encodes its answer; any failure (a request the
 * codec refuses included) fails the call alone. `sent`: the request message's bytes as
 * received, when known.
 */
export async function runCall<N extends CallName>(
  ctx: CallContext,
  serve: Serve,
  name: N,
  field: StreamField,
  body: unknown,
  detached: AbortSignal | undefined,
  sent?: Uint8Array,
): Promise<Result> {
  try {
    const request = decodeRequest(name, body as WireRequestOf<N>);
    return { [field]: encodeAnswer(name, await serve(name, request, detached, sent)) };
  } catch (error) {
    return { failure: encodeFailure(callFailure(ctx, name, error)) };
  }
}

function encodeEntry(ctx: CallContext, id: Long, result: Result): Uint8Array {
  try {
    return pb.StreamAnswer.encode({ id, ...result }).finish();
  } catch (error) {
    ctx.logger.error({ err: error }, "a stream answer could not be encoded");
    return pb.StreamAnswer.encode({
      id,
      failure: {
        code: Status.INTERNAL,
        reason: pb.ErrorReason.ERROR_REASON_INTERNAL,
        message: "the answer could not be encoded",
      },
    }).finish();
  }
}

/** The encoded StreamAnswer of request `id`; an answer too large for a frame of `maxFrameBytes` fails its call alone. */
export function encodeStreamAnswer(
  ctx: CallContext,
  id: string,
  result: Result,
  maxFrameBytes: number,
): Uint8Array {
  // Ids below 10^15 are exact as numbers: no string parsing into a Long.
  const wireId = id.length <= 15 ? Long.fromNumber(Number(id), true) : Long.fromString(id, true);
  const bytes = encodeEntry(ctx, wireId, result);
  if (entryBytes(bytes.byteLength) <= maxFrameBytes) return bytes;
  return encodeEntry(
    ctx,
    wireId,
    tooLarge(
      `the answer to request ${id} is ${bytes.byteLength} bytes, more than the ${maxFrameBytes} of one message (ask for less)`,
    ),
  );
}
