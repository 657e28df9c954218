// What an operator may ask a node host: its status, a forced release, leadership
// transfer, membership changes and snapshots. The gRPC AdminService
// (node/api/admin-service.ts) calls these; every failure is a RequestFailure.
import {
  isError,
  type CreateTokenCommand,
  type RevokeCommand,
  type RevokeTokenCommand,
  type SetPolicyCommand,
} from "../lock/index.ts";
import { MembershipError, type MemberAddress, type MembershipChange } from "../raft/membership.ts";
import type { NodeId, Role } from "../raft/types.ts";
import { answerFailure, notLeader, RequestFailure } from "./failures.ts";
import type { NodeHost } from "./node-host.ts";

export interface MemberStatus {
  readonly id: NodeId;
  readonly kind: "voter" | "learner";
  readonly peerAddress: string;
  /** Its host:port for clients ("" when this node does not know it). */
  readonly clientAddress: string;
  /** As the leader sees it (false on other nodes). */
  readonly reachable: boolean;
  /** On the leader: the member's replicated index (its own last index for itself); 0 elsewhere. */
  readonly matchIndex: number;
}

export interface HostStatus {
  readonly id: NodeId;
  readonly clusterId: string;
  readonly role: Role;
  readonly term: number;
  readonly leader: NodeId;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly lastIndex: number;
  readonly snapshotIndex: number;
  readonly epoch: number;
  readonly members: readonly MemberStatus[];
}

export class AdminRequests {
  constructor(
    private readonly host: NodeHost,
    private readonly unreachable: () => readonly NodeId[] = () => [],
  ) {}

  /** This node as it is now (no ReadIndex: it reports this node, not the cluster). */
  status(): HostStatus {
    const host = this.host;
    const raft = host.raftStatus();
    const leader = raft.role === "leader";
    const down = new Set(leader ? this.unreachable() : []);
    const member = (id: NodeId, kind: "voter" | "learner"): MemberStatus => ({
      id,
      kind,
      peerAddress: host.peerAddressOf(id) ?? "",
      clientAddress: host.clientAddressOf(id) ?? "",
      reachable: leader && (id === raft.id || !down.has(id)),
      matchIndex: leader
        ? id === raft.id
          ? raft.lastIndex
          : (raft.progress.find((p) => p.id === id)?.match ?? 0)
        : 0,
    });
    return {
      id: raft.id,
      clusterId: host.clusterId,
      role: raft.role,
      term: raft.term,
      leader: raft.leader,
      commitIndex: raft.commit,
      appliedIndex: host.driver.applied,
      lastIndex: raft.lastIndex,
      snapshotIndex: raft.snapshot.index,
      epoch: host.state.epoch,
      members: [
        ...raft.membership.voters.map((id) => member(id, "voter")),
        ...raft.membership.learners.map((id) => member(id, "learner")),
      ],
    };
  }

  /**
   * Proposes an admin call's command (the policy, a token) with its caller, for apply to
   * check; answers the entry's index once applied here.
   */
  async proposeAccess(
    cmd: SetPolicyCommand | CreateTokenCommand | RevokeTokenCommand,
    caller: string,
  ): Promise<number> {
    const { index, outcome } = await this.host.propose(cmd, undefined, caller);
    if (isError(outcome.result)) throw answerFailure(outcome.result);
    return index;
  }

  /** Force-releases a grant; answers the log index of the revoke (of the first one, for a retry). */
  async revoke(cmd: RevokeCommand, caller: string | null = null): Promise<number> {
    const { index, outcome } = await this.host.propose(cmd, undefined, caller);
    if (isError(outcome.result)) throw answerFailure(outcome.result);
    if (outcome.result.kind !== "revoked")
      throw new RequestFailure(
        "ERROR_REASON_INTERNAL",
        `unexpected answer "${outcome.result.kind}" to RevokeLock`,
      );
    const record = this.host.state
      .history(cmd.lock)
      .find((r) => r.token === cmd.token && r.reason === "revoked");
    return record?.endedAt ?? index;
  }

