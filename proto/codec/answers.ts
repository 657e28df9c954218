// The LockService answers between their domain values (proto/lock-values.ts) and protobuf,
// and a failed call's one shape (CallFailure) as the Stream RPC carries it. An encoder
// sets a field of the lock kinds only when it differs from an exclusive grant without
// holder data or hold limit; a decoder reads an unset field as its default.
import { status as Status } from "@grpc/grpc-js";
import { palisade } from "../gen/palisade.js";
import type {
  AcquireAnswer,
  CampaignAnswer,
  CancelWaitResult,
  DowngradeAnswer,
  ElectionEvent,
  Done,
  EndReason,
  FoundSession,
  GrantMode,
  HistoryRecordInfo,
  KeptAlive,
  LeaderInfo,
  Leadership,
  LockGrantInfo,
  LockHistory,
  LockHolderInfo,
  LockInfo,
  LockPage,
  LockSummaryInfo,
  LockWaiterInfo,
  OpenedSession,
  SessionInfo,
  SessionPage,
  TokenValidity,
  UpgradeAnswer,
} from "../lock-values.ts";
import {
  CodecError,
  isErrorReasonName,
  toU64,
  type ErrorReasonName,
  type U64Input,
} from "../wire.ts";
import {
  bigField,
  cursorFrom,
  kindFieldsFrom,
  numberField,
  sharedModeOf,
  targetFrom,
  wireCursor,
  wireKindFields,
  wireTarget,
} from "./fields.ts";

const pb = palisade.v1;

export function encodeOpenedSession(a: OpenedSession): palisade.v1.OpenSessionResponse {
  return pb.OpenSessionResponse.create({ sessionId: toU64(a.sessionId), ttlMs: toU64(a.ttlMs) });
}

export function decodeOpenedSession(w: palisade.v1.OpenSessionResponse): OpenedSession {
  return { sessionId: bigField(w.sessionId, "session_id"), ttlMs: numberField(w.ttlMs, "ttl_ms") };
}

export function encodeKeptAlive(a: KeptAlive): palisade.v1.KeepAliveResponse {
  return pb.KeepAliveResponse.create({
    sessions: a.sessions.map((s) => ({
      sessionId: toU64(s.sessionId),
      ttlMs: toU64(s.ttlMs ?? 0),
      notFound: s.ttlMs === null && s.denied !== true,
      permissionDenied: s.denied === true,
    })),
  });
}

export function decodeKeptAlive(w: palisade.v1.KeepAliveResponse): KeptAlive {
  return {
    sessions: (w.sessions ?? []).map((s) => ({
      sessionId: bigField(s.sessionId, "sessions.session_id"),
      ...(s.permissionDenied
        ? { ttlMs: null, denied: true as const }
        : { ttlMs: s.notFound ? null : numberField(s.ttlMs, "sessions.ttl_ms") }),
    })),
  };
}

export function encodeDone<T>(type: { create(properties: object): T }): (a: Done) => T {
  return () => type.create({});
}

export function decodeDone(): Done {
  return {};
}

// ---------------------------------------------------------------- Acquire and CancelWait

const GRANT_MODES: Readonly<Record<GrantMode, palisade.v1.LockMode>> = {
  exclusive: pb.LockMode.LOCK_MODE_EXCLUSIVE,
  shared: pb.LockMode.LOCK_MODE_SHARED,
  upgradeable: pb.LockMode.LOCK_MODE_UPGRADEABLE,
  permit: pb.LockMode.LOCK_MODE_UNSPECIFIED,
  leader: pb.LockMode.LOCK_MODE_LEADER,
};

function wireHolder(h: LockHolderInfo): palisade.v1.LockHolder.$Properties {
  return {
    sessionId: toU64(h.sessionId),
    clientName: h.clientName,
    token: toU64(h.token),
    grantedIndex: toU64(h.grantedIndex),
    ...wireKindFields(h),
    ...(h.upgradingSince !== undefined ? { upgradingSinceIndex: toU64(h.upgradingSince) } : {}),
  };
}

