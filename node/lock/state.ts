// The in-memory shape of the replicated lock state. Maps are iterated only in insertion
// order, which is the same on every replica because it follows the log.
//
// Kept compact, since a node holds one of these per lock and per session: a grant is one
// object that is both a holder of its lock and its history record, and carries the lock
// kinds' terms (mode, slot, holder data, hold limit) in an object of their own only when
// they differ from a plain exclusive grant's; a lock's holders field is that one grant
// until a second one shares the lock; a lock's history is a chain through its records
// (oldest to newest, no array per lock); a session's tables for waits and
// dropped answers exist only while they have entries.
import type { Answer } from "./answers.ts";
import type { GrantMode, Target } from "./kinds.ts";
import type { SlotPool } from "./slot-pool.ts";
import type { EndReason as WireEndReason } from "../../proto/lock-values.ts";
import { MAX_EPOCH, MAX_INDEX } from "./limits.ts";
import { tokenEpoch, tokenFor } from "./tokens.ts";

/** How a grant ended, in the contract's spelling (a current grant has none). */
export type EndReason = Exclude<WireEndReason, "current">;
/**
 * How a grant ended, as the state keeps it: "holdLimit" is a revoke the leader proposed
 * when the grant's hold limit passed (read views show it as "revoked", for "holdLimit").
 */
export type GrantEnd = EndReason | "holdLimit";

/**
 * What a grant holds beyond an exclusive lock without data: its mode, its semaphore slot,
 * its holder data and its hold limit. Null on the (common) plain exclusive grant, to keep
 * that record small.
 */
export interface GrantTerms {
  readonly mode: GrantMode;
  /** The permit's slot 0..N-1 of a semaphore; -1 for a lock. */
  readonly slot: number;
  /** "" when none was given. */
  readonly holderData: string;
  /** 0: no hold limit. */
  readonly holdMs: number;
}

/** The terms of a grant, or null for a plain exclusive one. */
export function grantTerms(
  mode: GrantMode,
  slot: number,
  holderData: string,
  holdMs: number,
): GrantTerms | null {
  if (mode === "exclusive" && holderData === "" && holdMs === 0) return null;
  if (mode === "shared" && holderData === "" && holdMs === 0) return SHARED_TERMS;
  return { mode, slot, holderData, holdMs };
}

const SHARED_TERMS: GrantTerms = Object.freeze({
  mode: "shared",
  slot: -1,
  holderData: "",
  holdMs: 0,
});

export const modeOf = (r: HistoryRecord): GrantMode => r.terms?.mode ?? "exclusive";
export const holdMsOf = (r: HistoryRecord): number => r.terms?.holdMs ?? 0;

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
  /** Replaced, never changed in place, when an election's leader proclaims a new value. */
  terms: GrantTerms | null;
  endedAt: number | null;
  endedWallMs: number | null;
  reason: GrantEnd | null;
  /** Set when the record left the history (per-lock or global cap). */
  evicted: boolean;
  /** The next newer record of the same lock while both are in its history (see appendHistory). */
  newer?: HistoryRecord | null;
}

/**
 * A grant as the state machine makes it (a snapshot's reader makes plain records, which
 * restore turns into these). Its token is not kept: it is the grant's index under its
 * epoch, computed when read, so a grant holds no bigint of its own.
 */
export class Grant implements HistoryRecord {
  endedAt: number | null = null;
  endedWallMs: number | null = null;
  reason: GrantEnd | null = null;
  evicted = false;
  newer: HistoryRecord | null = null;

  constructor(
    readonly lock: string,
    /** The token's epoch: the state's, or an older one for a record restored with a new epoch. */
    private readonly epoch: number,
    readonly sessionId: bigint,
    readonly clientName: string,
    readonly grantedAt: number,
    readonly waitedFrom: number,
    readonly grantedWallMs: number,
    public terms: GrantTerms | null,
  ) {}

  get token(): bigint {
    return tokenFor(this.epoch, this.grantedAt);
  }

  /** The same record as a Grant, or null when its token is not its index under an epoch. */
  static of(r: HistoryRecord): Grant | null {
    if (r instanceof Grant) return r;
    const epoch = tokenEpoch(r.token);
    const at = r.grantedAt;
    if (epoch > MAX_EPOCH || !Number.isSafeInteger(at) || at < 1 || at > MAX_INDEX) return null;
    if (tokenFor(epoch, at) !== r.token) return null;
    const grant = new Grant(
      r.lock,
      epoch,
      r.sessionId,
      r.clientName,
      r.grantedAt,
      r.waitedFrom,
      r.grantedWallMs,
      r.terms,
    );
    grant.endedAt = r.endedAt;
    grant.endedWallMs = r.endedWallMs;
    grant.reason = r.reason;
    grant.evicted = r.evicted;
    return grant;
  }
}

/**
 * Turns the plain records a snapshot's reader made into Grants, in place: each lock's
 * holders and history chain, and `history` (every record in insertion order), which it
 * returns. A record and the holder it also is stay one object.
 */
