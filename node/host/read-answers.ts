// The answers of the LockService reads, made from the lock state's views: how much of a
// lock's holders and waiters one answer lists (its pages stay well below the 4 MiB gRPC
// message limit even when one entry is as large as the limits allow, and leave room for
// several answers in one frame of the Stream RPC), and each view as the contract's value.
import type { AnswerOf, RequestOf } from "../../proto/lock-calls.ts";
import type {
  GetLockRequest,
  HistoryRecordInfo,
  KindFields,
  LeaderInfo,
  Leadership,
  LockHolderInfo as HolderValue,
  LockInfo as LockValue,
  LockSummaryInfo,
  LockWaiterInfo as WaiterValue,
  SessionInfo as SessionValue,
} from "../../proto/lock-values.ts";
import { DEFAULT_PAGE_SIZE } from "../../proto/limits.ts";
import type {
  GrantMode,
  HistoryEntry,
  HolderPlace,
  LockHolderInfo,
  LockPageBounds,
  LockPageInfo,
  LockWaiterInfo,
  SessionInfo,
} from "../lock/index.ts";
import { RequestFailure } from "./failures.ts";
import type { LockReader } from "./node-host.ts";

/** One page of a lock's holders or of its waiters in GetLock. */
export const LIST_PAGE_BYTES = 256 * 1024;
/** One ListLocks page. */
export const LOCKS_PAGE_BYTES = 512 * 1024;
/** The holders one ListLocks entry lists at most (GetLock reads the rest). */
export const SUMMARY_HOLDERS = 10;
const SUMMARY_HOLDER_BYTES = 64 * 1024;

/** What each ListLocks entry lists: its oldest holders, no waiters (their count is there). */
export const SUMMARY_BOUNDS: LockPageBounds = {
  holders: { limit: SUMMARY_HOLDERS, maxBytes: SUMMARY_HOLDER_BYTES },
  waiters: { limit: 0, maxBytes: 0 },
};

/** A page limit as asked: 0 (or unset, for GetLock's lists) is the default page. */
export function pageSize(limit: number | undefined): number {
  return limit === undefined || limit === 0 ? DEFAULT_PAGE_SIZE : limit;
}

/** A GetLock list's limit: unset is the default page, 0 lists none. */
function listLimit(limit: number | undefined): number {
  return limit === undefined ? DEFAULT_PAGE_SIZE : limit;
}

export function getLockBounds(req: GetLockRequest): LockPageBounds {
  return {
    holders: {
      limit: listLimit(req.holderLimit),
      maxBytes: LIST_PAGE_BYTES,
      after: req.holdersAfter,
    },
    waiters: {
      limit: listLimit(req.waiterLimit),
      maxBytes: LIST_PAGE_BYTES,
      afterIndex: Number(req.waitersAfterIndex),
    },
  };
}

interface KindView {
  readonly mode?: GrantMode;
  readonly slot?: number;
  readonly holderData?: string;
  readonly holdMs?: number;
}

/** A view's (or an event's) kind fields as the contract's; `permits`: its semaphore's permit count, for a permit. */
export function kindFieldsOf(v: KindView, permits: number | undefined): KindFields {
  return {
    ...(v.mode === "shared" || v.mode === "upgradeable" || v.mode === "leader"
      ? { mode: v.mode }
      : {}),
    ...(v.mode === "permit"
      ? { mode: "permit" as const, permits: permits ?? 0, slot: v.slot ?? 0 }
      : {}),
    ...(v.holderData ? { data: v.holderData } : {}),
    ...(v.holdMs ? { holdMs: v.holdMs } : {}),
  };
}

function holderOf(h: LockHolderInfo, permits?: number): HolderValue {
  return {
    sessionId: h.sessionId,
    clientName: h.clientName,
    token: h.token,
    grantedIndex: BigInt(h.grantedAt),
    ...kindFieldsOf(h, permits),
    ...(h.upgradingSince !== undefined ? { upgradingSince: BigInt(h.upgradingSince) } : {}),
  };
}

function waiterOf(w: LockWaiterInfo, permits?: number): WaiterValue {
  return {
    sessionId: w.sessionId,
    clientName: w.clientName,
    waitingSinceIndex: BigInt(w.waitedFrom),
    ...kindFieldsOf(w, permits),
    ...(w.targets ? { locks: w.targets.map((t) => ({ ...t })) } : {}),
  };
}

function cursorOf(place: HolderPlace | null): {
  nextHoldersAfter?: { token: bigint; sessionId: bigint };
} {
  return place === null
    ? {}
    : { nextHoldersAfter: { token: place.token, sessionId: place.sessionId } };
}

/**
 * The fields GetLock and ListLocks share: the oldest holder, the page of holders when there
 * are several (a lone holder is `holder` alone), the holder count and where the holders
 * not listed start, the kind. `continued`: the page goes on from a place in the list.
 */
function lockFields(
  info: LockPageInfo,
  continued: boolean,
): Omit<LockSummaryInfo, "lock" | "waiterCount"> {
  const permits = info.permits;
  return {
    ...(info.holder ? { holder: holderOf(info.holder, permits) } : {}),
    // A page after the first lists its holders even when one is left.
    ...(info.holderCount > 1 || continued
      ? { holders: info.holders.map((h) => holderOf(h, permits)) }
      : {}),
    holderCount: info.holderCount,
    ...cursorOf(info.nextHoldersAfter),
    ...(info.kind === "semaphore" ? { kind: "semaphore" as const, permits: permits ?? 0 } : {}),
    ...(info.kind === "election" ? { kind: "election" as const } : {}),
  };
}

