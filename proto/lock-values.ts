// The values of the LockService calls as both ends hold them: bigint session ids, tokens
// and indexes, numbers for seqs and durations, words for the enums. The lock state machine
// answers in these shapes, the services and the client turn them into protobuf and back, and
// the client library hands them out.
import type { ErrorReasonName } from "./wire.ts";

/** How a lock is taken: alone, or beside other shared holders. */
export type LockMode = "exclusive" | "shared";
/** How a grant holds its name: a lock in a mode, or one permit of a semaphore. */
export type GrantMode = LockMode | "permit";

/** One lock of an Acquire: a lock in a mode (default exclusive), or one permit of a semaphore of `permits`. */
export interface LockTarget {
  lock: string;
  mode?: LockMode;
  permits?: number;
}

/**
 * The kinds' fields of a grant or a request, each present only when it differs from an
 * exclusive grant without holder data or hold limit.
 */
export interface KindFields {
  /** "shared" or "permit"; absent: exclusive. */
  mode?: "shared" | "permit";
  /** A permit: its semaphore's permit count (absent in history, which does not keep it). */
  permits?: number;
  /** A permit: its slot, 0 to permits - 1. */
  slot?: number;
  /** The holder data the Acquire carried. */
  data?: string;
  /** The grant's hold limit in ms. */
  holdMs?: number;
}

export interface LockHolderInfo extends KindFields {
  sessionId: bigint;
  clientName: string;
  token: bigint;
  grantedIndex: bigint;
}

/** The grant of one lock of an Acquire. */
export interface LockGrantInfo {
  lock: string;
  token: bigint;
  mode: GrantMode;
  /** A permit: its semaphore's permit count and the permit's slot. */
  permits?: number;
  slot?: number;
}

/**
 * The final answer of an Acquire: granted (every lock's grant, in the order the request
 * named them, `holder` the caller), not acquired (the oldest holder of the lock that kept
 * it out, if a holder did, and for a multi-lock set that lock), or cancelled (CancelWait
 * came first, and the Acquire took no effect).
 */
export type AcquireAnswer =
  | { readonly kind: "granted"; readonly token: bigint; readonly holder: LockHolderInfo; readonly grants: readonly LockGrantInfo[] }
  | { readonly kind: "notAcquired"; readonly holder: LockHolderInfo | null; readonly blockedLock?: string }
  | { readonly kind: "cancelled" };

/** A session opened (or the one a retry with the same request id opened), with its TTL. */
export interface SessionOpened {
  readonly kind: "sessionOpened";
  readonly sessionId: bigint;
  readonly ttlMs: number;
}

/** A refusal in the wire's terms: the reason (which fixes the status code) and a message for people. */
export interface ErrorAnswer {
  readonly kind: "error";
  readonly reason: ErrorReasonName;
  readonly message: string;
}
