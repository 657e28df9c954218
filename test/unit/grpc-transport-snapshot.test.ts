// Snapshots larger than one message travel in chunks, reassembled and checked by the receiver.
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { InstallSnapshot, Message } from "../../node/raft/types.ts";
import { encodeRaftBatch as encodeBatch, encodeSnapshotChunk } from "../../node/transport/codec.ts";
import { GrpcTransport, addRaftService } from "../../node/transport/grpc-transport.ts";
import { SeededRandom } from "../../node/util/rng.ts";
import { crc32 } from "node:zlib";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function pair(maxMessageBytes: number) {
  const received: Message[] = [];
  const b = new GrpcTransport({ selfId: 2, clusterId: "c", peers: new Map(), maxMessageBytes, backoff: { initialMs: 5, maxMs: 20 } });
  b.onMessage((m) => received.push(m));
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  addRaftService(server, b);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const a = new GrpcTransport({ selfId: 1, clusterId: "c", peers: new Map([[2, `127.0.0.1:${port}`]]), maxMessageBytes, backoff: { initialMs: 5, maxMs: 20 } });
  cleanups.push(async () => {
    await a.close();
    await b.close();
    await new Promise<void>((r) => server.tryShutdown(() => r()));
  });
  return { a, b, received };
}

function bigSnapshot(bytes: number, index = 500): InstallSnapshot {
  const rng = new SeededRandom(7);
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = rng.int(0, 255);
  return { type: "snapshot", from: 1, to: 2, term: 4, snapshot: { meta: { index, term: 3, membership: { voters: [1, 2, 3], learners: [] } }, data } };
}

describe("chunked InstallSnapshot", () => {
  it("sends a snapshot far above the message limit in chunks, with heartbeats still flowing", async () => {
    const { a, received } = await pair(64 * 1024);
    const snap = bigSnapshot(1_000_000);
    a.send([snap, { type: "heartbeat", from: 1, to: 2, term: 4, commit: 0, round: 0 }]);
    await vi.waitFor(() => expect(received.filter((m) => m.type === "snapshot")).toHaveLength(1), { timeout: 10_000 });
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
});

