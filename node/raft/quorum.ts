// Majority arithmetic over a set of voters, in one place: what a quorum of them has
// reached (the commit index, a confirmed ReadIndex round), whether a quorum is active, and
// how an election stands. Only voters count; learners and removed members never do.
import type { NodeId } from "./types.ts";

/** How many of `voterCount` voters make a quorum: a strict majority. */
export function quorumSize(voterCount: number): number {
  return Math.floor(voterCount / 2) + 1;
}

/**
 * The largest value that at least a quorum of the voters have reached: the quorum-th
 * largest of their values (e.g. the highest index a quorum holds). 0 with no voters.
 */
export function quorumValue(voters: readonly NodeId[], valueOf: (id: NodeId) => number): number {
  if (voters.length === 0) return 0;
  const values = voters.map(valueOf).sort((a, b) => b - a);
  return values[quorumSize(voters.length) - 1]!;
}

/** Whether at least a quorum of the voters satisfy `yes`. */
export function hasQuorum(voters: readonly NodeId[], yes: (id: NodeId) => boolean): boolean {
  return voters.filter(yes).length >= quorumSize(voters.length);
}

export type VoteResult = "won" | "lost" | "pending";

/**
 * How an election stands, given the answers so far (true: granted, false: refused; a voter
 * missing from `votes` has not answered). Won once a quorum granted, lost once a quorum
 * refused, pending otherwise. Answers from non-voters are ignored.
 */
export function voteResult(
  voters: readonly NodeId[],
  votes: ReadonlyMap<NodeId, boolean>,
): VoteResult {
  let yes = 0;
  let no = 0;
  for (const v of voters) {
    const g = votes.get(v);
    if (g === true) yes++;
    else if (g === false) no++;
  }
  const q = quorumSize(voters.length);
  if (yes >= q) return "won";
  if (no >= q) return "lost";
  return "pending";
}
