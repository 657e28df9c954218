// The medium under MemoryStorage: the records a LevelDB store keeps under its keys (entries,
// hard state, snapshot record) and the snapshot body beside them. It outlives the stores
// opened on it, as a disk outlives a process, and it knows what is durable: a completed
// write is seen at once, but only a synced one (and with it every write before it, as a
// LevelDB sync does) survives crash(). Pure: no I/O, timers or clock.
import type { Entry, HardState } from "../raft/types.ts";
import type { SnapshotRecord } from "./records.ts";
import { EMPTY_RANGE } from "./write-plan.ts";
import type { LogStep, StoredRange, WritePlan } from "./write-plan.ts";

export interface StoredSnapshot {
  readonly record: SnapshotRecord;
  readonly data: Uint8Array;
}

/** The stored records, for tests that change them behind the store's back. */
export interface StoredRecords {
  /** null until a hard state is written (a store reads that as term 0, no vote, commit 0). */
  hardState: HardState | null;
  snapshot: StoredSnapshot | null;
  readonly entries: Map<number, Entry>;
}

/** One version of what the disk holds. */
export interface DiskView {
  readonly hardState: HardState | null;
  readonly snapshot: StoredSnapshot | null;
  readonly entries: ReadonlyMap<number, Entry>;
  /** The index range of the stored entries, those covered by the snapshot included. */
  readonly range: StoredRange;
}

class Image implements DiskView, StoredRecords {
  hardState: HardState | null = null;
  snapshot: StoredSnapshot | null = null;
  range: StoredRange = EMPTY_RANGE;
  constructor(readonly entries = new Map<number, Entry>()) {}

  copy(): Image {
    const image = new Image(new Map(this.entries));
    image.hardState = this.hardState;
    image.snapshot = this.snapshot;
    image.range = this.range;
    return image;
  }

  apply(plan: WritePlan): void {
    for (const step of plan.steps) this.step(step);
    this.range = plan.next.range;
  }

  private step(step: LogStep): void {
    switch (step.kind) {
      case "dropEntries":
        for (let i = step.from; i <= step.to; i++) this.entries.delete(i);
        break;
      case "putEntries":
        for (const entry of step.entries) this.entries.set(entry.index, entry);
        break;
      case "putHardState":
        this.hardState = step.hardState;
        break;
      case "putSnapshot":
        this.snapshot = { record: step.record, data: step.data };
        break;
    }
  }

  /** The range read back from the entry keys, after a change that did not go through a plan. */
  rescan(): void {
    let first = 0;
    let last = 0;
    for (const index of this.entries.keys()) {
      if (first === 0 || index < first) first = index;
      if (index > last) last = index;
    }
    this.range = first === 0 ? EMPTY_RANGE : { first, last };
  }
}

export class MemoryDisk {
  private written = new Image();
  private stable = new Image();
  /** Completed writes since the last synced one, in order: what a crash loses. */
  private unsynced: WritePlan[] = [];
  private crashCount = 0;

  /** What a read sees: every completed write. */
  get current(): DiskView {
    return this.written;
  }

  /** What a crash now would leave: every write up to the last synced one. */
  get durable(): DiskView {
    return this.stable;
  }

  /** How many times the disk's machine crashed; a store opened before a crash is gone. */
  get crashes(): number {
    return this.crashCount;
  }

  /** Applies a write, whole. A synced write makes it and every earlier one durable. */
  write(plan: WritePlan): void {
    this.written.apply(plan);
    this.unsynced.push(plan);
    if (!plan.sync) return;
    for (const done of this.unsynced) this.stable.apply(done);
    this.unsynced = [];
  }

  /** The machine crashes: writes completed since the last synced one are lost, each one whole. */
  crash(): void {
    this.crashCount++;
    this.unsynced = [];
    this.written = this.stable.copy();
  }

  /**
   * Changes the stored records behind the store's back, as a faulty disk or a bug would (for
   * tests of the start-up checks). The change is durable.
   */
  alter(change: (records: StoredRecords) => void): void {
    for (const image of [this.written, this.stable]) {
      change(image);
      image.rescan();
    }
  }
}
