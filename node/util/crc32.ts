// CRC-32 (IEEE) of byte strings, with zlib's native code: damaged log records, snapshot
// files and snapshot transfers. The pure state machine, which may not import Node modules,
// computes the same function in node/lock/codec/checksum.ts.
import { crc32 as zlibCrc32 } from "node:zlib";

/** CRC32 over the concatenation of `parts`. */
export function crc32(...parts: readonly Uint8Array[]): number {
  let crc = 0;
  for (const part of parts) crc = zlibCrc32(part, crc);
  return crc >>> 0;
}
