import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import {
  GrpcTransport,
  MAX_UNACKED_BATCHES,
  addRaftService,
} from "../../../node/transport/grpc-transport.ts";
import { raftServiceDefinition } from "../../../proto/grpc.ts";
import type { GrpcTransportOptions } from "../../../node/transport/grpc-transport.ts";
import type { Message } from "../../../node/raft/types.ts";
import { eventually } from "../eventually.ts";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(
  transport: GrpcTransport | null,
): Promise<{ server: grpc.Server; address: string }> {
  const server = new grpc.Server();
  if (transport) addRaftService(server, transport);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  cleanups.push(async () => {
    // Closing the transport ends the peers' streams, which a graceful shutdown waits for.
    await transport?.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });
  return { server, address: `127.0.0.1:${port}` };
}

function makeTransport(
  options: Partial<GrpcTransportOptions> & Pick<GrpcTransportOptions, "selfId">,
): GrpcTransport {
  const transport = new GrpcTransport({
    clusterId: "cluster-a",
    peers: new Map(),
    backoff: { initialMs: 5, maxMs: 20 },
    ...options,
  });
  cleanups.push(() => transport.close());
  return transport;
}

/** A transport listening on its own server, with the messages it received. */
async function node(options: Partial<GrpcTransportOptions> & Pick<GrpcTransportOptions, "selfId">) {
  const transport = makeTransport(options);
  const received: Message[] = [];
  transport.onMessage((message) => received.push(message));
  const { address } = await listen(transport);
  return { transport, received, address };
}

const heartbeat = (from: number, to: number, commit: number): Message => ({
  type: "heartbeat",
  from,
  to,
  term: 3,
  commit,
  round: 0,
});

