// Binary encodings of the stored records. Every value ends with a CRC32 over the key and the
// body, so a damaged value, or a value found under the wrong key, fails verification.
import { z } from "zod";
import type { Entry, EntryKind, HardState, Membership, SnapshotMeta } from "../raft/types.ts";
import { crc32 } from "../util/crc32.ts";
import { CorruptStoreError } from "./errors.ts";
import { describeKey } from "./keys.ts";

const CRC_LENGTH = 4;
const U64_LENGTH = 8;

/** Appends the record checksum to `body`. */
export function seal(key: Uint8Array, body: Uint8Array): Uint8Array {
  const value = new Uint8Array(body.length + CRC_LENGTH);
  value.set(body, 0);
  new DataView(value.buffer).setUint32(body.length, crc32(key, body));
  return value;
}

/** Verifies the checksum of a stored value and returns its body. */
export function unseal(key: Uint8Array, value: Uint8Array): Uint8Array {
  if (value.length < CRC_LENGTH) {
    throw new CorruptStoreError(
      `${describeKey(key)}: value of ${value.length} bytes is too short to hold a checksum`,
    );
  }
  const body = value.subarray(0, value.length - CRC_LENGTH);
  const stored = new DataView(value.buffer, value.byteOffset, value.byteLength).getUint32(
    body.length,
  );
  const actual = crc32(key, body);
  if (stored !== actual) {
    throw new CorruptStoreError(
      `${describeKey(key)}: checksum mismatch (stored ${hex32(stored)}, computed ${hex32(actual)})`,
    );
  }
  return body;
}

function hex32(n: number): string {
  return `0x${n.toString(16).padStart(8, "0")}`;
}

function readU64(view: DataView, offset: number, key: Uint8Array, field: string): number {
  const n = view.getBigUint64(offset);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new CorruptStoreError(`${describeKey(key)}: ${field} ${n} is out of range`);
  }
  return Number(n);
}

// ---- log entries: kind (1 byte), term (8 bytes), data ----

const KIND_CODES: Record<EntryKind, number> = { normal: 0, noop: 1, config: 2 };
const KINDS_BY_CODE: readonly EntryKind[] = ["normal", "noop", "config"];
const ENTRY_HEADER_LENGTH = 1 + U64_LENGTH;

/** seal(key, header + data), built in one buffer: every node writes every entry. */
export function encodeEntry(key: Uint8Array, entry: Entry): Uint8Array {
  const bodyLength = ENTRY_HEADER_LENGTH + entry.data.length;
  const value = new Uint8Array(bodyLength + CRC_LENGTH);
  const view = new DataView(value.buffer);
  view.setUint8(0, KIND_CODES[entry.kind]);
  setU64(view, 1, entry.term);
  value.set(entry.data, ENTRY_HEADER_LENGTH);
  view.setUint32(bodyLength, crc32(key, value.subarray(0, bodyLength)));
  return value;
}

/** A safe integer as a big-endian uint64, without a bigint. */
export function setU64(view: DataView, offset: number, n: number): void {
  view.setUint32(offset, Math.floor(n / 2 ** 32));
  view.setUint32(offset + 4, n >>> 0);
}

