// A min-heap of (deadline, key) with lazy invalidation: callers push a new entry when a
// deadline moves and skip entries whose version is stale when they pop. Ties break by
// insertion order, so popping is deterministic.

import { MinHeap } from "../util/min-heap.ts";

interface Entry<K> {
  readonly deadline: number;
  readonly order: number;
  readonly key: K;
  readonly version: number;
}

const earlier = <K>(a: Entry<K>, b: Entry<K>): boolean =>
  a.deadline < b.deadline || (a.deadline === b.deadline && a.order < b.order);

export class DeadlineQueue<K> {
  private readonly heap = new MinHeap<Entry<K>>(earlier);
  private nextOrder = 0;

  get size(): number {
    return this.heap.size;
  }

  push(deadline: number, key: K, version: number): void {
    this.heap.push({ deadline, order: this.nextOrder++, key, version });
  }

  /** Earliest deadline, possibly of a stale entry. */
  peekDeadline(): number | null {
    return this.heap.peek()?.deadline ?? null;
  }

  /** Removes and returns the earliest entry if its deadline is at or before `now`. */
  popDue(now: number): { key: K; version: number } | null {
    const top = this.heap.peek();
    if (!top || top.deadline > now) return null;
    this.heap.pop();
    return { key: top.key, version: top.version };
  }

  /** Keeps only entries for which `live` is true (to shed stale entries). */
  retain(live: (key: K, version: number) => boolean): void {
    this.heap.retain((e) => live(e.key, e.version));
  }

  clear(): void {
    this.heap.clear();
  }
}
