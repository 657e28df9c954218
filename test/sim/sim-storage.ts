// A simulated node's store: MemoryStorage (the SaveBatch rules and start-up checks LevelStorage
// runs) plus what only a simulation has. A write takes effect when the scheduler completes it,
// after a latency drawn per write; the node learns of it only once its event loop is not
// stalled. A crash (Disk.crash, from SimCluster.crash) loses the writes still in flight and
// those completed without sync since the last synced one; a synced, completed write is never
// lost. The Disk outlives the node's processes.
import type { Entry, HardState, Snapshot } from "../../node/raft/types.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../node/storage/log-store.ts";
import { MemoryDisk, MemoryStorage } from "../../node/storage/memory-storage.ts";
import { snapshotMetaOf } from "../../node/storage/records.ts";
import type { Scheduler } from "./scheduler.ts";

const ZERO: HardState = { term: 0, vote: 0, commit: 0 };

/** A node's disk. The checkers read what is durable: what a crash now would leave. */
export class Disk extends MemoryDisk {
  /** Writes completed. */
  writes = 0;

  get hardState(): HardState {
    return this.durable.hardState ?? ZERO;
  }

  get snapshot(): Snapshot | null {
    const s = this.durable.snapshot;
    return s === null ? null : { meta: snapshotMetaOf(s.record), data: s.data };
  }

  /** The durable entries after the snapshot, in order. */
  get entries(): Entry[] {
    const out: Entry[] = [];
    for (let i = (this.durable.snapshot?.record.index ?? 0) + 1; i <= this.lastIndex(); i++)
      out.push(this.durable.entries.get(i)!);
    return out;
  }

  lastIndex(): number {
    return Math.max(this.durable.range.last, this.durable.snapshot?.record.index ?? 0);
  }

  term(index: number): number | undefined {
    const off = this.durable.snapshot?.record.index ?? 0;
    if (index === off) return this.durable.snapshot?.record.term ?? 0;
    if (index < off || index > this.lastIndex()) return undefined;
    return this.durable.entries.get(index)?.term;
  }
}

export interface SimStorageOptions {
  /** Latency of one write, drawn per write. */
  writeDelay: () => number;
  /** Called to learn whether the node is still the same instance when a write completes. */
  alive: () => boolean;
  /** Called when a completion must wait (the node's event loop is stalled). */
  resumeAt: () => number;
  /** Called when a write was issued, and when it completed (before the node learns it did). */
  onIssued?: () => void;
  onDurable?: () => void;
}

export class SimStorage implements RaftStorage {
  private readonly store: MemoryStorage;
  /** When the last write issued completes (virtual time). */
  private lastCompletion = 0;

  constructor(
    private readonly disk: Disk,
    private readonly sched: Scheduler,
    private readonly opts: SimStorageOptions,
  ) {
    this.store = new MemoryStorage(disk, {
      beforeWrite: (plan) => this.checkTermKept(plan.next.hardState),
    });
  }

  async load(): Promise<DurableState> {
    return this.store.loadNow();
  }

  save(batch: SaveBatch, sync: boolean): Promise<void> {
    // Copy now: the caller's arrays are its own.
    const copy: SaveBatch = {
      hardState: batch.hardState ?? null,
      entries: [...(batch.entries ?? [])],
      snapshot: batch.snapshot ?? null,
    };
    return this.issue(() => this.store.saveNow(copy, sync));
  }

  /** A snapshot taken locally: recorded, and the log up to `upTo` dropped, in one synced write. */
  compact(snapshot: Snapshot, upTo: number): Promise<void> {
    return this.issue(() => this.store.compactNow(snapshot, upTo));
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  /**
   * Issues a write now; it takes effect after its latency, unless the node crashed first.
   * Writes complete in the order they were issued (the storage contract): one whose latency
   * is shorter than an earlier one's completes right after that one.
   */
  private issue(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.store.assertOpen();
      this.opts.onIssued?.();
      // The scheduler runs events of the same time in the order they were added.
      const at = Math.max(this.sched.now + this.opts.writeDelay(), this.lastCompletion);
      this.lastCompletion = at;
      this.sched.at(at, "disk", () => {
        if (!this.opts.alive()) return; // crashed before the write finished: it never happened
        let failure: { error: unknown } | null = null;
        try {
          write();
          this.disk.writes++;
          this.opts.onDurable?.();
        } catch (error) {
          failure = { error };
        }
        // The write is done; the node sees it when its event loop runs again.
        const finish = (): void => {
          if (!this.opts.alive()) return;
          const resume = this.opts.resumeAt();
          if (resume > this.sched.now) this.sched.at(resume, "disk-resume", finish);
          else if (failure === null) resolve();
          else reject(failure.error);
        };
        finish();
      });
    });
  }

  /** A check on the node, not a storage rule: the term it writes never goes back. */
  private checkTermKept(next: HardState): void {
    const written = this.disk.current.hardState?.term ?? 0;
    if (next.term < written)
      throw new Error(`durable term went back from ${written} to ${next.term}`);
  }
}
