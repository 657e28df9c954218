// The node's end of the Stream RPC on a scripted duplex call: answers matched by id, the
// answers of one turn in one frame, the in-flight cap and the client's flow control.
import { EventEmitter } from "node:events";
import type * as grpc from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { REASON_METADATA_KEY, toU64 } from "../../proto/wire.ts";
import type { ServiceContext } from "../../node/server/context.ts";
import type { LockCalls } from "../../node/server/lock-service.ts";
import { lockStream, type StreamLimits } from "../../node/server/lock-stream.ts";
import { createLogger } from "../../node/util/logger.ts";

const pb = palisade.v1;

/** A server duplex call that records what the node writes, pauses and ends. */
class ScriptedCall extends EventEmitter {
  readonly written: palisade.v1.ServerFrame[] = [];
  paused = false;
  ended = false;
  ok = true;
  /** What the next writes return (false: the client's window is full). */
  room = true;
  write(frame: palisade.v1.ServerFrame): boolean {
    // As the client sees it: encoded and decoded again.
    this.written.push(pb.ServerFrame.decode(pb.ServerFrame.encode(frame).finish()));
    return this.room;
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  end(): void {
    this.ended = true;
  }
  getPeer(): string {
    return "ipv4:127.0.0.1:5000";
  }
  getAuthContext(): object {
    return {};
  }
  /** The ids answered so far, in the order they were written. */
  answeredIds(): number[] {
    return this.written.flatMap((f) => f.answers.map((a) => Number(a.id)));
  }
}

interface Deferred {
  resolve: () => void;
  reject: (e: unknown) => void;
  detached: AbortSignal | undefined;
}

/** LockCalls whose GetLock and Acquire answer only when the test says so. */
function scriptedCalls(): { calls: LockCalls; open: Deferred[] } {
  const open: Deferred[] = [];
  const pending = <T>(answer: T, detached?: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => open.push({ resolve: () => resolve(answer), reject, detached }));
  const calls = {
    GetLock: () => pending(pb.GetLockResponse.create({ lock: "a" })),
    Acquire: (_req: palisade.v1.AcquireRequest, detached: AbortSignal) => pending(pb.AcquireResponse.create({ acquired: true, token: toU64(7) }), detached),
  } as unknown as LockCalls;
  return { calls, open };
}

const ctx = {
  host: { leaderHint: () => "" },
  logger: createLogger({ nodeId: 1, level: "silent" }),
} as unknown as ServiceContext;

function start(limits: StreamLimits = { maxInFlight: 8, maxRequestsPerFrame: 100 }): { call: ScriptedCall; open: Deferred[] } {
  const { calls, open } = scriptedCalls();
  const call = new ScriptedCall();
  lockStream(ctx, calls, { limits })(call as unknown as grpc.ServerDuplexStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>);
  return { call, open };
}

function frame(...requests: palisade.v1.StreamRequest.$Properties[]): palisade.v1.ClientFrame {
  return pb.ClientFrame.decode(pb.ClientFrame.encode({ requests }).finish());
}

const getLock = (id: number): palisade.v1.StreamRequest.$Properties => ({ id: toU64(id), getLock: { lock: "a" } });
/** Lets settled calls reach the outbox and the outbox's flush run (it is scheduled after them). */
const turn = async (): Promise<void> => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe("the node's end of a client stream", () => {
  it("answers each request by its id, the answers of one turn in one frame", async () => {
    const { call, open } = start();
    call.emit("data", frame(getLock(11), getLock(12), getLock(13)));
    expect(open).toHaveLength(3);
    open[2]!.resolve();
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(1);
    expect(call.answeredIds()).toEqual([13, 11]);
    expect(call.written[0]!.answers[0]!.result).toBe("getLock");
    open[1]!.resolve();
    await turn();
    expect(call.written).toHaveLength(2);
    expect(call.answeredIds()).toEqual([13, 11, 12]);
  });

  it("stops reading at its in-flight cap and reads again once half of them were answered", async () => {
    const { call, open } = start({ maxInFlight: 8, maxRequestsPerFrame: 100 });
    call.emit("data", frame(...Array.from({ length: 8 }, (_, i) => getLock(i + 1))));
    expect(call.paused).toBe(true);
    for (const d of open.slice(0, 3)) d.resolve();
    await turn();
    expect(call.answeredIds()).toHaveLength(3);
    expect(call.paused).toBe(true); // 5 left, more than half the cap
    open[3]!.resolve();
    await turn();
    expect(call.paused).toBe(false);
  });

  it("holds answers while the client does not read them, counting them against the cap, and sends them on drain", async () => {
    const { call, open } = start({ maxInFlight: 4, maxRequestsPerFrame: 100 });
    call.room = false;
    call.emit("data", frame(getLock(1)));
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(1); // written, but the window is now full
    call.emit("data", frame(getLock(2), getLock(3), getLock(4), getLock(5)));
    for (const d of open.slice(1)) d.resolve();
    await turn();
    expect(call.written).toHaveLength(1); // held: the client is not reading
    expect(call.paused).toBe(true); // 4 answered but unsent requests are at the cap
    call.room = true;
    call.emit("drain");
    await turn();
    expect(call.answeredIds()).toEqual([1, 2, 3, 4, 5]);
    expect(call.paused).toBe(false);
  });

  it("does not answer a request the client forgot, and tells its wait the caller left", async () => {
    const { call, open } = start();
    call.emit("data", frame({ id: toU64(5), acquire: { sessionId: toU64(9), lock: "a", seq: toU64(1), waitMs: toU64(1_000) } }));
    call.emit("data", frame({ id: toU64(5), forget: {} }));
    expect(open[0]!.detached?.aborted).toBe(true);
    open[0]!.resolve();
    call.emit("data", frame(getLock(6)));
    open[1]!.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([6]);
  });

  it("answers a request that carries no call with a failure and goes on", async () => {
    const { call, open } = start();
    call.emit("data", frame({ id: toU64(3) }, getLock(4)));
    open[0]!.resolve();
    await turn();
    const answers = call.written.flatMap((f) => f.answers);
    const failed = answers.find((a) => Number(a.id) === 3);
    expect(failed?.result).toBe("failure");
    expect(failed?.failure?.code).toBe(status.INVALID_ARGUMENT);
    expect(failed?.failure?.reason).toBe(pb.ErrorReason.ERROR_REASON_MALFORMED_REQUEST);
    expect(answers.map((a) => Number(a.id))).toContain(4);
  });

  it("ends only the stream, with INVALID_ARGUMENT, when a request reuses an id still in flight", async () => {
    const { call, open } = start();
    const errors: grpc.ServiceError[] = [];
    call.on("error", (e: grpc.ServiceError) => errors.push(e));
    call.emit("data", frame(getLock(1)));
    call.emit("data", frame(getLock(1)));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe(status.INVALID_ARGUMENT);
    expect(errors[0]!.metadata.get(REASON_METADATA_KEY)).toEqual(["ERROR_REASON_MALFORMED_REQUEST"]);
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(0); // nothing more is written on a failed stream
  });

  it("ends the stream with RESOURCE_EXHAUSTED when a frame carries more requests than allowed, running none of them", () => {
    const { call, open } = start({ maxInFlight: 8, maxRequestsPerFrame: 3 });
    const errors: grpc.ServiceError[] = [];
    call.on("error", (e: grpc.ServiceError) => errors.push(e));
    call.emit("data", frame(getLock(1), getLock(2), getLock(3), getLock(4)));
    expect(errors.map((e) => e.code)).toEqual([status.RESOURCE_EXHAUSTED]);
    expect(open).toHaveLength(0);
  });

  it("ends the stream once the client finished sending and every answer left", async () => {
    const { call, open } = start();
    call.emit("data", frame(getLock(1)));
    call.emit("end");
    expect(call.ended).toBe(false);
    open[0]!.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([1]);
    expect(call.ended).toBe(true);
  });
});
