// Majority arithmetic of the Raft core: commit index from match indexes, active quorums,
// and election outcomes, as tables.
import { describe, expect, it } from "vitest";
import {
  hasQuorum,
  quorumSize,
  quorumValue,
  voteResult,
  type VoteResult,
} from "../../../node/raft/quorum.ts";

describe("quorum size", () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 3],
    [5, 3],
    [6, 4],
    [7, 4],
  ])("of %i voters is %i", (voters, size) => {
    expect(quorumSize(voters)).toBe(size);
  });
});

describe("the index a quorum of voters has reached", () => {
  const cases: Array<{
    name: string;
    voters: number[];
    match: Record<number, number>;
    want: number;
  }> = [
    { name: "a single voter's own index", voters: [1], match: { 1: 7 }, want: 7 },
    { name: "the lower of two (both are needed)", voters: [1, 2], match: { 1: 7, 2: 5 }, want: 5 },
    { name: "the middle of three", voters: [1, 2, 3], match: { 1: 9, 2: 4, 3: 6 }, want: 6 },
    {
      name: "the middle of three, whatever the order",
      voters: [3, 1, 2],
      match: { 1: 4, 2: 9, 3: 6 },
      want: 6,
    },
    { name: "a voter that said nothing counts as 0", voters: [1, 2, 3], match: { 1: 9 }, want: 0 },
    {
      name: "two of three at the same index",
      voters: [1, 2, 3],
      match: { 1: 8, 2: 8, 3: 2 },
      want: 8,
    },
    {
      name: "the third highest of five",
      voters: [1, 2, 3, 4, 5],
      match: { 1: 10, 2: 10, 3: 7, 4: 3, 5: 1 },
      want: 7,
    },
    {
      name: "the third highest of four",
      voters: [1, 2, 3, 4],
      match: { 1: 10, 2: 9, 3: 7, 4: 3 },
      want: 7,
    },
    { name: "nothing with no voters", voters: [], match: { 1: 10 }, want: 0 },
    {
      name: "a voter counted as Infinity (the leader for ReadIndex rounds) still needs the others",
      voters: [1, 2, 3],
      match: { 1: Infinity, 2: 4, 3: 2 },
      want: 4,
    },
  ];
  it.each(cases)("is $name", ({ voters, match, want }) => {
    expect(quorumValue(voters, (id) => match[id] ?? 0)).toBe(want);
  });

  it("ignores values of non-voters (learners, removed members)", () => {
    const match: Record<number, number> = { 1: 5, 2: 5, 3: 1, 4: 99, 5: 99 };
    expect(quorumValue([1, 2, 3], (id) => match[id]!)).toBe(5);
  });
});

describe("whether a quorum of voters is active", () => {
  it.each([
    { voters: [1], active: [1], want: true },
    { voters: [1, 2, 3], active: [1], want: false },
    { voters: [1, 2, 3], active: [1, 3], want: true },
    { voters: [1, 2, 3, 4], active: [1, 3], want: false },
    { voters: [1, 2, 3, 4], active: [1, 2, 4], want: true },
    { voters: [1, 2, 3], active: [1, 4, 5], want: false },
    { voters: [], active: [1], want: false },
  ])("voters $voters with $active active: $want", ({ voters, active, want }) => {
    expect(hasQuorum(voters, (id) => active.includes(id))).toBe(want);
  });
});

describe("an election's outcome", () => {
  const cases: Array<{ voters: number[]; votes: Array<[number, boolean]>; want: VoteResult }> = [
    { voters: [1], votes: [[1, true]], want: "won" },
    { voters: [1, 2, 3], votes: [[1, true]], want: "pending" },
    {
      voters: [1, 2, 3],
      votes: [
        [1, true],
        [2, true],
      ],
      want: "won",
    },
    {
      voters: [1, 2, 3],
      votes: [
        [1, true],
        [2, false],
      ],
      want: "pending",
    },
    {
      voters: [1, 2, 3],
      votes: [
        [1, true],
        [2, false],
        [3, false],
      ],
      want: "lost",
    },
    {
      voters: [1, 2, 3, 4],
      votes: [
        [1, true],
        [2, true],
      ],
      want: "pending",
    },
    {
      voters: [1, 2, 3, 4],
      votes: [
        [1, true],
        [2, false],
        [3, false],
      ],
      want: "pending",
    },
    {
      voters: [1, 2, 3, 4],
      votes: [
        [1, true],
        [2, false],
        [3, false],
        [4, false],
      ],
      want: "lost",
    },
    {
      voters: [1, 2, 3, 4, 5],
      votes: [
        [1, true],
        [4, true],
        [5, true],
      ],
      want: "won",
    },
    // Answers from nodes that are not voters do not count either way.
    {
      voters: [1, 2, 3],
      votes: [
        [1, true],
        [4, true],
        [5, true],
      ],
      want: "pending",
    },
    {
      voters: [1, 2, 3],
      votes: [
        [1, true],
        [4, false],
        [5, false],
      ],
      want: "pending",
    },
  ];
  it.each(cases)("voters $voters, answers $votes: $want", ({ voters, votes, want }) => {
    expect(voteResult(voters, new Map(votes))).toBe(want);
  });
});
