// Peer transport over gRPC: batches of Raft messages on one long-lived stream per peer
// (RaftService/Stream: RaftBatch in, RaftAck back). A unary call per batch
// costs an HTTP/2 stream, headers and a deadline timer on both ends, several times the
// work of the messages it carries; a stream message costs a frame. RaftService.Send, one
// batch per call, is still served for senders that use it.
//
// Per peer: a bounded queue of encoded messages (count and bytes). The next batch is
// written once the previous one has left this process, so what queues meanwhile goes out
// together; at most MAX_UNACKED_BATCHES batches wait for their acknowledgement. The
// receiver acknowledges several batches at once (a RaftAck counts the messages of the
// batches it covers, in order), within ACK_DELAY_MS or once ACK_EVERY_BATCHES arrived,
// so an acknowledgement does not wake the sender for every batch. A batch not
// acknowledged within the call timeout, or an error on the stream, ends the stream: its
// unacknowledged messages count as lost and the link backs off exponentially before a new
// stream. When the queue is full the oldest message is dropped: Raft retransmits, and
// fresh messages are worth more than stale ones. So a slow or dead follower costs the
// leader at most one full queue, however long it stays away.
//
// Inbound batches are decoded and validated by the codec; batches of another cluster id
// or addressed to another node are refused and counted.
import * as grpc from "@grpc/grpc-js";
import { raftServiceDefinition, asBuffer } from "../../proto/grpc.ts";
import type { RaftServiceHandlers } from "../../proto/grpc.ts";
import { palisade } from "../../proto/gen/palisade.js";
import type { InstallSnapshot, Message, NodeId } from "../raft/types.ts";
import type { Transport } from "./transport.ts";
import {
  CodecError,
  PER_MESSAGE_OVERHEAD,
  batchHeaderBytes,
  decodeRaftBatch,
  encodeRaftBatch,
  encodeRaftMessage,
  encodeSnapshotChunk,
  isSnapshotChunk,
} from "./codec.ts";
import type { BatchHeader, DecodedBatch, SnapshotChunkMessage } from "./codec.ts";
import { crc32 } from "node:zlib";

export interface GrpcTransportOptions {
  readonly selfId: NodeId;
  readonly clusterId: string;
  /** Peer node id → "host:port". The transport's own id may be present; it is ignored. */
  readonly peers: ReadonlyMap<NodeId, string>;
  /**
   * Largest batch sent, in bytes (default 4 MiB, gRPC's default receive limit). An
   * InstallSnapshot above it travels as chunks of at most half of it, one after another as
   * the stream drains; any other message above it is dropped and counted. The server hosting
   * RaftService must accept at least this much (`grpc.max_receive_message_length`).
   */
  readonly maxMessageBytes?: number;
  /** Largest snapshot body accepted in chunks (default 1 GiB). */
  readonly maxSnapshotBytes?: number;
  /** Messages queued per peer before the oldest are dropped (default 1024). */
  readonly maxQueuedPerPeer?: number;
  /** Bytes queued per peer before the oldest are dropped (default 2 × maxMessageBytes). */
  readonly maxQueuedBytesPerPeer?: number;
  /** How long a batch may wait for its acknowledgement before the stream is given up (default 2000 ms). */
  readonly callTimeoutMs?: number;
  /** Backoff after failed calls: initialMs doubling up to maxMs, with jitter (default 50 ms .. 2 s). */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Channel credentials for peers (default insecure). */
  readonly credentials?: grpc.ChannelCredentials;
  readonly channelOptions?: grpc.ChannelOptions;
}

