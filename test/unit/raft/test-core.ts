// A RaftCore for unit tests: the small timeouts and limits the tests share, with what a test
// cares about (its id, membership, starting state, PreVote/CheckQuorum, seed) given.
import { RaftCore, type RaftConfig } from "../../../node/raft/core.ts";
import type {
  AppendRequest,
  Entry,
  HardState,
  Membership,
  NodeId,
} from "../../../node/raft/types.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

export interface TestCoreOptions {
  readonly id: number;
  readonly membership?: Membership;
  readonly hardState?: HardState;
  readonly entries?: readonly Entry[];
  readonly preVote?: boolean;
  readonly checkQuorum?: boolean;
  /** Seed of the election-timeout draws (default: the id). */
  readonly seed?: number;
  readonly config?: Partial<Omit<RaftConfig, "id" | "random">>;
}

export function testCore(o: TestCoreOptions): RaftCore {
  return new RaftCore(
    {
      id: o.id,
      electionTicks: 10,
      heartbeatTicks: 2,
      maxInflightMsgs: 8,
      maxBytesPerAppend: 1 << 20,
      preVote: o.preVote ?? false,
      checkQuorum: o.checkQuorum ?? false,
      ...o.config,
      random: new SeededRandom(o.seed ?? o.id),
    },
    {
      hardState: o.hardState ?? { term: 1, vote: 0, commit: 0 },
      membership: o.membership ?? { voters: [1, 2, 3], learners: [] },
      snapshotIndex: 0,
      snapshotTerm: 0,
      entries: o.entries ?? [],
    },
  );
}

/** A normal entry whose data is the text "e<index>" (unless given). */
export function textEntry(index: number, term: number, text = `e${index}`): Entry {
  return { index, term, kind: "normal", data: new TextEncoder().encode(text) };
}

/** An append of term 2 to node 2 (after prevIndex, of term 2 unless it is 0), from node 1 unless given. */
export function appendTo2(
  prevIndex: number,
  entries: Entry[],
  commit: number,
  from: NodeId = 1,
): AppendRequest {
  return {
    type: "append",
    from,
    to: 2,
    term: 2,
    prevIndex,
    prevTerm: prevIndex === 0 ? 0 : 2,
    entries,
    commit,
  };
}
