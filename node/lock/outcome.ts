// What one applied entry produced, besides its own answer.
import type { Answer } from "./answers.ts";
import type { GrantMode } from "./kinds.ts";

export type LockEventType =
  | "acquired"
  | "released"
  | "sessionClosed"
  | "sessionExpired"
  | "revoked"
  /** An election's leader proclaimed a new value (`holderData`); its grant goes on. */
  | "proclaimed";

/** A change of a lock's holder, for Watch and history; `index` lets a client resume elsewhere. */
export interface LockEvent {
  readonly type: LockEventType;
  readonly index: number;
  readonly lock: string;
  /** The grantee ("acquired"), the leader ("proclaimed") or the former holder (the other types). */
  readonly sessionId: bigint;
  readonly token: bigint;
  /** Display-only wall clock of the proposer. */
  readonly wallMs: number;
  /** "acquired" (and "proclaimed": mode and new data), each when it differs from an exclusive grant without data or limit (an election's end events carry mode "leader" too): */
  readonly mode?: GrantMode;
  /** A permit's slot and its semaphore's permit count. */
  readonly slot?: number;
  readonly permits?: number;
  readonly holderData?: string;
  readonly holdMs?: number;
  /** "revoked" because the grant's hold limit passed (not an admin revoke). */
  readonly revokedFor?: "holdLimit";
  /**
   * "released" that another grant of the same entry completes: to a named successor (a
   * handoff), or to the same session in another mode (an upgrade, a downgrade).
   */
  readonly ended?: "handedOff" | "upgraded" | "downgraded";
}

/** A final answer for an earlier Acquire that was waiting, decided by this entry. */
export interface Completion {
  readonly sessionId: bigint;
  readonly seq: number;
  readonly answer: Answer;
}

/** A wait the leader must time out. Named by its first Acquire seq. */
export interface PendingWait {
  readonly sessionId: bigint;
  readonly lock: string;
  readonly acquireSeq: number;
  readonly waitMs: number;
}

/**
 * A grant's hold limit the leader must enforce: every grant of the session with that token
 * and hold limit (the locks one Acquire got at one index) ends when it passes.
 */
export interface HoldLimit {
  readonly sessionId: bigint;
  readonly token: bigint;
  readonly holdMs: number;
}

export interface SessionLease {
  readonly id: bigint;
  readonly ttlMs: number;
}

/** What the leader's lease timers must start or stop after this entry. */
export interface TimerChanges {
  readonly sessionsOpened: SessionLease[];
  readonly sessionsEnded: bigint[];
  readonly waitsStarted: PendingWait[];
  readonly waitsEnded: Array<{ readonly sessionId: bigint; readonly acquireSeq: number }>;
  /** Grants with a hold limit this entry made, and hold limits no grant carries any more (the state machine always fills both). */
  readonly holdsStarted?: HoldLimit[];
  readonly holdsEnded?: HoldLimit[];
}

export interface ApplyOutcome {
  readonly index: number;
  /** The answer for the request carried by this entry. */
  readonly result: Answer;
  readonly completions: Completion[];
  readonly events: LockEvent[];
  readonly timers: TimerChanges;
  /**
   * For each event that ends a grant (every type but "acquired" and "proclaimed"), in event
   * order, that grant's mode; absent when none ended. For metrics, which thus keep nothing
   * per grant; not part of the events Watch streams.
   */
  readonly endedModes?: readonly GrantMode[];
}

export function emptyTimers(): Required<TimerChanges> {
  return {
    sessionsOpened: [],
    sessionsEnded: [],
    waitsStarted: [],
    waitsEnded: [],
    holdsStarted: [],
    holdsEnded: [],
  };
}
