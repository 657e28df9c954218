// The LockService requests between their domain values (proto/lock-values.ts) and protobuf.
// A decoder checks every field a request carries on its own (types, presence, names, the
// kinds' fields) and throws CodecError naming the field; what depends on the cluster's
// replicated limits (TTL and wait bounds, list sizes, permit counts) the node checks as it
// proposes, against the limits of that moment.
import { palisade } from "../gen/palisade.js";
import { checkClientName, checkRequestId } from "../names.ts";
import type {
  AcquireRequest,
  CampaignRequest,
  CancelWaitRequest,
  CloseSessionRequest,
  GetLockHistoryRequest,
  GetLockRequest,
  GetSessionRequest,
  KeepAliveRequest,
  ListLocksRequest,
  LeaderRequest,
  ListSessionsRequest,
  ObserveRequest,
  OpenSessionRequest,
  ProclaimRequest,
  ReleaseRequest,
  DowngradeRequest,
  ResignRequest,
  UpgradeRequest,
  ValidateTokenRequest,
} from "../lock-values.ts";
import { CodecError, MAX_KEEPALIVE_SESSION_IDS, toU64, type U64Input } from "../wire.ts";
import type Long from "long";
import {
  bigField,
  countField,
  cursorFrom,
  pageLimitField,
  ensure,
  holderDataField,
  lockField,
  moreLocksField,
  numberField,
  optionalLockField,
  sequencedFields,
  sessionIdField,
  sharedModeOf,
  stringField,
  targetFields,
  tokenField,
  wireCursor,
  wireMode,
  wireSequenced,
  wireTarget,
} from "./fields.ts";

const pb = palisade.v1;
const utf8 = new TextEncoder();

export function encodeOpenSession(r: OpenSessionRequest): palisade.v1.OpenSessionRequest {
  return pb.OpenSessionRequest.create({
    ttlMs: toU64(r.ttlMs, "ttlMs"),
    clientName: r.clientName,
    requestId: r.requestId,
  });
}

export function decodeOpenSession(w: palisade.v1.OpenSessionRequest): OpenSessionRequest {
  const ttlMs = numberField(w.ttlMs, "ttl_ms");
  const clientName = stringField(w.clientName, "client_name");
  ensure(checkClientName(clientName), "client_name");
  const requestId = stringField(w.requestId, "request_id");
  if (requestId !== "") ensure(checkRequestId(requestId), "request_id");
  return { ttlMs, clientName, requestId };
}

/** The refusal of a KeepAlive request naming `count` ids, or null when the count is allowed. */
export function keepAliveCountProblem(count: number): string | null {
  if (count === 0) return "session_ids is empty (name at least one session)";
  if (count > MAX_KEEPALIVE_SESSION_IDS)
    return `session_ids: ${count} ids, more than ${MAX_KEEPALIVE_SESSION_IDS} in one request`;
  return null;
}

export function encodeKeepAlive(r: KeepAliveRequest): palisade.v1.KeepAliveRequest {
  return pb.KeepAliveRequest.create({ sessionIds: r.sessionIds.map((id) => toU64(id)) });
}

/** 1 to MAX_KEEPALIVE_SESSION_IDS session ids. */
export function decodeKeepAlive(w: palisade.v1.KeepAliveRequest): KeepAliveRequest {
  const raw = w.sessionIds ?? [];
  ensure(keepAliveCountProblem(raw.length));
  return { sessionIds: raw.map((id, i) => sessionIdField(id, `session_ids[${i}]`)) };
}

export function encodeCloseSession(r: CloseSessionRequest): palisade.v1.CloseSessionRequest {
  return pb.CloseSessionRequest.create(wireSequenced(r));
}

export function decodeCloseSession(w: palisade.v1.CloseSessionRequest): CloseSessionRequest {
  return sequencedFields(w);
}

