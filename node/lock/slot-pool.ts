// The free slots 0..N-1 of a semaphore in use. A grant takes the lowest free slot, so the
// slot of every grant is a function of the slots held, the same on every replica. Slots at
// or above `next` have never been taken since the semaphore was last idle; freed ones below
// it wait in a min-heap. Grants and releases cost O(log N), and a semaphore with few holders
// stays small whatever its N.
import { MinHeap } from "../util/min-heap.ts";

const lower = (a: number, b: number): boolean => a < b;

export class SlotPool {
  private next = 0;
  private readonly freed = new MinHeap<number>(lower);
  private taken = 0;

  constructor(readonly size: number) {}

  /** Slots taken. */
  get used(): number {
    return this.taken;
  }

  /** Takes the lowest free slot. */
  take(): number {
    if (this.taken >= this.size) throw new RangeError(`every slot of ${this.size} is taken`);
    this.taken++;
    return this.freed.pop() ?? this.next++;
  }

  /** Gives a taken slot back. */
  free(slot: number): void {
    this.taken--;
    if (this.taken === 0) {
      // Idle: start again from slot 0 with nothing remembered.
      this.next = 0;
      this.freed.clear();
      return;
    }
    this.freed.push(slot);
  }

  /** A pool with exactly `slots` taken (restoring a snapshot). */
  static holding(size: number, slots: Iterable<number>): SlotPool {
    const pool = new SlotPool(size);
    const taken = new Set(slots);
    let top = -1;
    for (const s of taken) top = Math.max(top, s);
    pool.next = top + 1;
    pool.taken = taken.size;
    const free: number[] = [];
    for (let s = 0; s < pool.next; s++) if (!taken.has(s)) free.push(s);
    pool.freed.resetSorted(free); // ascending
    return pool;
  }
}
