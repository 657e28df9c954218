// A binary min-heap under a caller's order. With a total order (ties broken by an
// insertion number, say) the sequence of pops depends only on what was pushed, never on
// the heap's layout, so the lock state's timers and the simulator's event queue pop the same
// way on every run.
export class MinHeap<T> {
  private items: T[] = [];

  /** `less(a, b)`: a pops before b. */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const h = this.items;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i] as T, h[parent] as T)) return;
      [h[i], h[parent]] = [h[parent] as T, h[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const h = this.items;
    const top = h[0];
    if (top === undefined) return undefined;
    const last = h.pop() as T;
    if (h.length > 0) {
      h[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Keeps only the items `keep` accepts. */
  retain(keep: (item: T) => boolean): void {
    this.items = this.items.filter(keep).sort((a, b) => (this.less(a, b) ? -1 : 1));
  }

  /** Replaces the contents with `sorted`, which must already be in pop order (a sorted array is a heap). */
  resetSorted(sorted: T[]): void {
    this.items = sorted;
  }

  clear(): void {
    this.items = [];
  }

  private down(i: number): void {
    const h = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l] as T, h[m] as T)) m = l;
      if (r < h.length && this.less(h[r] as T, h[m] as T)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as T, h[i] as T];
      i = m;
    }
  }
}
