// CRC-32 (IEEE, reflected, polynomial 0xEDB88320), computed in-module so the state machine
// needs no Node module; the I/O shell uses zlib's native code for the same function
// (node/util/crc32.ts), which a test holds equal to this one.

const TABLE = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The running value before any byte; feed bytes with crc32Update, finish with crc32Final. */
export const CRC32_START = 0xffffffff;

export function crc32Update(crc: number, bytes: Uint8Array): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i++) {
    c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return c;
}

export function crc32Final(crc: number): number {
  return (crc ^ 0xffffffff) >>> 0;
}

export function crc32(bytes: Uint8Array): number {
  return crc32Final(crc32Update(CRC32_START, bytes));
}
