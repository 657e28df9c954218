// Virtual time: one queue of events ordered by (time, insertion sequence). Nothing in a
// simulated run reads a real clock, so one seed gives one run.

import { MinHeap } from "../../node/util/min-heap.ts";

interface Event {
  readonly time: number;
  readonly seq: number;
  readonly label: string;
  readonly fn: () => void;
}

const sooner = (a: Event, b: Event): boolean =>
  a.time < b.time || (a.time === b.time && a.seq < b.seq);

export class Scheduler {
  now = 0;
  private seq = 0;
  private readonly queue = new MinHeap<Event>(sooner);
  steps = 0;

  at(time: number, label: string, fn: () => void): void {
    this.queue.push({ time: Math.max(time, this.now), seq: this.seq++, label, fn });
  }

  after(delay: number, label: string, fn: () => void): void {
    this.at(this.now + delay, label, fn);
  }

  get size(): number {
    return this.queue.size;
  }

  /**
   * Pop the next event if it is due at or before `until`, advance the clock to it and return
   * it; otherwise leave it queued (with its place among events of the same time) and return
   * undefined.
   */
  nextUntil(until: number): Event | undefined {
    const top = this.queue.peek();
    if (!top || top.time > until) return undefined;
    return this.next();
  }

  /** Pop the next event, advance the clock to it and return it (undefined when empty). */
  next(): Event | undefined {
    const top = this.queue.pop();
    if (!top) return undefined;
    this.now = top.time;
    this.steps++;
    return top;
  }
}

/** Let every pending promise continuation run (the microtask queue is deterministic). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
