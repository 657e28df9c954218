// What a write does to a Raft store, decided before anything is written: the one statement
// of the SaveBatch rules. Pure: the caller supplies what it knows about the stored log, so
// every rule is checked first and a refused batch leaves the store untouched. LevelStorage
// turns a plan's steps into one LevelDB batch (level-batch.ts); MemoryStorage applies them to
// its maps.
import type { Entry, HardState, Membership, Snapshot } from "../raft/types.ts";
import { crc32 } from "../util/crc32.ts";
import { StorageError } from "./errors.ts";
import type { SaveBatch } from "./log-store.ts";
import { snapshotFileName } from "./records.ts";
import type { SnapshotRecord } from "./records.ts";

/** One change to the stored records, in the order a plan makes them. */
export type LogStep =
  /** Remove the stored entries from..to (inclusive). */
  | { readonly kind: "dropEntries"; readonly from: number; readonly to: number }
  /** Store these entries, replacing any stored at the same indexes. */
  | { readonly kind: "putEntries"; readonly entries: readonly Entry[] }
  | { readonly kind: "putHardState"; readonly hardState: HardState }
  /** Record this snapshot as the current one; its body is `data`. */
  | { readonly kind: "putSnapshot"; readonly record: SnapshotRecord; readonly data: Uint8Array };

/** The stored log's index range; first = 0 when no entry is stored. */
export interface StoredRange {
  readonly first: number;
  readonly last: number;
}

export const EMPTY_RANGE: StoredRange = { first: 0, last: 0 };

export const ZERO_HARD_STATE: HardState = { term: 0, vote: 0, commit: 0 };

/** What the store holds, as far as planning needs it. */
export interface StoreState {
  readonly range: StoredRange;
  readonly hardState: HardState;
  readonly snapshot: SnapshotRecord | null;
}

export const EMPTY_STORE: StoreState = {
  range: EMPTY_RANGE,
  hardState: ZERO_HARD_STATE,
  snapshot: null,
};

export interface WritePlan {
  readonly steps: readonly LogStep[];
  readonly next: StoreState;
  /**
   * Whether the write must be durable when it completes, whatever the caller asked. A write
   * that records a snapshot always is: once it completes, the store removes the replaced
   * snapshot's body, so the new record must not be lost at a crash.
   */
  readonly sync: boolean;
}

/** The last index the store covers, by an entry or by the snapshot. */
export function lastIndexOf(state: StoreState): number {
  return Math.max(state.range.last, state.snapshot?.index ?? 0);
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

function copyAddresses(
  addresses: NonNullable<Membership["addresses"]>,
): Record<string, { peer: string; client: string }> {
  const out: Record<string, { peer: string; client: string }> = {};
  for (const [id, a] of Object.entries(addresses)) out[id] = { peer: a.peer, client: a.client };
  return out;
}

function checkCount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new StorageError(`${what} must be a non-negative integer, got ${n}`);
}

function checkNotOlder(current: SnapshotRecord | null, snapshot: Snapshot): void {
  if (current !== null && snapshot.meta.index < current.index) {
    throw new StorageError(
      `snapshot at index ${snapshot.meta.index} is older than the stored one at ${current.index}`,
    );
  }
}

function checkHardState(hardState: HardState): void {
  checkCount("term", hardState.term);
  checkCount("vote", hardState.vote);
  checkCount("commit", hardState.commit);
}

function checkCommit(hardState: HardState, lastIndex: number): void {
  if (hardState.commit > lastIndex) {
    throw new StorageError(
      `commit index ${hardState.commit} would be past the last entry ${lastIndex}`,
    );
  }
}

function dropEntries(steps: LogStep[], from: number, to: number): void {
  if (from <= to) steps.push({ kind: "dropEntries", from, to });
}

/**
 * Plans a SaveBatch: an installed snapshot replaces the stored log up to its index (the whole
 * log unless the stored entry at that index, or the stored snapshot, has the snapshot's term),
 * stored entries at or after the first new index are removed, the new entries and the hard
 * state are put. `termAtSnapshot` is the stored entry's term at the installed snapshot's
 * index, if one is stored.
 */
