// The values of the LockService calls as both ends hold them: bigint session ids, tokens
// and indexes, numbers for seqs and durations, words for the enums. The lock state machine
// answers in these shapes, the codec (proto/lock-codec.ts) is the one place that turns them
// into protobuf and back, the node serves them and the client library hands them out.
import type { ErrorReasonName } from "./wire.ts";

/**
 * How a lock is taken: alone, beside other shared holders, or upgradeable (beside shared
 * holders only, and able to become exclusive in place).
 */
export type LockMode = "exclusive" | "shared" | "upgradeable";
/** What a Downgrade makes of an exclusive grant. */
export type DowngradeMode = "shared" | "upgradeable";
/** How a grant holds its name: a lock in a mode, one permit of a semaphore, or an election's lead. */
export type GrantMode = LockMode | "permit" | "leader";

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
  /** "shared", "upgradeable", "permit" or "leader" (an election's); absent: exclusive. */
  mode?: "shared" | "upgradeable" | "permit" | "leader";
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
  /** An upgradeable holder whose Upgrade waits: the index it began waiting at. */
  upgradingSince?: bigint;
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
  | {
      readonly kind: "granted";
      readonly token: bigint;
      readonly holder: LockHolderInfo;
      readonly grants: readonly LockGrantInfo[];
    }
  | {
      readonly kind: "notAcquired";
      readonly holder: LockHolderInfo | null;
      readonly blockedLock?: string;
    }
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

// ---------------------------------------------------------------- requests

/** What a write acknowledges (SPEC "Exactly-once"). */
export interface WriteAcks {
  /** Highest m such that the answers to 1..m are all held. */
  readonly ackedUpTo: number;
  /** Seqs above the mark whose answers are held. */
  readonly held: readonly number[];
}

/** Every write but CancelWait: the session, the write's seq and what the client acknowledges. */
export interface SequencedRequest extends WriteAcks {
  readonly sessionId: bigint;
  readonly seq: number;
}

export interface OpenSessionRequest {
  /** 0: the cluster's default. */
  readonly ttlMs: number;
  readonly clientName: string;
  /** Client-generated, so that a retry does not open a second session; "" lets the node pick one (a retry may then open a second). */
  readonly requestId: string;
}

/** One or many sessions to keep alive (1 to MAX_KEEPALIVE_SESSION_IDS). */
export interface KeepAliveRequest {
  readonly sessionIds: readonly bigint[];
}

export type CloseSessionRequest = SequencedRequest;

/** What an Acquire asks for beyond one exclusive lock. */
export interface AcquireKinds {
  /** How `lock` is taken (default exclusive); not with `permits`. */
  readonly mode?: LockMode;
  /** `lock` is a semaphore of this many permits, and one permit is asked for. */
  readonly permits?: number;
  /** The other locks of an atomic multi-lock Acquire, granted with `lock` at one index or not at all. */
  readonly more?: readonly LockTarget[];
  /** Small UTF-8 text shown with the grant (who holds it and why). */
  readonly holderData?: string;
  /** A maximum hold time in ms: the leader revokes the grant (every lock of it) once it passes. */
  readonly holdMs?: number;
}

export interface AcquireRequest extends SequencedRequest, AcquireKinds {
  readonly lock: string;
  /** 0: answer at once; otherwise wait in the lock's queue up to this long. */
  readonly waitMs: number;
}

export interface CancelWaitRequest {
  readonly sessionId: bigint;
  readonly lock: string;
  readonly acquireSeq: number;
}

export interface ReleaseRequest extends SequencedRequest {
  readonly lock: string;
  readonly token: bigint;
  /** Hand the lock to this waiting session in the same entry (absent: none). */
  readonly successor?: bigint;
}

// ---------------------------------------------------------------- mode changes

/** Make the caller's upgradeable grant (`token`) of `lock` exclusive, waiting up to `waitMs` for the other holders. */
export interface UpgradeRequest extends SequencedRequest {
  readonly lock: string;
  readonly token: bigint;
  /** 0: answer at once; otherwise wait for the other holders up to this long. */
  readonly waitMs: number;
}

/**
 * An Upgrade's final answer: upgraded (the new exclusive grant's token), not upgraded (the
 * oldest other holder; the upgradeable grant goes on), or cancelled.
 */
export type UpgradeAnswer =
  | { readonly kind: "upgraded"; readonly token: bigint }
  | { readonly kind: "notUpgraded"; readonly holder: LockHolderInfo | null }
  | { readonly kind: "cancelled" };

/** Make the caller's exclusive grant (`token`) of `lock` shared or upgradeable. */
export interface DowngradeRequest extends SequencedRequest {
  readonly lock: string;
  readonly token: bigint;
  readonly mode: DowngradeMode;
}

/** The new grant a Downgrade made. */
export interface DowngradeAnswer {
  readonly token: bigint;
  readonly mode: DowngradeMode;
}

// ---------------------------------------------------------------- elections

export interface CampaignRequest extends SequencedRequest {
  readonly election: string;
  /** The leader's value once elected ("" for none). */
  readonly value: string;
  /** 0: answer at once; otherwise wait among the candidates up to this long. */
  readonly waitMs: number;
}

