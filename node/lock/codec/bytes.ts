// A small deterministic binary writer/reader shared by the command codec and snapshots.
// Integers are unsigned LEB128 varints; strings are length-prefixed UTF-8.

const MAX_U64 = (1n << 64n) - 1n;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Thrown by ByteReader on truncated or malformed input. */
export class ByteDecodeError extends Error {
  override readonly name = "ByteDecodeError";
}

/** Bytes of the LEB128 varint of a non-negative safe integer. */
function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

const MAX_SAFE_U64 = BigInt(Number.MAX_SAFE_INTEGER);

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  /** `capacity`: bytes to start with; a good guess of the final size saves regrowing. */
  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.max(16, Math.ceil(capacity)));
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): this {
    this.ensure(1);
    this.buf[this.len++] = value & 0xff;
    return this;
  }

  /** A non-negative safe integer. */
  uint(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`not a non-negative safe integer: ${value}`);
    this.ensure(8);
    this.len = this.putVarint(this.len, value);
    return this;
  }

  /** Writes the varint of `value` at `pos` (room already ensured); returns the position after it. */
  private putVarint(pos: number, value: number): number {
    const buf = this.buf;
    let v = value;
    while (v >= 0x80) {
      buf[pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[pos++] = v;
    return pos;
  }

  /** An unsigned 64-bit integer. */
  u64(value: bigint): this {
    if (value < 0n || value > MAX_U64) throw new RangeError(`not a uint64: ${value}`);
    // The same LEB128 bytes either way; a safe integer needs no bigint arithmetic.
    if (value <= MAX_SAFE_U64) return this.uint(Number(value));
    let v = value;
    while (v >= 0x80n) {
      this.u8(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    return this.u8(Number(v));
  }

  f64(value: number): this {
    this.ensure(8);
    this.view.setFloat64(this.len, value);
    this.len += 8;
    return this;
  }

  /** A 32-bit unsigned integer, big-endian (fixed width). */
  u32be(value: number): this {
    this.ensure(4);
    this.view.setUint32(this.len, value);
    this.len += 4;
    return this;
  }

  bool(value: boolean): this {
    return this.u8(value ? 1 : 0);
  }

  str(value: string): this {
    // ASCII (lock names, ids and client names nearly always are): one byte per character,
    // written in place behind its length, with no temporary array.
    const n = value.length;
    const prefix = varintSize(n);
    this.ensure(prefix + n);
    const buf = this.buf;
    const start = this.len + prefix;
    let i = 0;
    for (; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) break;
      buf[start + i] = c;
    }
    if (i === n) {
      this.putVarint(this.len, n);
      this.len = start + n;
      return this;
    }
    const bytes = utf8.encode(value);
    this.uint(bytes.length);
    return this.raw(bytes);
  }

  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  /** Forgets what was written, keeping the buffer (for a writer reused across encodings). */
  reset(): this {
    this.len = 0;
    return this;
  }

  /** A copy of exactly the bytes written (the writer may be reused afterwards). */
  copy(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  /** A view of the bytes written so far (valid until the next write). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /**
   * The bytes written. A copy of exactly that length, unless the buffer is nearly full
   * (at most 1/8 unused): then a view of it, so a large result is not held twice.
   */
  finish(): Uint8Array {
    if (this.buf.length - this.len <= this.len / 8) return this.buf.subarray(0, this.len);
    return this.buf.slice(0, this.len);
  }
}

const F64_BYTES = new Uint8Array(8);
const F64_VIEW = new DataView(F64_BYTES.buffer);

export class ByteReader {
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  u8(): number {
    if (this.pos >= this.bytes.length) throw new ByteDecodeError("truncated input");
    return this.bytes[this.pos++] as number;
  }

  uint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      if (!Number.isSafeInteger(result)) throw new ByteDecodeError("integer out of range");
      if ((b & 0x80) === 0) return result;
      scale *= 0x80;
    }
    throw new ByteDecodeError("integer out of range");
  }

  u64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) {
        if (result > MAX_U64) throw new ByteDecodeError("uint64 out of range");
        return result;
      }
      shift += 7n;
    }
    throw new ByteDecodeError("uint64 out of range");
  }

  f64(): number {
    if (this.remaining < 8) throw new ByteDecodeError("truncated input");
    // Copied into one shared view: a DataView per read was an allocation per entry.
    for (let i = 0; i < 8; i++) F64_BYTES[i] = this.bytes[this.pos + i] as number;
    this.pos += 8;
    return F64_VIEW.getFloat64(0);
  }

  bool(): boolean {
    const b = this.u8();
    if (b > 1) throw new ByteDecodeError(`bad boolean ${b}`);
    return b === 1;
  }

  str(): string {
    const length = this.uint();
    if (length > this.remaining) throw new ByteDecodeError("truncated string");
    if (length === 0) return "";
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    try {
      return strictUtf8.decode(slice);
    } catch {
      throw new ByteDecodeError("invalid UTF-8");
    }
  }

  /** A count of items that each take at least one byte: bounded by what is left, so garbage cannot allocate much. */
  count(): number {
    const n = this.uint();
    if (n > this.remaining) throw new ByteDecodeError("count past end of input");
    return n;
  }

  /** The bytes not read yet (a view), which are then read. */
  rest(): Uint8Array {
    const rest = this.bytes.subarray(this.pos);
    this.pos = this.bytes.length;
    return rest;
  }

  expectEnd(): void {
    if (this.pos !== this.bytes.length)
      throw new ByteDecodeError(`${this.remaining} trailing bytes`);
  }
}
