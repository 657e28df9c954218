// Plain values the client hands out: ids, tokens and indexes as bigint, enums as words. The
// values of the LockService calls are the contract's (proto/lock-values.ts); the ones here
// are the client's own (admin status, grant deadlines, an Acquire's result).
import { palisade } from "../proto/gen/palisade.js";
import type { LockGrantInfo, LockHolderInfo } from "../proto/lock-values.ts";
import { u64, u64ToNumber } from "../proto/wire.ts";

const pb = palisade.v1;

export type {
  CancelWaitResult,
  DowngradeAnswer,
  DowngradeMode,
  EndReason,
  GrantMode,
  HistoryRecordInfo,
  HolderCursor,
  KindFields,
  LockGrantInfo,
  LockHolderInfo,
  LockInfo,
  LockKind,
  LockMode,
  LockPage,
  LockSummaryInfo,
  LockTarget,
  LockWaiterInfo,
  SessionInfo,
  SessionPage,
  UpgradeAnswer,
} from "../proto/lock-values.ts";

export type NodeRoleName = "unknown" | "follower" | "precandidate" | "candidate" | "leader";

export interface MemberInfo {
  nodeId: number;
  /** Its host:port for peers. */
  address: string;
  /** Its host:port for clients ("" when the answering node does not know it). */
  clientAddress: string;
  kind: "voter" | "learner" | "unknown";
  reachable: boolean;
  matchIndex: bigint;
}

export interface NodeStatus {
  endpoint: string;
  nodeId: number;
  role: NodeRoleName;
  term: bigint;
  /** 0 when unknown. */
  leaderId: number;
  commitIndex: bigint;
  appliedIndex: bigint;
  lastIndex: bigint;
  snapshotIndex: bigint;
  members: MemberInfo[];
  clusterId: string;
  epoch: bigint;
  /** The node's metrics listener, host:port of GET /metrics ("" when it has none or does not say). */
  metricsAddress: string;
}

/**
 * The client's deadline for a grant with a hold limit: `budgetMs` (the limit less 2·ρ·limit
 * and one tick) after the Acquire was sent, on whichever clock saw more time pass. The
 * leader's limit starts later, when it applies the grant, so the client's passes first.
 */
export interface HoldLimitDeadline {
  readonly sentAt: { readonly monotonicMs: number; readonly wallMs: number };
  readonly budgetMs: number;
}

export interface AcquireResult {
  acquired: boolean;
  /** The caller's token when acquired. */
  token?: bigint;
  /** The caller when acquired, otherwise the current holder (if any) of the lock that kept it out. */
  holder?: LockHolderInfo;
  /** When acquired: every lock's grant, in the order the request named them (its lock first). */
  grants?: LockGrantInfo[];
  /** When a multi-lock set was not acquired: the lock that kept it out. */
  blockedLock?: string;
  /** When acquired with a hold limit: when the client treats the grant as ended (Session.holdTimeLeftMs). */
  hold?: HoldLimitDeadline;
  /** The seq the Acquire was sent with (what CancelWait names). */
  seq: number;
  /** True when the caller's signal aborted the wait and it was cancelled. */
  cancelled?: boolean;
  /**
   * Set with `cancelled` when the wait given up had been granted all the same: the token of
   * that grant, which the session released at once (or, if it could not send the release,
   * which ends with the session).
   */
  lateToken?: bigint;
}

function roleFrom(role: palisade.v1.NodeRole | null | undefined): NodeRoleName {
  switch (role) {
    case pb.NodeRole.NODE_ROLE_FOLLOWER:
      return "follower";
    case pb.NodeRole.NODE_ROLE_PRECANDIDATE:
      return "precandidate";
    case pb.NodeRole.NODE_ROLE_CANDIDATE:
      return "candidate";
    case pb.NodeRole.NODE_ROLE_LEADER:
      return "leader";
    default:
      return "unknown";
  }
}

function memberKindFrom(kind: palisade.v1.MemberKind | null | undefined): MemberInfo["kind"] {
  if (kind === pb.MemberKind.MEMBER_KIND_VOTER) return "voter";
  if (kind === pb.MemberKind.MEMBER_KIND_LEARNER) return "learner";
  return "unknown";
}

