// Peer transport over gRPC: RaftService.Send carries batches of Raft messages.
//
// Per peer: a bounded queue of encoded messages (count and bytes), at most one batch in
// flight, each call with a deadline, and exponential backoff after a failed call. When
// the queue is full the oldest message is dropped: Raft retransmits, and fresh messages
// are worth more than stale ones. So a slow or dead follower costs the leader at most
// one full queue, however long it stays away.
//
// Inbound batches are decoded and validated by the codec; batches of another cluster id
// or addressed to another node are refused and counted.
import * as grpc from "@grpc/grpc-js";
import { raftServiceDefinition, asBuffer } from "../../proto/grpc.ts";
import type { RaftServiceHandlers } from "../../proto/grpc.ts";
import { palisade } from "../../proto/gen/palisade.js";
import type { Message, NodeId } from "../raft/types.ts";
import type { Transport } from "./transport.ts";
import {
  CodecError,
  PER_MESSAGE_OVERHEAD,
  batchHeaderBytes,
  decodeRaftBatch,
  encodeRaftBatch,
  encodeRaftMessage,
} from "./codec.ts";
import type { BatchHeader, DecodedBatch } from "./codec.ts";

export interface GrpcTransportOptions {
  readonly selfId: NodeId;
  readonly clusterId: string;
  /** Peer node id → "host:port". The transport's own id may be present; it is ignored. */
  readonly peers: ReadonlyMap<NodeId, string>;
  /**
   * Largest batch sent, in bytes (default 4 MiB, gRPC's default receive limit). A single
   * message above it (an InstallSnapshot of a large state) is dropped and counted. The
   * server hosting RaftService must accept at least this much
   * (`grpc.max_receive_message_length`).
   */
  readonly maxMessageBytes?: number;
  /** Messages queued per peer before the oldest are dropped (default 1024). */
  readonly maxQueuedPerPeer?: number;
  /** Bytes queued per peer before the oldest are dropped (default 2 × maxMessageBytes). */
  readonly maxQueuedBytesPerPeer?: number;
  /** Deadline of one Send call (default 2000 ms). */
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
  /** Outbound messages dropped because they alone exceed maxMessageBytes. */
  droppedOversized: number;
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

/** A bounded FIFO of encoded messages; drops the oldest when over either bound. */
class PeerQueue {
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
  /** Messages in the batch on the wire (0 when none is). */
  inFlight = 0;
  failures = 0;
  retryTimer: ReturnType<typeof setTimeout> | null = null;
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
  private readonly maxQueued: number;
  private readonly maxQueuedBytes: number;
  private readonly callTimeoutMs: number;
  private readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  private readonly credentials: grpc.ChannelCredentials;
  private readonly channelOptions: grpc.ChannelOptions;
  private readonly links = new Map<NodeId, PeerLink>();
  private handler: ((message: Message) => void) | null = null;
  private closed = false;
  private readonly counters: TransportStats = {
    sentMessages: 0, sentBatches: 0, failedBatches: 0, lostMessages: 0,
    droppedQueueFull: 0, droppedOversized: 0, droppedUnencodable: 0, droppedUnknownPeer: 0,
    receivedMessages: 0, droppedForeignCluster: 0, droppedWrongTarget: 0,
    droppedInvalid: 0, droppedNoHandler: 0,
  };

  constructor(options: GrpcTransportOptions) {
    if (!Number.isSafeInteger(options.selfId) || options.selfId <= 0) throw new Error(`invalid node id ${options.selfId}`);
    if (options.clusterId === "") throw new Error("cluster id must not be empty");
    this.selfId = options.selfId;
    this.clusterId = options.clusterId;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxQueued = options.maxQueuedPerPeer ?? DEFAULT_MAX_QUEUED;
    this.maxQueuedBytes = options.maxQueuedBytesPerPeer ?? 2 * this.maxMessageBytes;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.credentials = options.credentials ?? grpc.credentials.createInsecure();
    this.channelOptions = {
      "grpc.max_send_message_length": this.maxMessageBytes,
      "grpc.max_receive_message_length": this.maxMessageBytes,
      ...options.channelOptions,
    };
    if (this.maxQueued < 1 || this.maxMessageBytes < 64) throw new Error("queue and message limits are too small");
    for (const [id, address] of options.peers) this.addPeer(id, address);
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
        this.counters.droppedOversized++;
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
    for (const link of this.links.values()) this.shutdownLink(link);
    this.links.clear();
  }

  /**
   * Handles one inbound batch (the RaftService.Send handler calls this). Returns how many
   * messages were delivered, or a gRPC status with a reason when the batch is refused.
   */
  receive(bytes: Uint8Array): { accepted: number } | { code: grpc.status; details: string } {
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
      return { accepted: 0 };
    }
    for (const message of batch.messages) {
      this.counters.receivedMessages++;
      handler(message);
    }
    return { accepted: batch.messages.length };
  }

  private header(to: NodeId): BatchHeader {
    return { clusterId: this.clusterId, from: this.selfId, to };
  }

  /** Sends the next batch to a peer unless one is in flight or the peer is backing off. */
  private pump(link: PeerLink): void {
    if (this.closed || link.inFlight > 0 || link.retryTimer !== null || link.queue.length === 0) return;
    const messages = link.queue.take(this.maxMessageBytes - link.headerBytes);
    const batch = encodeRaftBatch(this.header(link.id), messages);
    link.inFlight = messages.length;
    const method = raftServiceDefinition.Send;
    link.client.makeUnaryRequest<Uint8Array, palisade.v1.RaftAck>(
      method.path,
      asBuffer,
      method.responseDeserialize,
      batch,
      new grpc.Metadata(),
      { deadline: Date.now() + this.callTimeoutMs },
      (error) => {
        link.inFlight = 0;
        if (this.closed || this.links.get(link.id) !== link) return;
        if (error) {
          this.counters.failedBatches++;
          this.counters.lostMessages += messages.length;
          this.scheduleRetry(link);
          return;
        }
        this.counters.sentBatches++;
        this.counters.sentMessages += messages.length;
        link.failures = 0;
        link.reachable = true;
        this.pump(link);
      },
    );
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
  server.addService(raftServiceDefinition, handlers);
}