function holderFrom(
  w: palisade.v1.LockHolder.$Properties | null | undefined,
): LockHolderInfo | undefined {
  if (!w) return undefined;
  return {
    sessionId: bigField(w.sessionId, "holder.session_id"),
    clientName: w.clientName ?? "",
    token: bigField(w.token, "holder.token"),
    grantedIndex: bigField(w.grantedIndex, "holder.granted_index"),
    ...kindFieldsFrom(w),
    ...upgradingFrom(w.upgradingSinceIndex),
  };
}

function upgradingFrom(raw: U64Input): { upgradingSince?: bigint } {
  const since = bigField(raw, "holder.upgrading_since_index");
  return since > 0n ? { upgradingSince: since } : {};
}

function wireGrant(g: LockGrantInfo): palisade.v1.LockGrant.$Properties {
  return {
    lock: g.lock,
    token: toU64(g.token),
    mode: GRANT_MODES[g.mode],
    ...(g.mode === "permit" ? { permits: g.permits ?? 0, slot: g.slot ?? 0 } : {}),
  };
}

function grantFrom(g: palisade.v1.LockGrant.$Properties): LockGrantInfo {
  const lock = g.lock ?? "";
  const token = bigField(g.token, "grants.token");
  const permits = g.permits ?? 0;
  if (permits > 0) return { lock, token, mode: "permit", permits, slot: g.slot ?? 0 };
  return { lock, token, mode: sharedModeOf(g.mode) ?? "exclusive" };
}

export function encodeAcquireAnswer(a: AcquireAnswer): palisade.v1.AcquireResponse {
  switch (a.kind) {
    case "granted":
      return pb.AcquireResponse.create({
        acquired: true,
        token: toU64(a.token),
        holder: wireHolder(a.holder),
        grants: a.grants.map(wireGrant),
      });
    case "notAcquired":
      return pb.AcquireResponse.create({
        acquired: false,
        holder: a.holder ? wireHolder(a.holder) : null,
        ...(a.blockedLock !== undefined ? { blockedLock: a.blockedLock } : {}),
      });
    case "cancelled":
      return pb.AcquireResponse.create({ acquired: false, cancelled: true });
  }
}

export function decodeAcquireAnswer(w: palisade.v1.AcquireResponse): AcquireAnswer {
  const holder = holderFrom(w.holder) ?? null;
  if (w.acquired) {
    if (holder === null) throw new CodecError("holder: a granted AcquireResponse names none");
    return {
      kind: "granted",
      token: bigField(w.token, "token"),
      holder,
      grants: (w.grants ?? []).map(grantFrom),
    };
  }
  if (w.cancelled) return { kind: "cancelled" };
  return { kind: "notAcquired", holder, ...(w.blockedLock ? { blockedLock: w.blockedLock } : {}) };
}

// ---------------------------------------------------------------- Upgrade and Downgrade

export function encodeUpgradeAnswer(a: UpgradeAnswer): palisade.v1.UpgradeResponse {
  switch (a.kind) {
    case "upgraded":
      return pb.UpgradeResponse.create({ upgraded: true, token: toU64(a.token) });
    case "notUpgraded":
      return pb.UpgradeResponse.create({ holder: a.holder ? wireHolder(a.holder) : null });
    case "cancelled":
      return pb.UpgradeResponse.create({ cancelled: true });
  }
}

export function decodeUpgradeAnswer(w: palisade.v1.UpgradeResponse): UpgradeAnswer {
  if (w.upgraded) return { kind: "upgraded", token: bigField(w.token, "token") };
  if (w.cancelled) return { kind: "cancelled" };
  return { kind: "notUpgraded", holder: holderFrom(w.holder) ?? null };
}

export function encodeDowngradeAnswer(a: DowngradeAnswer): palisade.v1.DowngradeResponse {
  return pb.DowngradeResponse.create({ token: toU64(a.token), mode: GRANT_MODES[a.mode] });
}

export function decodeDowngradeAnswer(w: palisade.v1.DowngradeResponse): DowngradeAnswer {
  const mode = sharedModeOf(w.mode);
  if (mode === undefined)
    throw new CodecError(`mode: ${String(w.mode)} is not a mode a Downgrade makes`);
  return { token: bigField(w.token, "token"), mode };
}

