// What a node reads of one encoded StreamRequest before it decodes it: the request's id,
// to answer it, and the count of session ids a KeepAliveSessions in it carries, to size its
// work and its cost before paying for decoding them.
import { FrameError, readVarint, skipField } from "../../proto/stream-frames.ts";

/** StreamRequest.id (uint64). */
const ID_FIELD = 1;
/** StreamRequest.keep_alive_sessions, and its KeepAliveSessionsRequest.session_ids. */
const KEEP_ALIVE_SESSIONS_FIELD = 15;
const SESSION_IDS_FIELD = 1;

export interface RequestPeek {
  /** The id, as a decimal string (0 when absent, as a decoder reads it). */
  readonly id: string;
  /** Session ids of a KeepAliveSessions (0 for any other call). */
  readonly keepAliveIds: number;
}

/** A uint64 varint at `at` as a decimal string, and the position after it. */
function readU64(bytes: Uint8Array, at: number): { value: string; next: number } {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (at >= bytes.length) throw new FrameError("truncated varint");
    const byte = bytes[at++]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) return { value: BigInt.asUintN(64, value).toString(), next: at };
  }
  throw new FrameError("varint longer than 10 bytes");
}

/** Session ids in a KeepAliveSessionsRequest: packed varints counted by their last bytes, or one per unpacked value. */
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
  if (at !== to) throw new FrameError("truncated KeepAliveSessionsRequest");
  return count;
}

/** The id and keepalive id count of an encoded StreamRequest; throws FrameError when the bytes are not a valid one. */
export function peekRequest(bytes: Uint8Array): RequestPeek {
  let id = "0";
  let keepAliveIds = 0;
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
    } else if (field === KEEP_ALIVE_SESSIONS_FIELD && wireType === 2) {
      const length = readVarint(bytes, at);
      const end = length.next + length.value;
      if (end > bytes.length) throw new FrameError("truncated keep_alive_sessions");
      // Occurrences of one message field merge: their ids add up.
      keepAliveIds += countSessionIds(bytes, length.next, end);
      at = end;
    } else {
      at = skipField(bytes, at, wireType);
    }
  }
  return { id, keepAliveIds };
}
