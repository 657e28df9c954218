// Operators' calls on a Palisade cluster, `client.admin` (an admin certificate where the
// cluster uses mutual TLS): one node's status, revoking a grant, leadership transfer and
// membership changes.
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition as adminApi, type UnaryMethod } from "../proto/grpc.ts";
import { toU64, u64 } from "../proto/wire.ts";
import type { Connection } from "./connection.ts";
import { membersFrom, statusFrom, type MemberInfo, type NodeStatus } from "./types.ts";

const pb = palisade.v1;

export class ClusterAdmin {
  constructor(private readonly connection: Connection) {}

  /** Status of one node (no retry, no redirect). */
  async status(endpoint: string): Promise<NodeStatus> {
    const response = await this.connection.invoke(
      adminApi.Status,
      () => pb.StatusRequest.create({}),
      { kind: "read", endpoint },
    );
    return statusFrom(endpoint, response);
  }

  /** Force-release a grant; answers the log index of the revoke. Retrying the same token is safe. */
  async revokeLock(lock: string, token: bigint): Promise<bigint> {
    const response = await this.connection.invoke(
      adminApi.RevokeLock,
      () => pb.RevokeLockRequest.create({ lock, token: toU64(token, "token") }),
      { kind: "write" },
    );
    return u64(response.index, "index");
  }

  /** Hands leadership to `toNodeId` (0: the most caught-up voter); answers the new leader and term. */
  async transferLeader(toNodeId = 0): Promise<{ leaderId: number; term: bigint }> {
    const response = await this.connection.invoke(
      adminApi.TransferLeader,
      () => pb.TransferLeaderRequest.create({ toNodeId: toU64(toNodeId, "toNodeId") }),
      // It waits for the change to take effect: not a sign of a stopped node.
      { kind: "write", answerMayWait: true },
    );
    return {
      leaderId: Number(u64(response.leaderId, "leader_id")),
      term: u64(response.term, "term"),
    };
  }

  /** The members as the leader sees them (a follower names the leader); `budgetMs` bounds the retries (default: the retry budget). */
  async memberList(options: { budgetMs?: number } = {}): Promise<MemberInfo[]> {
    const response = await this.connection.invoke(
      adminApi.MemberList,
      () => pb.MemberListRequest.create({}),
      { kind: "read", ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}) },
    );
    return membersFrom(response.members);
  }

  /** Adds a node as a non-voting learner (it must run with --join); answers the members. */
  memberAdd(nodeId: number, peerAddress: string, clientAddress: string): Promise<MemberInfo[]> {
    return this.changeMembers(adminApi.MemberAdd, () =>
      pb.MemberAddRequest.create({
        nodeId: toU64(nodeId, "nodeId"),
        address: peerAddress,
        clientAddress,
      }),
    );
  }

  /** Makes a caught-up learner a voter; answers the members. */
  memberPromote(nodeId: number): Promise<MemberInfo[]> {
    return this.changeMembers(adminApi.MemberPromote, () =>
      pb.MemberPromoteRequest.create({ nodeId: toU64(nodeId, "nodeId") }),
    );
  }

  /** Removes a member (the leader too: it steps down); answers the members. */
  memberRemove(nodeId: number): Promise<MemberInfo[]> {
    return this.changeMembers(adminApi.MemberRemove, () =>
      pb.MemberRemoveRequest.create({ nodeId: toU64(nodeId, "nodeId") }),
    );
  }

  private async changeMembers<
    Req,
    Res extends { members?: palisade.v1.Member.$Properties[] | null },
  >(method: UnaryMethod<Req, Res>, build: () => Req): Promise<MemberInfo[]> {
    const response = await this.connection.invoke(method, build, {
      kind: "write",
      // It waits for the change to take effect: not a sign of a stopped node.
      answerMayWait: true,
    });
    return membersFrom(response.members);
  }
}
