// The Raft core on a follower, stepped by hand: what it answers to what its leader sends.
import { describe, expect, it } from "vitest";
import { RaftCore } from "../../node/raft/core.ts";
import type { AppendResponse, Entry, Message } from "../../node/raft/types.ts";
import { SeededRandom } from "../../node/util/rng.ts";

const membership = { voters: [1, 2, 3], learners: [] };

function entries(from: number, to: number, term: number): Entry[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({ index: from + i, term, kind: "normal" as const, data: new Uint8Array([i]) }));
}

/** Node 2 of {1, 2, 3} with the given log, as it restarts. */
function follower(log: Entry[], commit: number, term: number): RaftCore {
  return new RaftCore(
    { id: 2, electionTicks: 10, heartbeatTicks: 2, maxInflightMsgs: 8, maxBytesPerAppend: 1 << 20, preVote: true, checkQuorum: true, random: new SeededRandom(1) },
    { hardState: { term, vote: 0, commit }, membership, snapshotIndex: 0, snapshotTerm: 0, entries: log },
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
    core.step({ type: "snapshot", from: 1, to: 2, term: 3, snapshot: { meta: { index: 8, term: 1, membership }, data: new Uint8Array([1]) } });
    const answers = sent(core).filter((m): m is AppendResponse => m.type === "appendResp");
    expect(answers).toEqual([expect.objectContaining({ to: 1, success: true, index: 8 })]);
    // Only the commit moved; the log and the state machine are kept.
    expect(core.log.committed).toBe(8);
    expect(core.log.offset).toBe(0);
  });
});
