// What the status page shows, as JSON: built from the admin status and from linearizable
// reads of the lock state (the same reads any client may make), never from anything else.
// Tokens, ids and indexes are uint64: written as decimal strings. Lock names, client
// names and holder data are user input; the page puts them into the document only as
// text, and the JSON itself escapes the characters that could end a script or an element.
// A lock shows its first holders and waiters with their totals, and a page of locks ends
// at a count or a size, so no lock and no number of locks makes an answer unbounded.
import type { HostStatus } from "../../host/admin-requests.ts";
import type { LockReader } from "../../host/node-host.ts";
import type {
  HistoryEntry,
  LockEvent,
  LockHolderInfo,
  LockPageBounds,
  LockPageInfo,
  SessionInfo,
} from "../../lock/index.ts";

/** Locks or sessions on one page of the UI. */
export const PAGE_SIZE = 200;
/** What a lock shows of its holders and of its waiters: the first 20 of each, in at most 16 KiB (as LockPageInfo counts bytes). */
export const LOCK_LISTS: LockPageBounds = {
  holders: { limit: 20, maxBytes: 16 * 1024 },
  waiters: { limit: 20, maxBytes: 16 * 1024 },
};
/** A page of locks ends before this many bytes of them. */
export const LOCKS_PAGE_BYTES = 256 * 1024;

export interface MemberView {
  readonly id: number;
  readonly kind: "voter" | "learner";
  readonly peerAddress: string;
  readonly clientAddress: string;
  /** This member's status page, when the cluster file says where it is. */
  readonly page: string | null;
  /** As the leader sees it: null on a node that does not lead. */
  readonly reachable: boolean | null;
  readonly matchIndex: number | null;
  /** Entries behind the leader's last index (leader only). */
  readonly lag: number | null;
}

export interface ClusterView {
  readonly node: {
    readonly id: number;
    readonly clusterId: string;
    readonly role: string;
    readonly term: number;
    readonly leader: number;
    readonly commitIndex: number;
    readonly appliedIndex: number;
    readonly lastIndex: number;
    readonly snapshotIndex: number;
    readonly epoch: number;
  };
  readonly members: readonly MemberView[];
  /** Server time, so the page can say how fresh its data is. */
  readonly at: number;
}

export interface AddressBook {
  clientAddressOf(id: number): string | undefined;
  /** The status page URL of a node (from the cluster file), if known. */
  pageOf(id: number): string | null;
}

export function clusterView(status: HostStatus, book: AddressBook, nowMs: number): ClusterView {
  const leading = status.role === "leader";
  return {
    node: {
      id: status.id,
      clusterId: status.clusterId,
      role: status.role,
      term: status.term,
      leader: status.leader,
      commitIndex: status.commitIndex,
      appliedIndex: status.appliedIndex,
      lastIndex: status.lastIndex,
      snapshotIndex: status.snapshotIndex,
      epoch: status.epoch,
    },
    members: status.members.map((m) => ({
      id: m.id,
      kind: m.kind,
      peerAddress: m.peerAddress,
      clientAddress: book.clientAddressOf(m.id) ?? "",
      page: book.pageOf(m.id),
      reachable: leading ? m.reachable : null,
      matchIndex: leading ? m.matchIndex : null,
      lag: leading ? Math.max(0, status.lastIndex - m.matchIndex) : null,
    })),
    at: nowMs,
  };
}

export interface HolderJson {
  readonly sessionId: string;
  readonly clientName: string;
  readonly token: string;
  readonly grantedAt: string;
  readonly waitedFrom: string;
  /** "shared", "upgradeable", "slot N" for a semaphore permit, "leader" for an election's (`data`: its value); absent for an exclusive grant. The page shows it and `data` when present. */
  readonly mode?: string;
  readonly data?: string;
  /** An upgradeable holder whose upgrade waits: the index it began waiting at. */
  readonly upgradingSince?: string;
}

export interface LockJson {
  readonly name: string;
  /**
   * By its holders "exclusive", "shared", "upgradeable" (one holder) or "shared +
   * upgradeable" (readers beside an upgradeable holder); "semaphore of N" for a semaphore,
   * "election" (its holder leads, its waiters are the candidates).
   */
  readonly kind: string;
  /** The oldest current grants (shared holders and permits are several), oldest first. */
  readonly holders: readonly HolderJson[];
  /** Every current grant, shown or not. */
  readonly holderCount: number;
  /** The first waiters, in queue order. */
  readonly waiters: ReadonlyArray<{
    readonly sessionId: string;
    readonly clientName: string;
    readonly waitedFrom: string;
  }>;
  readonly waiterCount: number;
}

/** The label of a grant's mode (absent for an exclusive grant). */
function modeLabel(h: LockHolderInfo | HistoryEntry): { mode?: string } {
  switch (h.mode) {
    case "shared":
    case "upgradeable":
    case "leader":
      return { mode: h.mode };
    case "permit":
      return { mode: `slot ${h.slot ?? 0}` };
    default:
      return {};
  }
}

