// One turn's items go out together, in arrival order, with one deferred flush per turn.
import { describe, expect, it } from "vitest";
import { TurnBatcher } from "../../../proto/turn-batcher.ts";

function harness() {
  const deferred: (() => void)[] = [];
  const flushed: number[][] = [];
  const batcher = new TurnBatcher<number>(
    (flush) => deferred.push(flush),
    (items) => flushed.push(items),
  );
  const endTurn = (): void => {
    for (const flush of deferred.splice(0)) flush();
  };
  return { batcher, deferred, flushed, endTurn };
}

describe("TurnBatcher", () => {
  it("defers one flush per turn and hands over the turn's items in order", () => {
    const { batcher, deferred, flushed, endTurn } = harness();
    batcher.add(1);
    batcher.add(2);
    batcher.add(3);
    expect(deferred).toHaveLength(1);
    expect(batcher.size).toBe(3);
    expect(flushed).toEqual([]);
    endTurn();
    batcher.add(4);
    endTurn();
    expect(flushed).toEqual([[1, 2, 3], [4]]);
    expect(batcher.size).toBe(0);
  });

  it("flushes at once on request, and the deferred flush then finds nothing to hand over", () => {
    const { batcher, flushed, endTurn } = harness();
    batcher.add(1);
    batcher.flushNow();
    expect(flushed).toEqual([[1]]);
    endTurn();
    expect(flushed).toEqual([[1]]);
    batcher.add(2);
    endTurn();
    expect(flushed).toEqual([[1], [2]]);
  });

  it("takes items added by the flush itself into the next turn", () => {
    const deferred: (() => void)[] = [];
    const flushed: number[][] = [];
    const batcher: TurnBatcher<number> = new TurnBatcher<number>(
      (flush) => deferred.push(flush),
      (items) => {
        flushed.push(items);
        if (items[0] === 1) batcher.add(9);
      },
    );
    batcher.add(1);
    deferred.shift()!();
    expect(deferred).toHaveLength(1);
    deferred.shift()!();
    expect(flushed).toEqual([[1], [9]]);
  });
});