export function adoptGrants(
  locks: Iterable<LockState>,
  history: readonly HistoryRecord[],
): HistoryRecord[] {
  const made = new Map<HistoryRecord, HistoryRecord>();
  const grantOf = (r: HistoryRecord): HistoryRecord => {
    let g = made.get(r);
    if (g === undefined) made.set(r, (g = Grant.of(r) ?? r));
    return g;
  };
  for (const lock of locks) {
    const h = lock.holders;
    if (h instanceof Map) for (const [id, r] of h) h.set(id, grantOf(r));
    else if (h !== null) lock.holders = grantOf(h);
    const records = [...historyRecords(lock)];
    lock.oldest = lock.newest = null;
    lock.historyLength = 0;
    for (const r of records) appendHistory(lock, grantOf(r));
  }
  return history.map(grantOf);
}

/**
 * The current grant of a lock: its history record (which may have left the history
 * already: `evicted`; a holder restored without its record carries only the fields below).
 */
export type Holder = HistoryRecord;

/** Appends a record to a lock's history (the newest end of its chain). */
export function appendHistory(lock: LockState, record: HistoryRecord): void {
  record.newer = null;
  if (lock.newest === null) lock.oldest = record;
  else lock.newest.newer = record;
  lock.newest = record;
  lock.historyLength++;
}

/** Takes the oldest record out of a lock's history; null when it has none. */
export function shiftHistory(lock: LockState): HistoryRecord | null {
  const oldest = lock.oldest;
  if (oldest === null) return null;
  lock.oldest = oldest.newer ?? null;
  if (lock.oldest === null) lock.newest = null;
  oldest.newer = null;
  lock.historyLength--;
  return oldest;
}

/** A lock's retained history, oldest first. */
export function* historyRecords(lock: LockState): IterableIterator<HistoryRecord> {
  for (let r = lock.oldest; r !== null; r = r.newer ?? null) yield r;
}

/**
 * A waiting Acquire: one request, queued at once in the queue of every lock it names (a
 * multi-lock request in several, the same object in each). Several seqs may share it.
 */
export interface Waiter {
  readonly sessionId: bigint;
  /** The request's first lock, which names the wait (CancelWait, timers). */
  readonly lock: string;
  /** Every Acquire seq joined to this wait; the first one names the wait. */
  readonly seqs: number[];
  readonly waitedFrom: number;
  readonly waitMs: number;
  /** Every lock the request asks for, `lock` first. */
  readonly targets: readonly Target[];
  readonly holderData: string;
  readonly holdMs: number;
}

/** A name in use as a semaphore: its permit count and which slots are free. */
export interface SemaphoreState {
  readonly permits: number;
  readonly slots: SlotPool;
}

export interface LockState {
  readonly name: string;
  /**
   * The current grants (see holders.ts): one holder object, or a map by session in grant
   * order when there are several (shared grants, permits); null while free.
   */
  holders: Holder | Map<bigint, Holder> | null;
  /** Non-null while the name is a semaphore (fixed while held or waited for). */
  semaphore: SemaphoreState | null;
  /** FIFO queue keyed by session id; null while empty, to keep idle locks small. */
  waiters: Map<bigint, Waiter> | null;
  /**
   * The upgradeable holder's pending Upgrade (target: the lock, exclusive), or null. It
   * converts a hold rather than joining the queue, so it goes before every queued request.
   */
  upgrade: Waiter | null;
  /** The ends of its history's chain (appendHistory, shiftHistory, historyRecords), and its length. */
  oldest: HistoryRecord | null;
  newest: HistoryRecord | null;
  historyLength: number;
}

/** A lock with no holder, waiter or history yet (idle locks stay this small). */
export function newLock(name: string): LockState {
  return {
    name,
    holders: null,
    semaphore: null,
    waiters: null,
    upgrade: null,
    oldest: null,
    newest: null,
    historyLength: 0,
  };
}

/** A kept answer of the dedup table. */
export interface KeptAnswer {
  /**
   * The lock if this seq is an Acquire (or a CancelWait recorded an answer for it in
   * advance); every lock of a multi-lock Acquire.
   */
  readonly acquireOf: string | readonly string[] | null;
  readonly answer: Answer;
}

/** Is `lock` one of the locks a kept answer's Acquire named? */
export function acquiredOf(kept: KeptAnswer, lock: string): boolean {
  return typeof kept.acquireOf === "string"
    ? kept.acquireOf === lock
    : kept.acquireOf?.includes(lock) === true;
}

export interface Session {
  readonly id: bigint;
  /** The identity that opened it ("" anonymous): only it may use the session. */
  owner: string;
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
  /** Acquire seqs whose wait is pending → the wait's first lock; null while none. */
  pending: Map<number, string> | null;
  /** Locks held, in grant order. */
  readonly held: Set<string>;
  /** Locks waited for → their wait (a multi-lock wait under each of its locks), in the order the waits began; null while none. */
  waits: Map<string, Waiter> | null;
}

/** A new session's state, with no answers, waits or locks. */
export function newSession(
  fields: Pick<
    Session,
    "id" | "clientName" | "ttlMs" | "openedAt" | "openedWallMs" | "requestId" | "mark"
  > & { readonly owner?: string },
): Session {
  // Written out field by field so every session object has the same compact shape.
  return {
    id: fields.id,
    owner: fields.owner ?? "",
    clientName: fields.clientName,
    ttlMs: fields.ttlMs,
    openedAt: fields.openedAt,
    openedWallMs: fields.openedWallMs,
    requestId: fields.requestId,
    mark: fields.mark,
    answers: new Map(),
    dropped: null,
    pending: null,
    held: new Set(),
    waits: null,
  };
}
