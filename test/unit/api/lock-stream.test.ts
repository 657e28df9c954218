// The node's end of the Stream RPC on a scripted duplex call: answers matched by id, the
// answers of one turn in frames bounded by bytes, the in-flight cap (which waiting Acquires
// do not fill, and every queued answer counts against), the client's flow control, and the
// work one turn takes from a frame.
import { AccessGate } from "../../../node/host/access-gate.ts";
import { AccessState } from "../../../node/auth/access-state.ts";
import { EventEmitter } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { palisade } from "../../../proto/gen/palisade.js";
import {
  MAX_KEEPALIVE_SESSION_IDS,
  REASON_METADATA_KEY,
  STREAM_MAX_FRAME_BYTES,
  toU64,
} from "../../../proto/wire.ts";
import { KEEPALIVE_IDS_PER_TOKEN } from "../../../node/api/interceptors.ts";
import { RateLimiter } from "../../../node/host/rate-limiter.ts";
import type { ServiceContext } from "../../../node/api/context.ts";
import {
  DEFAULT_STREAM_LIMITS,
  lockStream,
  STREAM_TURN_UNITS,
  type Serve,
  type StreamLimits,
  type StreamOptions,
} from "../../../node/api/lock-stream.ts";
import type { AnswerOf, CallName, RequestOf } from "../../../proto/lock-calls.ts";
import { createLogger } from "../../../node/util/logger.ts";

const pb = palisade.v1;

/** A server duplex call that records what the node writes, pauses and ends. */
class ScriptedCall extends EventEmitter {
  readonly written: palisade.v1.ServerFrame[] = [];
  /** The encoded size of each frame written. */
  readonly writtenBytes: number[] = [];
  paused = false;
  ended = false;
  ok = true;
  /** What the next writes return (false: the client's window is full). */
  room = true;
  /** Frames the client sent while the call was paused: a paused call delivers nothing until resumed. */
  private readonly held: unknown[] = [];
  write(bytes: Uint8Array): boolean {
    // As the client sees it: decoded.
    this.writtenBytes.push(bytes.byteLength);
    this.written.push(pb.ServerFrame.decode(bytes));
    return this.room;
  }
  /** The client sends a frame: delivered now, or once the node reads again. */
  send(frame: unknown): void {
    if (this.paused) this.held.push(frame);
    else this.emit("data", frame);
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
    while (!this.paused && this.held.length > 0) this.emit("data", this.held.shift());
  }
  end(): void {
    this.ended = true;
  }
  /** The client's address as grpc-js names it. */
  peer = "ipv4:127.0.0.1:5000";
  getPeer(): string {
    return this.peer;
  }
  getAuthContext(): object {
    return {};
  }
  /** The call's metadata: no bearer token (an anonymous caller of a cluster without TLS). */
  metadata = new grpc.Metadata();
  /** The ids answered so far, in the order they were written. */
  answeredIds(): number[] {
    return this.written.flatMap((f) => f.answers.map((a) => Number(a.id)));
  }
  /** The answer to request `id`, if written. */
  answerTo(id: number): palisade.v1.IStreamAnswer | undefined {
    return this.written.flatMap((f) => f.answers).find((a) => Number(a.id) === id);
  }
}

interface Deferred {
  resolve: () => void;
  reject: (e: unknown) => void;
  detached: AbortSignal | undefined;
}

/** What the scripted calls were asked: the method of each call, and the session ids each KeepAlive carried. */
interface Asked {
  methods: string[];
  keepAliveIds: number[];
}

/**
 * A dispatcher that answers only when the test says so. GetLock answers with a holder whose
 * client name is as long as the lock name says ("size:N"), for answers of a chosen size.
 */