describe("GrpcTransport", () => {
  it("exchanges messages between two nodes", async () => {
    const a = await node({ selfId: 1 });
    const b = await node({ selfId: 2 });
    a.transport.addPeer(2, b.address);
    b.transport.addPeer(1, a.address);

    a.transport.send([heartbeat(1, 2, 10), heartbeat(1, 2, 11)]);
    await eventually(() => expect(b.received).toHaveLength(2));
    expect(b.received).toEqual([heartbeat(1, 2, 10), heartbeat(1, 2, 11)]);

    const answer: Message = { type: "heartbeatResp", from: 2, to: 1, term: 3, round: 0 };
    b.transport.send([answer]);
    await eventually(() => expect(a.received).toEqual([answer]));
    expect(a.transport.unreachable()).toEqual([]);
    // Counted once the receiver acknowledges, which it may do a little later.
    await eventually(() => expect(a.transport.stats().sentMessages).toBe(2));
  });

  it("splits a large backlog into batches under the size limit and keeps the order", async () => {
    const b = await node({ selfId: 2, maxMessageBytes: 16 * 1024 });
    const a = makeTransport({
      selfId: 1,
      maxMessageBytes: 16 * 1024,
      maxQueuedBytesPerPeer: 1024 * 1024,
      peers: new Map([[2, b.address]]),
      // Acknowledgements are not the subject here, and the counts below are of acknowledged
      // batches: a loaded machine may take longer than the default 2 s to acknowledge, which
      // ends the stream and counts its batches as lost (Raft would send them again).
      callTimeoutMs: 60_000,
    });
    const appends: Message[] = [];
    for (let i = 1; i <= 40; i++) {
      appends.push({
        type: "append",
        from: 1,
        to: 2,
        term: 1,
        prevIndex: i - 1,
        prevTerm: 1,
        commit: 0,
        entries: [{ term: 1, index: i, kind: "normal", data: new Uint8Array(1000).fill(i) }],
      });
    }
    a.send(appends);
    await eventually(() => expect(b.received).toHaveLength(40));
    expect(b.received).toEqual(appends);
    await eventually(() => expect(a.stats().sentMessages).toBe(40));
    expect(a.stats().sentBatches).toBeGreaterThan(1);

    // A message other than a snapshot that alone exceeds the limit is dropped (snapshots go in chunks).
    const tooBig: Message = {
      type: "append",
      from: 1,
      to: 2,
      term: 1,
      prevIndex: 40,
      prevTerm: 1,
      commit: 0,
      entries: [{ term: 1, index: 41, kind: "normal", data: new Uint8Array(20 * 1024) }],
    };
    a.send([tooBig]);
    expect(a.stats().droppedOversized).toBe(1);
    expect(a.queued(2).messages).toBe(0);
  });

  it("drops batches from another cluster and counts them", async () => {
    const b = await node({ selfId: 2 });
    const stranger = makeTransport({
      selfId: 1,
      clusterId: "cluster-b",
      peers: new Map([[2, b.address]]),
    });
    stranger.send([heartbeat(1, 2, 1)]);
    await eventually(() => expect(b.transport.stats().droppedForeignCluster).toBe(1));
    await eventually(() => expect(stranger.stats().failedBatches).toBeGreaterThanOrEqual(1));
    expect(b.received).toEqual([]);
    expect(stranger.unreachable()).toEqual([2]);
  });

  it("drops batches addressed to another node and counts them", async () => {
    const b = await node({ selfId: 2 });
    // This sender believes node 3 lives at b's address.
    const confused = makeTransport({ selfId: 1, peers: new Map([[3, b.address]]) });
    confused.send([heartbeat(1, 3, 1)]);
    await eventually(() => expect(b.transport.stats().droppedWrongTarget).toBe(1));
    expect(b.received).toEqual([]);
  });

  it("refuses malformed batches with INVALID_ARGUMENT", async () => {
    const b = await node({ selfId: 2 });
    const outcome = b.transport.receive(new Uint8Array([0x0a, 0xff, 0xff, 0xff]));
    expect(outcome).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    expect(b.transport.stats().droppedInvalid).toBe(1);
    expect(b.received).toEqual([]);
  });

  it("keeps the queue for a dead peer within its bound", async () => {
    // A port that was just released: nothing listens there.
    const { server, address } = await listen(null);
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    const maxQueuedPerPeer = 8;
    const a = makeTransport({ selfId: 1, maxQueuedPerPeer, peers: new Map([[9, address]]) });

    let sent = 0;
    for (let round = 0; round < 50; round++) {
      const burst = Array.from({ length: 20 }, () => heartbeat(1, 9, ++sent));
      a.send(burst);
      expect(a.queued(9).messages).toBeLessThanOrEqual(maxQueuedPerPeer);
      if (round % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => expect(a.unreachable()).toEqual([9]));
    a.send([heartbeat(1, 9, ++sent)]);
    const stats = a.stats();
    const queued = a.queued(9);
    expect(queued.messages).toBeLessThanOrEqual(maxQueuedPerPeer);
    // On the stream: at most MAX_UNACKED_BATCHES batches, each at most a full queue.
    expect(queued.inFlight).toBeLessThanOrEqual(MAX_UNACKED_BATCHES * maxQueuedPerPeer);
    // Every message is queued, on the wire, lost with a failed batch or dropped for lack of room.
    expect(stats.droppedQueueFull + stats.lostMessages + queued.messages + queued.inFlight).toBe(
      sent,
    );
    expect(stats.droppedQueueFull).toBeGreaterThan(0);
    // A failed batch never held more than the queue could.
    expect(stats.lostMessages).toBeLessThanOrEqual(stats.failedBatches * maxQueuedPerPeer);
    expect(stats.sentMessages).toBe(0);
  });

  it("drops messages for unknown peers and everything after close", async () => {
    const a = makeTransport({ selfId: 1 });
    a.send([heartbeat(1, 5, 1)]);
    expect(a.stats().droppedUnknownPeer).toBe(1);
    a.addPeer(6, "127.0.0.1:1");
    a.send([{ ...heartbeat(1, 6, 1), term: -1 }]);
    expect(a.stats().droppedUnencodable).toBe(1);
    await a.close();
    a.send([heartbeat(1, 5, 2)]);
    expect(a.stats().droppedUnknownPeer).toBe(1);
  });
  it("gives up a stream whose batches go unacknowledged and counts them lost", async () => {
    // A receiver that takes batches and never acknowledges them, as a paused process would.
    const server = new grpc.Server();
    server.addService(raftServiceDefinition, {
      Stream: (call: grpc.ServerDuplexStream<Uint8Array, unknown>) =>
        call.on("data", () => undefined),
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      );
    });
    cleanups.push(async () => server.forceShutdown());
    const a = makeTransport({
      selfId: 1,
      callTimeoutMs: 100,
      peers: new Map([[2, `127.0.0.1:${port}`]]),
    });
    a.send([heartbeat(1, 2, 1), heartbeat(1, 2, 2)]);
    await eventually(() => expect(a.unreachable()).toEqual([2]));
    const stats = a.stats();
    expect(stats.failedBatches).toBeGreaterThanOrEqual(1);
    expect(stats.lostMessages).toBe(2);
    expect(stats.sentMessages).toBe(0);
  });
});

