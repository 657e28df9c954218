// The in-memory shape of the replicated lock state. Maps are iterated only in insertion
// order, which is the same on every replica because it follows the log.
//
// Kept compact, since a node holds one of these per lock and per session: a grant is one
// object that is both the lock's holder and its history record; a lock's history array
// is allocated only when it gets its first record, with room for exactly that one; a
// session's tables for waits and dropped answers exist only while they have entries.
import type { Answer } from "./answers.ts";

export type EndReason = "released" | "session closed" | "session expired" | "revoked";

/**
 * One grant of a lock and, once it ended, how. While the grant is current the same object
 * is the lock's holder, so the holder's fields and its history record are one.
 */
export interface HistoryRecord {
  readonly lock: string;
  readonly token: bigint;
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly grantedAt: number;
  /** Index of the Acquire that joined the queue; equals grantedAt for an immediate grant. */
  readonly waitedFrom: number;
  readonly grantedWallMs: number;
  endedAt: number | null;
  endedWallMs: number | null;
  reason: EndReason | null;
  /** Set when the record left the history (per-lock or global cap). */
  evicted: boolean;
}

/**
 * The current grant of a lock: its history record (which may have left the history
 * already: `evicted`; a holder restored without its record carries only the fields below).
 */
export type Holder = HistoryRecord;

/** History of a lock with no records, shared by every such lock; never written to. */
export const NO_HISTORY: HistoryRecord[] = Object.freeze([]) as unknown as HistoryRecord[];

/** Appends a record to a lock's history; the first one gets an array of exactly one slot. */
export function appendHistory(lock: LockState, record: HistoryRecord): void {
  if (lock.history.length === 0) lock.history = [record];
  else lock.history.push(record);
}

/** A session queued for a lock. Several Acquire seqs may share one wait. */
export interface Waiter {
  readonly sessionId: bigint;
  readonly lock: string;
  /** Every Acquire seq joined to this wait; the first one names the wait. */
  readonly seqs: number[];
  readonly waitedFrom: number;
  readonly waitMs: number;
}

export interface LockState {
  readonly name: string;
  holder: Holder | null;
  /** FIFO queue keyed by session id; null while empty, to keep idle locks small. */
  waiters: Map<bigint, Waiter> | null;
  /** Oldest first; NO_HISTORY until the first record (append with appendHistory). */
  history: HistoryRecord[];
}

/** A kept answer of the dedup table. */
export interface KeptAnswer {
  /** The lock if this seq is an Acquire (or a CancelWait recorded an answer for it in advance). */
  readonly acquireOf: string | null;
  readonly answer: Answer;
}

export interface Session {
  readonly id: bigint;
  readonly clientName: string;
  readonly ttlMs: number;
  readonly openedAt: number;
  readonly openedWallMs: number;
  readonly requestId: string;
  /** Highest acknowledged-up-to mark seen; only rises. */
  mark: number;
  /** Final answers for seqs above the mark that the client has not acknowledged. */
  readonly answers: Map<number, KeptAnswer>;
  /** Seqs above the mark whose answers were dropped because the client listed them as held; null while none. */
  dropped: Set<number> | null;
  /** Acquire seqs whose wait is pending → lock name; null while none. */
  pending: Map<number, string> | null;
  /** Locks held, in grant order. */
  readonly held: Set<string>;
  /** Locks waited for, in the order the waits began; null while none. */
  waits: Map<string, Waiter> | null;
}

/** A new session's state, with no answers, waits or locks. */
export function newSession(fields: Pick<Session, "id" | "clientName" | "ttlMs" | "openedAt" | "openedWallMs" | "requestId" | "mark">): Session {
  // Written out field by field so every session object has the same compact shape.
  return {
    id: fields.id, clientName: fields.clientName, ttlMs: fields.ttlMs, openedAt: fields.openedAt, openedWallMs: fields.openedWallMs,
    requestId: fields.requestId, mark: fields.mark, answers: new Map(), dropped: null, pending: null, held: new Set(), waits: null,
  };
}
