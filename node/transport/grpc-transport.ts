// Peer transport over gRPC: batches of Raft messages on one long-lived stream per peer
// (RaftService/Stream: RaftBatch in, RaftAck back). A unary call per batch would
// cost an HTTP/2 stream, headers and a deadline timer on both ends, several times the
// work of the messages it carries; a stream message costs a frame.
//
// Per peer: a bounded queue of encoded messages (peer-queue.ts). The next batch is
// written once the previous one has left this process, so what queues meanwhile goes out
// together; at most MAX_UNACKED_BATCHES batches wait for their acknowledgement. The
// receiver acknowledges several batches at once (a RaftAck counts the messages of the
// batches it covers, in order), within ACK_DELAY_MS or once ACK_EVERY_BATCHES arrived,
// so an acknowledgement does not wake the sender for every batch. The ack says how long
// the receiver held the last batch it covers, so the sender times the peer round trip of
// that batch without the deliberate delay (onPeerRtt). A batch not
// acknowledged within the call timeout, or an error on the stream, ends the stream: its
// unacknowledged messages count as lost and the link backs off exponentially before a new
// stream.
//
// An InstallSnapshot too large for one batch travels as chunks (snapshot-chunks.ts), one
// batch each, written only while the queue is empty. Progress (acknowledged chunks) and
// failures (a broken stream) are reported, so the leader's core times the transfer by its
// progress and probes again when it fails.
//
// Inbound batches are decoded and validated by the codec; batches of another cluster id
// or addressed to another node are refused and counted.
import * as grpc from "@grpc/grpc-js";
import { raftServiceDefinition } from "../../proto/grpc.ts";
import { palisade } from "../../proto/gen/palisade.js";
import type { InstallSnapshot, Message, NodeId } from "../raft/types.ts";
import type { SnapshotStatus, Transport } from "./transport.ts";
import {
  PER_MESSAGE_OVERHEAD,
  batchHeaderBytes,
  decodeRaftBatch,
  encodeRaftBatch,
  encodeRaftMessage,
  encodeSnapshotChunk,
  isSnapshotChunk,
} from "./raft-codec.ts";
import { CodecError } from "../../proto/wire.ts";
import type { BatchHeader, DecodedBatch } from "./raft-codec.ts";
import { PeerQueue } from "./peer-queue.ts";
import { SnapshotAssembler, SnapshotTransfer } from "./snapshot-chunks.ts";

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
  /**
   * Called with a peer's round-trip time in seconds: from writing a batch to the ack that
   * covers it, less the time the peer held the ack back (acks from nodes that do not say
   * how long are not timed).
   */
  readonly onPeerRtt?: (peer: NodeId, seconds: number) => void;
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

type RaftStream = grpc.ClientDuplexStream<Uint8Array, palisade.v1.RaftAck>;

/** A batch on the wire: how many messages it holds and when it was written. */
interface Unacked {
  readonly count: number;
  readonly sentAt: number;
  /** For a snapshot chunk: its transfer and the offset just past it. */
  readonly chunk?: { readonly transfer: SnapshotTransfer; readonly end: number };
}

class PeerLink {
  readonly queue: PeerQueue;
  client: grpc.Client;
  stream: RaftStream | null = null;
  /** A batch is being handed to the stream (the next waits until it has left this process). */
  writing = false;
  /** Batches written to the current stream and not acknowledged yet, oldest first. */
  unacked: Unacked[] = [];
  /** Messages in those batches. */
  inFlight = 0;
  failures = 0;
  retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** A snapshot too large for one message, being sent in chunks, until the receiver acknowledged all of it. */
  snapshotOut: SnapshotTransfer | null = null;
  reachable = true;

  constructor(
    readonly id: NodeId,
    readonly address: string,
    /** Encoded size of this link's batch header. */
    readonly headerBytes: number,
    queue: PeerQueue,
    private readonly credentials: grpc.ChannelCredentials,
    private readonly channelOptions: grpc.ChannelOptions,
  ) {
    this.queue = queue;
    this.client = new grpc.Client(address, credentials, channelOptions);
  }

  /** A new channel, which connects at once (the old one may be waiting out its backoff). */
  renewChannel(): void {
    this.client.close();
    this.client = new grpc.Client(this.address, this.credentials, this.channelOptions);
  }
}

