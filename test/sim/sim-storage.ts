// A simulated disk. A write becomes durable only when the scheduler completes it; a crash
// drops whatever was not yet durable. Durable state outlives the node instance.
import type { Entry, HardState, Snapshot } from "../../node/raft/types.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../node/storage/log-store.ts";
import type { Scheduler } from "./scheduler.ts";

/** What survives a crash. */
export class Disk {
  hardState: HardState = { term: 0, vote: 0, commit: 0 };
  snapshot: Snapshot | null = null;
  entries: Entry[] = [];
  writes = 0;

  lastIndex(): number {
    return (this.snapshot?.meta.index ?? 0) + this.entries.length;
  }

  term(index: number): number | undefined {
    const off = this.snapshot?.meta.index ?? 0;
    if (index === off) return this.snapshot?.meta.term ?? 0;
    if (index < off || index > this.lastIndex()) return undefined;
    return this.entries[index - off - 1]!.term;
  }

  apply(batch: SaveBatch): void {
    if (batch.snapshot) {
      const s = batch.snapshot;
      const off = this.snapshot?.meta.index ?? 0;
      if (this.term(s.meta.index) === s.meta.term) this.entries = this.entries.slice(s.meta.index - off);
      else this.entries = [];
      this.snapshot = s;
    }
    if (batch.entries && batch.entries.length > 0) {
      const first = batch.entries[0]!.index;
      const off = this.snapshot?.meta.index ?? 0;
      if (first <= off) throw new Error(`write at ${first} below snapshot ${off}`);
      if (first > this.lastIndex() + 1) throw new Error(`gap: write at ${first}, last ${this.lastIndex()}`);
      this.entries.length = first - off - 1;
      this.entries.push(...batch.entries);
    }
    if (batch.hardState) {
      if (batch.hardState.term < this.hardState.term) {
        throw new Error(`durable term went back from ${this.hardState.term} to ${batch.hardState.term}`);
      }
      this.hardState = batch.hardState;
    }
    if (this.hardState.commit > this.lastIndex()) {
      throw new Error(`durable commit ${this.hardState.commit} past last index ${this.lastIndex()}`);
    }
    this.writes++;
  }
}

export interface SimStorageOptions {
  /** Latency of one synced write, drawn per write. */
  writeDelay: () => number;
  /** Called to learn whether the node is still the same instance when a write completes. */
  alive: () => boolean;
  /** Called when a completion must wait (the node's event loop is stalled). */
  resumeAt: () => number;
  /** Called when a write was issued, and when it became durable (before the node learns it is). */
  onIssued?: () => void;
  onDurable?: () => void;
}

export class SimStorage implements RaftStorage {
  constructor(
    private readonly disk: Disk,
    private readonly sched: Scheduler,
    private readonly opts: SimStorageOptions,
  ) {}

  async load(): Promise<DurableState> {
    return { hardState: this.disk.hardState, snapshot: this.disk.snapshot, entries: [...this.disk.entries] };
  }

  save(batch: SaveBatch, _sync: boolean): Promise<void> {
    // Copy now: the caller's arrays are its own.
    const copy: SaveBatch = { hardState: batch.hardState ?? null, entries: [...(batch.entries ?? [])], snapshot: batch.snapshot ?? null };
    return new Promise((resolve) => {
      this.opts.onIssued?.();
      this.sched.after(this.opts.writeDelay(), "disk", () => {
        if (!this.opts.alive()) return; // crashed before the write finished: it never happened
        this.disk.apply(copy);
        this.opts.onDurable?.();
        // The write is durable now; the node sees it when its event loop runs again.
        const finish = (): void => {
          if (!this.opts.alive()) return;
          const resume = this.opts.resumeAt();
          if (resume > this.sched.now) this.sched.at(resume, "disk-resume", finish);
          else resolve();
        };
        finish();
      });
    });
  }

  /** A snapshot taken locally: recorded, and the log up to it dropped, in one durable write. */
  compact(snapshot: Snapshot, _upTo: number): Promise<void> {
    return this.save({ snapshot }, true);
  }

  async close(): Promise<void> {}
}