export function decodeEntry(key: Uint8Array, index: number, value: Uint8Array): Entry {
  const body = unseal(key, value);
  if (body.length < ENTRY_HEADER_LENGTH) {
    throw new CorruptStoreError(`${describeKey(key)}: record of ${body.length} bytes is too short`);
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const kind = KINDS_BY_CODE[view.getUint8(0)];
  if (kind === undefined)
    throw new CorruptStoreError(`${describeKey(key)}: unknown entry kind ${view.getUint8(0)}`);
  const term = readU64(view, 1, key, "term");
  // Copy so the entry does not pin the iterator's buffer.
  return { term, index, kind, data: body.slice(ENTRY_HEADER_LENGTH) };
}

// ---- hard state: term, vote, commit (8 bytes each) ----

const HARD_STATE_LENGTH = 3 * U64_LENGTH;

export function encodeHardState(key: Uint8Array, hs: HardState): Uint8Array {
  const body = new Uint8Array(HARD_STATE_LENGTH);
  const view = new DataView(body.buffer);
  view.setBigUint64(0, BigInt(hs.term));
  view.setBigUint64(8, BigInt(hs.vote));
  view.setBigUint64(16, BigInt(hs.commit));
  return seal(key, body);
}

export function decodeHardState(key: Uint8Array, value: Uint8Array): HardState {
  const body = unseal(key, value);
  if (body.length !== HARD_STATE_LENGTH) {
    throw new CorruptStoreError(
      `${describeKey(key)}: expected ${HARD_STATE_LENGTH} bytes, found ${body.length}`,
    );
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  return {
    term: readU64(view, 0, key, "term"),
    vote: readU64(view, 8, key, "vote"),
    commit: readU64(view, 16, key, "commit"),
  };
}

// ---- JSON records: snapshot metadata and node identity ----

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const nodeIdList = z.array(count);

const snapshotRecordSchema = z.object({
  index: count,
  term: count,
  membership: z.object({
    voters: nodeIdList,
    learners: nodeIdList,
    addresses: z.record(z.string(), z.object({ peer: z.string(), client: z.string() })).optional(),
    retired: nodeIdList.optional(),
  }),
  /** File name of the body inside the snapshot directory. */
  file: z.string().regex(/^[A-Za-z0-9._-]+$/),
  bodyLength: count,
  bodyCrc: z.number().int().min(0).max(0xffffffff),
});

/** What the store records about the current snapshot: its Raft metadata and where its body is. */
export interface SnapshotRecord {
  readonly index: number;
  readonly term: number;
  readonly membership: Membership;
  readonly file: string;
  readonly bodyLength: number;
  readonly bodyCrc: number;
}

/**
 * File name of a snapshot body. The checksum is part of it so that re-recording a snapshot at
 * the same index with other bytes never overwrites the file the current record points at.
 */
export function snapshotFileName(meta: SnapshotMeta, bodyCrc: number): string {
  const crc = bodyCrc.toString(16).padStart(8, "0");
  return `snapshot-${String(meta.index).padStart(16, "0")}-${meta.term}-${crc}.bin`;
}

const identitySchema = z.object({
  clusterId: z.string(),
  nodeId: count,
  formatVersion: count,
});

/** Whose data this directory holds, and in which on-disk format. */
export type Identity = z.infer<typeof identitySchema>;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function encodeJson(key: Uint8Array, record: object): Uint8Array {
  return seal(key, encoder.encode(JSON.stringify(record)));
}

function decodeJson<T>(key: Uint8Array, value: Uint8Array, schema: z.ZodType<T>): T {
  const body = unseal(key, value);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(body));
  } catch (err) {
    throw new CorruptStoreError(`${describeKey(key)}: not valid JSON`, { cause: err });
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new CorruptStoreError(
      `${describeKey(key)}: malformed record (${z.prettifyError(result.error)})`,
    );
  }
  return result.data;
}

export function encodeSnapshotRecord(key: Uint8Array, record: SnapshotRecord): Uint8Array {
  return encodeJson(key, record);
}

export function decodeSnapshotRecord(key: Uint8Array, value: Uint8Array): SnapshotRecord {
  return decodeJson(key, value, snapshotRecordSchema);
}

export function snapshotMetaOf(record: SnapshotRecord): SnapshotMeta {
  return { index: record.index, term: record.term, membership: record.membership };
}

export function encodeIdentity(key: Uint8Array, identity: Identity): Uint8Array {
  return encodeJson(key, identity);
}

export function decodeIdentity(key: Uint8Array, value: Uint8Array): Identity {
  return decodeJson(key, value, identitySchema);
}