export class GrpcTransport implements Transport {
  readonly selfId: NodeId;
  readonly clusterId: string;
  private readonly maxMessageBytes: number;
  private readonly assembler: SnapshotAssembler;
  private readonly maxQueued: number;
  private readonly maxQueuedBytes: number;
  private readonly callTimeoutMs: number;
  private readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  private readonly credentials: grpc.ChannelCredentials;
  private readonly channelOptions: grpc.ChannelOptions;
  private readonly onPeerRtt: ((peer: NodeId, seconds: number) => void) | undefined;
  private readonly links = new Map<NodeId, PeerLink>();
  private handler: ((message: Message) => void) | null = null;
  private peerDownHandler: ((peer: NodeId) => void) | null = null;
  private snapshotStatusHandler: ((peer: NodeId, status: SnapshotStatus) => void) | null = null;
  private closed = false;
  /** Streams from peers being served, ended on close. */
  private readonly inbound = new Set<grpc.ServerDuplexStream<Uint8Array, palisade.v1.RaftAck>>();
  /** Gives up streams whose oldest batch waits too long for its acknowledgement. */
  private readonly ackWatch: ReturnType<typeof setInterval>;
  private readonly counters: TransportStats = {
    sentMessages: 0,
    sentBatches: 0,
    failedBatches: 0,
    lostMessages: 0,
    droppedQueueFull: 0,
    droppedOversized: 0,
    snapshotsChunked: 0,
    droppedUnencodable: 0,
    droppedUnknownPeer: 0,
    receivedMessages: 0,
    droppedForeignCluster: 0,
    droppedWrongTarget: 0,
    droppedInvalid: 0,
    droppedNoHandler: 0,
  };

