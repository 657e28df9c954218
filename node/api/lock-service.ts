// The LockService as gRPC serves it: one unary handler per call of the table
// (proto/lock-calls.ts), each a thin adapter (decode the request, serve it with the node's
// dispatcher, encode the answer), the Stream RPC carrying the same calls (lock-stream.ts),
// Watch, and Observe (observe.ts).
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import { sentBytesOf, type LockServiceHandlers } from "../../proto/grpc.ts";
import { lockField, numberField, stringField } from "../../proto/codec/fields.ts";
import {
  CALL_NAMES,
  decodeRequest,
  encodeAnswer,
  type CallName,
  type WireAnswerOf,
  type WireRequestOf,
} from "../../proto/lock-calls.ts";
import type { ServiceContext } from "./context.ts";
import { fail, toStatus, unary } from "./handler.ts";
import { lockStream } from "./lock-stream.ts";
import { observe } from "./observe.ts";
import { malformedReason } from "./tolerant.ts";
import { CURRENT_INDEX_METADATA_KEY } from "./status.ts";
import { callerOfCall, stillReads } from "./callers.ts";

/** A call's unary handler: a caller that goes away detaches it (an Acquire then only stops listening). */
function unaryCall<N extends CallName>(
  ctx: ServiceContext,
  name: N,
): grpc.handleUnaryCall<WireRequestOf<N>, WireAnswerOf<N>> {
  return unary(ctx, name, async (call) => {
    const detached = new AbortController();
    const onCancelled = (): void => detached.abort();
    call.on("cancelled", onCancelled);
    try {
      const caller = callerOfCall(ctx.locks.gate, call, name);
      const answer = await ctx.locks.serve(
        name,
        decodeRequest(name, call.request),
        detached.signal,
        sentBytesOf(call.request),
        caller,
      );
      return encodeAnswer(name, answer);
    } finally {
      call.removeListener("cancelled", onCancelled);
    }
  });
}

/** Watch's prefix and the first index to stream. */
export function parseWatch(req: palisade.v1.WatchRequest): { prefix: string; fromIndex: number } {
  const prefix = stringField(req.prefix, "prefix");
  return {
    prefix: prefix === "" ? "" : lockField(prefix, "prefix"),
    fromIndex: numberField(req.fromIndex, "from_index"),
  };
}

function watch(
  ctx: ServiceContext,
): grpc.handleServerStreamingCall<palisade.v1.WatchRequest, palisade.v1.WatchEvent> {
  return (call) => {
    try {
      const malformed = malformedReason(call.request);
      if (malformed !== null)
        fail(
          "ERROR_REASON_MALFORMED_REQUEST",
          `the request is not a valid Watch message: ${malformed}`,
        );
      const { prefix, fromIndex } = parseWatch(call.request);
      const caller = callerOfCall(ctx.locks.gate, call, "Watch");
      const gate = ctx.locks.gate;
      gate.require(caller, "Watch", "read", prefix);
      // The applied index the stream starts from, so a client that asked for "now" can
      // resume at a concrete index on another node.
      const applied = ctx.host.state.appliedIndex;
      const headers = new grpc.Metadata();
      headers.set(CURRENT_INDEX_METADATA_KEY, String(applied));
      call.sendMetadata(headers);
      // A policy change or a token's revoke that takes this right away ends the stream.
      ctx.watch.attach(call, prefix, fromIndex, applied, () => stillReads(gate, caller, prefix));
    } catch (error) {
      call.emit("error", toStatus(ctx, "Watch", error));
    }
  };
}

export function lockServiceHandlers(ctx: ServiceContext): LockServiceHandlers {
  const calls = Object.fromEntries(
    CALL_NAMES.map((name) => [name, unaryCall(ctx, name)]),
  ) as unknown as Omit<LockServiceHandlers, "Watch" | "Observe" | "Stream">;
  const serve = ctx.locks.serve.bind(ctx.locks);
  return {
    ...calls,
    Watch: watch(ctx),
    Observe: observe(ctx),
    Stream: lockStream(ctx, serve, ctx.streams),
  };
}