const CANCEL_OUTCOMES: Readonly<
  Record<CancelWaitResult["outcome"], palisade.v1.CancelWaitOutcome>
> = {
  cancelled: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_CANCELLED,
  granted: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_GRANTED,
  notAcquired: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED,
};

export function encodeCancelWaitResult(a: CancelWaitResult): palisade.v1.CancelWaitResponse {
  return pb.CancelWaitResponse.create({
    outcome: CANCEL_OUTCOMES[a.outcome],
    ...(a.outcome === "granted" ? { token: toU64(a.token) } : {}),
  });
}

export function decodeCancelWaitResult(w: palisade.v1.CancelWaitResponse): CancelWaitResult {
  switch (w.outcome) {
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_CANCELLED:
      return { outcome: "cancelled" };
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_GRANTED:
      return { outcome: "granted", token: bigField(w.token, "token") };
    case pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED:
      return { outcome: "notAcquired" };
    default:
      throw new CodecError(`outcome: ${String(w.outcome)} is not a CancelWait outcome`);
  }
}

// ---------------------------------------------------------------- reads

function wireWaiter(w: LockWaiterInfo): palisade.v1.LockWaiter.$Properties {
  return {
    sessionId: toU64(w.sessionId),
    clientName: w.clientName,
    waitingSinceIndex: toU64(w.waitingSinceIndex),
    ...wireKindFields(w),
    ...(w.locks ? { locks: w.locks.map(wireTarget) } : {}),
  };
}

function waiterFrom(w: palisade.v1.LockWaiter.$Properties): LockWaiterInfo {
  const locks = (w.locks ?? []).map(targetFrom);
  return {
    sessionId: bigField(w.sessionId, "waiter.session_id"),
    clientName: w.clientName ?? "",
    waitingSinceIndex: bigField(w.waitingSinceIndex, "waiter.waiting_since_index"),
    ...kindFieldsFrom(w),
    ...(locks.length > 0 ? { locks } : {}),
  };
}

type SharedLockFields =
  "holder" | "holders" | "kind" | "permits" | "holderCount" | "nextHoldersAfter";

/** The fields GetLockResponse and LockSummary share. */
function wireLockFields(
  l: Pick<LockInfo, SharedLockFields>,
): Pick<palisade.v1.GetLockResponse.$Properties, SharedLockFields> {
  return {
    holder: l.holder ? wireHolder(l.holder) : null,
    holders: (l.holders ?? []).map(wireHolder),
    holderCount: l.holderCount,
    nextHoldersAfter: wireCursor(l.nextHoldersAfter),
    ...(l.kind === "semaphore"
      ? { kind: pb.LockKind.LOCK_KIND_SEMAPHORE, permits: l.permits ?? 0 }
      : l.kind === "election"
        ? { kind: pb.LockKind.LOCK_KIND_ELECTION }
        : {}),
  };
}

function lockFieldsFrom(
  w: Pick<palisade.v1.GetLockResponse.$Properties, SharedLockFields>,
): Pick<LockInfo, SharedLockFields> {
  const holder = holderFrom(w.holder);
  const holders = (w.holders ?? []).map((h) => holderFrom(h) as LockHolderInfo);
  const next = cursorFrom(w.nextHoldersAfter, "next_holders_after");
  return {
    ...(holder ? { holder } : {}),
    ...(holders.length > 0 ? { holders } : {}),
    ...(w.kind === pb.LockKind.LOCK_KIND_SEMAPHORE
      ? { kind: "semaphore" as const, permits: w.permits ?? 0 }
      : w.kind === pb.LockKind.LOCK_KIND_ELECTION
        ? { kind: "election" as const }
        : {}),
    holderCount: w.holderCount ?? 0,
    ...(next ? { nextHoldersAfter: next } : {}),
  };
}

export function encodeLockInfo(l: LockInfo): palisade.v1.GetLockResponse {
  return pb.GetLockResponse.create({
    lock: l.lock,
    ...wireLockFields(l),
    waiters: l.waiters.map(wireWaiter),
    waiterCount: l.waiterCount,
    nextWaitersAfterIndex: toU64(l.nextWaitersAfter ?? 0n),
  });
}