export interface ProclaimRequest extends SequencedRequest {
  readonly election: string;
  readonly token: bigint;
  readonly value: string;
}

export interface ResignRequest extends SequencedRequest {
  readonly election: string;
  readonly token: bigint;
  /** Hand leadership to this waiting candidate in the same entry (absent: none). */
  readonly successor?: bigint;
}

export interface LeaderRequest {
  readonly election: string;
}

/** An election's leader: a session, its token and since when it leads, and its value. */
export interface Leadership {
  readonly sessionId: bigint;
  readonly clientName: string;
  readonly token: bigint;
  readonly sinceIndex: bigint;
  readonly value: string;
}

/** A Campaign's final answer, as an Acquire's: elected, not elected (the leader, if any), or cancelled. */
export type CampaignAnswer =
  | { readonly kind: "elected"; readonly token: bigint; readonly leader: Leadership }
  | { readonly kind: "notElected"; readonly leader: Leadership | null }
  | { readonly kind: "cancelled" };

export interface LeaderInfo {
  /** Null: no leader. */
  readonly leader: Leadership | null;
  readonly candidateCount: number;
}

export interface ObserveRequest {
  readonly election: string;
  /** 0n: start with the current state. */
  readonly fromIndex: bigint;
}

/** One change of an election, at the log index that made it. */
export type ElectionEvent =
  | { readonly kind: "leader" | "value"; readonly index: bigint; readonly leader: Leadership }
  | {
      readonly kind: "noLeader";
      readonly index: bigint;
      /** How the last leader's grant ended, and its token (absent in a stream's first event). */
      readonly ended?: { readonly reason: EndReason; readonly token: bigint };
    };

/** A place in a lock's holder list (holders are listed oldest first): just after this grant. */
export interface HolderCursor {
  token: bigint;
  sessionId: bigint;
}

export interface GetLockRequest {
  readonly lock: string;
  /** Most holders (waiters) listed; absent: the default page; 0: none. */
  readonly holderLimit?: number;
  readonly waiterLimit?: number;
  /** The holders after this one (a previous answer's nextHoldersAfter). */
  readonly holdersAfter?: HolderCursor;
  /** The waiters after the one whose wait began at this index (0n: from the head). */
  readonly waitersAfterIndex: bigint;
}

export interface ListLocksRequest {
  readonly prefix: string;
  /** "": from the first lock. */
  readonly after: string;
  /** 0: the default page. */
  readonly limit: number;
}

export interface GetSessionRequest {
  readonly sessionId: bigint;
}

export interface ListSessionsRequest {
  /** 0n: from the first session. */
  readonly after: bigint;
  /** 0: the default page. */
  readonly limit: number;
}

export interface GetLockHistoryRequest {
  readonly lock: string;
  /** 0: every retained record. */
  readonly limit: number;
}

export interface ValidateTokenRequest {
  readonly lock: string;
  readonly token: bigint;
}

// ---------------------------------------------------------------- answers

export interface OpenedSession {
  readonly sessionId: bigint;
  readonly ttlMs: number;
}

/**
 * Per requested session, in order: its TTL, or null when it is gone or (`denied`) not the
 * caller's to keep alive (a client takes it for lost either way).
 */
export interface KeptAlive {
  readonly sessions: ReadonlyArray<{
    readonly sessionId: bigint;
    readonly ttlMs: number | null;
    readonly denied?: true;
  }>;
}

/** An answer with nothing in it but that the call succeeded. */
export type Done = Record<string, never>;

export type CancelWaitResult =
  { outcome: "cancelled" } | { outcome: "granted"; token: bigint } | { outcome: "notAcquired" };

export interface LockWaiterInfo extends KindFields {
  sessionId: bigint;
  clientName: string;
  waitingSinceIndex: bigint;
  /** Every lock of a multi-lock request, in the order it named them (absent for one lock). */
  locks?: LockTarget[];
}

/** "lock" (taken shared or exclusive; a free name is one), "semaphore" or "election". */
export type LockKind = "lock" | "semaphore" | "election";

/**
 * A lock with one page of its holders and one of its waiters, the totals of both, and
 * where each list goes on.
 */
export interface LockInfo {
  lock: string;
  /** Absent when the lock is free; the oldest grant when there are several. */
  holder?: LockHolderInfo;
  /** This page of the queue, FIFO order. */
  waiters: LockWaiterInfo[];
  /** This page of the current grants, oldest first, when there are several (shared holders, permits). */
  holders?: LockHolderInfo[];
  /** Present for a semaphore ("semaphore", with `permits`) and an election. */
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

export interface FoundSession {
  readonly session: SessionInfo;
}

export interface SessionPage {
  sessions: SessionInfo[];
  /** Pass as `after` for the next page; 0n after the last page. */
  nextAfter: bigint;
}

export type EndReason =
  | "current"
  | "released"
  | "sessionClosed"
  | "sessionExpired"
  | "revoked"
  | "handedOff"
  | "upgraded"
  | "downgraded";

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
  /** With reason "revoked": "holdLimit" when the leader ended the grant as its hold limit passed. */
  revokedFor?: "holdLimit";
}

export interface LockHistory {
  readonly records: HistoryRecordInfo[];
}

export interface TokenValidity {
  readonly valid: boolean;
}
