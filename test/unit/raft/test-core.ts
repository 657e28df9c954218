// A RaftCore for unit tests: the small timeouts and limits the tests share, with what a test
// cares about (its id, membership, starting state, PreVote/CheckQuorum, seed) given.
import { RaftCore, type RaftConfig } from "../../../node/raft/core.ts";
import type { Entry, HardState, Membership } from "../../../node/raft/types.ts";
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
