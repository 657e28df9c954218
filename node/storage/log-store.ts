// The durable store the driver uses. Implementations: LevelDB (node/storage/level-storage.ts)
// and the simulator's in-memory store (test/sim/sim-storage.ts).
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
   * One atomic write. With sync it is durable when the promise resolves. Any rejection is
   * fatal for the node: the driver stops and the process must restart from disk.
   */
  save(batch: SaveBatch, sync: boolean): Promise<void>;
  /** Record a snapshot taken locally and drop log entries up to `upTo`. */
  compact?(snapshot: Snapshot, upTo: number): Promise<void>;
  close(): Promise<void>;
}