export function decodeLockInfo(w: palisade.v1.GetLockResponse): LockInfo {
  const next = bigField(w.nextWaitersAfterIndex, "next_waiters_after_index");
  return {
    lock: w.lock ?? "",
    ...lockFieldsFrom(w),
    waiters: (w.waiters ?? []).map(waiterFrom),
    waiterCount: w.waiterCount ?? 0,
    ...(next > 0n ? { nextWaitersAfter: next } : {}),
  };
}

export function encodeLockPage(p: LockPage): palisade.v1.ListLocksResponse {
  return pb.ListLocksResponse.create({
    locks: p.locks.map((l) => ({ lock: l.lock, ...wireLockFields(l), waiterCount: l.waiterCount })),
    nextAfter: p.nextAfter,
  });
}

export function decodeLockPage(w: palisade.v1.ListLocksResponse): LockPage {
  return {
    locks: (w.locks ?? []).map((s): LockSummaryInfo => ({
      lock: s.lock ?? "",
      ...lockFieldsFrom(s),
      waiterCount: s.waiterCount ?? 0,
    })),
    nextAfter: w.nextAfter ?? "",
  };
}

function wireSession(s: SessionInfo): palisade.v1.SessionInfo.$Properties {
  return {
    sessionId: toU64(s.sessionId),
    clientName: s.clientName,
    ttlMs: toU64(s.ttlMs),
    openedIndex: toU64(s.openedIndex),
    heldLocks: s.heldLocks,
    waitingLocks: s.waitingLocks,
  };
}

function sessionFrom(w: palisade.v1.SessionInfo.$Properties): SessionInfo {
  return {
    sessionId: bigField(w.sessionId, "session_id"),
    clientName: w.clientName ?? "",
    ttlMs: numberField(w.ttlMs, "ttl_ms"),
    openedIndex: bigField(w.openedIndex, "opened_index"),
    heldLocks: [...(w.heldLocks ?? [])],
    waitingLocks: [...(w.waitingLocks ?? [])],
  };
}

export function encodeFoundSession(a: FoundSession): palisade.v1.GetSessionResponse {
  return pb.GetSessionResponse.create({ session: wireSession(a.session) });
}

export function decodeFoundSession(w: palisade.v1.GetSessionResponse): FoundSession {
  if (!w.session) throw new CodecError("session: a GetSessionResponse names none");
  return { session: sessionFrom(w.session) };
}

export function encodeSessionPage(p: SessionPage): palisade.v1.ListSessionsResponse {
  return pb.ListSessionsResponse.create({
    sessions: p.sessions.map(wireSession),
    nextAfterSessionId: toU64(p.nextAfter),
  });
}

export function decodeSessionPage(w: palisade.v1.ListSessionsResponse): SessionPage {
  return {
    sessions: (w.sessions ?? []).map(sessionFrom),
    nextAfter: bigField(w.nextAfterSessionId, "next_after_session_id"),
  };
}

const END_REASONS: Readonly<Record<EndReason, palisade.v1.EndReason>> = {
  current: pb.EndReason.END_REASON_UNSPECIFIED,
  released: pb.EndReason.END_REASON_RELEASED,
  sessionClosed: pb.EndReason.END_REASON_SESSION_CLOSED,
  sessionExpired: pb.EndReason.END_REASON_SESSION_EXPIRED,
  revoked: pb.EndReason.END_REASON_REVOKED,
  handedOff: pb.EndReason.END_REASON_HANDED_OFF,
  upgraded: pb.EndReason.END_REASON_UPGRADED,
  downgraded: pb.EndReason.END_REASON_DOWNGRADED,
};

/** How a released grant ended that a grant of the same entry completes: a Watch event's `ended`. */
export type CompletedEnd = Extract<EndReason, "handedOff" | "upgraded" | "downgraded">;

export function wireCompletedEnd(ended: CompletedEnd): palisade.v1.EndReason {
  return END_REASONS[ended];
}

/** A Watch event's `ended`, present only for a handoff, an upgrade or a downgrade. */
export function completedEndFrom(reason: palisade.v1.EndReason | null | undefined): {
  ended?: CompletedEnd;
} {
  const r = endReasonFrom(reason);
  return r === "handedOff" || r === "upgraded" || r === "downgraded" ? { ended: r } : {};
}

