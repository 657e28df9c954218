// RaftCore.status(): a copy of the node's Raft state, for reporting and tests.
import { describe, expect, it } from "vitest";
import { RaftCore } from "../../../node/raft/core.ts";
import type { Entry, Message } from "../../../node/raft/types.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

function entries(from: number, to: number, term: number): Entry[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    index: from + i,
    term,
    kind: "normal" as const,
    data: new Uint8Array([i]),
  }));
}

/** Node 1 of {1, 2, 3} + learner 4, started from a snapshot at 5 (term 1) with entries 6..8 of term 1, committed to 7. */
function node(): RaftCore {
  const core = new RaftCore(
    {
      id: 1,
      electionTicks: 10,
      heartbeatTicks: 1,
      maxInflightMsgs: 4,
      maxBytesPerAppend: 1 << 20,
      preVote: false,
      checkQuorum: false,
      random: new SeededRandom(3),
    },
    {
      hardState: { term: 1, vote: 0, commit: 7 },
      membership: {
        voters: [1, 2, 3],
        learners: [4],
        retired: [9],
        addresses: { "4": { peer: "p:4", client: "c:4" } },
      },
      snapshotIndex: 5,
      snapshotTerm: 1,
      entries: entries(6, 8, 1),
    },
  );
  return core;
}

/** Persist and "send" the next batch; returns its messages. */
function flush(core: RaftCore): Message[] {
  const rd = core.ready();
  core.advance(rd);
  return [...rd.earlyMessages, ...rd.messages];
}

/** Node 1 elected leader of term 2 by node 2's vote, with its no-op (index 9) durable. */
function leader(): RaftCore {
  const core = node();
  for (let i = 0; i < 30 && core.role === "follower"; i++) core.tick();
  core.step({ type: "voteResp", from: 2, to: 1, term: 2, pre: false, granted: true });
  expect(core.role).toBe("leader");
  flush(core);
  return core;
}

describe("the Raft status view", () => {
  it("reports a follower's term, vote, log positions and membership, with no progress and no transfer", () => {
    const core = node();
    expect(core.status()).toEqual({
      id: 1,
      term: 1,
      vote: 0,
      role: "follower",
      leader: 0,
      commit: 7,
      applied: 5,
      lastIndex: 8,
      lastTerm: 1,
      durableIndex: 8,
      snapshot: { index: 5, term: 1 },
      membership: {
        voters: [1, 2, 3],
        learners: [4],
        retired: [9],
        addresses: { "4": { peer: "p:4", client: "c:4" } },
      },
      progress: [],
      transferee: 0,
    });
  });

  it("reports, on a leader, each other member's match, next, state and recent activity, by id", () => {
    const core = leader();
    // Node 3 acknowledges everything; nodes 2 and 4 have said nothing since the election.
    core.step({
      type: "appendResp",
      from: 3,
      to: 1,
      term: 2,
      success: true,
      index: 9,
      hintIndex: 0,
      hintTerm: 0,
    });
    const s = core.status();
    expect(s).toMatchObject({
      role: "leader",
      leader: 1,
      term: 2,
      vote: 1,
      lastIndex: 9,
      lastTerm: 2,
      durableIndex: 9,
      commit: 9,
    });
    expect(s.progress).toEqual([
      {
        id: 2,
        match: 0,
        next: 9,
        state: "probe",
        recentActive: true,
        probeSent: true,
        inflight: 0,
        pendingSnapshot: 0,
      },
      {
        id: 3,
        match: 9,
        next: 10,
        state: "replicate",
        recentActive: true,
        probeSent: false,
        inflight: 0,
        pendingSnapshot: 0,
      },
      {
        id: 4,
        match: 0,
        next: 9,
        state: "probe",
        recentActive: true,
        probeSent: true,
        inflight: 0,
        pendingSnapshot: 0,
      },
    ]);
  });

  it("shows a leadership transfer in progress until it is abandoned after an election timeout", () => {
    const core = leader();
    core.transferLeadership(3);
    expect(core.status().transferee).toBe(3);
    for (let i = 0; i < 10; i++) core.tick();
    expect(core.status().transferee).toBe(0);
  });

  it("returns a fresh copy: changing what it returned changes nothing in the node", () => {
    const core = leader();
    const s = core.status();
    expect(core.status()).not.toBe(s);
    (s.membership.voters as number[]).push(7);
    (s.membership.learners as number[]).length = 0;
    (s.membership.retired as number[]).push(8);
    (s.membership.addresses as Record<string, { peer: string }>)["4"]!.peer = "elsewhere";
    (s.progress[0] as { match: number }).match = 99;
    (s.snapshot as { index: number }).index = 99;
    const again = core.status();
    expect(again.membership).toEqual({
      voters: [1, 2, 3],
      learners: [4],
      retired: [9],
      addresses: { "4": { peer: "p:4", client: "c:4" } },
    });
    expect(core.membership.voters).toEqual([1, 2, 3]);
    expect(again.progress[0]!.match).toBe(0);
    expect(again.snapshot.index).toBe(5);
    expect(core.progressOf(2)?.match).toBe(0);
  });
});
