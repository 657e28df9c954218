// Snapshot bodies live as files in one directory beside the LevelDB store. A body is written
// to a temporary name, fsynced, renamed into place and the directory fsynced, so a crash
// leaves either no file or a complete one; only then does the metadata record point at it.
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "../util/crc32.ts";
import { CorruptStoreError } from "./errors.ts";
import type { SnapshotRecord } from "./records.ts";

const TEMP_SUFFIX = ".tmp";

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates the snapshot directory (and makes its entry in the parent durable). */
export async function ensureSnapshotDir(parent: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await fsyncPath(parent);
}

/** Writes a body durably; throws whatever the file system throws. */
export async function writeSnapshotBody(
  dir: string,
  file: string,
  data: Uint8Array,
): Promise<void> {
  const finalPath = join(dir, file);
  const tempPath = finalPath + TEMP_SUFFIX;
  const handle = await open(tempPath, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tempPath, finalPath);
  await fsyncPath(dir);
}

/** Reads the body a metadata record names and verifies its length and checksum. */
export async function readSnapshotBody(dir: string, record: SnapshotRecord): Promise<Uint8Array> {
  const path = join(dir, record.file);
  let body: Uint8Array;
  try {
    const buf = await readFile(path);
    body = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "is missing" : `cannot be read (${code ?? String(err)})`;
    throw new CorruptStoreError(
      `snapshot file ${path} for snapshot index ${record.index} term ${record.term} ${why}`,
      { cause: err },
    );
  }
  if (body.length !== record.bodyLength) {
    throw new CorruptStoreError(
      `snapshot file ${path} has ${body.length} bytes, its record says ${record.bodyLength} (truncated or overwritten)`,
    );
  }
  const actual = crc32(body);
  if (actual !== record.bodyCrc) {
    throw new CorruptStoreError(
      `snapshot file ${path}: checksum mismatch (recorded ${record.bodyCrc}, computed ${actual})`,
    );
  }
  return body;
}

/**
 * Removes every file in the snapshot directory except `keep`: bodies of replaced snapshots
 * and temporaries left by a crash. Best effort: a leftover file wastes space but is never read.
 */
export async function removeStaleSnapshotFiles(dir: string, keep: string | null): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => name !== keep)
      .map((name) => rm(join(dir, name), { force: true }).catch(() => undefined)),
  );
}
