// Operators' calls on a Palisade cluster, `client.admin` (the admin role: an admin
// certificate or an admin token once access control is in use): one node's status, revoking
// a grant, leadership transfer, membership changes, and access control (the policy, bearer
// tokens, what an identity may do). `whoAmI` is any caller's.
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition as adminApi, type UnaryMethod } from "../proto/grpc.ts";
import { toU64, u64, u64ToNumber } from "../proto/wire.ts";
import type { Connection } from "./connection.ts";
import {
  callerRightsFrom,
  membersFrom,
  statusFrom,
  tokenInfoFrom,
  type AccessAction,
  type AccessDecision,
  type AccessPolicy,
  type CallerRights,
  type CreatedToken,
  type MemberInfo,
  type NodeStatus,
  type TokenInfo,
} from "./types.ts";

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

  // ---- access control ------------------------------------------------------------------------

  /**
   * Applies a policy (YAML or JSON) through the log; answers its version, the log index it
   * takes effect at on every node. A text with errors is refused whole: InvalidArgumentError
   * "policy refused: line N: …; line M: …", and the policy in force stays.
   */
  async applyPolicy(text: string): Promise<bigint> {
    const response = await this.connection.invoke(
      adminApi.ApplyPolicy,
      () => pb.ApplyPolicyRequest.create({ text }),
      { kind: "write" },
    );
    return u64(response.version, "version");
  }

  /** The policy in force (version 0 and no text: none was applied, the cluster is open). */
  async getPolicy(): Promise<AccessPolicy> {
    const response = await this.connection.invoke(
      adminApi.GetPolicy,
      () => pb.GetPolicyRequest.create({}),
      { kind: "read" },
    );
    return { text: response.text, version: u64(response.version, "version") };
  }

  /**
   * A new bearer token for `identity`, with `roles` besides those the policy gives it
   * ("admin" makes it an admin) and a TTL (0 or absent: it does not expire). The answer
   * holds the secret; the cluster keeps only its hash, so it cannot be shown again.
   */
  async createToken(
    identity: string,
    options: { roles?: readonly string[]; ttlMs?: number } = {},
  ): Promise<CreatedToken> {
    const response = await this.connection.invoke(
      adminApi.CreateToken,
      () =>
        pb.CreateTokenRequest.create({
          identity,
          roles: [...(options.roles ?? [])],
          ttlMs: toU64(options.ttlMs ?? 0, "ttlMs"),
        }),
      { kind: "write" },
    );
    return {
      tokenId: response.tokenId,
      secret: response.secret,
      expiresAtMs: u64ToNumber(response.expiresAtMs, "expires_at_ms"),
    };
  }

  /** The cluster's bearer tokens (never their secrets). */
  async listTokens(): Promise<TokenInfo[]> {
    const response = await this.connection.invoke(
      adminApi.ListTokens,
      () => pb.ListTokensRequest.create({}),
      { kind: "read" },
    );
    return response.tokens.map(tokenInfoFrom);
  }

  /** Revokes a token: requests with it are refused from the answered log index on. Retrying is safe. */
  async revokeToken(tokenId: string): Promise<bigint> {
    const response = await this.connection.invoke(
      adminApi.RevokeToken,
      () => pb.RevokeTokenRequest.create({ tokenId }),
      { kind: "write" },
    );
    return u64(response.index, "index");
  }

  /** Who this client is to the cluster (its token's or certificate's identity) and what it may do. Any caller may ask. */
  async whoAmI(): Promise<CallerRights> {
    const response = await this.connection.invoke(
      adminApi.WhoAmI,
      () => pb.WhoAmIRequest.create({}),
      { kind: "read" },
    );
    return callerRightsFrom(response);
  }

  /** Whether `identity` may do `action` on the lock name `lock` under the policy in force, and why. */
  async can(identity: string, action: AccessAction, lock: string): Promise<AccessDecision> {
    const response = await this.connection.invoke(
      adminApi.Can,
      () => pb.CanRequest.create({ identity, action, lock }),
      { kind: "read" },
    );
    return {
      allowed: response.allowed,
      reason: response.reason,
      policyVersion: u64(response.policyVersion, "policy_version"),
    };
  }
}
