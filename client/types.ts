// Plain values the client hands out: ids, tokens and indexes as bigint, enums as words.
import { palisade } from "../proto/gen/palisade.js";
import type { AcquireAnswer, KindFields, LockGrantInfo, LockHolderInfo, LockTarget } from "../proto/lock-values.ts";
import { u64 } from "../proto/wire.ts";

const pb = palisade.v1;

export type { GrantMode, KindFields, LockGrantInfo, LockHolderInfo, LockMode, LockTarget } from "../proto/lock-values.ts";

export interface LockWaiterInfo extends KindFields {
  sessionId: bigint;
  clientName: string;
  waitingSinceIndex: bigint;
  /** Every lock of a multi-lock request, in the order it named them (absent for one lock). */
  locks?: LockTarget[];
}

/** "lock" (taken shared or exclusive; a free name is one) or "semaphore". */
export type LockKind = "lock" | "semaphore";

/** A place in a lock's holder list (holders are listed oldest first): just after this grant. */
export interface HolderCursor {
  token: bigint;
  sessionId: bigint;
}

/**
 * A lock with one page of its holders and one of its waiters (PalisadeClient.getLock), the
 * totals of both, and where each list goes on.
 */
export interface LockInfo {
  lock: string;
  /** Absent when the lock is free; the oldest grant when there are several. */
  holder?: LockHolderInfo;
  /** This page of the queue, FIFO order. */
  waiters: LockWaiterInfo[];
  /** This page of the current grants, oldest first, when there are several (shared holders, permits). */
  holders?: LockHolderInfo[];
  /** Present for a semaphore ("semaphore", with `permits`). */
  kind?: LockKind;
  permits?: number;
  /** Every current grant and every waiter, listed or not. */
  holderCount: number;
  waiterCount: number;
  /** Pass as `holdersAfter` for the next page of holders; absent when this page ends the list (or listed none). */
  nextHoldersAfter?: HolderCursor;
  /** Pass as `waitersAfter` for the next page of waiters; absent when this page ends the queue (or listed none). */
  nextWaitersAfter?: bigint;
}

