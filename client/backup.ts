// Backups: a consistent copy of a cluster's replicated lock state, fetched with the
// AdminService Backup stream (the node takes it at a ReadIndex point, so it is committed
// and applied), and the backup file format that `palisade restore` reads.
//
// File layout: the line "palisade-backup 1", one line of JSON metadata, then the snapshot
// body (`bytes` long, SHA-256 `sha256`; the body also ends with its own CRC-32).
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition as adminApi } from "../proto/grpc.ts";
import { u64 } from "../node/transport/codec.ts";
import { errorFromStatus } from "./status-errors.ts";

const pb = palisade.v1;

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

export interface FetchBackupOptions {
  readonly endpoints: readonly string[];
  readonly credentials?: grpc.ChannelCredentials;
  /** Deadline of one attempt (default 30 s). */
  readonly timeoutMs?: number;
}

/** The backup file is unreadable, truncated, or its checksum does not match. */
export class BackupFileError extends Error {
  override readonly name = "BackupFileError";
}

/** Answers after which the next endpoint is tried. */
const TRY_NEXT = new Set<grpc.status>([
  grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.CANCELLED, grpc.status.UNKNOWN, grpc.status.INTERNAL,
]);

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function fetchFrom(endpoint: string, options: FetchBackupOptions): Promise<Backup> {
  const client = new grpc.Client(endpoint, options.credentials ?? grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
  });
  try {
    const call = client.makeServerStreamRequest(
      adminApi.Backup.path, adminApi.Backup.requestSerialize, adminApi.Backup.responseDeserialize,
      pb.BackupRequest.create({}), { deadline: Date.now() + (options.timeoutMs ?? 30_000) },
    );
    let first: palisade.v1.BackupChunk | null = null;
    const pieces: Uint8Array[] = [];
    let last = false;
    for await (const chunk of call as AsyncIterable<palisade.v1.BackupChunk>) {
      first ??= chunk;
      pieces.push(chunk.data);
      if (chunk.last) last = true;
    }
    if (first === null || !last) throw new Error(`the backup stream from ${endpoint} ended before its last chunk`);
    const size = pieces.reduce((n, p) => n + p.byteLength, 0);
    const data = new Uint8Array(size);
    let offset = 0;
    for (const p of pieces) {
      data.set(p, offset);
      offset += p.byteLength;
    }
    const meta: BackupMeta = {
      clusterId: first.clusterId,
      index: u64(first.index, "index"),
      term: u64(first.term, "term"),
      epoch: u64(first.epoch, "epoch"),
      bytes: size,
      sha256: sha256(data),
      savedAt: new Date().toISOString(),
      endpoint,
    };
    return { meta, data };
  } finally {
    client.close();
  }
}

/** Fetches a backup from the first endpoint that serves one (any node can: it reads at a ReadIndex point). */
export async function fetchBackup(options: FetchBackupOptions): Promise<Backup> {
  if (options.endpoints.length === 0) throw new Error("no endpoints to fetch a backup from");
  const failures: string[] = [];
  for (const endpoint of options.endpoints) {
    try {
      return await fetchFrom(endpoint, options);
    } catch (err) {
      const status = err as Partial<grpc.ServiceError>;
      if (typeof status.code === "number" && !TRY_NEXT.has(status.code)) {
        throw errorFromStatus(status.code, status.details ?? String(err), status.metadata);
      }
      failures.push(`${endpoint}: ${status.details ?? (err as Error).message}`);
    }
  }
  throw new Error(`no node served a backup (${failures.join("; ")})`);
}

/** Writes the backup to `path` atomically (temporary file, fsync, rename). */
export function writeBackupFile(path: string, backup: Backup): void {
  const { meta } = backup;
  const header = JSON.stringify({
    clusterId: meta.clusterId, index: String(meta.index), term: String(meta.term), epoch: String(meta.epoch),
    bytes: meta.bytes, sha256: meta.sha256, savedAt: meta.savedAt, endpoint: meta.endpoint,
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
  if (typeof value !== "string") throw new BackupFileError(`${path}: the metadata has no "${name}"`);
  return value;
}

function decimal(obj: Record<string, unknown>, name: string, path: string): bigint {
  const text = field(obj, name, path);
  if (!/^\d{1,20}$/.test(text)) throw new BackupFileError(`${path}: "${name}" is not a decimal number`);
  return BigInt(text);
}

/** Reads and verifies a backup file (format line, metadata, body length and SHA-256). */
export function readBackupFile(path: string): Backup {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new BackupFileError(`cannot read the backup ${path}: ${(err as Error).message}`, { cause: err });
  }
  const firstNl = bytes.indexOf(0x0a);
  const secondNl = firstNl < 0 ? -1 : bytes.indexOf(0x0a, firstNl + 1);
  const decoder = new TextDecoder();
  if (firstNl < 0 || decoder.decode(bytes.subarray(0, firstNl)) !== MAGIC_LINE || secondNl < 0) {
    throw new BackupFileError(`${path} is not a Palisade backup (it must start with "${MAGIC_LINE}")`);
  }
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(decoder.decode(bytes.subarray(firstNl + 1, secondNl))) as Record<string, unknown>;
  } catch (err) {
    throw new BackupFileError(`${path}: the metadata line is not JSON: ${(err as Error).message}`);
  }
  if (typeof obj !== "object" || obj === null) throw new BackupFileError(`${path}: the metadata line is not a JSON object`);
  const size = obj.bytes;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) throw new BackupFileError(`${path}: "bytes" is not a length`);
  const data = bytes.subarray(secondNl + 1);
  if (data.byteLength !== size) {
    throw new BackupFileError(`${path} is truncated or padded: the body has ${data.byteLength} bytes, the metadata says ${size}`);
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
  if (sha256(data) !== meta.sha256) throw new BackupFileError(`${path}: the body's SHA-256 does not match the metadata (corrupt backup)`);
  return { meta, data };
}

/** SnapshotSave on one node: it writes a snapshot at its applied index now and compacts its log up to it. */
export function snapshotNow(endpoint: string, options: { credentials?: grpc.ChannelCredentials; timeoutMs?: number } = {}): Promise<{ index: bigint; term: bigint; sizeBytes: bigint }> {
  const client = new grpc.Client(endpoint, options.credentials ?? grpc.credentials.createInsecure());
  return new Promise<{ index: bigint; term: bigint; sizeBytes: bigint }>((resolve, reject) => {
    client.makeUnaryRequest(
      adminApi.SnapshotSave.path, adminApi.SnapshotSave.requestSerialize, adminApi.SnapshotSave.responseDeserialize,
      pb.SnapshotSaveRequest.create({}), { deadline: Date.now() + (options.timeoutMs ?? 10_000) },
      (err, response) => {
        if (err || !response) {
          reject(err ? errorFromStatus(err.code, err.details, err.metadata) : new Error("SnapshotSave gave no answer"));
          return;
        }
        resolve({ index: u64(response.index, "index"), term: u64(response.term, "term"), sizeBytes: u64(response.sizeBytes, "size_bytes") });
      },
    );
  }).finally(() => client.close());
}
