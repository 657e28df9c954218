// Snapshots larger than one message travel in chunks, reassembled and checked by the receiver.
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { palisade } from "../../../proto/gen/palisade.js";
import { raftServiceDefinition } from "../../../proto/grpc.ts";
import type { InstallSnapshot, Message } from "../../../node/raft/types.ts";
import {
  decodeRaftBatch,
  encodeRaftBatch as encodeBatch,
  encodeSnapshotChunk,
  isSnapshotChunk,
} from "../../../node/transport/raft-codec.ts";
import { GrpcTransport, addRaftService } from "../../../node/transport/grpc-transport.ts";
import { SeededRandom } from "../../../node/util/rng.ts";
import { crc32 } from "node:zlib";
import { eventually } from "../eventually.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function pair(maxMessageBytes: number) {
  const received: Message[] = [];
  const b = new GrpcTransport({
    selfId: 2,
    clusterId: "c",
    peers: new Map(),
    maxMessageBytes,
    backoff: { initialMs: 5, maxMs: 20 },
  });
  b.onMessage((m) => received.push(m));
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  addRaftService(server, b);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const a = new GrpcTransport({
    selfId: 1,
    clusterId: "c",
    peers: new Map([[2, `127.0.0.1:${port}`]]),
    maxMessageBytes,
    backoff: { initialMs: 5, maxMs: 20 },
  });
  cleanups.push(async () => {
    await a.close();
    await b.close();
    await new Promise<void>((r) => server.tryShutdown(() => r()));
  });
  return { a, b, received };
}

/**
 * Like pair(), with the receiver's stream handler wrapped: it records the offset of every
 * snapshot chunk that reaches it and, when the `breakAt`-th chunk arrives, breaks the stream
 * (once), as a connection reset would: what the sender has not seen acknowledged is lost to it.
 */
