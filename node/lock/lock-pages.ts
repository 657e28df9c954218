// Pages of one lock's holders and waiters, for the reads: at most a count of entries and,
// past the first entry, a number of bytes, with the list's total and the place the next
// page starts. A place is the last entry sent (a grant's token and session, a wait's
// starting index), never an offset, so entries that leave or join between two pages
// neither come again on the next page nor push one that was due off it.
import { firstHolder, holderCount, isElection } from "./holders.ts";
import type { Holder, LockState } from "./state.ts";
import { holderInfo, waiterInfo, type LockHolderInfo, type LockWaiterInfo } from "./views.ts";

/** How much of a list one page carries: at most `limit` entries (0: none) and, past the first, at most `maxBytes` of them (see entryBytes). */
export interface PageBounds {
  readonly limit: number;
  readonly maxBytes: number;
}

/** A place in a lock's holder list: just after the grant of `token` to `sessionId`. */
export interface HolderPlace {
  readonly token: bigint;
  readonly sessionId: bigint;
}

export interface LockPageBounds {
  /** `after`: continue after this grant (absent: from the oldest). */
  readonly holders: PageBounds & { readonly after?: HolderPlace | undefined };
  /** `afterIndex`: continue after the wait that began at this log index (0 or absent: from the head). */
  readonly waiters: PageBounds & { readonly afterIndex?: number | undefined };
}

/** A lock as a paged read shows it. */
export interface LockPageInfo {
  readonly name: string;
  /** The oldest current grant; null while the lock is free. */
  readonly holder: LockHolderInfo | null;
  /** This page of the current grants, oldest first (grants of one log entry by session id). */
  readonly holders: readonly LockHolderInfo[];
  readonly holderCount: number;
  /** Where the next page of holders starts; null when this page ends the list or listed none. */
  readonly nextHoldersAfter: HolderPlace | null;
  /** This page of the queue, in FIFO order. */
  readonly waiters: readonly LockWaiterInfo[];
  readonly waiterCount: number;
  /** The log index the next page of waiters starts after; null when this page ends the queue or listed none. */
  readonly nextWaitersAfter: number | null;
  readonly kind?: "semaphore" | "election";
  readonly permits?: number;
  /** The page's size as entryBytes counts it, with its name and oldest holder. */
  readonly bytes: number;
}

/**
 * Bytes allowed for an entry's numbers, field tags and lengths (ids, tokens, indexes,
 * mode, slot, hold limit), and for a multi-lock wait's each other lock: above what the
 * protobuf encoding of each takes.
 */
const ENTRY_OVERHEAD = 96;
const TARGET_OVERHEAD = 24;

/** Bytes of a string's UTF-8, or a little more (a surrogate pair counts 6). */
function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/** An upper bound of the bytes a holder or waiter takes in a read's answer. */
export function entryBytes(entry: LockHolderInfo | LockWaiterInfo): number {
  let n = ENTRY_OVERHEAD + utf8Bytes(entry.clientName) + utf8Bytes(entry.holderData ?? "");
  for (const t of ("targets" in entry ? entry.targets : undefined) ?? [])
    n += TARGET_OVERHEAD + utf8Bytes(t.lock);
  return n;
}

