// Peer messages between their wire form and the Raft core's: numbers for terms, indexes and
// node ids, through the uint64 helpers of proto/wire.ts. Everything decoded from a peer
// passes through here and is validated, so the Raft core never sees a Long, a missing field
// or a term beyond 2^53.
import type { Reader } from "protobufjs";
import { palisade } from "../../proto/gen/palisade.js";
import { CodecError, toU64, u64ToNumber, type U64Input } from "../../proto/wire.ts";
import type {
  Entry,
  EntryKind,
  Message,
  NodeId,
  Snapshot,
  InstallSnapshot,
} from "../raft/types.ts";
import { membershipFromWire, membershipToWire } from "../raft/membership-codec.ts";

const pb = palisade.v1;
/**
 * The highest log index: a fencing token keeps the index in its low 48 bits. (Here, not in
 * node/raft: the client library uses this module and must not load the Raft code.)
 */
export const MAX_LOG_INDEX = 2 ** 48 - 1;
type WireMessage = palisade.v1.RaftMessage.$Properties;
type WireEntry = palisade.v1.Entry.$Properties;

function nodeIdFrom(value: U64Input, field: string): NodeId {
  const id = u64ToNumber(value, field);
  if (id === 0) throw new CodecError(`${field}: node id 0`);
  return id;
}

/** Bytes as a plain Uint8Array view (no copy), never a Node Buffer with its different slice(). */
function plainBytes(value: Uint8Array | null | undefined): Uint8Array {
  if (!value) return new Uint8Array(0);
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function required<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new CodecError(`missing ${field}`);
  return value;
}

// ---- Raft messages -------------------------------------------------------------------

const entryKindToWire: Record<EntryKind, palisade.v1.EntryKind> = {
  normal: pb.EntryKind.ENTRY_KIND_NORMAL,
  noop: pb.EntryKind.ENTRY_KIND_NOOP,
  config: pb.EntryKind.ENTRY_KIND_CONFIG,
};

function entryKindFromWire(kind: number | null | undefined): EntryKind {
  switch (kind) {
    case pb.EntryKind.ENTRY_KIND_NORMAL:
      return "normal";
    case pb.EntryKind.ENTRY_KIND_NOOP:
      return "noop";
    case pb.EntryKind.ENTRY_KIND_CONFIG:
      return "config";
    default:
      throw new CodecError(`entry kind ${String(kind)} is not known`);
  }
}

function entryToWire(entry: Entry): WireEntry {
  return {
    term: toU64(entry.term, "entry.term"),
    index: toU64(entry.index, "entry.index"),
    kind: entryKindToWire[entry.kind],
    data: entry.data,
  };
}

function entryFromWire(wire: WireEntry): Entry {
  return {
    term: u64ToNumber(wire.term, "entry.term"),
    index: u64ToNumber(wire.index, "entry.index"),
    kind: entryKindFromWire(wire.kind),
    data: plainBytes(wire.data),
  };
}

function snapshotToWire(snapshot: Snapshot): palisade.v1.InstallSnapshot.$Properties {
  return {
    meta: {
      index: toU64(snapshot.meta.index, "snapshot.index"),
      term: toU64(snapshot.meta.term, "snapshot.term"),
      membership: membershipToWire(snapshot.meta.membership),
    },
    data: snapshot.data,
  };
}

function snapshotFromWire(wire: palisade.v1.InstallSnapshot.$Properties): Snapshot {
  const meta = required(wire.meta, "snapshot.meta");
  return {
    meta: {
      index: u64ToNumber(meta.index, "snapshot.index"),
      term: u64ToNumber(meta.term, "snapshot.term"),
      membership: membershipFromWire(required(meta.membership, "snapshot.membership")),
    },
    data: plainBytes(wire.data),
  };
}

/** The wire form of a Raft message. Sender and receiver travel in the enclosing batch. */
export function toWireMessage(message: Message): WireMessage {
  const term = toU64(message.term, "term");
  switch (message.type) {
    case "vote":
      return {
        term,
        vote: {
          pre: message.pre,
          lastIndex: toU64(message.lastIndex, "lastIndex"),
          lastTerm: toU64(message.lastTerm, "lastTerm"),
          transfer: message.transfer,
        },
      };
    case "voteResp":
      return { term, voteResp: { pre: message.pre, granted: message.granted } };
    case "append":
      return {
        term,
        append: {
          prevIndex: toU64(message.prevIndex, "prevIndex"),
          prevTerm: toU64(message.prevTerm, "prevTerm"),
          entries: message.entries.map(entryToWire),
          commit: toU64(message.commit, "commit"),
        },
      };
    case "appendResp":
      return {
        term,
        appendResp: {
          success: message.success,
          index: toU64(message.index, "index"),
          hintIndex: toU64(message.hintIndex, "hintIndex"),
          hintTerm: toU64(message.hintTerm, "hintTerm"),
        },
      };
    case "heartbeat":
      return {
        term,
        heartbeat: {
          commit: toU64(message.commit, "commit"),
          round: toU64(message.round, "round"),
        },
      };
    case "heartbeatResp":
      return { term, heartbeatResp: { round: toU64(message.round, "round") } };
    case "timeoutNow":
      return { term, timeoutNow: {} };
    case "readIndex":
      return { term, readIndex: { requestId: toU64(message.requestId, "requestId") } };
    case "readIndexResp":
      return {
        term,
        readIndexResp: {
          requestId: toU64(message.requestId, "requestId"),
          index: toU64(message.index, "index"),
        },
      };
    case "snapshot":
      return { term, snapshot: snapshotToWire(message.snapshot) };
    default: {
      const unknown: never = message;
      throw new CodecError(
        `cannot encode message kind ${String((unknown as { type?: unknown }).type)}`,
      );
    }
  }
}

