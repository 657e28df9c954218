// Plain values the client hands out: ids, tokens and indexes as bigint, enums as words. The
// values of the LockService calls are the contract's (proto/lock-values.ts); the ones here
// are the client's own (admin status, grant deadlines, an Acquire's result).
import { palisade } from "../proto/gen/palisade.js";
import type { LockGrantInfo, LockHolderInfo } from "../proto/lock-values.ts";
import { u64 } from "../proto/wire.ts";

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
  };
}
