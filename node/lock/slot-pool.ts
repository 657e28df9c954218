// The free slots 0..N-1 of a semaphore in use. A grant takes the lowest free slot, so the
// slot of every grant is a function of the slots held, the same on every replica. Slots at
// or above `next` have never been taken since the semaphore was last idle; freed ones below
// it wait in a min-heap. Grants and releases cost O(log N), and a semaphore with few holders
// stays small whatever its N.
export class SlotPool {
  private next = 0;
  private readonly freed: number[] = [];
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
    if (this.freed.length === 0) return this.next++;
    const slot = this.freed[0] as number;
    const last = this.freed.pop() as number;
    if (this.freed.length > 0) {
      this.freed[0] = last;
      this.down(0);
    }
    return slot;
  }

  /** Gives a taken slot back. */
  free(slot: number): void {
    this.taken--;
    if (this.taken === 0) {
      // Idle: start again from slot 0 with nothing remembered.
      this.next = 0;
      this.freed.length = 0;
      return;
    }
    this.freed.push(slot);
    this.up(this.freed.length - 1);
  }

  /** A pool with exactly `slots` taken (restoring a snapshot). */
  static holding(size: number, slots: Iterable<number>): SlotPool {
    const pool = new SlotPool(size);
    const taken = new Set(slots);
    let top = -1;
    for (const s of taken) top = Math.max(top, s);
    pool.next = top + 1;
    pool.taken = taken.size;
    for (let s = 0; s < pool.next; s++) if (!taken.has(s)) pool.freed.push(s); // ascending: already a heap
    return pool;
  }

  private up(i: number): void {
    const h = this.freed;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as number) <= (h[i] as number)) return;
      [h[i], h[parent]] = [h[parent] as number, h[i] as number];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.freed;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && (h[l] as number) < (h[m] as number)) m = l;
      if (r < h.length && (h[r] as number) < (h[m] as number)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as number, h[i] as number];
      i = m;
    }
  }
}
