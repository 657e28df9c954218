// The frames of the Stream RPC (ClientFrame, ServerFrame) as bytes. Both messages are one
// repeated message field (field 1), so a frame is its entries' encodings one after another,
// each behind a tag byte and a length. Each side encodes an entry once and packs entries
// into frames it bounds by bytes and count as it fills them; a node reads a received frame
// entry by entry, decoding each request only when it comes to it.

/** Tag of field 1, length-delimited: the one field of both frame messages. */
const ENTRY_TAG = (1 << 3) | 2;

/** Bytes the varint of `n` takes. */
export function varintBytes(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    bytes++;
  }
  return bytes;
}

/** Bytes an entry of `length` bytes takes in a frame: its tag, its length and itself. */
export function entryBytes(length: number): number {
  return 1 + varintBytes(length) + length;
}

/**
 * The frame of `entries[from]` onwards that fits `maxBytes` and `maxEntries` (at least one
 * entry, which the caller made sure fits), and the index of the first entry left out.
 */
export function packFrame(
  entries: readonly Uint8Array[],
  from: number,
  maxBytes: number,
  maxEntries: number,
): { frame: Buffer; next: number } {
  let end = from;
  let bytes = 0;
  while (end < entries.length && end - from < maxEntries) {
    const size = entryBytes(entries[end]!.byteLength);
    if (end > from && bytes + size > maxBytes) break;
    bytes += size;
    end++;
  }
  const frame = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (let i = from; i < end; i++) {
    const entry = entries[i]!;
    frame[at++] = ENTRY_TAG;
    let n = entry.byteLength;
    while (n >= 0x80) {
      frame[at++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 0x80);
    }
    frame[at++] = n;
    frame.set(entry, at);
    at += entry.byteLength;
  }
  return { frame, next: end };
}

/** A frame that is not a valid encoding of its message. */
export class FrameError extends Error {
  override readonly name = "FrameError";
}

/** Reads a varint at `at`; returns it and the position after it. Numbers above 2^53 are not lengths any frame has. */
export function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (at >= bytes.length) throw new FrameError("truncated varint");
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: at };
    scale *= 0x80;
  }
  throw new FrameError("varint longer than 10 bytes");
}

/** The position after the field of wire type `wireType` that starts at `at` (its tag already read). */
export function skipField(bytes: Uint8Array, at: number, wireType: number): number {
  switch (wireType) {
    case 0:
      return readVarint(bytes, at).next;
    case 1:
      at += 8;
      break;
    case 2: {
      const { value, next } = readVarint(bytes, at);
      at = next + value;
      break;
    }
    case 5:
      at += 4;
      break;
    default:
      throw new FrameError(`wire type ${wireType} is not allowed here`);
  }
  if (at > bytes.length) throw new FrameError("truncated field");
  return at;
}

/**
 * The entries (field 1) of an encoded frame as views of `bytes`, in order, without decoding
 * them; null when there are more than `maxEntries`. Other fields are skipped, as a decoder
 * would. Throws FrameError when the bytes are not a valid frame.
 */
export function frameEntries(bytes: Uint8Array, maxEntries: number): Uint8Array[] | null {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const tag = readVarint(bytes, at);
    at = tag.next;
    if (tag.value > 0xffff_ffff) throw new FrameError("tag out of range");
    if (tag.value === ENTRY_TAG) {
      const length = readVarint(bytes, at);
      const end = length.next + length.value;
      if (end > bytes.length) throw new FrameError("truncated entry");
      if (entries.length === maxEntries) return null;
      entries.push(bytes.subarray(length.next, end));
      at = end;
    } else {
      if (tag.value >>> 3 === 0) throw new FrameError("field number 0");
      if (tag.value >>> 3 === 1) throw new FrameError("field 1 with the wrong wire type");
      at = skipField(bytes, at, tag.value & 7);
    }
  }
  return entries;
}