export function membersFrom(
  wire: readonly palisade.v1.Member.$Properties[] | null | undefined,
): MemberInfo[] {
  return (wire ?? []).map((m) => ({
    nodeId: Number(u64(m.nodeId, "member.node_id")),
    address: m.address ?? "",
    clientAddress: m.clientAddress ?? "",
    kind: memberKindFrom(m.kind),
    reachable: m.reachable === true,
    matchIndex: u64(m.matchIndex, "member.match_index"),
  }));
}

export function statusFrom(endpoint: string, wire: palisade.v1.StatusResponse): NodeStatus {
  return {
    endpoint,
    nodeId: Number(u64(wire.nodeId, "node_id")),
    role: roleFrom(wire.role),
    term: u64(wire.term, "term"),
    leaderId: Number(u64(wire.leaderId, "leader_id")),
    commitIndex: u64(wire.commitIndex, "commit_index"),
    appliedIndex: u64(wire.appliedIndex, "applied_index"),
    lastIndex: u64(wire.lastIndex, "last_index"),
    snapshotIndex: u64(wire.snapshotIndex, "snapshot_index"),
    members: membersFrom(wire.members),
    clusterId: wire.clusterId,
    epoch: u64(wire.epoch, "epoch"),
    metricsAddress: wire.metricsAddress,
  };
}

// ---- access control --------------------------------------------------------------------------

/** The access policy in force: its text, and its version (the log index it took effect at). */
export interface AccessPolicy {
  /** YAML or JSON, as applied; "" while no policy was ever applied. */
  text: string;
  /** 0: no policy, the cluster is open (every caller may do everything). */
  version: bigint;
}

/** A lock action a policy grants on a prefix of names. */
export type PrefixAction =
  "acquire:exclusive" | "acquire:shared" | "acquire:upgradeable" | "read" | "revoke";

/** What `can` asks about: a lock action, or the admin role. */
export type AccessAction = PrefixAction | "admin";

/** A bearer token as created: its secret is in this answer only. */
export interface CreatedToken {
  tokenId: string;
  /** `pal_<tokenId>_<secret>`: give it as the client's `token`. */
  secret: string;
  /** Wall-clock milliseconds since the epoch; 0: it does not expire. */
  expiresAtMs: number;
}

/** A bearer token of the cluster, without its secret. */
export interface TokenInfo {
  tokenId: string;
  /** The identity its bearer acts as. */
  identity: string;
  /** Roles it adds to those the policy gives the identity. */
  roles: string[];
  createdIndex: bigint;
  createdAtMs: number;
  /** 0: it does not expire. */
  expiresAtMs: number;
}

/** Who the caller is to the cluster, and what it may do. */
export interface CallerRights {
  /** "" for an anonymous caller. */
  identity: string;
  /** How the caller was identified: "anonymous", "certificate", "admin" or "token". */
  via: string;
  /** The bearer token's id, when `via` is "token". */
  tokenId: string;
  roles: string[];
  admin: boolean;
  grants: Array<{ prefix: string; actions: string[] }>;
  /** Each quota that applies to the identity, with what it uses of it now. */
  quotas: Array<{ name: string; limit: number; used: number }>;
  /** The policy version these rights come from (0: no policy, the cluster is open). */
  policyVersion: bigint;
}

/** Whether an identity may do an action on a name under the applied policy, and why. */
export interface AccessDecision {
  allowed: boolean;
  reason: string;
  policyVersion: bigint;
}

export function tokenInfoFrom(wire: palisade.v1.ITokenInfo): TokenInfo {
  return {
    tokenId: wire.tokenId ?? "",
    identity: wire.identity ?? "",
    roles: [...(wire.roles ?? [])],
    createdIndex: u64(wire.createdIndex, "created_index"),
    createdAtMs: u64ToNumber(wire.createdMs, "created_ms"),
    expiresAtMs: u64ToNumber(wire.expiresAtMs, "expires_at_ms"),
  };
}

export function callerRightsFrom(wire: palisade.v1.WhoAmIResponse): CallerRights {
  return {
    identity: wire.identity,
    via: wire.via,
    tokenId: wire.tokenId,
    roles: [...wire.roles],
    admin: wire.admin,
    grants: wire.grants.map((g) => ({ prefix: g.prefix ?? "", actions: [...(g.actions ?? [])] })),
    quotas: wire.quotas.map((q) => ({
      name: q.name ?? "",
      limit: u64ToNumber(q.limit, "quota.limit"),
      used: u64ToNumber(q.used, "quota.used"),
    })),
    policyVersion: u64(wire.policyVersion, "policy_version"),
  };
}