export function encodeAcquire(r: AcquireRequest): palisade.v1.AcquireRequest {
  return pb.AcquireRequest.create({
    ...wireSequenced(r),
    lock: r.lock,
    waitMs: toU64(r.waitMs, "waitMs"),
    // Each field of the kinds is set only when asked for, so an exclusive Acquire has none.
    ...wireMode(r.mode),
    ...(r.permits !== undefined ? { permits: toU64(r.permits, "permits") } : {}),
    ...(r.more && r.more.length > 0 ? { moreLocks: r.more.map(wireTarget) } : {}),
    ...(r.holderData ? { holderData: utf8.encode(r.holderData) } : {}),
    ...(r.holdMs ? { holdMs: toU64(r.holdMs, "holdMs") } : {}),
  });
}

export function decodeAcquire(w: palisade.v1.AcquireRequest): AcquireRequest {
  const write = sequencedFields(w);
  const lock = lockField(w.lock);
  const waitMs = numberField(w.waitMs, "wait_ms");
  const first = targetFields(w, "");
  const more = moreLocksField(w.moreLocks, lock);
  const holderData = holderDataField(w.holderData);
  const holdMs = numberField(w.holdMs, "hold_ms");
  // Field by field, not spread: every Acquire is decoded on arrival and again at apply.
  const req: Writable<AcquireRequest> = {
    sessionId: write.sessionId,
    seq: write.seq,
    ackedUpTo: write.ackedUpTo,
    held: write.held,
    lock,
    waitMs,
  };
  if (first.mode !== undefined) req.mode = first.mode;
  if (first.permits !== undefined) req.permits = first.permits;
  if (more.length > 0) req.more = more;
  if (holderData !== "") req.holderData = holderData;
  if (holdMs !== 0) req.holdMs = holdMs;
  return req;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export function encodeCancelWait(r: CancelWaitRequest): palisade.v1.CancelWaitRequest {
  return pb.CancelWaitRequest.create({
    sessionId: toU64(r.sessionId),
    lock: r.lock,
    acquireSeq: toU64(r.acquireSeq, "acquireSeq"),
  });
}

export function decodeCancelWait(w: palisade.v1.CancelWaitRequest): CancelWaitRequest {
  const sessionId = sessionIdField(w.sessionId);
  const lock = lockField(w.lock);
  const acquireSeq = numberField(w.acquireSeq, "acquire_seq");
  if (acquireSeq < 1)
    throw new CodecError("acquire_seq must be the seq (≥ 1) of the Acquire whose wait to cancel");
  return { sessionId, lock, acquireSeq };
}

export function encodeRelease(r: ReleaseRequest): palisade.v1.ReleaseRequest {
  return pb.ReleaseRequest.create({
    ...wireSequenced(r),
    lock: r.lock,
    token: toU64(r.token, "token"),
    ...wireSuccessor(r.successor),
  });
}

export function decodeRelease(w: palisade.v1.ReleaseRequest): ReleaseRequest {
  const write = sequencedFields(w);
  const successor = successorField(w.successorSessionId, write.sessionId);
  const req: Writable<ReleaseRequest> = {
    sessionId: write.sessionId,
    seq: write.seq,
    ackedUpTo: write.ackedUpTo,
    held: write.held,
    lock: lockField(w.lock),
    token: tokenField(w.token),
  };
  if (successor !== undefined) req.successor = successor;
  return req;
}

function wireSuccessor(successor: bigint | undefined): { successorSessionId?: Long } {
  return successor !== undefined ? { successorSessionId: toU64(successor, "successor") } : {};
}

/** A handoff's successor: absent when unset (0); never the caller itself. */
function successorField(raw: U64Input, caller: bigint): bigint | undefined {
  const successor = bigField(raw, "successor_session_id");
  if (successor === 0n) return undefined;
  if (successor === caller)
    throw new CodecError(
      "successor_session_id: a session cannot hand a grant to itself (name another, waiting, session)",
    );
  return successor;
}

// ---------------------------------------------------------------- mode changes

export function encodeUpgrade(r: UpgradeRequest): palisade.v1.UpgradeRequest {
  return pb.UpgradeRequest.create({
    ...wireSequenced(r),
    lock: r.lock,
    token: toU64(r.token, "token"),
    waitMs: toU64(r.waitMs, "waitMs"),
  });
}

export function decodeUpgrade(w: palisade.v1.UpgradeRequest): UpgradeRequest {
  return {
    ...sequencedFields(w),
    lock: lockField(w.lock),
    token: tokenField(w.token),
    waitMs: numberField(w.waitMs, "wait_ms"),
  };
}

export function encodeDowngrade(r: DowngradeRequest): palisade.v1.DowngradeRequest {
  return pb.DowngradeRequest.create({
    ...wireSequenced(r),
    lock: r.lock,
    token: toU64(r.token, "token"),
    ...wireMode(r.mode),
  });
}

export function decodeDowngrade(w: palisade.v1.DowngradeRequest): DowngradeRequest {
  const mode = sharedModeOf(w.mode);
  if (mode === undefined)
    throw new CodecError(
      `mode: ${String(w.mode ?? 0)} is not a mode to downgrade to (LOCK_MODE_SHARED or LOCK_MODE_UPGRADEABLE)`,
    );
  return {
    ...sequencedFields(w),
    lock: lockField(w.lock),
    token: tokenField(w.token),
    mode,
  };
}

// ---------------------------------------------------------------- elections

export function encodeCampaign(r: CampaignRequest): palisade.v1.CampaignRequest {
  return pb.CampaignRequest.create({
    ...wireSequenced(r),
    election: r.election,
    ...(r.value ? { value: utf8.encode(r.value) } : {}),
    waitMs: toU64(r.waitMs, "waitMs"),
  });
}

export function decodeCampaign(w: palisade.v1.CampaignRequest): CampaignRequest {
  return {
    ...sequencedFields(w),
    election: lockField(w.election, "election"),
    value: valueField(w.value),
    waitMs: numberField(w.waitMs, "wait_ms"),
  };
}

export function encodeProclaim(r: ProclaimRequest): palisade.v1.ProclaimRequest {
  return pb.ProclaimRequest.create({
    ...wireSequenced(r),
    election: r.election,
    token: toU64(r.token, "token"),
    ...(r.value ? { value: utf8.encode(r.value) } : {}),
  });
}

export function decodeProclaim(w: palisade.v1.ProclaimRequest): ProclaimRequest {
  return {
    ...sequencedFields(w),
    election: lockField(w.election, "election"),
    token: tokenField(w.token),
    value: valueField(w.value),
  };
}

export function encodeResign(r: ResignRequest): palisade.v1.ResignRequest {
  return pb.ResignRequest.create({
    ...wireSequenced(r),
    election: r.election,
    token: toU64(r.token, "token"),
    ...wireSuccessor(r.successor),
  });
}

export function decodeResign(w: palisade.v1.ResignRequest): ResignRequest {
  const write = sequencedFields(w);
  const successor = successorField(w.successorSessionId, write.sessionId);
  return {
    ...write,
    election: lockField(w.election, "election"),
    token: tokenField(w.token),
    ...(successor !== undefined ? { successor } : {}),
  };
}

export function encodeLeader(r: LeaderRequest): palisade.v1.LeaderRequest {
  return pb.LeaderRequest.create({ election: r.election });
}

export function decodeLeader(w: palisade.v1.LeaderRequest): LeaderRequest {
  return { election: lockField(w.election, "election") };
}

export function encodeObserve(r: ObserveRequest): palisade.v1.ObserveRequest {
  return pb.ObserveRequest.create({ election: r.election, fromIndex: toU64(r.fromIndex) });
}

export function decodeObserve(w: palisade.v1.ObserveRequest): ObserveRequest {
  return {
    election: lockField(w.election, "election"),
    fromIndex: bigField(w.fromIndex, "from_index"),
  };
}

/** An election's value: UTF-8 text as holder data is (the node checks its size). */
function valueField(raw: Uint8Array | null | undefined): string {
  try {
    return holderDataField(raw);
  } catch {
    throw new CodecError("value: not valid UTF-8 (an election's value is text)");
  }
}

export function encodeGetLock(r: GetLockRequest): palisade.v1.GetLockRequest {
  return pb.GetLockRequest.create({
    lock: r.lock,
    ...(r.holderLimit !== undefined ? { holderLimit: r.holderLimit } : {}),
    ...(r.waiterLimit !== undefined ? { waiterLimit: r.waiterLimit } : {}),
    ...(r.holdersAfter ? { holdersAfter: wireCursor(r.holdersAfter) } : {}),
    ...(r.waitersAfterIndex > 0n ? { waitersAfterIndex: toU64(r.waitersAfterIndex) } : {}),
  });
}

export function decodeGetLock(w: palisade.v1.GetLockRequest): GetLockRequest {
  const holdersAfter = cursorFrom(w.holdersAfter, "holders_after");
  return {
    lock: lockField(w.lock),
    // Unset is the default page; 0 lists none.
    ...(w.holderLimit !== null && w.holderLimit !== undefined
      ? { holderLimit: pageLimitField(w.holderLimit, "holder_limit") }
      : {}),
    ...(w.waiterLimit !== null && w.waiterLimit !== undefined
      ? { waiterLimit: pageLimitField(w.waiterLimit, "waiter_limit") }
      : {}),
    ...(holdersAfter ? { holdersAfter } : {}),
    waitersAfterIndex: bigField(w.waitersAfterIndex, "waiters_after_index"),
  };
}

export function encodeListLocks(r: ListLocksRequest): palisade.v1.ListLocksRequest {
  return pb.ListLocksRequest.create({ prefix: r.prefix, after: r.after, limit: r.limit });
}

export function decodeListLocks(w: palisade.v1.ListLocksRequest): ListLocksRequest {
  return {
    prefix: optionalLockField(w.prefix, "prefix"),
    after: optionalLockField(w.after, "after"),
    limit: pageLimitField(w.limit, "limit"),
  };
}

export function encodeGetSession(r: GetSessionRequest): palisade.v1.GetSessionRequest {
  return pb.GetSessionRequest.create({ sessionId: toU64(r.sessionId) });
}

export function decodeGetSession(w: palisade.v1.GetSessionRequest): GetSessionRequest {
  return { sessionId: sessionIdField(w.sessionId) };
}

export function encodeListSessions(r: ListSessionsRequest): palisade.v1.ListSessionsRequest {
  return pb.ListSessionsRequest.create({ afterSessionId: toU64(r.after), limit: r.limit });
}

export function decodeListSessions(w: palisade.v1.ListSessionsRequest): ListSessionsRequest {
  return {
    after: bigField(w.afterSessionId, "after_session_id"),
    limit: pageLimitField(w.limit, "limit"),
  };
}

export function encodeGetLockHistory(r: GetLockHistoryRequest): palisade.v1.GetLockHistoryRequest {
  return pb.GetLockHistoryRequest.create({ lock: r.lock, limit: r.limit });
}

export function decodeGetLockHistory(w: palisade.v1.GetLockHistoryRequest): GetLockHistoryRequest {
  return { lock: lockField(w.lock), limit: countField(w.limit, "limit") };
}

export function encodeValidateToken(r: ValidateTokenRequest): palisade.v1.ValidateTokenRequest {
  return pb.ValidateTokenRequest.create({ lock: r.lock, token: toU64(r.token, "token") });
}

export function decodeValidateToken(w: palisade.v1.ValidateTokenRequest): ValidateTokenRequest {
  return { lock: lockField(w.lock), token: tokenField(w.token) };
}
