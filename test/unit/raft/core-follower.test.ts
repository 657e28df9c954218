// The Raft core stepped by hand: what a follower answers to its leader, and how a leader
// follows a snapshot it is sending.
import { describe, expect, it } from "vitest";
import { RaftCore } from "../../../node/raft/core.ts";
import type { AppendResponse, Entry, Message } from "../../../node/raft/types.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

const membership = { voters: [1, 2, 3], learners: [] };

function entries(from: number, to: number, term: number): Entry[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    index: from + i,
    term,
    kind: "normal" as const,
    data: new Uint8Array([i]),
  }));
}

/** Node 2 of {1, 2, 3} with the given log, as it restarts. */
function follower(log: Entry[], commit: number, term: number): RaftCore {
  return new RaftCore(
    {
      id: 2,
      electionTicks: 10,
      heartbeatTicks: 2,
      maxInflightMsgs: 8,
      maxBytesPerAppend: 1 << 20,
      preVote: true,
      checkQuorum: true,
      random: new SeededRandom(1),
    },
    {
      hardState: { term, vote: 0, commit },
      membership,
      snapshotIndex: 0,
      snapshotTerm: 0,
      entries: log,
    },
  );
}

/** The messages of the next batch (persist, then send), with advance() done. */
function sent(core: RaftCore): Message[] {
  const rd = core.ready();
  core.advance(rd);
  return [...rd.earlyMessages, ...rd.messages];
}

describe("a follower's answer to InstallSnapshot", () => {
  it("acknowledges a snapshot whose last entry it already holds with the snapshot's index, not its own last index", () => {
    // Entries 9 and 10 are of an old term the leader never had: they must not count as matching.
    const core = follower([...entries(1, 8, 1), ...entries(9, 10, 2)], 5, 2);
    core.step({
      type: "snapshot",
      from: 1,
      to: 2,
      term: 3,
      snapshot: { meta: { index: 8, term: 1, membership }, data: new Uint8Array([1]) },
    });
    const answers = sent(core).filter((m): m is AppendResponse => m.type === "appendResp");
    expect(answers).toEqual([expect.objectContaining({ to: 1, success: true, index: 8 })]);
    // Only the commit moved; the log and the state machine are kept.
    expect(core.log.committed).toBe(8);
    expect(core.log.offset).toBe(0);
  });
});

/** Node 1 of {1, 2}, leader of term 2, its log compacted to a snapshot at 10, sending that snapshot to node 2. */
function leaderSendingSnapshot(): RaftCore {
  const core = new RaftCore(
    {
      id: 1,
      electionTicks: 10,
      heartbeatTicks: 2,
      maxInflightMsgs: 8,
      maxBytesPerAppend: 1 << 20,
      preVote: false,
      checkQuorum: false,
      random: new SeededRandom(2),
    },
    {
      hardState: { term: 1, vote: 0, commit: 10 },
      membership: { voters: [1, 2], learners: [] },
      snapshotIndex: 0,
      snapshotTerm: 0,
      entries: entries(1, 10, 1),
    },
  );
  for (let i = 0; i < 30 && core.role !== "candidate"; i++) core.tick();
  core.step({ type: "voteResp", from: 2, to: 1, term: 2, pre: false, granted: true });
  expect(core.role).toBe("leader");
  sent(core); // applies 1..10, makes the no-op durable
  core.compact({
    meta: { index: 10, term: 1, membership: { voters: [1, 2], learners: [] } },
    data: new Uint8Array([7]),
  });
  // Node 2 has nothing: its rejection sends the leader back to entries it no longer holds.
  core.step({
    type: "appendResp",
    from: 2,
    to: 1,
    term: 2,
    success: false,
    index: 10,
    hintIndex: 0,
    hintTerm: 0,
  });
  expect(sent(core).filter((m) => m.type === "snapshot")).toHaveLength(1);
  expect(core.progressOf(2)?.state).toBe("snapshot");
  return core;
}

describe("a leader sending a snapshot", () => {
  it("keeps the transfer going past an election timeout while the transport reports progress", () => {
    const core = leaderSendingSnapshot();
    const resent: Message[] = [];
    for (let i = 0; i < 35; i++) {
      core.tick();
      core.reportSnapshotProgress(2);
      resent.push(...sent(core).filter((m) => m.type === "snapshot" || m.type === "append"));
    }
    expect(core.progressOf(2)?.state).toBe("snapshot");
    expect(resent).toEqual([]);
    // Without progress it gives up after an election timeout and probes again.
    for (let i = 0; i < 10; i++) core.tick();
    expect(core.progressOf(2)?.state).toBe("probe");
  });

  it("probes again at once when the transport reports the transfer failed", () => {
    const core = leaderSendingSnapshot();
    core.reportSnapshotFailure(2);
    expect(core.progressOf(2)?.state).toBe("probe");
    expect(sent(core)).toContainEqual(
      expect.objectContaining({ type: "append", to: 2, prevIndex: 10 }),
    );
  });
});