const bodyFields = [
  "vote",
  "voteResp",
  "append",
  "appendResp",
  "heartbeat",
  "heartbeatResp",
  "timeoutNow",
  "readIndex",
  "readIndexResp",
  "snapshot",
] as const;

/** A validated Raft message from its wire form and the batch's sender and receiver. */
export function fromWireMessage(wire: WireMessage, from: NodeId, to: NodeId): Message {
  const present = bodyFields.filter((field) => wire[field] !== null && wire[field] !== undefined);
  if (present.length === 0) throw new CodecError("message has no known kind");
  if (present.length > 1) throw new CodecError(`message has several kinds: ${present.join(", ")}`);
  const base = { from, to, term: u64ToNumber(wire.term, "term") };
  const n = u64ToNumber;
  if (wire.vote) {
    const v = wire.vote;
    return {
      ...base,
      type: "vote",
      pre: v.pre === true,
      lastIndex: n(v.lastIndex, "lastIndex"),
      lastTerm: n(v.lastTerm, "lastTerm"),
      transfer: v.transfer === true,
    };
  }
  if (wire.voteResp)
    return {
      ...base,
      type: "voteResp",
      pre: wire.voteResp.pre === true,
      granted: wire.voteResp.granted === true,
    };
  if (wire.append) {
    const a = wire.append;
    const append = {
      ...base,
      type: "append" as const,
      prevIndex: n(a.prevIndex, "prevIndex"),
      prevTerm: n(a.prevTerm, "prevTerm"),
      entries: (a.entries ?? []).map(entryFromWire),
      commit: n(a.commit, "commit"),
    };
    checkAppendable(append.term, append.prevIndex, append.prevTerm, append.entries);
    return append;
  }
  if (wire.appendResp) {
    const r = wire.appendResp;
    return {
      ...base,
      type: "appendResp",
      success: r.success === true,
      index: n(r.index, "index"),
      hintIndex: n(r.hintIndex, "hintIndex"),
      hintTerm: n(r.hintTerm, "hintTerm"),
    };
  }
  if (wire.heartbeat)
    return {
      ...base,
      type: "heartbeat",
      commit: n(wire.heartbeat.commit, "commit"),
      round: n(wire.heartbeat.round, "round"),
    };
  if (wire.heartbeatResp)
    return { ...base, type: "heartbeatResp", round: n(wire.heartbeatResp.round, "round") };
  if (wire.timeoutNow) return { ...base, type: "timeoutNow" };
  if (wire.readIndex)
    return { ...base, type: "readIndex", requestId: n(wire.readIndex.requestId, "requestId") };
  if (wire.readIndexResp) {
    const r = wire.readIndexResp;
    return {
      ...base,
      type: "readIndexResp",
      requestId: n(r.requestId, "requestId"),
      index: n(r.index, "index"),
    };
  }
  const snap = required(wire.snapshot, "snapshot");
  const snapshot = snapshotFromWire(snap);
  checkIndex(snapshot.meta.index, "snapshot.index");
  if (snapshot.meta.term > base.term)
    throw new CodecError(
      `snapshot.term ${snapshot.meta.term} is above the message's term ${base.term}`,
    );
  const total = n(snap.total, "snapshot.total");
  if (total > 0) {
    const chunk: SnapshotChunkMessage = {
      ...base,
      type: "snapshot",
      snapshot,
      chunk: { offset: n(snap.offset, "snapshot.offset"), total, crc: (snap.crc ?? 0) >>> 0 },
    };
    if (chunk.chunk.offset + chunk.snapshot.data.length > total)
      throw new CodecError("snapshot chunk runs past the body's length");
    return chunk;
  }
  return { ...base, type: "snapshot", snapshot };
}

function checkIndex(index: number, field: string): void {
  if (index > MAX_LOG_INDEX)
    throw new CodecError(`${field} ${index} is above ${MAX_LOG_INDEX}, the highest log index`);
}

/**
 * What a leader's log can hold, so the Raft core can take it: entries follow prevIndex one
 * by one, terms never go back along the log (from prevTerm on), and none is above the
 * message's term (a leader has no entry of a later term than its own).
 */
