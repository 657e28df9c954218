// Turns a write request into one LevelDB batch and the store's state after it. Pure: the
// caller supplies what it knows about the stored log, so every rule here is checked before
// anything is written, and a refused batch leaves the store untouched.
import type { HardState, Membership, Snapshot } from "../raft/types.ts";
import { crc32 } from "./checksum.ts";
import { StorageError } from "./errors.ts";
import { HARD_STATE_KEY, SNAPSHOT_META_KEY, entryKey } from "./keys.ts";
import type { SaveBatch } from "./log-store.ts";
import { encodeEntry, encodeHardState, encodeSnapshotRecord } from "./records.ts";
import type { SnapshotRecord } from "./records.ts";
import { snapshotFileName } from "./snapshot-files.ts";

export type BatchOp =
  | { readonly type: "put"; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: "del"; readonly key: Uint8Array };

/** The stored log's key range; first = 0 when no entry is stored. */
export interface StoredRange {
  readonly first: number;
  readonly last: number;
}

export const EMPTY_RANGE: StoredRange = { first: 0, last: 0 };

/** What the store holds, as far as planning needs it. */
export interface StoreState {
  readonly range: StoredRange;
  readonly hardState: HardState;
  readonly snapshot: SnapshotRecord | null;
}

export interface WritePlan {
  readonly ops: readonly BatchOp[];
  readonly next: StoreState;
}

function deleteRange(ops: BatchOp[], from: number, to: number): void {
  for (let i = from; i <= to; i++) ops.push({ type: "del", key: entryKey(i) });
}

function snapshotRecordOf(snapshot: Snapshot): SnapshotRecord {
  const { index, term, membership } = snapshot.meta;
  checkCount("snapshot index", index);
  checkCount("snapshot term", term);
  const bodyCrc = crc32(snapshot.data);
  return {
    index,
    term,
    // The whole membership: the addresses of members added later (no cluster file names
    // them) and the removed ids (never reused) exist nowhere else once the log is compacted.
    membership: {
      voters: [...membership.voters],
      learners: [...membership.learners],
      ...(membership.addresses ? { addresses: copyAddresses(membership.addresses) } : {}),
      ...(membership.retired?.length ? { retired: [...membership.retired] } : {}),
    },
    file: snapshotFileName(snapshot.meta, bodyCrc),
    bodyLength: snapshot.data.length,
    bodyCrc,
  };
}

function copyAddresses(addresses: NonNullable<Membership["addresses"]>): Record<string, { peer: string; client: string }> {
  const out: Record<string, { peer: string; client: string }> = {};
  for (const [id, a] of Object.entries(addresses)) out[id] = { peer: a.peer, client: a.client };
  return out;
}

function checkCount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new StorageError(`${what} must be a non-negative integer, got ${n}`);
}

function checkNotOlder(current: SnapshotRecord | null, snapshot: Snapshot): void {
  if (current !== null && snapshot.meta.index < current.index) {
    throw new StorageError(`snapshot at index ${snapshot.meta.index} is older than the stored one at ${current.index}`);
  }
}