/** Grants in holder order: by token (the granting entry's index), then by session id. */
function holderOrder(a: Holder, b: Holder): number {
  if (a.token !== b.token) return a.token < b.token ? -1 : 1;
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

function isAfter(h: Holder, place: HolderPlace): boolean {
  return h.token > place.token || (h.token === place.token && h.sessionId > place.sessionId);
}

/** Adds entries while the bounds allow; `more`: entries were left out. */
function fill<T extends LockHolderInfo | LockWaiterInfo>(
  bounds: PageBounds,
  candidates: Iterable<T>,
): { entries: T[]; bytes: number; more: boolean } {
  const entries: T[] = [];
  let bytes = 0;
  for (const entry of candidates) {
    const size = entryBytes(entry);
    if (entries.length === bounds.limit || (entries.length > 0 && bytes + size > bounds.maxBytes))
      return { entries, bytes, more: true };
    entries.push(entry);
    bytes += size;
  }
  return { entries, bytes, more: false };
}

function holdersPage(
  lock: LockState,
  bounds: LockPageBounds["holders"],
  nameOf: (sessionId: bigint) => string,
): { entries: LockHolderInfo[]; next: HolderPlace | null; bytes: number } {
  if (bounds.limit === 0 || lock.holders === null) return { entries: [], next: null, bytes: 0 };
  const all = lock.holders instanceof Map ? lock.holders.values() : [lock.holders];
  // The map is in grant order, so tokens never fall along it (checkStateInvariants); only
  // grants of one entry need sorting, so candidates run to the end of the last one's entry.
  const candidates: Holder[] = [];
  let beyond = false;
  for (const h of all) {
    if (bounds.after && !isAfter(h, bounds.after)) continue;
    const last = candidates[candidates.length - 1];
    if (candidates.length >= bounds.limit && last !== undefined && h.token !== last.token) {
      beyond = true;
      break;
    }
    candidates.push(h);
  }
  candidates.sort(holderOrder);
  const page = fill(
    bounds,
    candidates.map((h) => holderInfo(h, nameOf(h.sessionId), lock)),
  );
  const last = page.entries[page.entries.length - 1];
  const next =
    (page.more || beyond) && last ? { token: last.token, sessionId: last.sessionId } : null;
  return { entries: page.entries, next, bytes: page.bytes };
}

function waitersPage(
  lock: LockState,
  bounds: LockPageBounds["waiters"],
  nameOf: (sessionId: bigint) => string,
): { entries: LockWaiterInfo[]; next: number | null; bytes: number } {
  if (bounds.limit === 0 || lock.waiters === null) return { entries: [], next: null, bytes: 0 };
  const afterIndex = bounds.afterIndex ?? 0;
  const queue = lock.waiters.values();
  // The queue is in the order the waits began (checkStateInvariants): each joined at its Acquire's index.
  function* candidates(): IterableIterator<LockWaiterInfo> {
    for (const w of queue)
      if (w.waitedFrom > afterIndex) yield waiterInfo(w, lock.name, nameOf(w.sessionId));
  }
  const page = fill(bounds, candidates());
  const last = page.entries[page.entries.length - 1];
  return {
    entries: page.entries,
    next: page.more && last ? last.waitedFrom : null,
    bytes: page.bytes,
  };
}

/** Bytes allowed for a lock's name field and its counts, beside the name itself. */
const LOCK_OVERHEAD = 32;

/** `lock`'s page of holders and of waiters (a lock not in the state is free, with no queue). */
export function lockPage(
  name: string,
  lock: LockState | undefined,
  bounds: LockPageBounds,
  nameOf: (sessionId: bigint) => string,
): LockPageInfo {
  const first = lock ? firstHolder(lock) : null;
  const holder = first === null || !lock ? null : holderInfo(first, nameOf(first.sessionId), lock);
  const holders = lock
    ? holdersPage(lock, bounds.holders, nameOf)
    : { entries: [], next: null, bytes: 0 };
  const waiters = lock
    ? waitersPage(lock, bounds.waiters, nameOf)
    : { entries: [], next: null, bytes: 0 };
  return {
    name,
    holder,
    holders: holders.entries,
    holderCount: lock ? holderCount(lock) : 0,
    nextHoldersAfter: holders.next,
    waiters: waiters.entries,
    waiterCount: lock?.waiters?.size ?? 0,
    nextWaitersAfter: waiters.next,
    ...(lock?.semaphore ? { kind: "semaphore" as const, permits: lock.semaphore.permits } : {}),
    ...(lock && isElection(lock) ? { kind: "election" as const } : {}),
    bytes:
      LOCK_OVERHEAD +
      utf8Bytes(name) +
      (holder ? entryBytes(holder) : 0) +
      holders.bytes +
      waiters.bytes,
  };
}
