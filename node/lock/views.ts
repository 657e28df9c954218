// What the reads of the lock state show: plain objects built from the state, so callers
// never hold the state's own. A field of the lock kinds appears only when it differs from
// an exclusive lock without holder data or hold limit, so those reads look as they did
// before the kinds.
import type { GrantMode, LockTarget } from "./kinds.ts";
import { lockTargetOf } from "./kinds.ts";
import { firstHolder, holderCount, holderOf, holdersOf } from "./holders.ts";
import type { EndReason, HistoryRecord, LockState, Session, Waiter } from "./state.ts";
import { modeOf } from "./state.ts";

export interface LockHolderInfo {
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly token: bigint;
  readonly grantedAt: number;
  readonly waitedFrom: number;
  /** Absent: exclusive. */
  readonly mode?: GrantMode;
  /** A permit's slot. */
  readonly slot?: number;
  readonly holderData?: string;
  readonly holdMs?: number;
  /** An upgradeable holder whose Upgrade waits: the index it began waiting at. */
  readonly upgradingSince?: number;
}

export interface LockWaiterInfo {
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly waitedFrom: number;
  readonly seqs: readonly number[];
  /** How the request asks for this lock; absent: exclusive. */
  readonly mode?: GrantMode;
  /** Every lock of a multi-lock request, in the order it named them. */
  readonly targets?: readonly LockTarget[];
  readonly holderData?: string;
  readonly holdMs?: number;
}

export interface LockInfo {
  readonly name: string;
  /** The oldest current grant; null while the lock is free. */
  readonly holder: LockHolderInfo | null;
  /** Every current grant in grant order, when there are several (shared grants, permits). */
  readonly holders?: readonly LockHolderInfo[];
  /** FIFO order. */
  readonly waiters: readonly LockWaiterInfo[];
  /** Present for a semaphore, with its permit count. */
  readonly kind?: "semaphore";
  readonly permits?: number;
}

export interface SessionInfo {
  readonly id: bigint;
  readonly clientName: string;
  readonly ttlMs: number;
  readonly openedAt: number;
  readonly openedWallMs: number;
  readonly mark: number;
  readonly held: ReadonlyArray<{
    readonly lock: string;
    readonly token: bigint;
    readonly mode?: GrantMode;
    readonly slot?: number;
  }>;
  readonly waiting: ReadonlyArray<{ readonly lock: string; readonly seqs: readonly number[] }>;
  readonly keptAnswers: number;
}

export interface HistoryEntry {
  readonly lock: string;
  readonly token: bigint;
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly grantedAt: number;
  readonly waitedFrom: number;
  readonly grantedWallMs: number;
  /** null while the grant is current. */
  readonly endedAt: number | null;
  readonly endedWallMs: number | null;
  readonly reason: EndReason | null;
  /** A "revoked" grant whose hold limit passed. */
  readonly revokedFor?: "holdLimit";
  readonly mode?: GrantMode;
  readonly slot?: number;
  readonly holderData?: string;
  readonly holdMs?: number;
}

/** The grant's fields of the kinds, each only when it says something. */
function termsView(r: HistoryRecord): {
  mode?: GrantMode;
  slot?: number;
  holderData?: string;
  holdMs?: number;
} {
  const t = r.terms;
  if (t === null) return {};
  return {
    ...(t.mode !== "exclusive" ? { mode: t.mode } : {}),
    ...(t.slot >= 0 ? { slot: t.slot } : {}),
    ...(t.holderData !== "" ? { holderData: t.holderData } : {}),
    ...(t.holdMs > 0 ? { holdMs: t.holdMs } : {}),
  };
}

/** A current grant as the reads show it; `lock` tells whether its Upgrade waits. */
export function holderInfo(h: HistoryRecord, clientName: string, lock: LockState): LockHolderInfo {
  const upgrade = lock.upgrade;
  return {
    sessionId: h.sessionId,
    clientName,
    token: h.token,
    grantedAt: h.grantedAt,
    waitedFrom: h.waitedFrom,
    ...termsView(h),
    ...(upgrade !== null && upgrade.sessionId === h.sessionId
      ? { upgradingSince: upgrade.waitedFrom }
      : {}),
  };
}

export function waiterInfo(w: Waiter, lock: string, clientName: string): LockWaiterInfo {
  const mode = w.targets.find((t) => t.lock === lock)?.mode ?? "exclusive";
  return {
    sessionId: w.sessionId,
    clientName,
    waitedFrom: w.waitedFrom,
    seqs: [...w.seqs],
    ...(mode !== "exclusive" ? { mode } : {}),
    ...(w.targets.length > 1 ? { targets: w.targets.map(lockTargetOf) } : {}),
    ...(w.holderData !== "" ? { holderData: w.holderData } : {}),
    ...(w.holdMs > 0 ? { holdMs: w.holdMs } : {}),
  };
}

export function lockInfo(lock: LockState, clientNameOf: (sessionId: bigint) => string): LockInfo {
  const first = firstHolder(lock);
  const info: LockInfo = {
    name: lock.name,
    holder: first === null ? null : holderInfo(first, clientNameOf(first.sessionId), lock),
    waiters: [...(lock.waiters?.values() ?? [])].map((w) =>
      waiterInfo(w, lock.name, clientNameOf(w.sessionId)),
    ),
  };
  const several =
    holderCount(lock) > 1
      ? { holders: holdersOf(lock).map((h) => holderInfo(h, clientNameOf(h.sessionId), lock)) }
      : {};
  const semaphore = lock.semaphore
    ? { kind: "semaphore" as const, permits: lock.semaphore.permits }
    : {};
  return { ...info, ...several, ...semaphore };
}

export function historyEntry(r: HistoryRecord): HistoryEntry {
  const reason: EndReason | null = r.reason === "holdLimit" ? "revoked" : r.reason;
  return {
    lock: r.lock,
    token: r.token,
    sessionId: r.sessionId,
    clientName: r.clientName,
    grantedAt: r.grantedAt,
    waitedFrom: r.waitedFrom,
    grantedWallMs: r.grantedWallMs,
    endedAt: r.endedAt,
    endedWallMs: r.endedWallMs,
    reason,
    ...(r.reason === "holdLimit" ? { revokedFor: "holdLimit" as const } : {}),
    ...termsView(r),
  };
}

export function sessionInfo(
  session: Session,
  lockOf: (name: string) => LockState | undefined,
): SessionInfo {
  const waits = new Set(session.waits?.values() ?? []);
  return {
    id: session.id,
    clientName: session.clientName,
    ttlMs: session.ttlMs,
    openedAt: session.openedAt,
    openedWallMs: session.openedWallMs,
    mark: session.mark,
    held: [...session.held].map((name) => {
      const lock = lockOf(name);
      const h = lock ? holderOf(lock, session.id) : undefined;
      const mode = h ? modeOf(h) : "exclusive";
      const slot = h?.terms?.slot ?? -1;
      return {
        lock: name,
        token: h?.token ?? 0n,
        ...(mode !== "exclusive" ? { mode } : {}),
        ...(slot >= 0 ? { slot } : {}),
      };
    }),
    // One entry per wait (a multi-lock wait under its first lock).
    waiting: [...waits].map((w) => ({ lock: w.lock, seqs: [...w.seqs] })),
    keptAnswers: session.answers.size,
  };
}
