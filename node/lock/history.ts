// Lock history bounded per lock and globally. Records enter in apply order, so the
// global queue is ordered by grant index; eviction always takes the oldest record.
import { appendHistory, shiftHistory, type HistoryRecord, type LockState } from "./state.ts";

export class HistoryLog {
  /** Every record in insertion order; evicted ones are skipped lazily. */
  private queue: HistoryRecord[] = [];
  private head = 0;
  private live = 0;

  constructor(
    private perLock: number,
    private total: number,
    /** Finds a lock by name when the global cap evicts its oldest record. */
    private readonly lockOf: (name: string) => LockState | undefined,
    /** Called when eviction may have left a lock with no state at all. */
    private readonly onShrunk: (lock: LockState) => void,
  ) {}

  get size(): number {
    return this.live;
  }

  add(lock: LockState, record: HistoryRecord): void {
    if (this.perLock === 0 || this.total === 0) {
      record.evicted = true;
      return;
    }
    appendHistory(lock, record);
    this.queue.push(record);
    this.live++;
    while (lock.historyLength > this.perLock) this.evict(shiftHistory(lock) as HistoryRecord);
    while (this.live > this.total) this.evictOldest();
    this.compact();
  }

  /**
   * New caps (the replicated limits changed): evicts, oldest first, whatever is over them,
   * the same way on every replica.
   */
  setCaps(perLock: number, total: number): void {
    this.perLock = perLock;
    this.total = total;
    for (let i = this.head; i < this.queue.length; i++) {
      const record = this.queue[i] as HistoryRecord;
      if (record.evicted) continue;
      const lock = this.lockOf(record.lock);
      if (!lock || lock.historyLength <= perLock || lock.oldest !== record) continue;
      shiftHistory(lock);
      this.evict(record);
      this.onShrunk(lock);
    }
    while (this.live > this.total) this.evictOldest();
    this.compact();
  }

  /** Records in insertion order (for snapshots). */
  *records(): IterableIterator<HistoryRecord> {
    for (let i = this.head; i < this.queue.length; i++) {
      const record = this.queue[i] as HistoryRecord;
      if (!record.evicted) yield record;
    }
  }

  /** Rebuilds from records in insertion order (restore); records must already be in their locks. */
  load(records: readonly HistoryRecord[]): void {
    this.queue = [...records];
    this.head = 0;
    this.live = records.length;
  }

  private evict(record: HistoryRecord): void {
    record.evicted = true;
    this.live--;
  }

  private evictOldest(): void {
    while (this.head < this.queue.length) {
      const record = this.queue[this.head++] as HistoryRecord;
      if (record.evicted) continue;
      const lock = this.lockOf(record.lock);
      // The globally oldest record is also the oldest of its lock.
      if (lock && lock.oldest === record) shiftHistory(lock);
      this.evict(record);
      if (lock) this.onShrunk(lock);
      return;
    }
  }

  /** Drops evicted records once they outnumber the live ones, so the queue stays proportional. */
  private compact(): void {
    if (this.queue.length - this.head > 2 * this.live + 1024) {
      this.queue = this.queue.slice(this.head).filter((r) => !r.evicted);
      this.head = 0;
    }
  }
}
