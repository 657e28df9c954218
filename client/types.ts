// Plain values the client hands out: ids, tokens and indexes as bigint, enums as words.
import { palisade } from "../proto/gen/palisade.js";
import { u64 } from "../proto/wire.ts";

const pb = palisade.v1;

export interface LockHolderInfo {
  sessionId: bigint;
  clientName: string;
  token: bigint;
  grantedIndex: bigint;
}

export interface LockWaiterInfo {
  sessionId: bigint;
  clientName: string;
  waitingSinceIndex: bigint;
}

export interface LockInfo {
  lock: string;
  /** Absent when the lock is free. */
  holder?: LockHolderInfo;
  waiters: LockWaiterInfo[];
}

export interface LockSummaryInfo {
  lock: string;
  holder?: LockHolderInfo;
  waiterCount: number;
}

export interface LockPage {
  locks: LockSummaryInfo[];
  /** Pass as `after` for the next page; "" after the last page. */
  nextAfter: string;
}

export interface SessionInfo {
  sessionId: bigint;
  clientName: string;
  ttlMs: number;
  openedIndex: bigint;
  heldLocks: string[];
  waitingLocks: string[];
}

export type EndReason = "current" | "released" | "sessionClosed" | "sessionExpired" | "revoked";

export interface HistoryRecordInfo {
  token: bigint;
  sessionId: bigint;
  clientName: string;
  grantedIndex: bigint;
  waitedFromIndex: bigint;
  /** 0 while the grant is current. */
  endedIndex: bigint;
  reason: EndReason;
  grantedAtMs: number;
  endedAtMs: number;
}

export type NodeRoleName = "unknown" | "follower" | "precandidate" | "candidate" | "leader";

export interface MemberInfo {
  nodeId: number;
  address: string;
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

export interface AcquireResult {
  acquired: boolean;
  /** The caller's token when acquired. */
  token?: bigint;
  /** The caller when acquired, otherwise the current holder (if any). */
  holder?: LockHolderInfo;
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

export type CancelWaitResult =
  | { outcome: "cancelled" }
  | { outcome: "granted"; token: bigint }
  | { outcome: "notAcquired" };

export function holderFrom(wire: palisade.v1.LockHolder.$Properties | null | undefined): LockHolderInfo | undefined {
  if (!wire) return undefined;
  return {
    sessionId: u64(wire.sessionId, "holder.session_id"),
    clientName: wire.clientName ?? "",
    token: u64(wire.token, "holder.token"),
    grantedIndex: u64(wire.grantedIndex, "holder.granted_index"),
  };
}

export function lockInfoFrom(wire: palisade.v1.GetLockResponse): LockInfo {
  const holder = holderFrom(wire.holder);
  return {
    lock: wire.lock,
    ...(holder ? { holder } : {}),
    waiters: (wire.waiters ?? []).map((w) => ({
      sessionId: u64(w.sessionId, "waiter.session_id"),
      clientName: w.clientName ?? "",
      waitingSinceIndex: u64(w.waitingSinceIndex, "waiter.waiting_since_index"),
    })),
  };
}

export function lockPageFrom(wire: palisade.v1.ListLocksResponse): LockPage {
  return {
    locks: (wire.locks ?? []).map((s) => {
      const holder = holderFrom(s.holder);
      return { lock: s.lock ?? "", ...(holder ? { holder } : {}), waiterCount: s.waiterCount ?? 0 };
    }),
    nextAfter: wire.nextAfter ?? "",
  };
}

export function sessionInfoFrom(wire: palisade.v1.SessionInfo.$Properties): SessionInfo {
  return {
    sessionId: u64(wire.sessionId, "session_id"),
    clientName: wire.clientName ?? "",
    ttlMs: Number(u64(wire.ttlMs, "ttl_ms")),
    openedIndex: u64(wire.openedIndex, "opened_index"),
    heldLocks: [...(wire.heldLocks ?? [])],
    waitingLocks: [...(wire.waitingLocks ?? [])],
  };
}

function endReasonFrom(reason: palisade.v1.EndReason | null | undefined): EndReason {
  switch (reason) {
    case pb.EndReason.END_REASON_RELEASED: return "released";
    case pb.EndReason.END_REASON_SESSION_CLOSED: return "sessionClosed";
    case pb.EndReason.END_REASON_SESSION_EXPIRED: return "sessionExpired";
    case pb.EndReason.END_REASON_REVOKED: return "revoked";
    default: return "current";
  }
}

export function historyFrom(wire: palisade.v1.GetLockHistoryResponse): HistoryRecordInfo[] {
  return (wire.records ?? []).map((r) => ({
    token: u64(r.token, "token"),
    sessionId: u64(r.sessionId, "session_id"),
    clientName: r.clientName ?? "",
    grantedIndex: u64(r.grantedIndex, "granted_index"),
    waitedFromIndex: u64(r.waitedFromIndex, "waited_from_index"),
    endedIndex: u64(r.endedIndex, "ended_index"),
    reason: endReasonFrom(r.reason),
    grantedAtMs: Number(u64(r.grantedAtMs, "granted_at_ms")),
    endedAtMs: Number(u64(r.endedAtMs, "ended_at_ms")),
  }));
}

function roleFrom(role: palisade.v1.NodeRole | null | undefined): NodeRoleName {
  switch (role) {
    case pb.NodeRole.NODE_ROLE_FOLLOWER: return "follower";
    case pb.NodeRole.NODE_ROLE_PRECANDIDATE: return "precandidate";
    case pb.NodeRole.NODE_ROLE_CANDIDATE: return "candidate";
    case pb.NodeRole.NODE_ROLE_LEADER: return "leader";
    default: return "unknown";
  }
}

function memberKindFrom(kind: palisade.v1.MemberKind | null | undefined): MemberInfo["kind"] {
  if (kind === pb.MemberKind.MEMBER_KIND_VOTER) return "voter";
  if (kind === pb.MemberKind.MEMBER_KIND_LEARNER) return "learner";
  return "unknown";
}

export function membersFrom(wire: readonly palisade.v1.Member.$Properties[] | null | undefined): MemberInfo[] {
  return (wire ?? []).map((m) => ({
    nodeId: Number(u64(m.nodeId, "member.node_id")),
    address: m.address ?? "",
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

export function cancelWaitFrom(wire: palisade.v1.CancelWaitResponse): CancelWaitResult {
  switch (wire.outcome) {
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_CANCELLED: return { outcome: "cancelled" };
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_GRANTED: return { outcome: "granted", token: u64(wire.token, "token") };
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED: return { outcome: "notAcquired" };
    default: throw new Error(`CancelWait answered an unknown outcome ${String(wire.outcome)}`);
  }
}
