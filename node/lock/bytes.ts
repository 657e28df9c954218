// A small deterministic binary writer/reader shared by the command codec and snapshots.
// Integers are unsigned LEB128 varints; strings are length-prefixed UTF-8.

const MAX_U64 = (1n << 64n) - 1n;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Thrown by ByteReader on truncated or malformed input. */
export class ByteDecodeError extends Error {
  override readonly name = "ByteDecodeError";
}

export class ByteWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  u8(value: number): this {
    this.ensure(1);
    this.buf[this.len++] = value & 0xff;
    return this;
  }

  /** A non-negative safe integer. */
  uint(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative safe integer: ${value}`);
    let v = value;
    while (v >= 0x80) {
      this.u8((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    return this.u8(v);
  }

  /** An unsigned 64-bit integer. */
  u64(value: bigint): this {
    if (value < 0n || value > MAX_U64) throw new RangeError(`not a uint64: ${value}`);
    let v = value;
    while (v >= 0x80n) {
      this.u8(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    return this.u8(Number(v));
  }

  f64(value: number): this {
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setFloat64(0, value);
    this.len += 8;
    return this;
  }

  bool(value: boolean): this {
    return this.u8(value ? 1 : 0);
  }

  str(value: string): this {
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

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

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
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8).getFloat64(0);
    this.pos += 8;
    return value;
  }

  bool(): boolean {
    const b = this.u8();
    if (b > 1) throw new ByteDecodeError(`bad boolean ${b}`);
    return b === 1;
  }

  str(): string {
    const length = this.uint();
    if (length > this.remaining) throw new ByteDecodeError("truncated string");
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

  expectEnd(): void {
    if (this.pos !== this.bytes.length) throw new ByteDecodeError(`${this.remaining} trailing bytes`);
  }
}