export interface LockSummaryInfo {
  lock: string;
  holder?: LockHolderInfo;
  waiterCount: number;
  /** The oldest few grants when there are several (getLock with `holdersAfter: nextHoldersAfter` reads the rest). */
  holders?: LockHolderInfo[];
  kind?: LockKind;
  permits?: number;
  /** Every current grant, listed or not. */
  holderCount: number;
  nextHoldersAfter?: HolderCursor;
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

export interface HistoryRecordInfo extends KindFields {
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
  /** With reason "revoked": "hold limit" when the leader ended the grant as its hold limit passed. */
  revokedFor?: "hold limit";
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

export type CancelWaitResult =
  | { outcome: "cancelled" }
  | { outcome: "granted"; token: bigint }
  | { outcome: "notAcquired" };

const utf8 = new TextDecoder();

/** The kinds' fields of a wire holder, waiter, event or record (permit: the wire marks a permit by a nonzero count or `permit`). */
export function kindFieldsFrom(
  wire: { mode?: palisade.v1.LockMode | null; permits?: number | null; slot?: number | null; holderData?: Uint8Array | null; holdMs?: Parameters<typeof u64>[0] },
  permit = false,
): KindFields {
  const permits = wire.permits ?? 0;
  const isPermit = permit || permits > 0;
  const holdMs = wire.holdMs === null || wire.holdMs === undefined ? 0 : Number(u64(wire.holdMs, "hold_ms"));
  return {
    ...(isPermit ? { mode: "permit" as const, ...(permits > 0 ? { permits } : {}), slot: wire.slot ?? 0 }
      : wire.mode === pb.LockMode.LOCK_MODE_SHARED ? { mode: "shared" as const } : {}),
    ...(wire.holderData && wire.holderData.byteLength > 0 ? { data: utf8.decode(wire.holderData) } : {}),
    ...(holdMs > 0 ? { holdMs } : {}),
  };
}

export function holderFrom(wire: palisade.v1.LockHolder.$Properties | null | undefined): LockHolderInfo | undefined {
  if (!wire) return undefined;
  return {
    sessionId: u64(wire.sessionId, "holder.session_id"),
    clientName: wire.clientName ?? "",
    token: u64(wire.token, "holder.token"),
    grantedIndex: u64(wire.grantedIndex, "holder.granted_index"),
    ...kindFieldsFrom(wire),
  };
}

function targetFrom(t: palisade.v1.LockTarget.$Properties): LockTarget {
  if (t.permits !== null && t.permits !== undefined) return { lock: t.lock ?? "", permits: Number(u64(t.permits, "permits")) };
  return t.mode === pb.LockMode.LOCK_MODE_SHARED ? { lock: t.lock ?? "", mode: "shared" } : { lock: t.lock ?? "" };
}

function cursorFrom(wire: palisade.v1.HolderCursor.$Properties | null | undefined): HolderCursor | undefined {
  if (!wire) return undefined;
  return { token: u64(wire.token, "next_holders_after.token"), sessionId: u64(wire.sessionId, "next_holders_after.session_id") };
}

type SharedLockFields = "holders" | "kind" | "permits" | "holderCount" | "nextHoldersAfter";

/** Holders (their page, count and continuation), kind and permit count, as GetLock and ListLocks both carry them. */
function lockKindFrom(wire: Pick<palisade.v1.GetLockResponse.$Properties, SharedLockFields | "holder">): Pick<LockInfo, SharedLockFields> {
  const holders = (wire.holders ?? []).map((h) => holderFrom(h) as LockHolderInfo);
  const next = cursorFrom(wire.nextHoldersAfter);
  return {
    ...(holders.length > 0 ? { holders } : {}),
    ...(wire.kind === pb.LockKind.LOCK_KIND_SEMAPHORE ? { kind: "semaphore" as const, permits: wire.permits ?? 0 } : {}),
    // A node that predates the pages sends no count but lists every grant.
    holderCount: Math.max(wire.holderCount ?? 0, holders.length > 0 ? holders.length : wire.holder ? 1 : 0),
    ...(next ? { nextHoldersAfter: next } : {}),
  };
}

export function lockInfoFrom(wire: palisade.v1.GetLockResponse): LockInfo {
  const holder = holderFrom(wire.holder);
  const waiters = wire.waiters ?? [];
  const nextWaiters = u64(wire.nextWaitersAfterIndex, "next_waiters_after_index");
  return {
    lock: wire.lock,
    ...(holder ? { holder } : {}),
    waiters: waiters.map((w) => {
      const locks = (w.locks ?? []).map(targetFrom);
      return {
        sessionId: u64(w.sessionId, "waiter.session_id"),
        clientName: w.clientName ?? "",
        waitingSinceIndex: u64(w.waitingSinceIndex, "waiter.waiting_since_index"),
        ...kindFieldsFrom(w),
        ...(locks.length > 0 ? { locks } : {}),
      };
    }),
    ...lockKindFrom(wire),
    waiterCount: Math.max(wire.waiterCount ?? 0, waiters.length),
    ...(nextWaiters > 0n ? { nextWaitersAfter: nextWaiters } : {}),
  };
}

export function lockPageFrom(wire: palisade.v1.ListLocksResponse): LockPage {
  return {
    locks: (wire.locks ?? []).map((s) => {
      const holder = holderFrom(s.holder);
      return { lock: s.lock ?? "", ...(holder ? { holder } : {}), waiterCount: s.waiterCount ?? 0, ...lockKindFrom(s) };
    }),
    nextAfter: wire.nextAfter ?? "",
  };
}

/** The grant of one lock, as an AcquireResponse lists it. */
function grantFrom(g: palisade.v1.LockGrant.$Properties): LockGrantInfo {
  const lock = g.lock ?? "";
  const token = u64(g.token, "grants.token");
  const permits = g.permits ?? 0;
  if (permits > 0) return { lock, token, mode: "permit", permits, slot: g.slot ?? 0 };
  return { lock, token, mode: g.mode === pb.LockMode.LOCK_MODE_SHARED ? "shared" : "exclusive" };
}

/** An Acquire's final answer from its AcquireResponse. */
export function acquireAnswerFrom(wire: palisade.v1.AcquireResponse): AcquireAnswer {
  const holder = holderFrom(wire.holder) ?? null;
  if (wire.acquired) {
    if (holder === null) throw new Error("an AcquireResponse granted names no holder");
    return { kind: "granted", token: u64(wire.token, "token"), holder, grants: (wire.grants ?? []).map(grantFrom) };
  }
  if (wire.cancelled) return { kind: "cancelled" };
  return { kind: "notAcquired", holder, ...(wire.blockedLock ? { blockedLock: wire.blockedLock } : {}) };
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
    ...kindFieldsFrom(r, r.permit === true),
    ...(r.revokeCause === pb.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT ? { revokedFor: "hold limit" as const } : {}),
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