/** What a lock is by its holders (a page of them: an upgradeable one is among the first few). */
function kindOf(lock: LockPageInfo): string {
  if (lock.kind === "semaphore") return `semaphore of ${lock.permits ?? 0}`;
  if (lock.kind === "election") return "election";
  if (lock.holders.some((h) => h.mode === "upgradeable"))
    return lock.holderCount > 1 ? "shared + upgradeable" : "upgradeable";
  return lock.holders[0]?.mode === "shared" ? "shared" : "exclusive";
}

export function lockJson(lock: LockPageInfo): LockJson {
  const holders = lock.holders;
  const kind = kindOf(lock);
  return {
    name: lock.name,
    kind,
    holderCount: lock.holderCount,
    waiterCount: lock.waiterCount,
    holders: holders.map((h) => ({
      sessionId: String(h.sessionId),
      clientName: h.clientName,
      token: String(h.token),
      grantedAt: String(h.grantedAt),
      waitedFrom: String(h.waitedFrom),
      ...modeLabel(h),
      ...(h.holderData ? { data: h.holderData } : {}),
      ...(h.upgradingSince !== undefined ? { upgradingSince: String(h.upgradingSince) } : {}),
    })),
    waiters: lock.waiters.map((w) => ({
      sessionId: String(w.sessionId),
      clientName: w.clientName,
      waitedFrom: String(w.waitedFrom),
    })),
  };
}

export interface SessionJson {
  readonly id: string;
  readonly clientName: string;
  readonly ttlMs: number;
  readonly openedAt: string;
  readonly openedWallMs: number;
  readonly held: ReadonlyArray<{ readonly lock: string; readonly token: string }>;
  readonly waiting: readonly string[];
}

export function sessionJson(s: SessionInfo): SessionJson {
  return {
    id: String(s.id),
    clientName: s.clientName,
    ttlMs: s.ttlMs,
    openedAt: String(s.openedAt),
    openedWallMs: s.openedWallMs,
    held: s.held.map((h) => ({ lock: h.lock, token: String(h.token) })),
    waiting: s.waiting.map((w) => w.lock),
  };
}

export interface HistoryJson {
  readonly token: string;
  readonly sessionId: string;
  readonly clientName: string;
  readonly grantedAt: string;
  readonly waitedFrom: string;
  readonly grantedWallMs: number;
  readonly endedAt: string | null;
  readonly endedWallMs: number | null;
  /** How the grant ended (null while current): released, sessionClosed, sessionExpired, revoked, holdLimit (revoked as its hold limit passed), handedOff, upgraded, downgraded. */
  readonly reason: string | null;
  /** The grant's mode, labelled as a holder's; absent for an exclusive grant. */
  readonly mode?: string;
}

export function historyJson(h: HistoryEntry): HistoryJson {
  return {
    token: String(h.token),
    sessionId: String(h.sessionId),
    clientName: h.clientName,
    grantedAt: String(h.grantedAt),
    waitedFrom: String(h.waitedFrom),
    grantedWallMs: h.grantedWallMs,
    endedAt: h.endedAt === null ? null : String(h.endedAt),
    endedWallMs: h.endedWallMs,
    reason: h.revokedFor === "holdLimit" ? "holdLimit" : h.reason,
    ...modeLabel(h),
  };
}

export interface EventJson {
  readonly index: string;
  readonly type: LockEvent["type"];
  readonly lock: string;
  readonly sessionId: string;
  readonly clientName: string;
  readonly token: string;
  readonly wallMs: number;
  /** A "released" that a grant of the same entry completes: handedOff, upgraded or downgraded. */
  readonly ended?: string;
}

export function eventJson(e: LockEvent, clientName: string): EventJson {
  return {
    index: String(e.index),
    type: e.type,
    lock: e.lock,
    sessionId: String(e.sessionId),
    clientName,
    token: String(e.token),
    wallMs: e.wallMs,
    ...(e.ended !== undefined ? { ended: e.ended } : {}),
  };
}

/** Linearizable reads of the page, each one query of the applied state after a ReadIndex. */
export const reads = {
  locks: (prefix: string, after: string | undefined) => (state: LockReader) => {
    const page = state.listLockPages({
      prefix,
      ...(after !== undefined ? { after } : {}),
      limit: PAGE_SIZE,
      maxBytes: LOCKS_PAGE_BYTES,
      each: LOCK_LISTS,
    });
    return { locks: page.locks.map(lockJson), nextAfter: page.nextAfter };
  },
  sessions: (after: bigint) => (state: LockReader) => {
    const page = state.listSessions(after, PAGE_SIZE);
    return {
      sessions: page.sessions.map(sessionJson),
      nextAfter: page.nextAfter === null ? null : String(page.nextAfter),
    };
  },
  history: (lock: string) => (state: LockReader) => ({
    lock,
    current: lockJson(state.lockPage(lock, LOCK_LISTS)),
    history: state.history(lock).map(historyJson),
  }),
};

/**
 * JSON safe to place anywhere: `<`, `>`, `&` and the two JavaScript line separators are
 * written as \u escapes, so no lock or client name can close a script or an element even
 * if a reader mistakes the body for HTML.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
