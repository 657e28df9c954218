import { describe, expect, it } from "vitest";
import { ProposalBatcher, type Settler } from "../../../node/host/proposal-batcher.ts";

const bytes = (n: number): Uint8Array => Uint8Array.of(n);

/** Settles each command as `outcome` says for it (a value, or an error to reject with). */
function settleEach(
  outcome: (d: Uint8Array, i: number) => number | Error,
): (data: readonly Uint8Array[], settlers: readonly Settler<number>[]) => void {
  return (data, settlers) =>
    data.forEach((d, i) => {
      const o = outcome(d, i);
      if (o instanceof Error) settlers[i]!.reject(o);
      else settlers[i]!.resolve(o);
    });
}

/** A batcher whose flushes run when the test says, recording each propose() call. */
function harness(
  propose: (data: readonly Uint8Array[], settlers: readonly Settler<number>[]) => void,
) {
  const calls: number[][] = [];
  let pending: (() => void) | null = null;
  const batcher = new ProposalBatcher<number>(
    (data, settlers) => {
      calls.push(data.map((d) => d[0]!));
      propose(data, settlers);
    },
    (flush) => {
      pending = flush;
    },
  );
  const runFlush = (): void => {
    const flush = pending;
    pending = null;
    flush?.();
  };
  return { batcher, calls, runFlush };
}

describe("ProposalBatcher", () => {
  it("proposes the commands of one turn in one call, in order, and answers each", async () => {
    let next = 100;
    const { batcher, calls, runFlush } = harness(settleEach(() => next++));
    const results = [batcher.submit(bytes(1)), batcher.submit(bytes(2)), batcher.submit(bytes(3))];
    expect(calls).toEqual([]);
    runFlush();
    expect(calls).toEqual([[1, 2, 3]]);
    expect(await Promise.all(results)).toEqual([100, 101, 102]);

    const later = batcher.submit(bytes(4));
    runFlush();
    expect(calls).toEqual([[1, 2, 3], [4]]);
    expect(await later).toBe(103);
  });

  it("rejects every command of a batch the proposer refuses, and each one it rejects", async () => {
    const refused = harness(() => {
      throw new Error("not leader");
    });
    const a = refused.batcher.submit(bytes(1));
    const b = refused.batcher.submit(bytes(2));
    refused.runFlush();
    await expect(a).rejects.toThrow("not leader");
    await expect(b).rejects.toThrow("not leader");

    const mixed = harness(settleEach((d) => (d[0] === 2 ? new Error("lost") : d[0]!)));
    const ok = mixed.batcher.submit(bytes(1));
    const lost = mixed.batcher.submit(bytes(2));
    mixed.runFlush();
    await expect(ok).resolves.toBe(1);
    await expect(lost).rejects.toThrow("lost");
  });

  it("flushes on its own after the current turn with setImmediate as its deferral", async () => {
    const seen: number[][] = [];
    const batcher = new ProposalBatcher<number>(
      (data, settlers) => {
        seen.push(data.map((d) => d[0]!));
        settleEach((d) => d[0]!)(data, settlers);
      },
      (flush) => setImmediate(flush),
    );
    const results = await Promise.all([batcher.submit(bytes(7)), batcher.submit(bytes(8))]);
    expect(results).toEqual([7, 8]);
    expect(seen).toEqual([[7, 8]]);
  });
});