function scriptedCalls(): { calls: Serve; open: Deferred[]; asked: Asked } {
  const open: Deferred[] = [];
  const asked: Asked = { methods: [], keepAliveIds: [] };
  const pending = <T>(method: string, answer: T, detached?: AbortSignal): Promise<T> => {
    asked.methods.push(method);
    return new Promise<T>((resolve, reject) =>
      open.push({ resolve: () => resolve(answer), reject, detached }),
    );
  };
  const holder = { sessionId: 1n, clientName: "", token: 7n, grantedIndex: 7n };
  const handlers: Partial<{
    [K in CallName]: (req: RequestOf<K>, detached?: AbortSignal) => Promise<AnswerOf<K>>;
  }> = {
    GetLock: (req) => {
      const size = /^size:(\d+)$/.exec(req.lock)?.[1];
      const big =
        size === undefined ? {} : { holder: { ...holder, clientName: "x".repeat(Number(size)) } };
      return pending("GetLock", {
        lock: "a",
        ...big,
        waiters: [],
        holderCount: size === undefined ? 0 : 1,
        waiterCount: 0,
      });
    },
    Acquire: (_req, detached) =>
      pending(
        "Acquire",
        {
          kind: "granted" as const,
          token: 7n,
          holder,
          grants: [{ lock: "l", token: 7n, mode: "exclusive" as const }],
        },
        detached,
      ),
    CancelWait: () => pending("CancelWait", { outcome: "cancelled" as const }),
    KeepAlive: (req) => {
      asked.keepAliveIds.push(req.sessionIds.length);
      return pending("KeepAlive", { sessions: [] });
    },
  };
  const calls = (<N extends CallName>(
    name: N,
    request: RequestOf<N>,
    detached?: AbortSignal,
  ): Promise<AnswerOf<N>> => {
    const handler = handlers[name];
    return handler === undefined
      ? Promise.reject(new Error(`no ${name} in this test`))
      : handler(request, detached);
  }) as Serve;
  return { calls, open, asked };
}

const logger = createLogger({ nodeId: 1, level: "silent" });
const ctx = {
  host: { leaderHint: () => "" },
  logger,
  // A cluster without TLS and without a policy: every caller is anonymous and may do anything.
  locks: {
    gate: new AccessGate({
      tls: false,
      certIdentity: "cn",
      admins: [],
      state: () => new AccessState(),
      wallMs: () => 0,
      logger,
    }),
  },
} as unknown as ServiceContext;

const LIMITS: StreamLimits = { ...DEFAULT_STREAM_LIMITS, maxInFlight: 8, maxRequestsPerFrame: 100 };

function start(
  limits: Partial<StreamLimits> = {},
  options: Omit<StreamOptions, "limits"> = {},
): { call: ScriptedCall; open: Deferred[]; asked: Asked } {
  const { calls, open, asked } = scriptedCalls();
  const call = new ScriptedCall();
  lockStream(ctx, calls, { ...options, limits: { ...LIMITS, ...limits } })(
    call as unknown as Parameters<ReturnType<typeof lockStream>>[0],
  );
  return { call, open, asked };
}

/** A ClientFrame as the node receives it: its bytes. */
function frame(...requests: palisade.v1.StreamRequest.$Properties[]): Uint8Array {
  return pb.ClientFrame.encode({ requests }).finish();
}

