// The checks every store makes on its log at start-up, written once: the log starts right
// after the snapshot (or at 1 without one), has no gap, its terms never go back, agrees with
// the snapshot at the snapshot's index, and reaches the stored commit index. A store feeds it
// its entries in index order and refuses to start (CorruptStoreError) on the first failure.
import type { Entry, HardState } from "../raft/types.ts";
import { CorruptStoreError } from "./errors.ts";
import type { SnapshotRecord } from "./records.ts";
import { EMPTY_RANGE } from "./write-plan.ts";
import type { StoredRange } from "./write-plan.ts";

export interface CheckedLog {
  /** Every stored entry's index range, entries covered by the snapshot included. */
  readonly range: StoredRange;
  /** The entries after the snapshot, in order. */
  readonly entries: Entry[];
}

export class LoadCheck {
  private readonly entries: Entry[] = [];
  private readonly snapIndex: number;
  private readonly snapTerm: number;
  private first = 0;
  private prevIndex = 0;
  private prevTerm = 0;

  constructor(
    private readonly hardState: HardState,
    private readonly snapshot: SnapshotRecord | null,
  ) {
    this.snapIndex = snapshot?.index ?? 0;
    this.snapTerm = snapshot?.term ?? 0;
  }

  /** The next stored index, in ascending order, checked before its record is decoded. */
  at(index: number): void {
    const snapIndex = this.snapIndex;
    if (this.first === 0) {
      this.first = index;
      if (this.snapshot === null && index !== 1) {
        throw new CorruptStoreError(
          `the log starts at entry ${index} but there is no snapshot: entries 1..${index - 1} are missing`,
        );
      }
      if (index > snapIndex + 1) {
        throw new CorruptStoreError(
          `the log starts at entry ${index} but the snapshot ends at ${snapIndex}: entries ${snapIndex + 1}..${index - 1} are missing`,
        );
      }
    } else if (index !== this.prevIndex + 1) {
      throw new CorruptStoreError(`gap in the log: entry ${index} follows entry ${this.prevIndex}`);
    }
  }

  /** The entry at the index just given to at(). */
  entry(entry: Entry): void {
    const { index, term } = entry;
    if (term < this.prevTerm) {
      throw new CorruptStoreError(
        `entry ${index} has term ${term}, lower than term ${this.prevTerm} of entry ${this.prevIndex}`,
      );
    }
    if (index === this.snapIndex && term !== this.snapTerm) {
      throw new CorruptStoreError(
        `entry ${index} has term ${term} but the snapshot at that index has term ${this.snapTerm}`,
      );
    }
    if (index > this.snapIndex) {
      if (term < this.snapTerm) {
        throw new CorruptStoreError(
          `entry ${index} has term ${term}, lower than the snapshot's term ${this.snapTerm}`,
        );
      }
      this.entries.push(entry);
    }
    this.prevIndex = index;
    this.prevTerm = term;
  }

  /** After the last entry: the commit index must not pass the log. */
  finish(): CheckedLog {
    const lastIndex = Math.max(this.prevIndex, this.snapIndex);
    if (this.hardState.commit > lastIndex) {
      throw new CorruptStoreError(
        `the stored commit index ${this.hardState.commit} is past the last entry ${lastIndex}: the log is truncated`,
      );
    }
    return {
      range: this.first === 0 ? EMPTY_RANGE : { first: this.first, last: this.prevIndex },
      entries: this.entries,
    };
  }
}