/** Counters for metrics and tests. All only grow. */
export interface TransportStats {
  sentMessages: number;
  sentBatches: number;
  failedBatches: number;
  /** Messages dropped with a failed batch (Raft retransmits them). */
  lostMessages: number;
  /** Outbound messages dropped because the peer's queue was full. */
  droppedQueueFull: number;
  /** Outbound messages dropped because they alone exceed maxMessageBytes (or a chunked snapshot over maxSnapshotBytes). */
  droppedOversized: number;
  /** Snapshots too large for one message, sent in chunks. */
  snapshotsChunked: number;
  /** Outbound messages with values that cannot go on the wire (a bug in the sender). */
  droppedUnencodable: number;
  /** Outbound messages to a node that is not a known peer. */
  droppedUnknownPeer: number;
  receivedMessages: number;
  /** Inbound batches refused: another cluster id. */
  droppedForeignCluster: number;
  /** Inbound batches refused: addressed to another node id. */
  droppedWrongTarget: number;
  /** Inbound batches refused: malformed or invalid. */
  droppedInvalid: number;
  /** Inbound messages that arrived before a handler was set or after close. */
  droppedNoHandler: number;
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_QUEUED = 1024;
const DEFAULT_CALL_TIMEOUT_MS = 2000;
const DEFAULT_BACKOFF = { initialMs: 50, maxMs: 2000 };
/** Batches written to a stream and not yet acknowledged, at most. */
export const MAX_UNACKED_BATCHES = 64;
/** A receiver acknowledges at the latest this long after a batch arrived... */
const ACK_DELAY_MS = 20;
/** ...or as soon as this many batches arrived since its last acknowledgement. */
const ACK_EVERY_BATCHES = MAX_UNACKED_BATCHES / 4;

/** The streaming method: raw RaftBatch bytes out (the codec validates them), RaftAck back. */
export const raftStreamMethod = {
  path: "/palisade.v1.RaftService/Stream",
  requestStream: true,
  responseStream: true,
  requestSerialize: asBuffer,
  requestDeserialize: (bytes: Buffer): Uint8Array => bytes,
  responseSerialize: (ack: palisade.v1.RaftAck): Buffer => asBuffer(palisade.v1.RaftAck.encode(ack).finish()),
  responseDeserialize: (bytes: Buffer): palisade.v1.RaftAck => palisade.v1.RaftAck.decode(bytes),
  originalName: "stream",
} satisfies grpc.MethodDefinition<Uint8Array, palisade.v1.RaftAck>;

type RaftStream = grpc.ClientDuplexStream<Uint8Array, palisade.v1.RaftAck>;

/** A batch on the wire: how many messages it holds and when it was written. */
interface Unacked {
  readonly count: number;
  readonly sentAt: number;
}

/** A bounded FIFO of encoded messages; drops the oldest when over either bound. */
const EMPTY = new Uint8Array(0);

class PeerQueue {
  /** Slots before `head` are consumed and hold an empty array (so a sent message is not kept). */
  private items: Uint8Array[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  get length(): number {
    return this.items.length - this.head;
  }

  get queuedBytes(): number {
    return this.bytes;
  }

  /** Adds a message; returns how many older messages were dropped to make room. */
  push(message: Uint8Array): number {
    this.items.push(message);
    this.bytes += message.length;
    let dropped = 0;
    while (this.length > this.maxCount || (this.bytes > this.maxBytes && this.length > 1)) {
      this.shift();
      dropped++;
    }
    return dropped;
  }

  /** Takes messages from the front while the batch stays within `budget` bytes (at least one). */
  take(budget: number): Uint8Array[] {
    const batch: Uint8Array[] = [];
    let used = 0;
    while (this.length > 0) {
      const next = this.items[this.head];
      const cost = next.length + PER_MESSAGE_OVERHEAD;
      if (batch.length > 0 && used + cost > budget) break;
      batch.push(next);
      used += cost;
      this.shift();
    }
    return batch;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
    this.bytes = 0;
  }

  private shift(): void {
    const item = this.items[this.head];
    this.bytes -= item.length;
    this.items[this.head] = EMPTY;
    this.head++;
    // Compact now and then so the array does not keep consumed slots forever.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

class PeerLink {
  readonly queue: PeerQueue;
  readonly client: grpc.Client;
  stream: RaftStream | null = null;
  /** A batch is being handed to the stream (the next waits until it has left this process). */
  writing = false;
  /** Batches written to the current stream and not acknowledged yet, oldest first. */
  unacked: Unacked[] = [];
  /** Messages in those batches. */
  inFlight = 0;
  failures = 0;
  retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** A snapshot too large for one message, being sent in chunks: the next offset to send. */
  snapshotOut: { message: InstallSnapshot; offset: number; crc: number } | null = null;
  reachable = true;

  constructor(
    readonly id: NodeId,
    readonly address: string,
    /** Encoded size of this link's batch header. */
    readonly headerBytes: number,
    queue: PeerQueue,
    credentials: grpc.ChannelCredentials,
    channelOptions: grpc.ChannelOptions,
  ) {
    this.queue = queue;
    this.client = new grpc.Client(address, credentials, channelOptions);
  }
}

export class GrpcTransport implements Transport {
  readonly selfId: NodeId;
  readonly clusterId: string;
  private readonly maxMessageBytes: number;
  private readonly maxSnapshotBytes: number;
  /** Snapshots being received in chunks, by sender. */
  private readonly assembling = new Map<NodeId, { index: number; snapTerm: number; total: number; crc: number; body: Uint8Array; received: number }>();
  private readonly maxQueued: number;
  private readonly maxQueuedBytes: number;
  private readonly callTimeoutMs: number;
  private readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  private readonly credentials: grpc.ChannelCredentials;
  private readonly channelOptions: grpc.ChannelOptions;
  private readonly links = new Map<NodeId, PeerLink>();
  private handler: ((message: Message) => void) | null = null;
  private peerDownHandler: ((peer: NodeId) => void) | null = null;
  private closed = false;
  /** Streams from peers being served, ended on close. */
  private readonly inbound = new Set<grpc.ServerDuplexStream<Uint8Array, palisade.v1.RaftAck>>();
  /** Gives up streams whose oldest batch waits too long for its acknowledgement. */
  private readonly ackWatch: ReturnType<typeof setInterval>;
  private readonly counters: TransportStats = {
    sentMessages: 0, sentBatches: 0, failedBatches: 0, lostMessages: 0,
    droppedQueueFull: 0, droppedOversized: 0, snapshotsChunked: 0, droppedUnencodable: 0, droppedUnknownPeer: 0,
    receivedMessages: 0, droppedForeignCluster: 0, droppedWrongTarget: 0,
    droppedInvalid: 0, droppedNoHandler: 0,
  };

  constructor(options: GrpcTransportOptions) {
    if (!Number.isSafeInteger(options.selfId) || options.selfId <= 0) throw new Error(`invalid node id ${options.selfId}`);
    if (options.clusterId === "") throw new Error("cluster id must not be empty");
    this.selfId = options.selfId;
    this.clusterId = options.clusterId;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxSnapshotBytes = options.maxSnapshotBytes ?? 1 << 30;
    this.maxQueued = options.maxQueuedPerPeer ?? DEFAULT_MAX_QUEUED;
    this.maxQueuedBytes = options.maxQueuedBytesPerPeer ?? 2 * this.maxMessageBytes;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.credentials = options.credentials ?? grpc.credentials.createInsecure();
    this.channelOptions = {
      // Channelz bookkeeping costs a few microseconds per message; nothing here reads it.
      "grpc.enable_channelz": 0,
      // Transparent retries would keep a copy of every message of a long-lived stream; Raft retransmits instead.
      "grpc.enable_retries": 0,
      "grpc.max_send_message_length": this.maxMessageBytes,
      "grpc.max_receive_message_length": this.maxMessageBytes,
      ...options.channelOptions,
    };
    if (this.maxQueued < 1 || this.maxMessageBytes < 64) throw new Error("queue and message limits are too small");
    for (const [id, address] of options.peers) this.addPeer(id, address);
    this.ackWatch = setInterval(() => this.checkAcks(), Math.max(10, Math.min(500, this.callTimeoutMs / 4)));
    this.ackWatch.unref?.();
  }

  /** Adds a peer, or moves it to a new address (its queue is dropped). */
  addPeer(id: NodeId, address: string): void {
    if (id === this.selfId || this.closed) return;
    const existing = this.links.get(id);
    if (existing?.address === address) return;
    if (existing) this.removePeer(id);
    const queue = new PeerQueue(this.maxQueued, this.maxQueuedBytes);
    const headerBytes = batchHeaderBytes(this.header(id));
    this.links.set(id, new PeerLink(id, address, headerBytes, queue, this.credentials, this.channelOptions));
  }

  /** Forgets a peer (a removed member): its queue is dropped and its channel closed. */
  removePeer(id: NodeId): void {
    const link = this.links.get(id);
    if (!link) return;
    this.links.delete(id);
    this.shutdownLink(link);
  }

  send(messages: readonly Message[]): void {
    if (this.closed) return;
    const touched = new Set<PeerLink>();
    for (const message of messages) {
      const link = this.links.get(message.to);
      if (!link) {
        this.counters.droppedUnknownPeer++;
        continue;
      }
      let encoded: Uint8Array;
      try {
        encoded = encodeRaftMessage(message);
      } catch (error) {
        if (!(error instanceof CodecError)) throw error;
        this.counters.droppedUnencodable++;
        continue;
      }
      if (encoded.length + PER_MESSAGE_OVERHEAD + link.headerBytes > this.maxMessageBytes) {
        if (message.type === "snapshot") {
          // A newer snapshot for this peer replaces one still being sent.
          link.snapshotOut = { message, offset: 0, crc: crc32(message.snapshot.data) };
          this.counters.snapshotsChunked++;
          touched.add(link);
        } else {
          this.counters.droppedOversized++;
        }
        continue;
      }
      this.counters.droppedQueueFull += link.queue.push(encoded);
      touched.add(link);
    }
    for (const link of touched) this.pump(link);
  }

  onMessage(handler: (message: Message) => void): void {
    this.handler = handler;
  }

  onPeerDown(handler: (peer: NodeId) => void): void {
    this.peerDownHandler = handler;
  }

  unreachable(): NodeId[] {
    return [...this.links.values()].filter((link) => !link.reachable).map((link) => link.id);
  }

  /** A copy of the counters. */
  stats(): TransportStats {
    return { ...this.counters };
  }

  /** Messages waiting for a peer and in its batch on the wire, for diagnostics and tests. */
  queued(peer: NodeId): { messages: number; bytes: number; inFlight: number } {
    const link = this.links.get(peer);
    return { messages: link?.queue.length ?? 0, bytes: link?.queue.queuedBytes ?? 0, inFlight: link?.inFlight ?? 0 };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handler = null;
    clearInterval(this.ackWatch);
    for (const call of this.inbound) call.end();
    this.inbound.clear();
    for (const link of this.links.values()) this.shutdownLink(link);
    this.links.clear();
  }

  /**
   * Handles one inbound batch. Returns how many messages it held and how many were
   * delivered, or a gRPC status with a reason when the batch is refused.
   */
  receive(bytes: Uint8Array): { accepted: number; messages: number } | { code: grpc.status; details: string } {
    let batch: DecodedBatch;
    try {
      batch = decodeRaftBatch(bytes);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      this.counters.droppedInvalid++;
      return { code: grpc.status.INVALID_ARGUMENT, details: error.message };
    }
    if (batch.clusterId !== this.clusterId) {
      this.counters.droppedForeignCluster++;
      return { code: grpc.status.FAILED_PRECONDITION, details: `cluster id "${batch.clusterId}" is not this cluster's` };
    }
    if (batch.to !== this.selfId) {
      this.counters.droppedWrongTarget++;
      return { code: grpc.status.FAILED_PRECONDITION, details: `batch for node ${batch.to} reached node ${this.selfId}` };
    }
    const handler = this.handler;
    if (!handler) {
      this.counters.droppedNoHandler += batch.messages.length;
      return { accepted: 0, messages: batch.messages.length };
    }
    for (const message of batch.messages) {
      this.counters.receivedMessages++;
      if (isSnapshotChunk(message)) {
        const whole = this.assemble(message);
        if (whole) handler(whole);
      } else {
        handler(message);
      }
    }
    return { accepted: batch.messages.length, messages: batch.messages.length };
  }

  /**
   * Serves one inbound stream (the RaftService/Stream handler calls this): each batch is
   * delivered and acknowledged; a refused batch ends the stream with the reason. Inbound
   * streams end when the transport closes, so the server can shut down without waiting.
   */
  serveStream(call: grpc.ServerDuplexStream<Uint8Array, palisade.v1.RaftAck>): void {
    call.on("error", () => undefined);
    if (this.closed) {
      call.end();
      return;
    }
    this.inbound.add(call);
    let refused = false;
    // Messages of the batches received since the last acknowledgement, and how many batches.
    let unackedMessages = 0;
    let unackedBatches = 0;
    let ackTimer: ReturnType<typeof setTimeout> | null = null;
    const acknowledge = (): void => {
      if (ackTimer !== null) clearTimeout(ackTimer);
      ackTimer = null;
      if (unackedBatches === 0 || refused || !this.inbound.has(call)) return;
      call.write(palisade.v1.RaftAck.create({ accepted: unackedMessages }));
      unackedMessages = 0;
      unackedBatches = 0;
    };
    const finish = (status?: { code: grpc.status; details: string }): void => {
      if (ackTimer !== null) clearTimeout(ackTimer);
      ackTimer = null;
      if (!this.inbound.delete(call)) return;
      if (status) call.emit("error", status);
      else call.end();
    };
    call.on("data", (bytes: Uint8Array) => {
      if (refused) return;
      const outcome = this.receive(bytes);
      if (!("accepted" in outcome)) {
        // The sender backs off and opens a new stream.
        refused = true;
        finish({ code: outcome.code, details: outcome.details });
        return;
      }
      unackedMessages += outcome.messages;
      unackedBatches++;
      if (unackedBatches >= ACK_EVERY_BATCHES) acknowledge();
      else ackTimer ??= setTimeout(acknowledge, ACK_DELAY_MS);
    });
    call.on("end", () => finish());
    call.on("cancelled", () => this.inbound.delete(call));
  }

  private header(to: NodeId): BatchHeader {
    return { clusterId: this.clusterId, from: this.selfId, to };
  }

  /** Writes the next batch to a peer unless one is being written, too many wait for acks, or the peer is backing off. */
  private pump(link: PeerLink): void {
    if (this.closed || link.writing || link.retryTimer !== null) return;
    // Snapshot chunks enter the queue one at a time, only when it is empty: the stream's
    // pace is the backpressure, and other messages (heartbeats) still get through.
    if (link.snapshotOut && link.queue.length === 0) this.queueNextChunk(link);
    if (link.queue.length === 0) return;
    if (link.unacked.length >= MAX_UNACKED_BATCHES) return;
    const stream = link.stream ?? this.openStream(link);
    const messages = link.queue.take(this.maxMessageBytes - link.headerBytes);
    const batch = encodeRaftBatch(this.header(link.id), messages);
    link.writing = true;
    link.unacked.push({ count: messages.length, sentAt: performance.now() });
    link.inFlight += messages.length;
    stream.write(batch, () => {
      if (link.stream !== stream) return;
      link.writing = false;
      this.pump(link);
    });
  }

  private queueNextChunk(link: PeerLink): void {
    const out = link.snapshotOut!;
    const body = out.message.snapshot.data;
    const chunkBytes = Math.max(1, Math.floor(this.maxMessageBytes / 2));
    const length = Math.min(chunkBytes, body.length - out.offset);
    link.queue.push(encodeSnapshotChunk(out.message, out.offset, length, out.crc));
    out.offset += length;
    if (out.offset >= body.length) link.snapshotOut = null;
  }

  /**
   * Adds a chunk to the snapshot being received from its sender; returns the whole
   * InstallSnapshot once every byte is there and its CRC-32 matches. A chunk of a newer
   * snapshot starts over; a chunk already held (a resent snapshot) is skipped, so a resend
   * continues where the last attempt stopped; a gap drops what was gathered.
   */
  private assemble(m: SnapshotChunkMessage): InstallSnapshot | null {
    const { offset, total, crc } = m.chunk;
    const { index, term } = m.snapshot.meta;
    if (total > this.maxSnapshotBytes) {
      this.counters.droppedOversized++;
      return null;
    }
    let a = this.assembling.get(m.from);
    if (!a || a.index !== index || a.snapTerm !== term || a.total !== total || a.crc !== crc) {
      if (offset !== 0) return null; // the start of this snapshot was lost: wait for a resend
      a = { index, snapTerm: term, total, crc, body: new Uint8Array(total), received: 0 };
      this.assembling.set(m.from, a);
    }
    if (offset < a.received) return null; // already held
    if (offset > a.received) {
      this.assembling.delete(m.from); // a chunk went missing
      return null;
    }
    a.body.set(m.snapshot.data, offset);
    a.received += m.snapshot.data.length;
    if (a.received < total) return null;
    this.assembling.delete(m.from);
    if (crc32(a.body) !== crc) {
      this.counters.droppedInvalid++;
      return null;
    }
    return { type: "snapshot", from: m.from, to: m.to, term: m.term, snapshot: { meta: m.snapshot.meta, data: a.body } };
  }

  private openStream(link: PeerLink): RaftStream {
    const stream = link.client.makeBidiStreamRequest<Uint8Array, palisade.v1.RaftAck>(
      raftStreamMethod.path,
      raftStreamMethod.requestSerialize,
      raftStreamMethod.responseDeserialize,
      new grpc.Metadata(),
      {},
    );
    link.stream = stream;
    stream.on("data", (ack: palisade.v1.RaftAck) => this.acknowledged(link, stream, ack.accepted));
    stream.on("error", (err: grpc.ServiceError) => {
      // UNAVAILABLE on a live stream is a connection reset or refused by the peer's host
      // (its process died); an acknowledgement timeout ends the stream here instead, as CANCELLED.
      if (link.stream === stream && err.code === grpc.status.UNAVAILABLE && !this.closed) this.peerDownHandler?.(link.id);
      this.streamFailed(link, stream);
    });
    // The peer ended the stream without an error (it is shutting down): start afresh later.
    stream.on("end", () => this.streamFailed(link, stream));
    return stream;
  }

  /** An acknowledgement of the oldest batches whose messages add up to `messages`. */
  private acknowledged(link: PeerLink, stream: RaftStream, messages: number): void {
    if (link.stream !== stream || this.closed) return;
    let left = messages;
    while (left > 0) {
      const batch = link.unacked.shift();
      if (batch === undefined) break;
      left -= batch.count;
      link.inFlight -= batch.count;
      this.counters.sentBatches++;
      this.counters.sentMessages += batch.count;
    }
    link.failures = 0;
    link.reachable = true;
    this.pump(link);
  }

  /** The stream broke, or the peer stopped acknowledging: its unacknowledged batches are lost. */
  private streamFailed(link: PeerLink, stream: RaftStream): void {
    if (link.stream !== stream) return;
    link.stream = null;
    link.writing = false;
    stream.removeAllListeners("data");
    stream.on("error", () => undefined);
    stream.cancel();
    if (this.closed || this.links.get(link.id) !== link) return;
    this.counters.failedBatches += Math.max(1, link.unacked.length);
    this.counters.lostMessages += link.inFlight;
    link.unacked = [];
    link.inFlight = 0;
    this.scheduleRetry(link);
  }

  private checkAcks(): void {
    const now = performance.now();
    for (const link of this.links.values()) {
      const oldest = link.unacked[0];
      if (link.stream !== null && oldest !== undefined && now - oldest.sentAt > this.callTimeoutMs) this.streamFailed(link, link.stream);
    }
  }

  private scheduleRetry(link: PeerLink): void {
    link.failures++;
    link.reachable = false;
    const exponent = Math.min(link.failures - 1, 30);
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** exponent);
    // Jitter (half to full delay) keeps peers that failed together from retrying in lockstep.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    link.retryTimer = setTimeout(() => {
      link.retryTimer = null;
      this.pump(link);
    }, delay);
    link.retryTimer.unref?.();
  }

  private shutdownLink(link: PeerLink): void {
    if (link.retryTimer !== null) clearTimeout(link.retryTimer);
    link.retryTimer = null;
    link.queue.clear();
    const stream = link.stream;
    link.stream = null;
    if (stream !== null) {
      stream.removeAllListeners("data");
      stream.on("error", () => undefined);
      stream.end();
    }
    link.client.close();
  }
}

/**
 * Registers RaftService on a server (which may host the client and admin services on the
 * same port) and routes its batches to `transport`.
 */
export function addRaftService(server: grpc.Server, transport: GrpcTransport): void {
  const handlers: RaftServiceHandlers = {
    Send: (call, callback) => {
      const outcome = transport.receive(call.request);
      if ("accepted" in outcome) callback(null, palisade.v1.RaftAck.create({ accepted: outcome.accepted }));
      else callback({ code: outcome.code, details: outcome.details });
    },
  };
  const streamHandler: grpc.handleBidiStreamingCall<Uint8Array, palisade.v1.RaftAck> = (call) => transport.serveStream(call);
  server.addService({ ...raftServiceDefinition, Stream: raftStreamMethod }, { ...handlers, Stream: streamHandler });
}
