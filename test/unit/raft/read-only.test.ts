// The leader's ReadIndex bookkeeping: reads wait for a commit of the leader's term, take the
// round being collected, and are confirmed when a quorum of voters answered that round.
import { describe, expect, it } from "vitest";
import { ReadOnly } from "../../../node/raft/read-only.ts";

const LEADER = 1;
const VOTERS = [1, 2, 3];

type Step =
  | { add: number; index: number; from?: number }
  | { send: number }
  | { ack: [from: number, round: number] }
  | { release: number[]; voters?: number[] };

/** Run the steps on a fresh ReadOnly; each step's expectation is checked as it runs. */
function run(steps: Step[]): void {
  const ro = new ReadOnly();
  for (const s of steps) {
    if ("add" in s) ro.add({ requestId: s.add, from: s.from ?? 0 }, s.index);
    else if ("send" in s) expect(ro.takeRoundToSend()).toBe(s.send);
    else if ("ack" in s) ro.ack(...s.ack);
    else expect(ro.release(s.voters ?? VOTERS, LEADER).map((r) => r.requestId)).toEqual(s.release);
  }
}

describe("ReadIndex rounds", () => {
  const cases: Array<{ name: string; steps: Step[] }> = [
    {
      name: "a read is confirmed once one follower of two answers its round (the leader counts itself)",
      steps: [
        { add: 1, index: 5 },
        { release: [] },
        { send: 1 },
        { ack: [2, 1] },
        { release: [1] },
      ],
    },
    {
      name: "reads collected before one batch share one round",
      steps: [
        { add: 1, index: 5 },
        { add: 2, index: 5 },
        { send: 1 },
        { send: 0 },
        { ack: [3, 1] },
        { release: [1, 2] },
      ],
    },
    {
      name: "a read after the round left waits for the next round, even when the old one is answered",
      steps: [
        { add: 1, index: 5 },
        { send: 1 },
        { add: 2, index: 6 },
        { send: 2 },
        { ack: [2, 1] },
        { release: [1] },
        { ack: [2, 2] },
        { release: [2] },
      ],
    },
    {
      name: "an answer to a later round confirms the earlier ones",
      steps: [
        { add: 1, index: 5 },
        { send: 1 },
        { add: 2, index: 6 },
        { send: 2 },
        { ack: [3, 2] },
        { release: [1, 2] },
      ],
    },
    {
      name: "an old answer after a newer one does not lower what a voter confirmed",
      steps: [
        { add: 1, index: 5 },
        { send: 1 },
        { add: 2, index: 6 },
        { send: 2 },
        { ack: [2, 2] },
        { ack: [2, 1] },
        { release: [1, 2] },
      ],
    },
    {
      name: "answers of non-voters do not count",
      steps: [{ add: 1, index: 5 }, { send: 1 }, { ack: [4, 1] }, { ack: [5, 1] }, { release: [] }],
    },
    {
      name: "with five voters two followers must answer",
      steps: [
        { add: 1, index: 5 },
        { send: 1 },
        { ack: [2, 1] },
        { release: [], voters: [1, 2, 3, 4, 5] },
        { ack: [5, 1] },
        { release: [1], voters: [1, 2, 3, 4, 5] },
      ],
    },
    {
      name: "a single voter confirms its reads alone",
      steps: [{ add: 1, index: 5 }, { release: [1], voters: [1] }, { send: 0 }],
    },
  ];
  it.each(cases)("$name", ({ steps }) => run(steps));

  it("serves each read at the commit index it was taken at, and says who asked", () => {
    const ro = new ReadOnly();
    ro.add({ requestId: 7, from: 0 }, 5);
    ro.add({ requestId: 8, from: 3 }, 5);
    ro.takeRoundToSend();
    ro.ack(2, 1);
    expect(ro.release(VOTERS, LEADER)).toEqual([
      { requestId: 7, from: 0, index: 5, round: 1 },
      { requestId: 8, from: 3, index: 5, round: 1 },
    ]);
  });

  it("carries the latest round on periodic heartbeats only while reads wait", () => {
    const ro = new ReadOnly();
    expect(ro.heartbeatRound()).toBe(0);
    ro.add({ requestId: 1, from: 0 }, 5);
    ro.takeRoundToSend();
    expect(ro.heartbeatRound()).toBe(1);
    ro.ack(2, 1);
    ro.release(VOTERS, LEADER);
    expect(ro.heartbeatRound()).toBe(0);
  });

  it("holds reads until an entry of the leader's term commits, then hands them back in order", () => {
    const ro = new ReadOnly();
    expect(ro.hasAwaitingCommit()).toBe(false);
    ro.waitForCommit({ requestId: 1, from: 0 });
    ro.waitForCommit({ requestId: 2, from: 3 });
    expect(ro.hasAwaitingCommit()).toBe(true);
    expect(ro.hasRoundToSend()).toBe(false);
    expect(ro.takeAwaitingCommit()).toEqual([
      { requestId: 1, from: 0 },
      { requestId: 2, from: 3 },
    ]);
    expect(ro.hasAwaitingCommit()).toBe(false);
  });

  it("gives every read back to fail when leadership is lost, those waiting for the commit first", () => {
    const ro = new ReadOnly();
    ro.add({ requestId: 1, from: 0 }, 5);
    ro.waitForCommit({ requestId: 2, from: 3 });
    expect(ro.abandon().map((r) => r.requestId)).toEqual([2, 1]);
    expect(ro.hasRoundToSend()).toBe(false);
    expect(ro.release(VOTERS, LEADER)).toEqual([]);
    expect(ro.abandon()).toEqual([]);
  });

  it("does not count answers given before a new term's leadership, and keeps round numbers growing", () => {
    const ro = new ReadOnly();
    ro.add({ requestId: 1, from: 0 }, 5);
    expect(ro.takeRoundToSend()).toBe(1);
    ro.ack(2, 1);
    ro.release(VOTERS, LEADER);
    ro.resetAcks();
    ro.add({ requestId: 2, from: 0 }, 9);
    expect(ro.takeRoundToSend()).toBe(2);
    ro.ack(3, 1); // an answer to the earlier round
    expect(ro.release(VOTERS, LEADER)).toEqual([]);
    ro.ack(3, 2);
    expect(ro.release(VOTERS, LEADER).map((r) => r.requestId)).toEqual([2]);
  });
});
