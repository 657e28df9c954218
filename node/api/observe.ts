// Observe: an election's changes in log order, made from the lock events Watch streams. A
// new leader, a new value, or no leader; the end of a lead that a candidate took over in
// the same entry (a resign, a handoff, an expiry with candidates waiting) is no change of
// "who leads" worth a gap, so it is sent as the new leader alone. A stream that starts now
// first gets the state at its start (a linearizable read), then every change after it.
import { ANONYMOUS, type Caller } from "../auth/caller.ts";
import { callerOfCall, stillReads } from "./callers.ts";
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import { decodeObserve } from "../../proto/codec/requests.ts";
import { encodeElectionEvent } from "../../proto/codec/answers.ts";
import type { ElectionEvent, EndReason, Leadership } from "../../proto/lock-values.ts";
import type { LockEvent } from "../lock/index.ts";
import { leadershipOf } from "../host/read-answers.ts";
import type { LockReader } from "../host/node-host.ts";
import type { ServiceContext } from "./context.ts";
import { fail, toStatus } from "./handler.ts";
import { malformedReason } from "./tolerant.ts";
import { CURRENT_INDEX_METADATA_KEY } from "./status.ts";
import type { EventView, WatchCall } from "./watch-hub.ts";

const END_OF: Readonly<Record<string, EndReason>> = {
  released: "released",
  sessionClosed: "sessionClosed",
  sessionExpired: "sessionExpired",
  revoked: "revoked",
};

/**
 * The events of one election as Observe sends them. `clientNameOf` names a session for
 * display (looked up as the event is sent; "" once the session is gone).
 */
export function electionView(
  election: string,
  clientNameOf: (sessionId: bigint) => string,
): EventView<ElectionEvent> {
  const leadership = (e: LockEvent): Leadership => ({
    sessionId: e.sessionId,
    clientName: clientNameOf(e.sessionId),
    token: e.token,
    sinceIndex: BigInt(e.index),
    value: e.holderData ?? "",
  });
  return {
    prefix: election,
    // Only the election's own grants: a name may be a lock before or after it is an election.
    takes: (e) => e.lock === election && e.mode === "leader",
    message(e, next) {
      const index = BigInt(e.index);
      if (e.type === "acquired") return { kind: "leader", index, leader: leadership(e) };
      if (e.type === "proclaimed") {
        // The value event names the lead as it began; `sinceIndex` is not this entry's.
        return { kind: "value", index, leader: { ...leadership(e), sinceIndex: tokenIndexOf(e) } };
      }
      // A lead that ends with a new leader in the same entry: the new leader says it all.
      if (next !== undefined && next.index === e.index && next.type === "acquired") return null;
      const reason = e.ended === "handedOff" ? "handedOff" : (END_OF[e.type] ?? "released");
      return { kind: "noLeader", index, ended: { reason, token: e.token } };
    },
  };
}

/** The log index of a token (its low 48 bits): where the lead began. */
function tokenIndexOf(e: LockEvent): bigint {
  return e.token & ((1n << 48n) - 1n);
}

/** The election's state as the first event of a stream that starts now. */
export function currentElectionEvent(
  election: string,
  state: LockReader,
): { event: ElectionEvent; kind: "election" | "other" } {
  const page = state.lockPage(election, {
    holders: { limit: 1, maxBytes: 64 * 1024 },
    waiters: { limit: 0, maxBytes: 0 },
  });
  const index = BigInt(state.appliedIndex);
  const inUse = page.holderCount + page.waiterCount > 0;
  const kind = !inUse || page.kind === "election" ? "election" : "other";
  const event: ElectionEvent =
    page.holder && kind === "election"
      ? { kind: "leader", index, leader: leadershipOf(page.holder) }
      : { kind: "noLeader", index };
  return { event, kind };
}

/** The Observe call as the hub writes to it: election events, encoded as they go out. */
class ObserveCall implements WatchCall<ElectionEvent> {
  constructor(
    private readonly call: grpc.ServerWritableStream<
      palisade.v1.ObserveRequest,
      palisade.v1.ElectionEvent
    >,
  ) {}

  on(event: "cancelled" | "close" | "drain", listener: () => void): unknown {
    return this.call.on(event, listener);
  }

  emit(event: "error", status: grpc.StatusObject | grpc.ServiceError): boolean {
    return this.call.emit(event, status);
  }

  write(event: ElectionEvent): boolean {
    return this.call.write(encodeElectionEvent(event));
  }
}

/**
 * Starts an Observe of `election` into `sink`: from `fromIndex` (a resume), or from now
 * with the state first. `started` is told the index the stream starts after, before any
 * event is written (a gRPC call sends it as a header). Throws a RequestFailure to refuse.
 */
export async function startObserve(
  ctx: ServiceContext,
  sink: WatchCall<ElectionEvent>,
  election: string,
  fromIndex: bigint,
  started: (applied: number) => void,
  caller: Caller = ANONYMOUS,
): Promise<void> {
  const gate = ctx.locks.gate;
  gate.require(caller, "Observe", "read", election);
  const clientNameOf = (id: bigint): string => ctx.host.state.getSession(id)?.clientName ?? "";
  const view: EventView<ElectionEvent> = {
    ...electionView(election, clientNameOf),
    stillAllowed: () => stillReads(gate, caller, election, "Observe"),
  };
  if (fromIndex > 0n) {
    const applied = ctx.host.state.appliedIndex;
    started(applied);
    ctx.watch.subscribe(sink, view, Number(fromIndex), applied);
    return;
  }
  // The state at a linearizable read, then (in the same turn, so nothing applies in
  // between) every change after the index it was read at.
  await ctx.locks.readAt(() => null);
  const now = currentElectionEvent(election, ctx.host.state);
  if (now.kind === "other")
    fail("ERROR_REASON_KIND_MISMATCH", `${election} is in use as a lock, not as an election`);
  started(Number(now.event.index));
  sink.write(now.event);
  ctx.watch.subscribe(sink, view, 0, Number(now.event.index));
}

export function observe(
  ctx: ServiceContext,
): grpc.handleServerStreamingCall<palisade.v1.ObserveRequest, palisade.v1.ElectionEvent> {
  return async (call) => {
    try {
      const malformed = malformedReason(call.request);
      if (malformed !== null)
        fail(
          "ERROR_REASON_MALFORMED_REQUEST",
          `the request is not a valid Observe message: ${malformed}`,
        );
      const { election, fromIndex } = decodeObserve(call.request);
      const caller = callerOfCall(ctx.locks.gate, call, "Observe");
      await startObserve(
        ctx,
        new ObserveCall(call),
        election,
        fromIndex,
        (applied) => sendIndex(call, applied),
        caller,
      );
    } catch (error) {
      call.emit("error", toStatus(ctx, "Observe", error));
    }
  };
}

function sendIndex(call: grpc.ServerWritableStream<unknown, unknown>, applied: number): void {
  const headers = new grpc.Metadata();
  headers.set(CURRENT_INDEX_METADATA_KEY, String(applied));
  call.sendMetadata(headers);
}
