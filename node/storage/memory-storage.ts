// The reference RaftStorage, in memory: the SaveBatch rules of write-plan.ts and the start-up
// checks of load-check.ts, the very code LevelStorage runs, on a MemoryDisk instead of LevelDB
// and files. Pure and deterministic (no I/O, timers or clock), so the simulator builds its
// store on it and tests can crash it between a write's issue and its durability.
//
// What a write promises is what it promises on LevelDB: a completed write is seen by load()
// and kept across close() and a new store on the same disk; a synced one also survives a
// crash (MemoryDisk.crash), and makes every write before it durable. A batch that carries a
// snapshot, and a compaction, are always synced. LevelStorage holds back a commit-only
// unsynced write (isDeferrableCommit) to spare a disk write; this store has none to spare,
// and an unsynced write here already promises no more than a deferred one: seen at once,
// kept across a clean restart, lost at a crash until the next synced write.
//
// Entries and snapshot bodies are kept by reference: callers must not change them after
// handing them over (Raft's types are read-only).
import type { DurableState, RaftStorage, SaveBatch } from "./log-store.ts";
import type { Snapshot } from "../raft/types.ts";
import { CorruptStoreError, StorageError } from "./errors.ts";
import { LoadCheck } from "./load-check.ts";
import { MemoryDisk } from "./memory-disk.ts";
import { snapshotMetaOf } from "./records.ts";
import { EMPTY_STORE, ZERO_HARD_STATE, planCompact, planSave } from "./write-plan.ts";
import type { StoreState, WritePlan } from "./write-plan.ts";

export { MemoryDisk } from "./memory-disk.ts";

export interface MemoryStorageOptions {
  /** Runs on each write once the store's rules accepted it, before it reaches the disk; a throw refuses it. */
  readonly beforeWrite?: (plan: WritePlan) => void;
}

export class MemoryStorage implements RaftStorage {
  /** What this store knows of the disk, as planning needs it. */
  private state: StoreState = EMPTY_STORE;
  private closed = false;
  private readonly openedAfterCrashes: number;

  /**
   * Opens a store on `disk` (a new, empty one by default) and verifies what it holds: throws
   * CorruptStoreError as LevelStorage.open does.
   */
  constructor(
    readonly disk: MemoryDisk = new MemoryDisk(),
    private readonly opts: MemoryStorageOptions = {},
  ) {
    this.openedAfterCrashes = disk.crashes;
    this.loadNow();
  }

  load(): Promise<DurableState> {
    return settled(() => this.loadNow());
  }

  save(batch: SaveBatch, sync: boolean): Promise<void> {
    return settled(() => this.saveNow(batch, sync));
  }

  compact(snapshot: Snapshot, upTo: number): Promise<void> {
    return settled(() => this.compactNow(snapshot, upTo));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** load(), done before it returns (it throws what load() rejects with). */
  loadNow(): DurableState {
    this.assertOpen();
    const { hardState: stored, snapshot, entries } = this.disk.current;
    const hardState = stored ?? ZERO_HARD_STATE;
    const record = snapshot?.record ?? null;
    const check = new LoadCheck(hardState, record);
    for (const index of [...entries.keys()].sort((a, b) => a - b)) {
      check.at(index);
      check.entry(entries.get(index)!);
    }
    const log = check.finish();
    this.state = { range: log.range, hardState, snapshot: record };
    return {
      hardState,
      snapshot:
        snapshot === null ? null : { meta: snapshotMetaOf(snapshot.record), data: snapshot.data },
      entries: log.entries,
    };
  }

  /** save(), done before it returns (it throws what save() rejects with). */
  saveNow(batch: SaveBatch, sync: boolean): void {
    this.assertOpen();
    const snapshot = batch.snapshot ?? null;
    const termAtSnapshot = snapshot === null ? null : this.storedTermAt(snapshot.meta.index);
    this.write(planSave(this.state, batch, sync, termAtSnapshot));
  }

  /** compact(), done before it returns (it throws what compact() rejects with). */
  compactNow(snapshot: Snapshot, upTo: number): void {
    this.assertOpen();
    this.write(planCompact(this.state, snapshot, upTo, this.storedTermAt(snapshot.meta.index)));
  }

  /** Throws unless the store can be used: it is not closed, and its disk did not crash since it was opened. */
  assertOpen(): void {
    if (this.closed) throw new StorageError("the store is closed");
    if (this.disk.crashes !== this.openedAfterCrashes) {
      throw new StorageError(
        "the disk crashed after this store was opened: only a store opened since can use it",
      );
    }
  }

  private write(plan: WritePlan): void {
    this.opts.beforeWrite?.(plan);
    this.disk.write(plan);
    this.state = plan.next;
  }

  private storedTermAt(index: number): number | null {
    const { first, last } = this.state.range;
    if (first === 0 || index < first || index > last) return null;
    const entry = this.disk.current.entries.get(index);
    if (entry === undefined)
      throw new CorruptStoreError(
        `entry ${index} is missing from the stored log ${first}..${last}`,
      );
    return entry.term;
  }
}

/** The outcome of a synchronous call as a promise. */
function settled<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (err) {
    return Promise.reject(err);
  }
}