export function lockValue(info: LockPageInfo, continued: boolean): LockValue {
  return {
    lock: info.name,
    ...lockFields(info, continued),
    waiters: info.waiters.map((w) => waiterOf(w, info.permits)),
    waiterCount: info.waiterCount,
    ...(info.nextWaitersAfter !== null ? { nextWaitersAfter: BigInt(info.nextWaitersAfter) } : {}),
  };
}

export function lockSummary(info: LockPageInfo): LockSummaryInfo {
  return { lock: info.name, ...lockFields(info, false), waiterCount: info.waiterCount };
}

export function sessionValue(s: SessionInfo): SessionValue {
  return {
    sessionId: s.id,
    clientName: s.clientName,
    ttlMs: s.ttlMs,
    openedIndex: BigInt(s.openedAt),
    heldLocks: s.held.map((h) => h.lock),
    waitingLocks: s.waiting.map((w) => w.lock),
  };
}

/** Wall-clock display data from a command: a non-negative integer, 0 when absent or odd. */
function displayMs(ms: number | null): number {
  return ms !== null && Number.isSafeInteger(ms) && ms > 0 ? ms : 0;
}

export function historyRecord(r: HistoryEntry): HistoryRecordInfo {
  // A permit is only marked: the history does not keep its semaphore's permit count.
  const { permits: _permits, ...kind } = kindFieldsOf(r, 0);
  return {
    token: r.token,
    sessionId: r.sessionId,
    clientName: r.clientName,
    grantedIndex: BigInt(r.grantedAt),
    waitedFromIndex: BigInt(r.waitedFrom),
    endedIndex: BigInt(r.endedAt ?? 0),
    reason: r.reason ?? "current",
    grantedAtMs: displayMs(r.grantedWallMs),
    endedAtMs: displayMs(r.endedWallMs),
    ...kind,
    ...(r.revokedFor === "holdLimit" ? { revokedFor: "holdLimit" as const } : {}),
  };
}

/** An election's leader as the contract has it, from its lock page's holder. */
export function leadershipOf(h: LockHolderInfo): Leadership {
  return {
    sessionId: h.sessionId,
    clientName: h.clientName,
    token: h.token,
    sinceIndex: BigInt(h.grantedAt),
    value: h.holderData ?? "",
  };
}

/** Leader: the leader of an election (none for a free name), or a refusal for a name in use as a lock. */
function leaderInfo(election: string, state: LockReader): LeaderInfo {
  const page = state.lockPage(election, LEADER_BOUNDS);
  if (page.kind !== "election" && page.holderCount + page.waiterCount > 0)
    throw new RequestFailure(
      "ERROR_REASON_KIND_MISMATCH",
      `${election} is in use as a ${page.kind === "semaphore" ? "semaphore" : "lock"}, not as an election`,
    );
  return {
    leader: page.holder ? leadershipOf(page.holder) : null,
    candidateCount: page.waiterCount,
  };
}

const LEADER_BOUNDS: LockPageBounds = {
  holders: { limit: 1, maxBytes: LIST_PAGE_BYTES },
  waiters: { limit: 0, maxBytes: 0 },
};

/** The calls that read the lock state. */
export type ReadName =
  | "GetLock"
  | "ListLocks"
  | "GetSession"
  | "ListSessions"
  | "GetLockHistory"
  | "ValidateToken"
  | "Leader";

const READS: { [N in ReadName]: (req: RequestOf<N>, state: LockReader) => AnswerOf<N> } = {
  GetLock: (req, state) =>
    lockValue(state.lockPage(req.lock, getLockBounds(req)), req.holdersAfter !== undefined),
  ListLocks: (req, state) => {
    const after = req.after === "" ? undefined : req.after;
    const page = state.listLockPages({
      prefix: req.prefix,
      after,
      limit: pageSize(req.limit),
      maxBytes: LOCKS_PAGE_BYTES,
      each: SUMMARY_BOUNDS,
    });
    return { locks: page.locks.map(lockSummary), nextAfter: page.nextAfter ?? "" };
  },
  GetSession: (req, state) => {
    const info = state.getSession(req.sessionId);
    if (!info)
      throw new RequestFailure(
        "ERROR_REASON_SESSION_NOT_FOUND",
        `session ${req.sessionId} not found (unknown, closed or expired)`,
      );
    return { session: sessionValue(info) };
  },
  ListSessions: (req, state) => {
    const page = state.listSessions(req.after, pageSize(req.limit));
    return { sessions: page.sessions.map(sessionValue), nextAfter: page.nextAfter ?? 0n };
  },
  GetLockHistory: (req, state) => {
    const all = state.history(req.lock);
    return { records: (req.limit > 0 ? all.slice(-req.limit) : all).map(historyRecord) };
  },
  ValidateToken: (req, state) => ({ valid: state.validateToken(req.lock, req.token) }),
  Leader: (req, state) => leaderInfo(req.election, state),
};

/** A read's answer from the state as it stands (a GetSession of a session it lacks fails as not found). */
export function answerRead<N extends ReadName>(
  name: N,
  req: RequestOf<N>,
  state: LockReader,
): AnswerOf<N> {
  return READS[name](req, state);
}