export function planSave(
  state: StoreState,
  batch: SaveBatch,
  sync: boolean,
  termAtSnapshot: number | null,
): WritePlan {
  const steps: LogStep[] = [];
  let range = state.range;
  let snapshot = state.snapshot;

  if (batch.snapshot) {
    checkNotOlder(snapshot, batch.snapshot);
    const { index, term } = batch.snapshot.meta;
    // Keep the stored suffix only if the log (or the stored snapshot) agrees with the new snapshot at its index.
    const storedTerm =
      termAtSnapshot ?? (snapshot !== null && snapshot.index === index ? snapshot.term : null);
    const keepSuffix = storedTerm === term;
    if (range.first !== 0) dropEntries(steps, range.first, keepSuffix ? index : range.last);
    range = keepSuffix && index < range.last ? { first: index + 1, last: range.last } : EMPTY_RANGE;
    snapshot = snapshotRecordOf(batch.snapshot);
    steps.push({ kind: "putSnapshot", record: snapshot, data: batch.snapshot.data });
  }
  const snapIndex = snapshot?.index ?? 0;

  const entries = batch.entries ?? [];
  if (entries.length > 0) {
    const firstNew = entries[0].index;
    entries.forEach((entry, i) => {
      if (entry.index !== firstNew + i) {
        throw new StorageError(
          `entries to append are not contiguous: entry ${entry.index} at position ${i} after ${firstNew}`,
        );
      }
      checkCount(`term of entry ${entry.index}`, entry.term);
    });
    const lastNew = entries[entries.length - 1].index;
    checkCount("entry index", lastNew);
    if (firstNew <= snapIndex) {
      throw new StorageError(
        `cannot append entry ${firstNew}: the log is compacted up to ${snapIndex}`,
      );
    }
    const lastIndex = Math.max(range.last, snapIndex);
    if (firstNew > lastIndex + 1) {
      throw new StorageError(
        `cannot append entry ${firstNew}: the log ends at ${lastIndex}, so entries would be missing`,
      );
    }
    if (range.first !== 0 && range.last < firstNew - 1) {
      // Only entries covered by the snapshot are stored and they do not reach the new ones: drop them.
      dropEntries(steps, range.first, range.last);
      range = EMPTY_RANGE;
    }
    // Stored entries past the new tail conflict with it; those inside it are overwritten below.
    if (range.first !== 0) dropEntries(steps, Math.max(lastNew + 1, range.first), range.last);
    steps.push({ kind: "putEntries", entries: [...entries] });
    range = { first: range.first === 0 ? firstNew : range.first, last: lastNew };
  }

  let hardState = state.hardState;
  if (batch.hardState) {
    hardState = batch.hardState;
    checkHardState(hardState);
    steps.push({ kind: "putHardState", hardState });
  }
  checkCommit(hardState, Math.max(range.last, snapIndex));
  return { steps, next: { range, hardState, snapshot }, sync: sync || batch.snapshot != null };
}

/**
 * Plans recording a snapshot taken locally and removing the stored entries up to `upTo` (at
 * most the snapshot index; a smaller value keeps a tail of entries for slow followers).
 * `termAtSnapshot` is the stored entry's term at the snapshot's index, if one is stored.
 * Always synced (see WritePlan.sync).
 */
export function planCompact(
  state: StoreState,
  snap: Snapshot,
  upTo: number,
  termAtSnapshot: number | null,
): WritePlan {
  checkNotOlder(state.snapshot, snap);
  const { index, term } = snap.meta;
  const { first, last } = state.range;
  const lastIndex = lastIndexOf(state);
  if (index > lastIndex) {
    throw new StorageError(`local snapshot at index ${index} is past the last entry ${lastIndex}`);
  }
  if (termAtSnapshot !== null && termAtSnapshot !== term) {
    throw new StorageError(
      `local snapshot at index ${index} has term ${term} but the stored entry has term ${termAtSnapshot}`,
    );
  }
  if (upTo > index)
    throw new StorageError(`cannot drop entries up to ${upTo}, past the snapshot index ${index}`);
  const steps: LogStep[] = [];
  let range = state.range;
  if (first !== 0 && upTo >= first) {
    dropEntries(steps, first, Math.min(upTo, last));
    range = upTo >= last ? EMPTY_RANGE : { first: upTo + 1, last };
  }
  const snapshot = snapshotRecordOf(snap);
  steps.push({ kind: "putSnapshot", record: snapshot, data: snap.data });
  return { steps, next: { range, hardState: state.hardState, snapshot }, sync: true };
}

/** The plan with `hardState` put as well (a deferred commit index written with it). */
export function withHardState(plan: WritePlan, hardState: HardState): WritePlan {
  checkHardState(hardState);
  checkCommit(hardState, lastIndexOf(plan.next));
  return {
    steps: [...plan.steps, { kind: "putHardState", hardState }],
    next: { ...plan.next, hardState },
    sync: plan.sync,
  };
}

/**
 * Whether an unsynced write may wait and go to disk with the next write instead of on its own:
 * it only moves the commit index forward, within the stored log, keeping term and vote. The
 * commit index is never acknowledged to anyone, and after a crash a lower one is learnt again
 * from the leader, so such a write promises no more than any unsynced one: the store shows it
 * at once and keeps it across a clean restart, and a crash before the next synced write may
 * lose it. `latest` is the newest hard state given to the store, queued writes included.
 */
export function isDeferrableCommit(
  batch: SaveBatch,
  sync: boolean,
  latest: HardState,
  state: StoreState,
): boolean {
  const hs = batch.hardState;
  if (sync || !hs || batch.snapshot || (batch.entries?.length ?? 0) > 0) return false;
  if (hs.term !== latest.term || hs.vote !== latest.vote || hs.commit < latest.commit) return false;
  return Number.isSafeInteger(hs.commit) && hs.commit <= lastIndexOf(state);
}

/**
 * One batch with the effect of writing `a` then `b`, or null when they cannot be one (a
 * snapshot, or entries that would leave a gap). `b`'s entries replace `a`'s from their
 * first index on, as they would replace stored ones.
 */
export function joinBatches(a: SaveBatch, b: SaveBatch): SaveBatch | null {
  if (a.snapshot || b.snapshot) return null;
  const ae = a.entries ?? [];
  const be = b.entries ?? [];
  let entries: readonly Entry[];
  if (be.length === 0) entries = ae;
  else if (ae.length === 0) entries = be;
  else {
    const first = be[0]!.index;
    if (first > ae[ae.length - 1]!.index + 1) return null;
    entries = first <= ae[0]!.index ? be : [...ae.filter((e) => e.index < first), ...be];
  }
  return { hardState: b.hardState ?? a.hardState ?? null, entries };
}