function endReasonFrom(reason: palisade.v1.EndReason | null | undefined): EndReason {
  for (const [name, value] of Object.entries(END_REASONS))
    if (value === reason) return name as EndReason;
  return "current";
}

function wireRecord(r: HistoryRecordInfo): palisade.v1.HistoryRecord.$Properties {
  // A permit is only marked: the history does not keep its semaphore's permit count.
  const { permits: _permits, ...kind } = wireKindFields(r);
  return {
    token: toU64(r.token),
    sessionId: toU64(r.sessionId),
    clientName: r.clientName,
    grantedIndex: toU64(r.grantedIndex),
    waitedFromIndex: toU64(r.waitedFromIndex),
    endedIndex: toU64(r.endedIndex),
    reason: END_REASONS[r.reason],
    grantedAtMs: toU64(r.grantedAtMs),
    endedAtMs: toU64(r.endedAtMs),
    ...kind,
    ...(r.mode === "permit" ? { permit: true } : {}),
    ...(r.revokedFor === "holdLimit"
      ? { revokeCause: pb.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT }
      : {}),
  };
}

function recordFrom(r: palisade.v1.HistoryRecord.$Properties): HistoryRecordInfo {
  return {
    token: bigField(r.token, "token"),
    sessionId: bigField(r.sessionId, "session_id"),
    clientName: r.clientName ?? "",
    grantedIndex: bigField(r.grantedIndex, "granted_index"),
    waitedFromIndex: bigField(r.waitedFromIndex, "waited_from_index"),
    endedIndex: bigField(r.endedIndex, "ended_index"),
    reason: endReasonFrom(r.reason),
    grantedAtMs: numberField(r.grantedAtMs, "granted_at_ms"),
    endedAtMs: numberField(r.endedAtMs, "ended_at_ms"),
    ...kindFieldsFrom(r, r.permit === true),
    ...(r.revokeCause === pb.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT
      ? { revokedFor: "holdLimit" as const }
      : {}),
  };
}

export function encodeLockHistory(h: LockHistory): palisade.v1.GetLockHistoryResponse {
  return pb.GetLockHistoryResponse.create({ records: h.records.map(wireRecord) });
}

export function decodeLockHistory(w: palisade.v1.GetLockHistoryResponse): LockHistory {
  return { records: (w.records ?? []).map(recordFrom) };
}

export function encodeTokenValidity(a: TokenValidity): palisade.v1.ValidateTokenResponse {
  return pb.ValidateTokenResponse.create({ valid: a.valid });
}

export function decodeTokenValidity(w: palisade.v1.ValidateTokenResponse): TokenValidity {
  return { valid: w.valid === true };
}

// ---------------------------------------------------------------- elections

const utf8 = new TextEncoder();
const text = new TextDecoder();

function wireLeadership(l: Leadership): palisade.v1.Leadership.$Properties {
  return {
    sessionId: toU64(l.sessionId),
    clientName: l.clientName,
    token: toU64(l.token),
    sinceIndex: toU64(l.sinceIndex),
    ...(l.value ? { value: utf8.encode(l.value) } : {}),
  };
}

function leadershipFrom(
  w: palisade.v1.Leadership.$Properties | null | undefined,
): Leadership | null {
  if (!w) return null;
  return {
    sessionId: bigField(w.sessionId, "leader.session_id"),
    clientName: w.clientName ?? "",
    token: bigField(w.token, "leader.token"),
    sinceIndex: bigField(w.sinceIndex, "leader.since_index"),
    value: w.value && w.value.byteLength > 0 ? text.decode(w.value) : "",
  };
}

export function encodeCampaignAnswer(a: CampaignAnswer): palisade.v1.CampaignResponse {
  switch (a.kind) {
    case "elected":
      return pb.CampaignResponse.create({
        elected: true,
        token: toU64(a.token),
        leader: wireLeadership(a.leader),
      });
    case "notElected":
      return pb.CampaignResponse.create({
        elected: false,
        leader: a.leader ? wireLeadership(a.leader) : null,
      });
    case "cancelled":
      return pb.CampaignResponse.create({ elected: false, cancelled: true });
  }
}