  /**
   * Hands leadership to `to` (0: the most caught-up voter) and waits for the handover, or
   * its failure, for up to two election timeouts; answers the new leader and term.
   */
  async transferLeader(toNode: NodeId): Promise<{ leader: NodeId; term: number }> {
    const host = this.host;
    host.requireLeader();
    const term = host.term;
    const to = toNode === 0 ? host.mostCaughtUpVoter() : toNode;
    if (to === 0)
      throw new RequestFailure(
        "ERROR_REASON_NO_TRANSFER_TARGET",
        "there is no other voting member to transfer leadership to",
      );
    if (to === host.id) return { leader: host.id, term };
    if (!host.raftStatus().membership.voters.includes(to))
      throw new RequestFailure(
        "ERROR_REASON_INVALID_ARGUMENT",
        `node ${to} is not a voting member`,
      );
    host.driver.transferLeadership(to);
    const timeoutMs = 2 * host.electionTimeoutMs;
    await host.whenSoftState(
      (soft) => !(soft.role === "leader" && soft.term === term) && soft.leader !== 0,
      timeoutMs,
    );
    if (host.isLeader && host.term === term) {
      throw new RequestFailure(
        "ERROR_REASON_TRANSFER_TIMED_OUT",
        `node ${to} did not take over within ${timeoutMs} ms; this node still leads`,
      );
    }
    return { leader: host.leaderId, term: host.term };
  }

  /** One membership change through this leader; resolves once it is applied here (the core refuses reused ids). */
  async changeMembers(change: MembershipChange, address?: MemberAddress): Promise<void> {
    const host = this.host;
    if (!host.isLeader) throw notLeader(host.leaderHint());
    if (!Number.isSafeInteger(change.node) || change.node <= 0)
      throw new RequestFailure(
        "ERROR_REASON_INVALID_ARGUMENT",
        "node_id must be a positive integer",
      );
    if (change.type === "promote") {
      // Like etcd: a learner becomes a voter only once it has caught up, so the quorum never
      // waits for a node that is still copying the log.
      const raft = host.raftStatus();
      const match = raft.progress.find((p) => p.id === change.node)?.match ?? 0;
      const committed = raft.commit;
      if (raft.membership.learners.includes(change.node) && match < committed) {
        throw new RequestFailure(
          "ERROR_REASON_LEARNER_BEHIND",
          `learner ${change.node} has not caught up yet (it has index ${match} of ${committed}); retry when \`member list\` shows its match index at the leader's`,
        );
      }
    }
    try {
      await host.driver.proposeMembershipChange(change, address);
    } catch (error) {
      if (error instanceof MembershipError)
        throw new RequestFailure("ERROR_REASON_MEMBERSHIP_REFUSED", error.message);
      throw error;
    }
  }

  /** SnapshotSave: everything committed when the call arrived, then a snapshot at the applied index and a compacted log. */
  async snapshotNow(): Promise<{ index: number; term: number; bytes: number }> {
    const host = this.host;
    await host.linearizable();
    const taking = host.snapshotNow();
    if (taking === null)
      throw new RequestFailure(
        "ERROR_REASON_NODE_BUSY",
        "a snapshot or an apply is in progress on this node; retry",
      );
    const snapshot = await taking;
    host.logger.info(
      { index: snapshot.meta.index, bytes: snapshot.data.byteLength },
      `snapshot taken at index ${snapshot.meta.index} on request; log compacted`,
    );
    return {
      index: snapshot.meta.index,
      term: snapshot.meta.term,
      bytes: snapshot.data.byteLength,
    };
  }

  /** The state at a linearizable point, for a backup. */
  async backup(): Promise<{ index: number; term: number; epoch: number; data: Uint8Array }> {
    const point = await this.host.consistentState();
    this.host.logger.info(
      { index: point.index, bytes: point.data.byteLength },
      `backup taken at index ${point.index}`,
    );
    return point;
  }
}
