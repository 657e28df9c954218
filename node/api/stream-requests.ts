// What a node reads of one encoded StreamRequest before it decodes it: the request's id,
// to answer it, whether it is a keepalive, and the count of session ids the keepalive
// carries, to size its work and its cost before paying for decoding them; and the
// order a stream handles its received requests in: keepalives first, then the others as
// they came, so no number of queued calls delays a client's keepalives by more than a turn.
import { FrameError, readVarint, skipField } from "../../proto/stream-frames.ts";

/** StreamRequest.id (uint64), its keep_alive call, and that KeepAliveRequest's session_ids. */
const ID_FIELD = 1;
const KEEP_ALIVE_FIELD = 3;
const SESSION_IDS_FIELD = 1;
/** The fields of the `call` oneof. */
const FIRST_CALL_FIELD = 2;
const LAST_CALL_FIELD = 14;

export interface RequestPeek {
  /** The id, as a decimal string (0 when absent, as a decoder reads it). */
  readonly id: string;
  /** The call is KeepAlive. */
  readonly keepAlive: boolean;
  /** Session ids of a KeepAlive (0 for any other call). */
  readonly keepAliveIds: number;
  /**
   * Where the call's request message lies in the bytes, when it occurs once (a write's log
   * entry carries those bytes as they are); [0, 0] otherwise.
   */
  readonly callStart: number;
  readonly callEnd: number;
}

/** A uint64 varint at `at` as a decimal string, and the position after it. */
function readU64(bytes: Uint8Array, at: number): { value: string; next: number } {
  // Up to 7 bytes (49 bits) the value is an exact number: the ids clients send, no bigint.
  let small = 0;
  let scale = 1;
  for (let i = 0, p = at; i < 7 && p < bytes.length; i++, p++) {
    const byte = bytes[p]!;
    small += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value: String(small), next: p + 1 };
    scale *= 0x80;
  }
  return readBigU64(bytes, at);
}

function readBigU64(bytes: Uint8Array, at: number): { value: string; next: number } {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (at >= bytes.length) throw new FrameError("truncated varint");
    const byte = bytes[at++]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) return { value: BigInt.asUintN(64, value).toString(), next: at };
  }
  throw new FrameError("varint longer than 10 bytes");
}

/** Session ids in a KeepAliveRequest: packed varints counted by their last bytes, or one per unpacked value. */
function countSessionIds(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  let at = from;
  while (at < to) {
    const tag = readVarint(bytes, at);
    at = tag.next;
    if (tag.value === ((SESSION_IDS_FIELD << 3) | 2)) {
      const length = readVarint(bytes, at);
      const end = length.next + length.value;
      if (end > to) throw new FrameError("truncated session_ids");
      for (let i = length.next; i < end; i++) if (bytes[i]! < 0x80) count++;
      at = end;
    } else if (tag.value === ((SESSION_IDS_FIELD << 3) | 0)) {
      at = readVarint(bytes, at).next;
      count++;
    } else {
      at = skipField(bytes, at, tag.value & 7);
    }
  }
  if (at !== to) throw new FrameError("truncated KeepAliveRequest");
  return count;
}

/** The id and keepalive id count of an encoded StreamRequest; throws FrameError when the bytes are not a valid one. */
export function peekRequest(bytes: Uint8Array): RequestPeek {
  let id = "0";
  let keepAliveIds = 0;
  /** The last call field: the one a decoder keeps of a oneof. */
  let call = 0;
  let callFields = 0;
  let callStart = 0;
  let callEnd = 0;
  let at = 0;
  while (at < bytes.length) {
    const tag = readVarint(bytes, at);
    at = tag.next;
    const field = Math.floor(tag.value / 8);
    const wireType = tag.value & 7;
    if (field === ID_FIELD && wireType === 0) {
      const read = readU64(bytes, at);
      id = read.value;
      at = read.next;
    } else if (field === KEEP_ALIVE_FIELD && wireType === 2) {
      call = field;
      const length = readVarint(bytes, at);
      const end = length.next + length.value;
      if (end > bytes.length) throw new FrameError("truncated keep_alive");
      // Occurrences of one message field merge: their ids add up.
      keepAliveIds += countSessionIds(bytes, length.next, end);
      at = end;
    } else if (field >= FIRST_CALL_FIELD && field <= LAST_CALL_FIELD && wireType === 2) {
      call = field;
      callFields++;
      const length = readVarint(bytes, at);
      callStart = length.next;
      callEnd = callStart + length.value;
      if (callEnd > bytes.length) throw new FrameError("truncated call");
      at = callEnd;
    } else {
      if (field >= FIRST_CALL_FIELD && field <= LAST_CALL_FIELD) call = field;
      at = skipField(bytes, at, wireType);
    }
  }
  // Two occurrences (of one field or of several) leave the decoder's result to its rules.
  const once = callFields === 1 && call !== KEEP_ALIVE_FIELD;
  return {
    id,
    keepAlive: call === KEEP_ALIVE_FIELD,
    keepAliveIds: call === KEEP_ALIVE_FIELD ? keepAliveIds : 0,
    callStart: once ? callStart : 0,
    callEnd: once ? callEnd : 0,
  };
}

/** The call's request message within a StreamRequest's bytes (a view), when it occurs once. */
export function callBytes(bytes: Uint8Array, peek: RequestPeek): Uint8Array | undefined {
  return peek.callEnd > 0 ? bytes.subarray(peek.callStart, peek.callEnd) : undefined;
}

/** A received request waiting to be handled: its bytes and what was read of them. */
export interface Queued extends RequestPeek {
  readonly bytes: Uint8Array;
}

/** One lane of requests in arrival order, taken from the front. */
class Lane {
  private items: Queued[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: Queued): void {
    this.items.push(item);
  }

  peek(): Queued | undefined {
    return this.items[this.head];
  }

  shift(): Queued | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.items[this.head++] = undefined as unknown as Queued;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return item;
  }
}

/**
 * A stream's received requests not yet handled: keepalives first (while the stream may start
 * one), each lane in arrival order.
 */
export class Backlog {
  private keepAlives = new Lane();
  private others = new Lane();

  get size(): number {
    return this.keepAlives.size + this.others.size;
  }

  push(item: Queued): void {
    (item.keepAlive ? this.keepAlives : this.others).push(item);
  }

  /** The request to handle next, left in place: the first keepalive if `mayStart` lets it start, else the first other request. */
  peek(mayStart: (keepAlive: Queued) => boolean): Queued | undefined {
    const keepAlive = this.keepAlives.peek();
    return keepAlive !== undefined && mayStart(keepAlive) ? keepAlive : this.others.peek();
  }

  /** Removes `item`, which peek() returned. */
  take(item: Queued): void {
    (item.keepAlive ? this.keepAlives : this.others).shift();
  }

  clear(): void {
    this.keepAlives = new Lane();
    this.others = new Lane();
  }
}
