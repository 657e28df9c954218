// The in-memory shape of the replicated lock state. Maps are iterated only in insertion
// order, which is the same on every replica because it follows the log.
import type { Answer } from "./answers.ts";

export type EndReason = "released" | "session closed" | "session expired" | "revoked";

/** One grant of a lock and, once it ended, how. */
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

export interface Holder {
  readonly sessionId: bigint;
  readonly token: bigint;
  readonly grantedAt: number;
  readonly waitedFrom: number;
  /** This grant's history record, or null if history evicted it already. */
  record: HistoryRecord | null;
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
  /** Oldest first. */
  readonly history: HistoryRecord[];
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
  /** Seqs above the mark whose answers were dropped because the client listed them as held. */
  readonly dropped: Set<number>;
  /** Acquire seqs whose wait is pending → lock name. */
  readonly pending: Map<number, string>;
  /** Locks held, in grant order. */
  readonly held: Set<string>;
  /** Locks waited for, in the order the waits began. */
  readonly waits: Map<string, Waiter>;
}
