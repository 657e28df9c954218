// Free space on the file system holding the data directory.
import { statfs } from "node:fs/promises";

/** Bytes available to an unprivileged writer on the file system of `dir`. */
export async function freeSpaceOf(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

/** Default reserve below which the node stops writing (64 MiB). */
export const DEFAULT_RESERVE_BYTES = 64 * 1024 * 1024;