async function recordingPair(maxMessageBytes: number, breakAt = 0) {
  const received: Message[] = [];
  const offsets: number[] = [];
  const b = new GrpcTransport({
    selfId: 2,
    clusterId: "c",
    peers: new Map(),
    maxMessageBytes,
    backoff: { initialMs: 5, maxMs: 20 },
  });
  b.onMessage((m) => received.push(m));
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  server.addService(raftServiceDefinition, {
    Stream: (call: grpc.ServerDuplexStream<Uint8Array, palisade.v1.RaftAck>) => {
      call.on("data", (bytes: Uint8Array) => {
        for (const m of decodeRaftBatch(bytes).messages) {
          if (!isSnapshotChunk(m)) continue;
          offsets.push(m.chunk.offset);
          if (offsets.length === breakAt)
            call.emit("error", { code: grpc.status.ABORTED, details: "connection broke" });
        }
      });
      b.serveStream(call);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const a = new GrpcTransport({
    selfId: 1,
    clusterId: "c",
    peers: new Map([[2, `127.0.0.1:${port}`]]),
    maxMessageBytes,
    backoff: { initialMs: 5, maxMs: 20 },
  });
  cleanups.push(async () => {
    await a.close();
    await b.close();
    server.forceShutdown();
  });
  return { a, b, received, offsets };
}

function bigSnapshot(bytes: number, index = 500): InstallSnapshot {
  const rng = new SeededRandom(7);
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = rng.int(0, 255);
  return {
    type: "snapshot",
    from: 1,
    to: 2,
    term: 4,
    snapshot: { meta: { index, term: 3, membership: { voters: [1, 2, 3], learners: [] } }, data },
  };
}

describe("chunked InstallSnapshot", () => {
  it("sends a snapshot far above the message limit in chunks, with heartbeats still flowing", async () => {
    const { a, received } = await pair(64 * 1024);
    const snap = bigSnapshot(1_000_000);
    a.send([snap, { type: "heartbeat", from: 1, to: 2, term: 4, commit: 0, round: 0 }]);
    await eventually(() => expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1));
    const got = received.find((m) => m.type === "snapshot") as InstallSnapshot;
    expect(got.snapshot.meta).toEqual(snap.snapshot.meta);
    expect(got.snapshot.data.length).toBe(snap.snapshot.data.length);
    expect(crc32(got.snapshot.data)).toBe(crc32(snap.snapshot.data));
    expect(received.some((m) => m.type === "heartbeat")).toBe(true);
    expect(a.stats().snapshotsChunked).toBe(1);
    expect(a.stats().droppedOversized).toBe(0);
  });

  it("continues a resent snapshot where the receiver stopped, skips a gap, and refuses a wrong checksum", async () => {
    const { b, received } = await pair(64 * 1024);
    const snap = bigSnapshot(100_000);
    const crc = crc32(snap.snapshot.data);
    const chunk = (offset: number, length: number, c = crc): Uint8Array => {
      const header = { clusterId: "c", from: 1, to: 2 };
      return encodeBatch(header, [encodeSnapshotChunk(snap, offset, length, c)]);
    };
    // First attempt stops after two chunks; the resend from 0 continues from byte 40,000.
    b.receive(chunk(0, 20_000));
    b.receive(chunk(20_000, 20_000));
    b.receive(chunk(0, 20_000));
    b.receive(chunk(20_000, 20_000));
    b.receive(chunk(40_000, 60_000));
    expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1);
    // A gap drops what was gathered; nothing is delivered.
    b.receive(chunk(0, 20_000));
    b.receive(chunk(40_000, 60_000));
    expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1);
    // A body whose checksum does not match is never handed to Raft.
    b.receive(chunk(0, 50_000, crc ^ 1));
    b.receive(chunk(50_000, 50_000, crc ^ 1));
    expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1);
  });

  it("does not start a snapshot over when the same one is sent again while it is still in transit", async () => {
    const { a, received, offsets } = await recordingPair(64 * 1024);
    const snap = bigSnapshot(1_000_000);
    a.send([snap]);
    await eventually(() => expect(offsets.length).toBeGreaterThanOrEqual(5), 1);
    // The leader's snapshot state timed out and it sends the same snapshot again (a newer term, even).
    a.send([{ ...snap, term: 5 }]);
    await eventually(() => expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1));
    const got = received.find((m) => m.type === "snapshot") as InstallSnapshot;
    expect(crc32(got.snapshot.data)).toBe(crc32(snap.snapshot.data));
    expect(offsets.filter((o) => o === 0)).toHaveLength(1);
    expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
    expect(a.stats().snapshotsChunked).toBe(1);
  });

  it("resumes after a broken stream from what the receiver acknowledged, and reports progress and the failure", async () => {
    // The receiver acknowledges at the latest every 16 batches: the stream breaks at the 24th
    // chunk, so some chunks are acknowledged by then, and the 24th is not.
    const { a, received, offsets } = await recordingPair(64 * 1024, 24);
    const snap = bigSnapshot(2_000_000);
    const statuses: string[] = [];
    a.onSnapshotStatus((peer, status) => {
      statuses.push(`${peer}:${status}`);
      // What the leader's core does on a failure: probe, be refused, send the snapshot again.
      if (status === "failure") a.send([snap]);
    });
    a.send([snap]);
    await eventually(() => expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1));
    const got = received.find((m) => m.type === "snapshot") as InstallSnapshot;
    expect(crc32(got.snapshot.data)).toBe(crc32(snap.snapshot.data));
    expect(statuses).toContain("2:failure");
    expect(statuses.indexOf("2:progress")).toBeLessThan(statuses.indexOf("2:failure"));
    expect(statuses.at(-1)).toBe("2:progress");
    // After the break the sender went back to the last acknowledged chunk, not to 0.
    const chunk = 32 * 1024;
    const resumedAt = offsets.findIndex((o, i) => i > 0 && o <= offsets[i - 1]!);
    expect(resumedAt).toBeGreaterThanOrEqual(24);
    expect(offsets[resumedAt]).toBeGreaterThan(0);
    expect(offsets[resumedAt]).toBeLessThanOrEqual(23 * chunk);
    expect(offsets.filter((o) => o === 0)).toHaveLength(1);
    expect(a.stats().snapshotsChunked).toBe(1);
  });
});