const getLock = (id: number, lock = "a"): palisade.v1.StreamRequest.$Properties => ({
  id: toU64(id),
  getLock: { lock },
});
const acquire = (id: number): palisade.v1.StreamRequest.$Properties => ({
  id: toU64(id),
  acquire: { sessionId: toU64(9), lock: `l${id}`, seq: toU64(id), waitMs: toU64(60_000) },
});
const keepAlive = (id: number, ids: number): palisade.v1.StreamRequest.$Properties => ({
  id: toU64(id),
  keepAlive: { sessionIds: Array.from({ length: ids }, (_, i) => toU64(1_000 + i)) },
});
/** Lets settled calls reach the outbox and the outbox's flush run (it is scheduled after them). */
const turn = async (): Promise<void> => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe("the node's end of a client stream", () => {
  it("answers each request by its id, the answers of one turn in one frame", async () => {
    const { call, open } = start();
    call.send(frame(getLock(11), getLock(12), getLock(13)));
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
    call.send(frame(...Array.from({ length: 8 }, (_, i) => getLock(i + 1))));
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
    call.send(frame(getLock(1)));
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(1); // written, but the window is now full
    call.send(frame(getLock(2), getLock(3), getLock(4), getLock(5)));
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
    call.send(
      frame({
        id: toU64(5),
        acquire: { sessionId: toU64(9), lock: "a", seq: toU64(1), waitMs: toU64(1_000) },
      }),
    );
    call.send(frame({ id: toU64(5), forget: {} }));
    expect(open[0]!.detached?.aborted).toBe(true);
    open[0]!.resolve();
    call.send(frame(getLock(6)));
    open[1]!.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([6]);
  });

  it("answers a request that carries no call with a failure and goes on", async () => {
    const { call, open } = start();
    call.send(frame({ id: toU64(3) }, getLock(4)));
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
    call.send(frame(getLock(1)));
    call.send(frame(getLock(1)));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe(status.INVALID_ARGUMENT);
    expect(errors[0]!.metadata.get(REASON_METADATA_KEY)).toEqual([
      "ERROR_REASON_MALFORMED_REQUEST",
    ]);
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(0); // nothing more is written on a failed stream
  });

  it("ends the stream with RESOURCE_EXHAUSTED when a frame carries more requests than allowed, running none of them", () => {
    const { call, open } = start({ maxInFlight: 8, maxRequestsPerFrame: 3 });
    const errors: grpc.ServiceError[] = [];
    call.on("error", (e: grpc.ServiceError) => errors.push(e));
    call.send(frame(getLock(1), getLock(2), getLock(3), getLock(4)));
    expect(errors.map((e) => e.code)).toEqual([status.RESOURCE_EXHAUSTED]);
    expect(open).toHaveLength(0);
  });

  it("ends the stream once the client finished sending and every answer left", async () => {
    const { call, open } = start();
    call.send(frame(getLock(1)));
    call.emit("end");
    expect(call.ended).toBe(false);
    open[0]!.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([1]);
    expect(call.ended).toBe(true);
  });

  it("a waiting Acquire never stops the stream reading its client's keepalives, cancels and reads", async () => {
    const { call, asked } = start({ maxInFlight: 8 });
    // More waits than the in-flight cap, none of them answered.
    call.send(frame(...Array.from({ length: 12 }, (_, i) => acquire(i + 1))));
    call.send(
      frame(
        keepAlive(100, 3),
        { id: toU64(101), cancelWait: { sessionId: toU64(9), lock: "l1", acquireSeq: toU64(1) } },
        getLock(102),
      ),
    );
    await turn();
    expect(call.paused).toBe(false);
    expect(asked.methods.filter((m) => m !== "Acquire")).toEqual([
      "KeepAlive",
      "CancelWait",
      "GetLock",
    ]);
  });

  it("refuses an Acquire past the stream's wait limit with RESOURCE_EXHAUSTED and its own reason, and reads on", async () => {
    const { call, asked } = start({ maxInFlight: 8, maxWaits: 4 });
    call.send(frame(...Array.from({ length: 5 }, (_, i) => acquire(i + 1)), getLock(6)));
    await turn();
    expect(asked.methods).toEqual(["Acquire", "Acquire", "Acquire", "Acquire", "GetLock"]);
    const refused = call.answerTo(5);
    expect(refused?.failure?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refused?.failure?.reason).toBe(pb.ErrorReason.ERROR_REASON_TOO_MANY_WAITS_ON_STREAM);
    expect(call.paused).toBe(false);
  });

  it("counts answers to requests that carry no call against the cap of a client that does not read", async () => {
    const { call, open } = start({ maxInFlight: 8 });
    call.room = false;
    call.send(frame(getLock(1)));
    open[0]!.resolve();
    await turn();
    expect(call.written).toHaveLength(1); // written, and now the client's window is full
    for (let f = 0; f < 10; f++)
      call.send(frame(...Array.from({ length: 4 }, (_, i) => ({ id: toU64(100 + 4 * f + i) }))));
    await turn();
    expect(call.paused).toBe(true);
    expect(call.written).toHaveLength(1);
    call.room = true;
    call.emit("drain");
    // Every request the client sent is answered, none dropped, once it reads again (a cap's worth a turn).
    for (let t = 0; t < 20 && call.answeredIds().length < 41; t++) await turn();
    expect(call.answeredIds()).toHaveLength(41);
  });

  it("counts answers refused by the rate limit against the cap of a client that does not read", async () => {
    const { call, asked } = start({ maxInFlight: 8 }, { takeBudget: () => false });
    call.room = false;
    call.send(frame(getLock(1)));
    await turn();
    expect(call.written).toHaveLength(1);
    for (let f = 0; f < 10; f++)
      call.send(frame(...Array.from({ length: 4 }, (_, i) => getLock(100 + 4 * f + i))));
    await turn();
    expect(asked.methods).toEqual([]);
    expect(call.paused).toBe(true);
  });

  it("splits the answers of one turn into frames under the byte limit", async () => {
    const { call, open } = start({ maxAnswerFrameBytes: 2_000 });
    call.send(frame(...Array.from({ length: 6 }, (_, i) => getLock(i + 1, "size:600"))));
    for (const d of open) d.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(call.writtenBytes.length).toBeGreaterThan(1);
    for (const bytes of call.writtenBytes) expect(bytes).toBeLessThanOrEqual(2_000);
  });

  it("fails only the call whose answer is too large for any frame, with RESOURCE_EXHAUSTED", async () => {
    const { call, open } = start({ maxAnswerFrameBytes: 2_000 });
    call.send(frame(getLock(1, "size:100"), getLock(2, "size:5000"), getLock(3, "size:100")));
    for (const d of open) d.resolve();
    await turn();
    expect(call.answeredIds()).toEqual([1, 2, 3]);
    expect(call.answerTo(1)?.result).toBe("getLock");
    expect(call.answerTo(2)?.failure?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(call.answerTo(3)?.result).toBe("getLock");
    for (const bytes of call.writtenBytes) expect(bytes).toBeLessThanOrEqual(2_000);
  });

  it("handles at most STREAM_TURN_UNITS session ids of keepalives per event-loop turn, and all of them in the end", async () => {
    const { call, asked, open } = start({ maxInFlight: 100 });
    const sum = (): number => asked.keepAliveIds.reduce((a, b) => a + b, 0);
    // 12 requests of 1,000 ids: 12,000 ids in one frame.
    call.send(frame(...Array.from({ length: 12 }, (_, i) => keepAlive(i + 1, 1_000))));
    const perTurn = [sum()];
    for (let t = 0; t < 50 && sum() < 12_000; t++) {
      const before = sum();
      for (const d of open.splice(0)) d.resolve();
      await new Promise((r) => setImmediate(r));
      perTurn.push(sum() - before);
    }
    expect(sum()).toBe(12_000);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(STREAM_TURN_UNITS);
  });

  it("runs at most one request's worth of keepalive session ids at a time, their answers being made together", async () => {
    const { call, asked, open } = start({ maxInFlight: 100 });
    const sum = (): number => asked.keepAliveIds.reduce((a, b) => a + b, 0);
    call.send(frame(...Array.from({ length: 6 }, (_, i) => keepAlive(i + 1, 1_500)), getLock(7)));
    await turn();
    expect(sum()).toBe(3_000); // a third would pass MAX_KEEPALIVE_SESSION_IDS
    expect(asked.methods).toContain("GetLock"); // other calls go on meanwhile
    for (let t = 0; t < 10 && sum() < 9_000; t++) {
      const before = sum();
      for (const d of open.splice(0)) d.resolve(); // the running ones end; the next may start
      await turn();
      expect(sum() - before).toBeLessThanOrEqual(MAX_KEEPALIVE_SESSION_IDS);
    }
    expect(sum()).toBe(9_000);
  });

  it("charges a batched keepalive's session ids to the client's rate budget", async () => {
    const costs: number[] = [];
    const { call } = start({}, { takeBudget: (_key, cost) => (costs.push(cost ?? 1), true) });
    call.send(frame(keepAlive(1, 95), getLock(2), keepAlive(3, 5)));
    await turn();
    expect(costs).toEqual([Math.ceil(95 / KEEPALIVE_IDS_PER_TOKEN), 1, 1]);
  });

  it("spends one connection's rate budget only on its own requests: another process on the same host keeps its sessions alive", async () => {
    const limiter = new RateLimiter({ ratePerSecond: 1e-9, burst: 5, now: () => 0 });
    const takeBudget = (key: string, cost: number): boolean => limiter.take(key, cost);
    const flood = start({ maxRequestsPerFrame: 1_000 }, { takeBudget });
    flood.call.peer = "ipv4:127.0.0.1:5000";
    flood.call.send(frame(...Array.from({ length: 100 }, (_, i) => getLock(i + 1))));
    await turn();
    const refused = flood.call.written
      .flatMap((f) => f.answers)
      .filter((a) => a.failure?.reason === pb.ErrorReason.ERROR_REASON_RATE_LIMITED);
    expect(refused.length).toBeGreaterThan(0);
    const keeper = start({}, { takeBudget });
    keeper.call.peer = "ipv4:127.0.0.1:5001";
    keeper.call.send(frame(keepAlive(1, 40)));
    await turn();
    expect(keeper.call.written.flatMap((f) => f.answers).map((a) => a.failure?.reason)).toEqual([]);
    expect(keeper.asked.methods).toEqual(["KeepAlive"]);
  });

  it("ends the stream with RESOURCE_EXHAUSTED when a frame is larger than a stream frame may be, running none of its requests", async () => {
    const { call, asked } = start({ maxRequestsPerFrame: 10_000 });
    const errors: grpc.ServiceError[] = [];
    call.on("error", (e: grpc.ServiceError) => errors.push(e));
    const name = "n".repeat(250);
    call.send(
      frame(
        ...Array.from({ length: Math.ceil(STREAM_MAX_FRAME_BYTES / 250) + 10 }, (_, i) =>
          getLock(i + 1, name),
        ),
      ),
    );
    await turn();
    expect(errors.map((e) => e.code)).toEqual([status.RESOURCE_EXHAUSTED]);
    expect(asked.methods).toEqual([]);
  });

  it("refuses a keepalive of more session ids than a request may carry, and only it, without running it", async () => {
    const { call, asked, open } = start();
    call.send(frame(keepAlive(1, MAX_KEEPALIVE_SESSION_IDS + 1), getLock(2)));
    await turn();
    open[0]?.resolve();
    await turn();
    expect(asked.methods).toEqual(["GetLock"]);
    expect(call.answerTo(1)?.failure?.code).toBe(status.INVALID_ARGUMENT);
    expect(call.answerTo(1)?.failure?.message).toMatch(/session_ids: 4097 ids, more than 4096/);
    expect(call.answerTo(2)?.result).toBe("getLock");
  });

  it("handles a keepalive that arrives while earlier calls of the client still queue before them", async () => {
    const { call, asked } = start({ maxInFlight: 100_000, maxRequestsPerFrame: 10_000 });
    const queued = STREAM_TURN_UNITS + 500;
    call.send(frame(...Array.from({ length: queued }, (_, i) => getLock(i + 1))));
    expect(asked.methods.length).toBeLessThan(queued); // the rest wait for the next turn
    call.send(frame(keepAlive(100_000, 3)));
    for (let t = 0; t < 10 && asked.methods.length < queued + 1; t++)
      await new Promise((r) => setImmediate(r));
    expect(asked.methods).toHaveLength(queued + 1);
    expect(asked.methods.indexOf("KeepAlive")).toBeLessThan(queued);
    expect(asked.methods.at(-1)).toBe("GetLock");
  });
});
