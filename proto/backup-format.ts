// The backup file, as `palisadectl snapshot save` writes it and `palisade restore` reads it:
// the line "palisade-backup 1", one line of JSON metadata, then the snapshot body (`bytes`
// long, SHA-256 `sha256`; the body also ends with its own CRC-32). Part of the contract
// between the client tools and the node tools, so it lives beside the protocol.
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const MAGIC_LINE = "palisade-backup 1";

export interface BackupMeta {
  readonly clusterId: string;
  /** Log index the snapshot is taken at (committed and applied). */
  readonly index: bigint;
  /** Raft term of the entry at `index`. */
  readonly term: bigint;
  /** Token epoch of the backed-up cluster. */
  readonly epoch: bigint;
  /** Length of the snapshot body in bytes. */
  readonly bytes: number;
  /** SHA-256 of the snapshot body, hex. */
  readonly sha256: string;
  /** When the backup was taken (display only). */
  readonly savedAt: string;
  /** The node that served it. */
  readonly endpoint: string;
}

export interface Backup {
  readonly meta: BackupMeta;
  readonly data: Uint8Array;
}

/** The backup file is unreadable, truncated, or its checksum does not match. */
export class BackupFileError extends Error {
  override readonly name = "BackupFileError";
}

/** Hex SHA-256 of a backup body. */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Writes the backup to `path` atomically (temporary file, fsync, rename). */
export function writeBackupFile(path: string, backup: Backup): void {
  const { meta } = backup;
  const header = JSON.stringify({
    clusterId: meta.clusterId,
    index: String(meta.index),
    term: String(meta.term),
    epoch: String(meta.epoch),
    bytes: meta.bytes,
    sha256: meta.sha256,
    savedAt: meta.savedAt,
    endpoint: meta.endpoint,
  });
  const head = new TextEncoder().encode(`${MAGIC_LINE}\n${header}\n`);
  const out = new Uint8Array(head.byteLength + backup.data.byteLength);
  out.set(head);
  out.set(backup.data, head.byteLength);
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, out);
  const fd = openSync(tmp, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

function field(obj: Record<string, unknown>, name: string, path: string): string {
  const value = obj[name];
  if (typeof value !== "string")
    throw new BackupFileError(`${path}: the metadata has no "${name}"`);
  return value;
}

function decimal(obj: Record<string, unknown>, name: string, path: string): bigint {
  const text = field(obj, name, path);
  if (!/^\d{1,20}$/.test(text))
    throw new BackupFileError(`${path}: "${name}" is not a decimal number`);
  return BigInt(text);
}

/** Reads and verifies a backup file (format line, metadata, body length and SHA-256). */
export function readBackupFile(path: string): Backup {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new BackupFileError(`cannot read the backup ${path}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const firstNl = bytes.indexOf(0x0a);
  const secondNl = firstNl < 0 ? -1 : bytes.indexOf(0x0a, firstNl + 1);
  const decoder = new TextDecoder();
  if (firstNl < 0 || decoder.decode(bytes.subarray(0, firstNl)) !== MAGIC_LINE || secondNl < 0) {
    throw new BackupFileError(
      `${path} is not a Palisade backup (it must start with "${MAGIC_LINE}")`,
    );
  }
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(decoder.decode(bytes.subarray(firstNl + 1, secondNl))) as Record<
      string,
      unknown
    >;
  } catch (err) {
    throw new BackupFileError(`${path}: the metadata line is not JSON: ${(err as Error).message}`);
  }
  if (typeof obj !== "object" || obj === null)
    throw new BackupFileError(`${path}: the metadata line is not a JSON object`);
  const size = obj.bytes;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
    throw new BackupFileError(`${path}: "bytes" is not a length`);
  const data = bytes.subarray(secondNl + 1);
  if (data.byteLength !== size) {
    throw new BackupFileError(
      `${path} is truncated or padded: the body has ${data.byteLength} bytes, the metadata says ${size}`,
    );
  }
  const meta: BackupMeta = {
    clusterId: field(obj, "clusterId", path),
    index: decimal(obj, "index", path),
    term: decimal(obj, "term", path),
    epoch: decimal(obj, "epoch", path),
    bytes: size,
    sha256: field(obj, "sha256", path),
    savedAt: typeof obj.savedAt === "string" ? obj.savedAt : "",
    endpoint: typeof obj.endpoint === "string" ? obj.endpoint : "",
  };
  if (sha256(data) !== meta.sha256)
    throw new BackupFileError(
      `${path}: the body's SHA-256 does not match the metadata (corrupt backup)`,
    );
  return { meta, data };
}