  constructor(options: GrpcTransportOptions) {
    if (!Number.isSafeInteger(options.selfId) || options.selfId <= 0)
      throw new Error(`invalid node id ${options.selfId}`);
    if (options.clusterId === "") throw new Error("cluster id must not be empty");
    this.selfId = options.selfId;
    this.clusterId = options.clusterId;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.assembler = new SnapshotAssembler(options.maxSnapshotBytes ?? 1 << 30);
    this.maxQueued = options.maxQueuedPerPeer ?? DEFAULT_MAX_QUEUED;
    this.maxQueuedBytes = options.maxQueuedBytesPerPeer ?? 2 * this.maxMessageBytes;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.onPeerRtt = options.onPeerRtt;
    this.credentials = options.credentials ?? grpc.credentials.createInsecure();
    this.channelOptions = {
      // Channelz bookkeeping costs a few microseconds per message; nothing here reads it.
      "grpc.enable_channelz": 0,
      // Transparent retries would keep a copy of every message of a long-lived stream; Raft retransmits instead.
      "grpc.enable_retries": 0,
      "grpc.max_send_message_length": this.maxMessageBytes,
      "grpc.max_receive_message_length": this.maxMessageBytes,
      // The channel's own reconnect backoff (1 s, growing to 120 s by default) would stack on
      // the link's: a peer that was down for a while stayed unreachable for many seconds
      // after it came back. It follows the link's bounds instead.
      "grpc.initial_reconnect_backoff_ms": this.backoff.initialMs,
      "grpc.max_reconnect_backoff_ms": this.backoff.maxMs,
      ...options.channelOptions,
    };
    if (this.maxQueued < 1 || this.maxMessageBytes < 64)
      throw new Error("queue and message limits are too small");
    for (const [id, address] of options.peers) this.addPeer(id, address);
    this.ackWatch = setInterval(
      () => this.checkAcks(),
      Math.max(10, Math.min(500, this.callTimeoutMs / 4)),
    );
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
    this.links.set(
      id,
      new PeerLink(id, address, headerBytes, queue, this.credentials, this.channelOptions),
    );
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
          this.startSnapshot(link, message);
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

  onSnapshotStatus(handler: (peer: NodeId, status: SnapshotStatus) => void): void {
    this.snapshotStatusHandler = handler;
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
    return {
      messages: link?.queue.length ?? 0,
      bytes: link?.queue.queuedBytes ?? 0,
      inFlight: link?.inFlight ?? 0,
    };
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
  receive(
    bytes: Uint8Array,
  ): { accepted: number; messages: number } | { code: grpc.status; details: string } {
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
      return {
        code: grpc.status.FAILED_PRECONDITION,
        details: `cluster id "${batch.clusterId}" is not this cluster's`,
      };
    }
    if (batch.to !== this.selfId) {
      this.counters.droppedWrongTarget++;
      return {
        code: grpc.status.FAILED_PRECONDITION,
        details: `batch for node ${batch.to} reached node ${this.selfId}`,
      };
    }
    this.heardFrom(batch.from);
    const handler = this.handler;
    if (!handler) {
      this.counters.droppedNoHandler += batch.messages.length;
      return { accepted: 0, messages: batch.messages.length };
    }
    for (const message of batch.messages) {
      this.counters.receivedMessages++;
      if (isSnapshotChunk(message)) {
        const outcome = this.assembler.add(message);
        if (outcome.kind === "whole") handler(outcome.message);
        else if (outcome.kind === "oversized") this.counters.droppedOversized++;
        else if (outcome.kind === "corrupt") this.counters.droppedInvalid++;
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
    /** When the newest of those batches arrived (performance.now()). */
    let lastArrival = 0;
    let ackTimer: ReturnType<typeof setTimeout> | null = null;
    const acknowledge = (): void => {
      if (ackTimer !== null) clearTimeout(ackTimer);
      ackTimer = null;
      if (unackedBatches === 0 || refused || !this.inbound.has(call)) return;
      const heldUs = Math.min(0xffffffff, Math.round((performance.now() - lastArrival) * 1000));
      call.write(palisade.v1.RaftAck.create({ accepted: unackedMessages, heldUs }));
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
      lastArrival = performance.now();
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

  /**
   * A batch came in from `peer`: it is up, so a link to it that is backing off after failures
   * (it was down, or restarting) tries again now. Otherwise a restarted node could not be
   * reached until the backoff ran out, and an election that needs its vote waited as long.
   */
  private heardFrom(peer: NodeId): void {
    const link = this.links.get(peer);
    if (link === undefined || link.retryTimer === null || this.closed) return;
    clearTimeout(link.retryTimer);
    link.retryTimer = null;
    link.failures = 0;
    link.renewChannel();
    this.pump(link);
  }

  private header(to: NodeId): BatchHeader {
    return { clusterId: this.clusterId, from: this.selfId, to };
  }

  /**
   * A snapshot too large for one message. The same snapshot sent again (the core's snapshot
   * state timed out, or it probed again after a failure) carries on where it is; any other
   * replaces the one being sent and starts at 0.
   */
  private startSnapshot(link: PeerLink, message: InstallSnapshot): void {
    const current = link.snapshotOut;
    if (current !== null && current.sameAs(message)) {
      current.message = message;
      return;
    }
    link.snapshotOut = new SnapshotTransfer(message);
    this.counters.snapshotsChunked++;
  }

  /** Writes the next batch to a peer unless one is being written, too many wait for acks, or the peer is backing off. */
  private pump(link: PeerLink): void {
    if (this.closed || link.writing || link.retryTimer !== null) return;
    if (link.unacked.length >= MAX_UNACKED_BATCHES) return;
    const out = link.snapshotOut;
    if (link.queue.length === 0) {
      // Snapshot chunks go one per batch, only when nothing else waits: the stream's pace
      // is the backpressure, and other messages (heartbeats) still get through.
      if (out !== null) this.writeChunk(link, out);
      return;
    }
    const messages = link.queue.take(this.maxMessageBytes - link.headerBytes);
    this.write(link, encodeRaftBatch(this.header(link.id), messages), {
      count: messages.length,
      sentAt: performance.now(),
    });
  }

  private writeChunk(link: PeerLink, out: SnapshotTransfer): void {
    const chunk = out.nextChunk(Math.max(1, Math.floor(this.maxMessageBytes / 2)));
    if (chunk === null) return;
    const batch = encodeRaftBatch(this.header(link.id), [
      encodeSnapshotChunk(out.message, chunk.offset, chunk.length, out.crc),
    ]);
    this.write(link, batch, {
      count: 1,
      sentAt: performance.now(),
      chunk: { transfer: out, end: chunk.offset + chunk.length },
    });
  }

  private write(link: PeerLink, batch: Uint8Array, unacked: Unacked): void {
    const stream = link.stream ?? this.openStream(link);
    link.writing = true;
    link.unacked.push(unacked);
    link.inFlight += unacked.count;
    stream.write(batch, () => {
      if (link.stream !== stream) return;
      link.writing = false;
      this.pump(link);
    });
  }

  private openStream(link: PeerLink): RaftStream {
    const stream = link.client.makeBidiStreamRequest<Uint8Array, palisade.v1.RaftAck>(
      raftServiceDefinition.Stream.path,
      raftServiceDefinition.Stream.requestSerialize,
      raftServiceDefinition.Stream.responseDeserialize,
      new grpc.Metadata(),
      {},
    );
    link.stream = stream;
    stream.on("data", (ack: palisade.v1.RaftAck) =>
      this.acknowledged(link, stream, ack.accepted, ack.heldUs ?? undefined),
    );
    stream.on("error", (err: grpc.ServiceError) => {
      // UNAVAILABLE on a live stream is a connection reset or refused by the peer's host
      // (its process died); an acknowledgement timeout ends the stream here instead, as CANCELLED.
      const peerGone =
        link.stream === stream && err.code === grpc.status.UNAVAILABLE && !this.closed;
      if (peerGone) this.peerDownHandler?.(link.id);
      this.streamFailed(link, stream, peerGone);
    });
    // The peer ended the stream without an error (it is shutting down): start afresh later.
    stream.on("end", () => this.streamFailed(link, stream, true));
    return stream;
  }

  /**
   * An acknowledgement of the oldest batches whose messages add up to `messages`, held back
   * `heldUs` by the receiver after the last of them arrived.
   */
  private acknowledged(
    link: PeerLink,
    stream: RaftStream,
    messages: number,
    heldUs: number | undefined,
  ): void {
    if (link.stream !== stream || this.closed) return;
    let left = messages;
    let snapshotMoved = false;
    let last: Unacked | undefined;
    while (left > 0) {
      const batch = link.unacked.shift();
      if (batch === undefined) break;
      last = batch;
      left -= batch.count;
      link.inFlight -= batch.count;
      this.counters.sentBatches++;
      this.counters.sentMessages += batch.count;
      const chunk = batch.chunk;
      if (chunk !== undefined && chunk.transfer === link.snapshotOut)
        snapshotMoved = chunk.transfer.acknowledge(chunk.end) || snapshotMoved;
    }
    if (last !== undefined && heldUs !== undefined) this.timeRoundTrip(link.id, last, heldUs);
    link.failures = 0;
    link.reachable = true;
    const out = link.snapshotOut;
    // The receiver holds the whole body: a later send of it (it was lost after assembly,
    // or refused) starts over.
    if (out !== null && out.done) link.snapshotOut = null;
    if (snapshotMoved) this.snapshotStatusHandler?.(link.id, "progress");
    this.pump(link);
  }

  /**
   * Only the newest batch an ack covers is timed: the older ones waited at the receiver for
   * it to arrive, which `heldUs` does not count.
   */
  private timeRoundTrip(peer: NodeId, newest: Unacked, heldUs: number): void {
    if (this.onPeerRtt === undefined) return;
    const ms = performance.now() - newest.sentAt - heldUs / 1000;
    this.onPeerRtt(peer, Math.max(0, ms) / 1000);
  }

  /**
   * The stream broke, or the peer stopped acknowledging: its unacknowledged batches are
   * lost. A snapshot in transit goes back to what the receiver acknowledged (to 0 when the
   * peer's process is gone or stopping, with whatever it had gathered), and the failure is
   * reported.
   */
  private streamFailed(link: PeerLink, stream: RaftStream, peerGone = false): void {
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
    const out = link.snapshotOut;
    out?.rewind(peerGone);
    this.scheduleRetry(link);
    if (out !== null) this.snapshotStatusHandler?.(link.id, "failure");
  }

  private checkAcks(): void {
    const now = performance.now();
    for (const link of this.links.values()) {
      const oldest = link.unacked[0];
      if (link.stream !== null && oldest !== undefined && now - oldest.sentAt > this.callTimeoutMs)
        this.streamFailed(link, link.stream);
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
  server.addService(raftServiceDefinition, {
    Stream: (call: grpc.ServerDuplexStream<Uint8Array, palisade.v1.RaftAck>) =>
      transport.serveStream(call),
  });
}