/** Plans a SaveBatch; `termAtSnapshot` is the stored term at the installed snapshot's index, if stored. */
export function planSave(state: StoreState, batch: SaveBatch, termAtSnapshot: number | null): WritePlan {
  const ops: BatchOp[] = [];
  let range = state.range;
  let snapshot = state.snapshot;

  if (batch.snapshot) {
    checkNotOlder(snapshot, batch.snapshot);
    const { index, term } = batch.snapshot.meta;
    // Keep the stored suffix only if the log (or the stored snapshot) agrees with the new snapshot at its index.
    const storedTerm = termAtSnapshot ?? (snapshot !== null && snapshot.index === index ? snapshot.term : null);
    const keepSuffix = storedTerm === term;
    if (range.first !== 0) deleteRange(ops, range.first, keepSuffix ? index : range.last);
    range = keepSuffix && index < range.last ? { first: index + 1, last: range.last } : EMPTY_RANGE;
    snapshot = snapshotRecordOf(batch.snapshot);
    ops.push({ type: "put", key: SNAPSHOT_META_KEY, value: encodeSnapshotRecord(SNAPSHOT_META_KEY, snapshot) });
  }
  const snapIndex = snapshot?.index ?? 0;

  const entries = batch.entries ?? [];
  if (entries.length > 0) {
    const firstNew = entries[0].index;
    entries.forEach((entry, i) => {
      if (entry.index !== firstNew + i) {
        throw new StorageError(`entries to append are not contiguous: entry ${entry.index} at position ${i} after ${firstNew}`);
      }
      checkCount(`term of entry ${entry.index}`, entry.term);
    });
    const lastNew = entries[entries.length - 1].index;
    checkCount("entry index", lastNew);
    if (firstNew <= snapIndex) {
      throw new StorageError(`cannot append entry ${firstNew}: the log is compacted up to ${snapIndex}`);
    }
    const lastIndex = Math.max(range.last, snapIndex);
    if (firstNew > lastIndex + 1) {
      throw new StorageError(`cannot append entry ${firstNew}: the log ends at ${lastIndex}, so entries would be missing`);
    }
    if (range.first !== 0 && range.last < firstNew - 1) {
      // Only entries covered by the snapshot are stored and they do not reach the new ones: drop them.
      deleteRange(ops, range.first, range.last);
      range = EMPTY_RANGE;
    }
    // Stored entries past the new tail conflict with it; those inside it are overwritten below.
    if (range.first !== 0) deleteRange(ops, Math.max(lastNew + 1, range.first), range.last);
    for (const entry of entries) {
      const key = entryKey(entry.index);
      ops.push({ type: "put", key, value: encodeEntry(key, entry) });
    }
    range = { first: range.first === 0 ? firstNew : range.first, last: lastNew };
  }

  let hardState = state.hardState;
  if (batch.hardState) {
    hardState = batch.hardState;
    checkCount("term", hardState.term);
    checkCount("vote", hardState.vote);
    checkCount("commit", hardState.commit);
    ops.push({ type: "put", key: HARD_STATE_KEY, value: encodeHardState(HARD_STATE_KEY, hardState) });
  }
  const lastIndex = Math.max(range.last, snapIndex);
  if (hardState.commit > lastIndex) {
    throw new StorageError(`commit index ${hardState.commit} would be past the last entry ${lastIndex}`);
  }
  return { ops, next: { range, hardState, snapshot } };
}

/** Plans recording a local snapshot and dropping entries up to `upTo`. */
export function planCompact(state: StoreState, snap: Snapshot, upTo: number, termAtSnapshot: number | null): WritePlan {
  checkNotOlder(state.snapshot, snap);
  const { index, term } = snap.meta;
  const { first, last } = state.range;
  const lastIndex = Math.max(last, state.snapshot?.index ?? 0);
  if (index > lastIndex) {
    throw new StorageError(`local snapshot at index ${index} is past the last entry ${lastIndex}`);
  }
  if (termAtSnapshot !== null && termAtSnapshot !== term) {
    throw new StorageError(`local snapshot at index ${index} has term ${term} but the stored entry has term ${termAtSnapshot}`);
  }
  if (upTo > index) throw new StorageError(`cannot drop entries up to ${upTo}, past the snapshot index ${index}`);
  const ops: BatchOp[] = [];
  let range = state.range;
  if (first !== 0 && upTo >= first) {
    deleteRange(ops, first, Math.min(upTo, last));
    range = upTo >= last ? EMPTY_RANGE : { first: upTo + 1, last };
  }
  const snapshot = snapshotRecordOf(snap);
  ops.push({ type: "put", key: SNAPSHOT_META_KEY, value: encodeSnapshotRecord(SNAPSHOT_META_KEY, snapshot) });
  return { ops, next: { range, hardState: state.hardState, snapshot } };
}
