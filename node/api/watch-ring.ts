// The recent lock events a node keeps for Watch, in index order. A watcher may start at
// any index the ring still covers completely; below that it gets OUT_OF_RANGE and re-reads
// state instead of silently missing events.
import type { LockEvent } from "../lock/index.ts";

export type WatchStart =
  | { readonly kind: "ok"; readonly events: readonly LockEvent[] }
  | { readonly kind: "outOfRange"; readonly firstRetained: number };

export class WatchRing {
  private events: LockEvent[] = [];
  private head = 0;
  private floor: number;

  /**
   * @param capacity events kept (at least 1)
   * @param firstIndex first log index whose events this ring will see (applied index + 1 at start)
   */
  constructor(
    private readonly capacity: number,
    firstIndex: number,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError("watch ring capacity must be a positive integer");
    this.floor = firstIndex;
  }

  /** Every event at or above this index is still in the ring. */
  get firstRetained(): number {
    return this.floor;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** Adds the events of one applied entry (indexes never decrease). */
  append(events: readonly LockEvent[]): void {
    for (const e of events) this.events.push(e);
    while (this.size > this.capacity) this.evictOldestIndex();
    if (this.head > this.capacity) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** Forgets everything: the state jumped (a snapshot was installed) and resumes at `nextIndex`. */
  reset(nextIndex: number): void {
    this.events = [];
    this.head = 0;
    this.floor = nextIndex;
  }

  /** Retained events with index ≥ fromIndex whose lock starts with prefix, or OUT_OF_RANGE. */
  since(fromIndex: number, prefix: string): WatchStart {
    if (fromIndex < this.floor) return { kind: "outOfRange", firstRetained: this.floor };
    const out: LockEvent[] = [];
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i] as LockEvent;
      if (e.index >= fromIndex && e.lock.startsWith(prefix)) out.push(e);
    }
    return { kind: "ok", events: out };
  }

  /** Drops every event of the oldest index, so the ring never covers half an entry. */
  private evictOldestIndex(): void {
    const oldest = (this.events[this.head] as LockEvent).index;
    while (this.head < this.events.length && (this.events[this.head] as LockEvent).index === oldest)
      this.head++;
    this.floor = Math.max(this.floor, oldest + 1);
  }
}
