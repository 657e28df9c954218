// Backups: a consistent copy of a cluster's replicated lock state, fetched with the
// AdminService Backup stream (the node takes it at a ReadIndex point, so it is committed
// and applied). The file format that `palisade restore` reads is proto/backup-format.ts.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition as adminApi } from "../proto/grpc.ts";
import { u64 } from "../proto/wire.ts";
import { sha256, type Backup, type BackupMeta } from "../proto/backup-format.ts";
import { nodeClient, type NodeAccess } from "./bearer.ts";
import { errorFromStatus } from "./status-errors.ts";

export {
  BackupFileError,
  readBackupFile,
  writeBackupFile,
  type Backup,
  type BackupMeta,
} from "../proto/backup-format.ts";

const pb = palisade.v1;

export interface FetchBackupOptions {
  readonly endpoints: readonly string[];
  readonly credentials?: grpc.ChannelCredentials;
  /** The bearer token the Backup call presents (an admin's), if any. */
  readonly token?: string;
  /** Deadline of one attempt (default 30 s). */
  readonly timeoutMs?: number;
}

/** Answers after which the next endpoint is tried. */
const TRY_NEXT = new Set<grpc.status>([
  grpc.status.UNAVAILABLE,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.CANCELLED,
  grpc.status.UNKNOWN,
  grpc.status.INTERNAL,
]);

async function fetchFrom(endpoint: string, options: FetchBackupOptions): Promise<Backup> {
  const client = nodeClient(endpoint, options, {
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
  });
  try {
    const call = client.makeServerStreamRequest(
      adminApi.Backup.path,
      adminApi.Backup.requestSerialize,
      adminApi.Backup.responseDeserialize,
      pb.BackupRequest.create({}),
      { deadline: Date.now() + (options.timeoutMs ?? 30_000) },
    );
    let first: palisade.v1.BackupChunk | null = null;
    const pieces: Uint8Array[] = [];
    let last = false;
    for await (const chunk of call as AsyncIterable<palisade.v1.BackupChunk>) {
      first ??= chunk;
      pieces.push(chunk.data);
      if (chunk.last) last = true;
    }
    if (first === null || !last)
      throw new Error(`the backup stream from ${endpoint} ended before its last chunk`);
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

/** SnapshotSave on one node: it writes a snapshot at its applied index now and compacts its log up to it. */
export function snapshotNow(
  endpoint: string,
  options: NodeAccess & { timeoutMs?: number } = {},
): Promise<{ index: bigint; term: bigint; sizeBytes: bigint }> {
  const client = nodeClient(endpoint, options);
  return new Promise<{ index: bigint; term: bigint; sizeBytes: bigint }>((resolve, reject) => {
    client.makeUnaryRequest(
      adminApi.SnapshotSave.path,
      adminApi.SnapshotSave.requestSerialize,
      adminApi.SnapshotSave.responseDeserialize,
      pb.SnapshotSaveRequest.create({}),
      { deadline: Date.now() + (options.timeoutMs ?? 10_000) },
      (err, response) => {
        if (err || !response) {
          reject(
            err
              ? errorFromStatus(err.code, err.details, err.metadata)
              : new Error("SnapshotSave gave no answer"),
          );
          return;
        }
        resolve({
          index: u64(response.index, "index"),
          term: u64(response.term, "term"),
          sizeBytes: u64(response.sizeBytes, "size_bytes"),
        });
      },
    );
  }).finally(() => client.close());
}