export function decodeCampaignAnswer(w: palisade.v1.CampaignResponse): CampaignAnswer {
  const leader = leadershipFrom(w.leader);
  if (w.elected) {
    if (leader === null) throw new CodecError("leader: an elected CampaignResponse names none");
    return { kind: "elected", token: bigField(w.token, "token"), leader };
  }
  if (w.cancelled) return { kind: "cancelled" };
  return { kind: "notElected", leader };
}

export function encodeLeaderInfo(a: LeaderInfo): palisade.v1.LeaderResponse {
  return pb.LeaderResponse.create({
    leader: a.leader ? wireLeadership(a.leader) : null,
    candidateCount: a.candidateCount,
  });
}

export function decodeLeaderInfo(w: palisade.v1.LeaderResponse): LeaderInfo {
  return { leader: leadershipFrom(w.leader), candidateCount: w.candidateCount ?? 0 };
}

const ELECTION_EVENT_KINDS: Readonly<Record<ElectionEvent["kind"], palisade.v1.ElectionEventKind>> =
  {
    leader: pb.ElectionEventKind.ELECTION_EVENT_KIND_LEADER,
    value: pb.ElectionEventKind.ELECTION_EVENT_KIND_VALUE,
    noLeader: pb.ElectionEventKind.ELECTION_EVENT_KIND_NO_LEADER,
  };

export function encodeElectionEvent(e: ElectionEvent): palisade.v1.ElectionEvent {
  return pb.ElectionEvent.create({
    index: toU64(e.index),
    kind: ELECTION_EVENT_KINDS[e.kind],
    ...(e.kind === "noLeader"
      ? e.ended
        ? { ended: END_REASONS[e.ended.reason], endedToken: toU64(e.ended.token) }
        : {}
      : { leader: wireLeadership(e.leader) }),
  });
}

export function decodeElectionEvent(w: palisade.v1.ElectionEvent): ElectionEvent {
  const index = bigField(w.index, "index");
  switch (w.kind) {
    case pb.ElectionEventKind.ELECTION_EVENT_KIND_LEADER:
    case pb.ElectionEventKind.ELECTION_EVENT_KIND_VALUE: {
      const leader = leadershipFrom(w.leader);
      if (leader === null) throw new CodecError("leader: a leader event names none");
      const kind = w.kind === pb.ElectionEventKind.ELECTION_EVENT_KIND_LEADER ? "leader" : "value";
      return { kind, index, leader };
    }
    case pb.ElectionEventKind.ELECTION_EVENT_KIND_NO_LEADER: {
      const reason = endReasonFrom(w.ended);
      return reason === "current"
        ? { kind: "noLeader", index }
        : {
            kind: "noLeader",
            index,
            ended: { reason, token: bigField(w.endedToken, "ended_token") },
          };
    }
    default:
      throw new CodecError(`kind: ${String(w.kind)} is not an election event kind`);
  }
}

// ---------------------------------------------------------------- failures

/**
 * Why a call failed, as every layer holds it: the reason (which fixes the status code),
 * the status code (a failure without a reason, such as a size limit's, has only the code),
 * a message for people, and the leader's client address for a call that must go there.
 * A gRPC status is made of it only where a unary call ends.
 */
export interface CallFailure {
  readonly code: Status;
  readonly reason: ErrorReasonName | null;
  readonly message: string;
  readonly leader: string | null;
}

export function encodeFailure(f: CallFailure): palisade.v1.StreamFailure.$Properties {
  return {
    code: f.code,
    reason: f.reason === null ? pb.ErrorReason.ERROR_REASON_UNSPECIFIED : pb.ErrorReason[f.reason],
    message: f.message,
    leader: f.leader ?? "",
  };
}

export function decodeFailure(w: palisade.v1.IStreamFailure): CallFailure {
  const reason = pb.ErrorReason[w.reason ?? 0];
  return {
    code: (w.code ?? Status.UNKNOWN) as Status,
    reason: typeof reason === "string" && isErrorReasonName(reason) ? reason : null,
    message: w.message ?? "",
    leader: w.leader ? w.leader : null,
  };
}
