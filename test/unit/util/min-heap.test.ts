// The heap under the lock state's timers, semaphore slots and the simulator's event queue.
import { describe, expect, it } from "vitest";
import { MinHeap } from "../../../node/util/min-heap.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

interface Item {
  readonly at: number;
  readonly order: number;
}
const before = (a: Item, b: Item): boolean => a.at < b.at || (a.at === b.at && a.order < b.order);

describe("MinHeap", () => {
  it("pops in the order's sequence, equal keys in the order they were pushed", () => {
    const rng = new SeededRandom(7);
    const heap = new MinHeap<Item>(before);
    const pushed: Item[] = [];
    for (let i = 0; i < 500; i++) {
      const item = { at: rng.int(0, 40), order: i };
      pushed.push(item);
      heap.push(item);
    }
    const popped: Item[] = [];
    for (let item = heap.pop(); item !== undefined; item = heap.pop()) popped.push(item);
    expect(popped).toEqual([...pushed].sort((a, b) => a.at - b.at || a.order - b.order));
    expect(heap.size).toBe(0);
  });

  it("pops and pushes interleaved like a sorted list would", () => {
    const rng = new SeededRandom(11);
    const heap = new MinHeap<number>((a, b) => a < b);
    const model: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      if (model.length > 0 && rng.int(0, 2) === 0) {
        model.sort((a, b) => a - b);
        expect(heap.pop()).toBe(model.shift());
      } else {
        const v = rng.int(0, 1_000);
        heap.push(v);
        model.push(v);
      }
      expect(heap.size).toBe(model.length);
    }
  });

  it("keeps only what retain accepts, still in order", () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const v of [9, 3, 7, 1, 8, 2]) heap.push(v);
    heap.retain((v) => v % 2 === 1);
    expect([heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop()]).toEqual([
      1,
      3,
      7,
      9,
      undefined,
    ]);
  });
});
