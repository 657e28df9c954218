// The durable store the driver uses. Implementations: LevelDB (./level-storage.ts) and the
// in-memory reference store (./memory-storage.ts), which the simulator's store
// (test/sim/sim-storage.ts) wraps. Both plan every write with ./write-plan.ts and check the
// log at start-up with ./load-check.ts; test/unit/storage/contract.test.ts runs one suite
// against each.
import type { Entry, HardState, Snapshot } from "../raft/types.ts";

/** Everything a node restarts from. */
export interface DurableState {
  readonly hardState: HardState;
  /** The newest snapshot whose checksum matches its record, or null. */
  readonly snapshot: Snapshot | null;
  /** Entries after the snapshot index, contiguous. */
  readonly entries: readonly Entry[];
}

export interface SaveBatch {
  readonly hardState?: HardState | null;
  /** Appended in order; any stored entry at or after entries[0].index is removed first, in the same batch. */
  readonly entries?: readonly Entry[];
  /** A snapshot to install: replaces the stored log up to and including its index (the whole log if it is past the end). */
  readonly snapshot?: Snapshot | null;
}

export interface RaftStorage {
  load(): Promise<DurableState>;
  /**
   * One atomic write. Once the promise resolves, load() sees it and a restart after close()
   * keeps it; with sync it is also durable: a crash cannot lose it, nor any write before it.
   * Without sync a crash may lose it, whole, until a later synced write completes. A batch
   * carrying a snapshot is always synced. Any rejection is fatal for the node: the driver
   * stops and the process must restart from disk.
   *
   * Several saves may be in flight (the driver does not wait for one before giving the
   * next). They take effect, and their promises resolve, in the order they were called: a
   * save never resolves before an earlier one, and a crash that keeps a save keeps every
   * earlier one. An implementation may write several queued saves as one batch.
   */
  save(batch: SaveBatch, sync: boolean): Promise<void>;
  /** Record a snapshot taken locally and drop log entries up to `upTo`, in one synced write. */
  compact?(snapshot: Snapshot, upTo: number): Promise<void>;
  close(): Promise<void>;
}
