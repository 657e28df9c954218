import { describe, expect, it } from "vitest";
import { AckTracker, MAX_HELD } from "../../../client/acks.ts";

describe("AckTracker", () => {
  it("hands out seqs from 1 and starts with mark 0", () => {
    const acks = new AckTracker();
    expect(acks.peek()).toBe(1);
    expect(acks.allocate()).toBe(1);
    expect(acks.allocate()).toBe(2);
    expect(acks.peek()).toBe(3);
    expect(acks.acks()).toEqual({ ackedUpTo: 0, held: [] });
    expect(acks.outstanding).toBe(2);
  });

  it("advances the mark over a contiguous run and lists answers above it", () => {
    const acks = new AckTracker();
    for (let i = 0; i < 5; i++) acks.allocate();
    acks.answered(2);
    acks.answered(4);
    expect(acks.acks()).toEqual({ ackedUpTo: 0, held: [2, 4] });
    acks.answered(1);
    expect(acks.acks()).toEqual({ ackedUpTo: 2, held: [4] });
    acks.answered(3);
    expect(acks.acks()).toEqual({ ackedUpTo: 4, held: [] });
    expect(acks.outstanding).toBe(1);
    // Answering twice, or below the mark, changes nothing.
    acks.answered(3);
    acks.answered(1);
    expect(acks.acks()).toEqual({ ackedUpTo: 4, held: [] });
  });

  it("lists at most MAX_HELD held seqs, lowest first", () => {
    const acks = new AckTracker();
    for (let i = 0; i < MAX_HELD + 10; i++) acks.allocate();
    for (let seq = 2; seq <= MAX_HELD + 10; seq++) acks.answered(seq);
    const { ackedUpTo, held } = acks.acks();
    expect(ackedUpTo).toBe(0);
    expect(held).toHaveLength(MAX_HELD);
    expect(held[0]).toBe(2);
    acks.answered(1);
    expect(acks.acks()).toEqual({ ackedUpTo: MAX_HELD + 10, held: [] });
  });
});

describe("AckTracker.acksFor", () => {
  it("lists only held seqs below the write's own seq, so a write retried after later answers stays valid", () => {
    const acks = new AckTracker();
    for (let i = 0; i < 5; i++) acks.allocate();
    acks.answered(1);
    acks.answered(3);
    acks.answered(5);
    expect(acks.acksFor(2)).toEqual({ ackedUpTo: 1, held: [] });
    expect(acks.acksFor(4)).toEqual({ ackedUpTo: 1, held: [3] });
    expect(acks.acksFor(6)).toEqual({ ackedUpTo: 1, held: [3, 5] });
  });
});
