// The client's end of the Stream RPC against a scripted in-process server: calls of one
// turn in as few frames as a node's limits allow, answers matched by id, timeouts,
// forgetting, broken streams, and requests too large for the stream.
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { CallStream, StreamCallError } from "../../../client/call-stream.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { lockServiceDefinition } from "../../../proto/grpc.ts";
import { STREAM_MAX_FRAME_BYTES, STREAM_MAX_REQUEST_BYTES, toU64 } from "../../../proto/wire.ts";
import { eventually } from "../eventually.ts";

const pb = palisade.v1;
const L = lockServiceDefinition;

type Duplex = grpc.ServerDuplexStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>;

/** A server whose Stream handler the test scripts; it records every frame it gets. */
async function scriptedServer(
  onFrame: (frame: palisade.v1.ClientFrame, call: Duplex) => void,
): Promise<{
  address: string;
  frames: palisade.v1.ClientFrame[];
  frameBytes: number[];
  streams: number;
  stop(): void;
}> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  const state = { frames: [] as palisade.v1.ClientFrame[], frameBytes: [] as number[], streams: 0 };
  const stream = {
    ...L.Stream,
    requestDeserialize: (bytes: Buffer) => (
      state.frameBytes.push(bytes.byteLength),
      L.Stream.requestDeserialize(bytes)
    ),
  };
  server.addService(
    { Stream: stream },
    {
      Stream: (call: Duplex) => {
        state.streams++;
        call.on("data", (frame: palisade.v1.ClientFrame) => {
          state.frames.push(frame);
          onFrame(frame, call);
        });
        call.on("end", () => call.end());
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    get frames() {
      return state.frames;
    },
    get frameBytes() {
      return state.frameBytes;
    },
    get streams() {
      return state.streams;
    },
    stop: () => server.forceShutdown(),
  };
}

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function streamTo(address: string): CallStream {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const stream = new CallStream(client, address);
  cleanup.push(() => {
    stream.close();
    client.close();
  });
  return stream;
}

const getLock = (lock: string): palisade.v1.GetLockRequest => pb.GetLockRequest.create({ lock });

describe("a client's call stream", () => {
  it("sends the calls of one turn in one frame and matches answers to calls by id", async () => {
    const server = await scriptedServer((frame, call) => {
      // Answers in reverse order, each echoing its lock name.
      const answers = [...frame.requests]
        .reverse()
        .map((r) => ({ id: r.id, getLock: { lock: r.getLock?.lock ?? "" } }));
      call.write(pb.ServerFrame.create({ answers }));
    });
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    const names = ["a", "b", "c", "d"];
    const answers = await Promise.all(names.map((n) => stream.send("GetLock", getLock(n), 2_000)));
    expect(answers.map((a) => a.lock)).toEqual(names);
    expect(server.frames).toHaveLength(1);
    expect(server.frames[0]!.requests.map((r) => r.call)).toEqual([
      "getLock",
      "getLock",
      "getLock",
      "getLock",
    ]);
  });

  it("a failure answer becomes an error with the status, reason and leader it carries", async () => {
    const server = await scriptedServer((frame, call) => {
      call.write(
        pb.ServerFrame.create({
          answers: frame.requests.map((r) => ({
            id: r.id,
            failure: {
              code: grpc.status.UNAVAILABLE,
              reason: pb.ErrorReason.ERROR_REASON_NOT_LEADER,
              message: "not the leader",
              leader: "127.0.0.1:7001",
            },
          })),
        }),
      );
    });
    cleanup.push(server.stop);
    const error = await streamTo(server.address)
      .send("GetLock", getLock("a"), 2_000)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamCallError);
    const e = error as StreamCallError;
    expect(e.failure).toEqual({
      code: grpc.status.UNAVAILABLE,
      reason: "ERROR_REASON_NOT_LEADER",
      message: "not the leader",
      leader: "127.0.0.1:7001",
    });
  });

  it("a call not answered in time fails as DEADLINE_EXCEEDED and the node is told to forget it", async () => {
    const server = await scriptedServer(() => undefined); // never answers
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    const error = (await stream
      .send("GetLock", getLock("a"), 100)
      .catch((e: unknown) => e)) as StreamCallError;
    expect(error.failure.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await eventually(() => expect(server.frames.length).toBeGreaterThanOrEqual(2));
    const sent = server.frames.flatMap((f) => f.requests);
    expect(sent.map((r) => r.call)).toEqual(["getLock", "forget"]);
    expect(String(sent[1]!.id)).toBe(String(sent[0]!.id));
  });

  it("calls in flight when the stream breaks fail as UNAVAILABLE, and the next call opens a new stream", async () => {
    let answer = false;
    const server = await scriptedServer((frame, call) => {
      if (!answer) {
        call.emit("error", { code: grpc.status.INTERNAL, details: "gone" });
        return;
      }
      call.write(
        pb.ServerFrame.create({
          answers: frame.requests.map((r) => ({ id: r.id, getLock: { lock: "ok" } })),
        }),
      );
    });
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    const failed = await Promise.all(
      [
        stream.send("GetLock", getLock("a"), 2_000),
        stream.send("GetLock", getLock("b"), 2_000),
      ].map((p) => p.catch((e: unknown) => e as StreamCallError)),
    );
    expect(failed.map((e) => (e as StreamCallError).failure.code)).toEqual([
      grpc.status.UNAVAILABLE,
      grpc.status.UNAVAILABLE,
    ]);
    answer = true;
    expect((await stream.send("GetLock", getLock("c"), 2_000)).lock).toBe("ok");
    expect(server.streams).toBe(2);
  });

  it("a call cancelled to move to another node rejects at once and is forgotten on the node", async () => {
    const server = await scriptedServer(() => undefined);
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    const attempt = { moved: false, cancel: () => undefined as void };
    const pending = stream.send(
      "Acquire",
      pb.AcquireRequest.create({
        sessionId: toU64(1),
        lock: "a",
        seq: toU64(1),
        waitMs: toU64(5_000),
      }),
      10_000,
      attempt,
    );
    // Cancelled once the node has it, so there is something on the node to forget.
    await eventually(() => expect(server.frames.length).toBe(1));
    attempt.cancel();
    const error = (await pending.catch((e: unknown) => e)) as StreamCallError;
    expect(error.failure.code).toBe(grpc.status.CANCELLED);
    await eventually(() => expect(server.frames.length).toBeGreaterThanOrEqual(2));
    expect(server.frames.flatMap((f) => f.requests).map((r) => r.call)).toEqual([
      "acquire",
      "forget",
    ]);
  });

  it("splits the calls of one turn into frames within a node's limits on bytes", async () => {
    const server = await scriptedServer((frame, call) => {
      call.write(
        pb.ServerFrame.create({
          answers: frame.requests.map((r) => ({ id: r.id, getLock: { lock: "ok" } })),
        }),
      );
    });
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    // 1,000 requests of about 2 KB: 2 MB in one turn.
    const name = "n".repeat(2_000);
    await Promise.all(
      Array.from({ length: 1_000 }, () => stream.send("GetLock", getLock(name), 10_000)),
    );
    expect(server.frames.flatMap((f) => f.requests)).toHaveLength(1_000);
    expect(server.frameBytes.length).toBeGreaterThan(1);
    for (const bytes of server.frameBytes)
      expect(bytes).toBeLessThanOrEqual(STREAM_MAX_FRAME_BYTES);
  });

  it("does not send a request larger than a stream request may be, failing it for the caller to send unary", async () => {
    const server = await scriptedServer((frame, call) => {
      call.write(
        pb.ServerFrame.create({
          answers: frame.requests.map((r) => ({ id: r.id, getLock: { lock: "ok" } })),
        }),
      );
    });
    cleanup.push(server.stop);
    const stream = streamTo(server.address);
    const error = (await stream
      .send("GetLock", getLock("n".repeat(STREAM_MAX_REQUEST_BYTES)), 2_000)
      .catch((e: unknown) => e)) as StreamCallError;
    expect(error.failure.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(error.tooLargeForStream).toBe(true);
    expect((await stream.send("GetLock", getLock("small"), 2_000)).lock).toBe("ok");
    expect(server.frames.flatMap((f) => f.requests).map((r) => r.getLock?.lock)).toEqual(["small"]);
  });
});