function checkAppendable(
  term: number,
  prevIndex: number,
  prevTerm: number,
  entries: readonly Entry[],
): void {
  checkIndex(prevIndex, "prevIndex");
  if (prevTerm > term)
    throw new CodecError(`prevTerm ${prevTerm} is above the message's term ${term}`);
  let lastTerm = prevTerm;
  // The messages name the entry only when one is refused: no string per entry otherwise.
  const where = (i: number): string => `entry ${i + 1} of ${entries.length}`;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.index !== prevIndex + 1 + i)
      throw new CodecError(
        `${where(i)} has index ${e.index}, expected ${prevIndex + 1 + i} (entries follow prevIndex ${prevIndex} one by one)`,
      );
    if (e.index > MAX_LOG_INDEX) checkIndex(e.index, `${where(i)}: index`);
    if (e.term < lastTerm) {
      const lastTermAt = i === 0 ? `prevIndex ${prevIndex}` : `entry ${entries[i - 1]!.index}`;
      throw new CodecError(
        `${where(i)} has term ${e.term}, below term ${lastTerm} of ${lastTermAt}`,
      );
    }
    if (e.term > term)
      throw new CodecError(`${where(i)} has term ${e.term}, above the message's term ${term}`);
    lastTerm = e.term;
  }
}

/** A piece of a snapshot too large for one message; the transport reassembles them. */
export interface SnapshotChunkMessage extends InstallSnapshot {
  readonly chunk: { readonly offset: number; readonly total: number; readonly crc: number };
}

export function isSnapshotChunk(m: Message): m is SnapshotChunkMessage {
  return m.type === "snapshot" && "chunk" in m;
}

/** Encodes bytes [offset, offset + length) of a snapshot message's body as one chunk. */
export function encodeSnapshotChunk(
  m: InstallSnapshot,
  offset: number,
  length: number,
  crc: number,
): Uint8Array {
  const wire = toWireMessage(m);
  const data = m.snapshot.data.subarray(offset, offset + length);
  return pb.RaftMessage.encode({
    ...wire,
    snapshot: {
      ...wire.snapshot,
      data,
      offset: toU64(offset, "offset"),
      total: toU64(m.snapshot.data.length, "total"),
      crc,
    },
  }).finish();
}

/** One message encoded on its own; a batch is its header followed by such messages. */
export function encodeRaftMessage(message: Message): Uint8Array {
  return pb.RaftMessage.encode(toWireMessage(message)).finish();
}

export interface BatchHeader {
  readonly clusterId: string;
  readonly from: NodeId;
  readonly to: NodeId;
}

export interface DecodedBatch extends BatchHeader {
  readonly messages: Message[];
}

/** Field 4 (`messages`), length-delimited: the tag byte that precedes each message. */
const MESSAGES_TAG = (4 << 3) | 2;

/** Bytes a message adds to a batch beyond its own encoding (tag and length varint, at most). */
export const PER_MESSAGE_OVERHEAD = 6;

/**
 * A RaftBatch from messages encoded by encodeRaftMessage. Protobuf concatenation: the
 * header fields followed by repeated length-delimited messages is a valid RaftBatch.
 */
export function encodeRaftBatch(
  header: BatchHeader,
  encodedMessages: readonly Uint8Array[],
): Uint8Array {
  const writer = pb.RaftBatch.encode({
    clusterId: header.clusterId,
    from: toU64(header.from, "from"),
    to: toU64(header.to, "to"),
  });
  for (const bytes of encodedMessages) writer.uint32(MESSAGES_TAG).bytes(bytes);
  return writer.finish();
}

/** Encoded size of a batch header, for fitting batches under the message size limit. */
export function batchHeaderBytes(header: BatchHeader): number {
  return encodeRaftBatch(header, []).length;
}

function decodeWith<T>(decode: (bytes: Uint8Array) => T, bytes: Uint8Array, what: string): T {
  try {
    return decode(bytes);
  } catch (error) {
    if (error instanceof CodecError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodecError(`malformed ${what}: ${reason}`);
  }
}

/** Decodes and validates a whole batch; throws CodecError on anything malformed. */
export function decodeRaftBatch(bytes: Uint8Array): DecodedBatch {
  const wire = decodeWith((b) => pb.RaftBatch.decode(b), bytes, "RaftBatch");
  const from = nodeIdFrom(wire.from, "from");
  const to = nodeIdFrom(wire.to, "to");
  return {
    clusterId: wire.clusterId ?? "",
    from,
    to,
    messages: (wire.messages ?? []).map((message) => fromWireMessage(message, from, to)),
  };
}

/** Decodes and validates one message encoded by encodeRaftMessage. */
export function decodeRaftMessage(bytes: Uint8Array, from: NodeId, to: NodeId): Message {
  return fromWireMessage(
    decodeWith((b) => pb.RaftMessage.decode(b), bytes, "RaftMessage"),
    from,
    to,
  );
}

/** Decodes any generated message type, turning protobufjs errors into CodecError. */
export function decodeMessage<T>(
  type: { decode(reader: Uint8Array | Reader): T },
  bytes: Uint8Array,
  what: string,
): T {
  return decodeWith((b) => type.decode(b), bytes, what);
}
