// A min-heap of (deadline, key) with lazy invalidation: callers push a new entry when a
// deadline moves and skip entries whose version is stale when they pop. Ties break by
// insertion order, so popping is deterministic.

interface Entry<K> {
  readonly deadline: number;
  readonly order: number;
  readonly key: K;
  readonly version: number;
}

export class DeadlineQueue<K> {
  private heap: Entry<K>[] = [];
  private nextOrder = 0;

  get size(): number {
    return this.heap.length;
  }

  push(deadline: number, key: K, version: number): void {
    this.heap.push({ deadline, order: this.nextOrder++, key, version });
    this.up(this.heap.length - 1);
  }

  /** Earliest deadline, possibly of a stale entry. */
  peekDeadline(): number | null {
    return this.heap[0]?.deadline ?? null;
  }

  /** Removes and returns the earliest entry if its deadline is at or before `now`. */
  popDue(now: number): { key: K; version: number } | null {
    const top = this.heap[0];
    if (!top || top.deadline > now) return null;
    const last = this.heap.pop() as Entry<K>;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return { key: top.key, version: top.version };
  }

  /** Keeps only entries for which `live` is true (to shed stale entries). */
  retain(live: (key: K, version: number) => boolean): void {
    const kept = this.heap.filter((e) => live(e.key, e.version)).sort((a, b) => less(a, b) ? -1 : 1);
    this.heap = kept;
  }

  clear(): void {
    this.heap = [];
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(h[i] as Entry<K>, h[parent] as Entry<K>)) return;
      [h[i], h[parent]] = [h[parent] as Entry<K>, h[i] as Entry<K>];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && less(h[l] as Entry<K>, h[m] as Entry<K>)) m = l;
      if (r < h.length && less(h[r] as Entry<K>, h[m] as Entry<K>)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Entry<K>, h[i] as Entry<K>];
      i = m;
    }
  }
}

function less<K>(a: Entry<K>, b: Entry<K>): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.order < b.order);
}
