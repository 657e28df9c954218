// Virtual time: one queue of events ordered by (time, insertion sequence). Nothing in a
// simulated run reads a real clock, so one seed gives one run.

interface Event {
  readonly time: number;
  readonly seq: number;
  readonly label: string;
  readonly fn: () => void;
}

export class Scheduler {
  now = 0;
  private seq = 0;
  private heap: Event[] = [];
  steps = 0;

  at(time: number, label: string, fn: () => void): void {
    this.push({ time: Math.max(time, this.now), seq: this.seq++, label, fn });
  }

  after(delay: number, label: string, fn: () => void): void {
    this.at(this.now + delay, label, fn);
  }

  get size(): number {
    return this.heap.length;
  }

  /** Pop the next event, advance the clock to it and return it (undefined when empty). */
  next(): Event | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    this.now = top.time;
    this.steps++;
    return top;
  }

  private less(a: Event, b: Event): boolean {
    return a.time < b.time || (a.time === b.time && a.seq < b.seq);
  }

  private push(e: Event): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/** Let every pending promise continuation run (the microtask queue is deterministic). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
