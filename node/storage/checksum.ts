// CRC32 (IEEE) of byte strings, used to detect damaged records and snapshot bodies.
import { crc32 as zlibCrc32 } from "node:zlib";

/** CRC32 over the concatenation of `parts`. */
export function crc32(...parts: readonly Uint8Array[]): number {
  let crc = 0;
  for (const part of parts) crc = zlibCrc32(part, crc);
  return crc >>> 0;
}
