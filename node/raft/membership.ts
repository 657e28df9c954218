// Membership changes, one server at a time (Raft dissertation §4.1, as etcd does it):
// a change takes effect on each node when the entry that carries it is applied, and the
// leader accepts the next change only once the previous one is applied. A new leader
// accepts a change only after it has applied its own no-op, so an entry of its term is
// committed first (the dissertation's fix for single-server changes).
import type { Membership, NodeId } from "./types.ts";

export type MembershipChange =
  | { readonly type: "addLearner"; readonly node: NodeId }
  | { readonly type: "promote"; readonly node: NodeId }
  | { readonly type: "remove"; readonly node: NodeId };

export class MembershipError extends Error {}

/** The membership after one change, or a MembershipError saying why the change is refused. */
export function changeMembership(m: Membership, change: MembershipChange): Membership {
  const id = change.node;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new MembershipError(`node id must be a positive integer, got ${id}`);
  const isVoter = m.voters.includes(id);
  const isLearner = m.learners.includes(id);
  switch (change.type) {
    case "addLearner":
      if (isVoter || isLearner) throw new MembershipError(`node ${id} is already a member`);
      if (m.retired?.includes(id))
        throw new MembershipError(
          `node id ${id} belonged to a removed member; node ids are never reused, pick a new one`,
        );
      return { ...m, voters: m.voters, learners: [...m.learners, id] };
    case "promote":
      if (isVoter) throw new MembershipError(`node ${id} is already a voter`);
      if (!isLearner)
        throw new MembershipError(`node ${id} is not a learner; add it as a learner first`);
      return { ...m, voters: [...m.voters, id], learners: m.learners.filter((l) => l !== id) };
    case "remove":
      if (!isVoter && !isLearner) throw new MembershipError(`node ${id} is not a member`);
      if (isVoter && m.voters.length === 1)
        throw new MembershipError(`node ${id} is the last voter`);
      return {
        ...m,
        voters: m.voters.filter((v) => v !== id),
        learners: m.learners.filter((l) => l !== id),
        retired: [...(m.retired ?? []), id],
      };
  }
}

export interface MemberAddress {
  readonly peer: string;
  readonly client: string;
}

export function sameMembers(a: readonly NodeId[], b: readonly NodeId[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