describe("GrpcTransport reconnects", () => {
  it("tries a backing-off link again as soon as its peer is heard from, so a restarted node is reachable at once", async () => {
    // Node 2's address is known before it listens: node 1's first attempt fails, and its link
    // then backs off far longer than the test may wait.
    const placeholder = await listen(null);
    const address = placeholder.address;
    await new Promise<void>((resolve) => placeholder.server.tryShutdown(() => resolve()));
    const one = await node({
      selfId: 1,
      peers: new Map([[2, address]]),
      backoff: { initialMs: 300_000, maxMs: 300_000 },
    });
    one.transport.send([heartbeat(1, 2, 1)]);
    await eventually(() => expect(one.transport.unreachable()).toEqual([2]));
    one.transport.send([heartbeat(1, 2, 2)]);
    // Node 2 comes up on that address and sends to node 1.
    const two = makeTransport({ selfId: 2, peers: new Map([[1, one.address]]) });
    const received: Message[] = [];
    two.onMessage((m) => received.push(m));
    const server = new grpc.Server();
    addRaftService(server, two);
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    cleanups.push(async () => {
      await two.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    });
    two.send([heartbeat(2, 1, 7)]);
    // Node 1 heard from node 2, so what it queued meanwhile reaches node 2 now, not in 5 minutes.
    await eventually(() =>
      expect(received.map((m) => m.type === "heartbeat" && m.commit)).toEqual([2]),
    );
    await eventually(() => expect(one.transport.unreachable()).toEqual([]));
  });
});

describe("GrpcTransport peer-down reports", () => {
  /** A RaftService/Stream server in a child process that takes batches and never acknowledges them. */
  async function silentPeerProcess(): Promise<{ address: string; kill: () => void }> {
    const { spawn } = await import("node:child_process");
    const script = `
      const grpc = require("@grpc/grpc-js");
      const id = (b) => b;
      const server = new grpc.Server();
      server.addService({ s: { path: ${JSON.stringify(raftServiceDefinition.Stream.path)}, requestStream: true, responseStream: true,
        requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id } }, { s: (call) => call.on("data", () => {}) });
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => process.stdout.write(String(port) + "\\n"));`;
    const child = spawn(process.execPath, ["-e", script], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const kill = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    cleanups.push(async () => kill());
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim()));
      child.once("exit", () => reject(new Error("peer process exited")));
    });
    return { address: `127.0.0.1:${port}`, kill };
  }

  it("reports a peer whose process died (connection reset), not one that only stopped answering", async () => {
    const peer = await silentPeerProcess();
    const a = makeTransport({ selfId: 1, callTimeoutMs: 200, peers: new Map([[2, peer.address]]) });
    const down: number[] = [];
    a.onPeerDown((id) => down.push(id));
    a.send([heartbeat(1, 2, 1)]);
    // The batch is never acknowledged: after the call timeout the stream is given up, which is no report.
    await eventually(() => expect(a.stats().failedBatches).toBeGreaterThan(0));
    expect(down).toEqual([]);
    a.send([heartbeat(1, 2, 2)]);
    await new Promise((r) => setTimeout(r, 100));
    peer.kill();
    await eventually(() => expect(down).toContain(2));
  });
});

describe("GrpcTransport peer round trips", () => {
  it("times a batch to its ack without the time the receiver held the ack back", async () => {
    const b = await node({ selfId: 2 });
    const rtts: Array<{ peer: number; seconds: number }> = [];
    const a = makeTransport({
      selfId: 1,
      peers: new Map([[2, b.address]]),
      onPeerRtt: (peer, seconds) => rtts.push({ peer, seconds }),
    });
    const started = performance.now();
    // One batch alone: the receiver holds its ack until its ack timer fires (20 ms).
    a.send([heartbeat(1, 2, 1)]);
    await eventually(() => expect(rtts).toHaveLength(1));
    const elapsedS = (performance.now() - started) / 1000;
    expect(rtts[0]!.peer).toBe(2);
    expect(rtts[0]!.seconds).toBeGreaterThanOrEqual(0);
    // The ack timer's 20 ms (less a millisecond of timer rounding) is taken off: without
    // the receiver's held time the round trip would be the whole elapsed time.
    expect(rtts[0]!.seconds).toBeLessThanOrEqual(elapsedS - 0.015);
  });
});
