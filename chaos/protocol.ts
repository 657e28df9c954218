// Lines the processes inside the namespaces print on stdout (one JSON object each), read
// by the harness on the host. Bigints travel as decimal strings.

/** A lock operation as the worker saw it; ret null = outcome unknown. */
export interface OpRecord {
  t: "op";
  id: string;
  worker: string;
  kind: "acquire" | "release" | "read" | "validate";
  lock: string;
  /** Session of an acquire or release. */
  session?: string;
  /** Token of a release or validate. */
  token?: string;
  /** An acquire's mode when shared (absent: exclusive). */
  mode?: "shared";
  /** An acquire's wait_ms (absent in histories from before it was recorded). */
  waitMs?: number;
  call: number;
  ret: number | null;
  out?: OpOutcome;
}

export type OpOutcome =
  | { kind: "granted"; token: string }
  | { kind: "notAcquired"; holderSession?: string; holderToken?: string }
  | { kind: "sessionNotFound" }
  | { kind: "ok" }
  | { kind: "failedPrecondition" }
  | { kind: "read"; holder: string | null; token: string | null }
  | { kind: "validated"; valid: boolean };

/** A session's life as its worker saw it. */
export interface SessionRecord {
  t: "session";
  worker: string;
  session: string;
  opened: number;
  /** The acknowledged close, if any. */
  closeCall?: number;
  closeRet?: number;
  /** The worker's client declared it lost (deadline passed or NOT_FOUND). */
  lostAt?: number;
  /**
   * The client's own deadline for the session (client/session.ts `deadlineNs`, in µs of the
   * host's monotonic clock): the last value it moved to, so the one in force when the
   * session ended on the client. Before it the client believes it still holds its locks.
   */
  deadline?: number;
  /** When the worker called close (acknowledged or not): from then on it holds nothing. */
  closing?: number;
}

/** One fenced-counter task's write: acknowledged when status is 204. */
export interface IncrementRecord {
  t: "incr";
  worker: string;
  key: string;
  session: string;
  token: string;
  read: number;
  status: number;
  req: string;
  /** When the write's answer came (µs, host monotonic); absent in histories from before it was recorded. */
  ret?: number;
}

/**
 * One read-heavy task's fenced read under a shared grant: 200 with the value read, or 409
 * when the store fenced it off. `acquireCall`: when the Acquire that granted the lock was
 * sent (every increment acknowledged before it must be in the value read).
 */
export interface SharedReadRecord {
  t: "sread";
  worker: string;
  key: string;
  session: string;
  token: string;
  status: number;
  value?: number;
  req: string;
  acquireCall: number;
}

/** An access the store admitted, in admission order per key. */
export interface AdmissionRecord {
  t: "admit";
  key: string;
  token: string;
  session: string;
  access: "read" | "write";
  /** The grant's mode when shared (only reads are shared; absent: exclusive). */
  mode?: "shared";
  /** Counter value read, or written. */
  value: number;
  /** For writes: the value the writer had read, and the counter just before the write. */
  basedOn?: number;
  before?: number;
  req: string;
}

export interface RefusalRecord {
  t: "refuse";
  key: string;
  token: string;
  session: string;
  access: "read" | "write";
  /** The refused access's mode when shared; `highest` is then the highest exclusive token. */
  mode?: "shared";
  highest: string;
}

export interface LeaderRecord {
  t: "leader";
  id: number;
  term: string;
}

export interface WatchRecord {
  t: "watch";
  kind: "acquired" | "released" | "sessionClosed" | "sessionExpired" | "revoked" | "resync";
  index: string;
  lock?: string;
  session?: string;
  token?: string;
  /** An acquired event's mode when shared (absent: exclusive). */
  mode?: "shared";
  /** When the observer received the event (µs, host monotonic): the event was applied before. */
  at?: number;
}

export interface FinalRecord {
  t: "final";
  /** Sessions still open on the cluster. */
  live: string[];
  call: number;
  ret: number;
  /** The sentinel grant's index: every lock event up to it has been delivered by the watch. */
  syncedIndex: string;
}

/** What the load on the Stream RPC (stream-load.ts) reports. */
export interface StreamLoadRecord {
  t: "stream-load";
  what: "waits-ready" | "waits-final" | "flood-final";
  sessions?: number;
  /** Sessions of the waits client that were lost (each of them was kept alive). */
  lost?: number;
  waits?: number;
  frames?: number;
  requests?: number;
}

export type Line =
  | OpRecord
  | SessionRecord
  | IncrementRecord
  | SharedReadRecord
  | AdmissionRecord
  | RefusalRecord
  | LeaderRecord
  | WatchRecord
  | FinalRecord
  | StreamLoadRecord
  | { t: "ready"; what: string }
  | { t: "log"; msg: string };

export function emit(line: Line): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
