// The per-peer outbound queue: its bounds drop the oldest messages, and a batch stays
// within its byte budget but always takes at least one message.
import { describe, expect, it } from "vitest";
import { PeerQueue } from "../../../node/transport/peer-queue.ts";
import { PER_MESSAGE_OVERHEAD } from "../../../node/transport/raft-codec.ts";

const msg = (id: number, size = 4): Uint8Array => new Uint8Array(size).fill(id);
const ids = (batch: Uint8Array[]): number[] => batch.map((m) => m[0]);

describe("PeerQueue", () => {
  it.each([
    // [maxCount, maxBytes, sizes pushed, dropped per push, ids left]
    [3, 1_000, [4, 4, 4, 4, 4], [0, 0, 0, 1, 1], [3, 4, 5]],
    [10, 10, [4, 4, 4], [0, 0, 1], [2, 3]],
    // One message above the byte bound is kept alone: it is still worth sending.
    [10, 10, [4, 20], [0, 1], [2]],
    [10, 10, [20, 4], [0, 1], [2]],
  ])("count %i, bytes %i: pushing %j drops %j and keeps %j", (count, bytes, sizes, drops, left) => {
    const q = new PeerQueue(count, bytes);
    expect(sizes.map((size, i) => q.push(msg(i + 1, size)))).toEqual(drops);
    expect(q.length).toBe(left.length);
    expect(ids(q.take(Infinity))).toEqual(left);
    expect(q.length).toBe(0);
    expect(q.queuedBytes).toBe(0);
  });

  it("takes within the byte budget, in order, and at least one message", () => {
    const q = new PeerQueue(100, 10_000);
    for (let i = 1; i <= 5; i++) q.push(msg(i, 10));
    const cost = 10 + PER_MESSAGE_OVERHEAD;
    expect(ids(q.take(2 * cost))).toEqual([1, 2]);
    expect(ids(q.take(1))).toEqual([3]);
    expect(q.queuedBytes).toBe(20);
    expect(ids(q.take(10 * cost))).toEqual([4, 5]);
    expect(q.take(10 * cost)).toEqual([]);
  });

  it("keeps its bytes right across compaction of consumed slots", () => {
    const q = new PeerQueue(10_000, 1 << 30);
    for (let i = 0; i < 3_000; i++) q.push(msg(i % 256, 1 + (i % 7)));
    let taken = 0;
    while (q.length > 500) taken += q.take(1).length;
    const left = q.take(Infinity);
    expect(taken + left.length).toBe(3_000);
    expect(q.queuedBytes).toBe(0);
    q.push(msg(9, 3));
    expect(q.queuedBytes).toBe(3);
    q.clear();
    expect([q.length, q.queuedBytes]).toEqual([0, 0]);
  });
});
