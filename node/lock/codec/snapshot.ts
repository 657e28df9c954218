// Deterministic snapshot encoding of the lock state. Layout: "PLSM", format version,
// payload, CRC-32 (big-endian) of everything before it. Sessions, locks and every table are
// written in their replicated order (the order the log created them in, which a restored
// state keeps), so replicas at the same index give the same bytes.
import { readAnswer, writeAnswer } from "./answers.ts";
import { ByteDecodeError, ByteReader, ByteWriter } from "./bytes.ts";
import { CRC32_START, crc32, crc32Final, crc32Update } from "./checksum.ts";
import type { TokenRecord } from "../../auth/access-state.ts";
import { addHolder, holdersOf } from "../holders.ts";
import type { GrantMode, Target } from "../kinds.ts";
import { checkLimits, LIMIT_KEYS, limitsFromValues, type LockLimits } from "../limits.ts";
import { SlotPool } from "../slot-pool.ts";
import {
  appendHistory,
  grantTerms,
  newLock,
  newSession,
  type GrantEnd,
  type GrantTerms,
  type HistoryRecord,
  type KeptAnswer,
  type LockState,
  type Session,
  type Waiter,
} from "../state.ts";

/** Thrown when snapshot bytes are corrupt, truncated or inconsistent. */
export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
}

export interface SnapshotContent {
  readonly applied: number;
  readonly epoch: number;
  readonly limits: LockLimits;
  readonly sessions: ReadonlyMap<bigint, Session>;
  readonly locks: ReadonlyMap<string, LockState>;
  /** History records in insertion (grant) order. */
  readonly history: Iterable<HistoryRecord>;
  /** How many records `history` yields (needed when it is not an array). */
  readonly historyCount?: number;
  readonly requestIds: ReadonlyMap<string, bigint>;
  readonly closedIds: ReadonlySet<bigint>;
  /** Owners of ended sessions (named identities only), oldest first. */
  readonly endedOwners: ReadonlyMap<bigint, string>;
  readonly access: AccessContent;
}

/** The access control state: the policy (text and version) and the tokens. */
export interface AccessContent {
  /** null: no policy was ever applied. */
  readonly policyText: string | null;
  readonly policySource: string;
  readonly policyIndex: number;
  readonly tokens: Iterable<TokenRecord>;
}

export interface RestoredContent {
  readonly applied: number;
  readonly epoch: number;
  readonly limits: LockLimits;
  readonly sessions: Map<bigint, Session>;
  readonly locks: Map<string, LockState>;
  readonly history: HistoryRecord[];
  readonly requestIds: Map<string, bigint>;
  readonly closedIds: Set<bigint>;
  readonly endedOwners: Map<bigint, string>;
  readonly access: {
    policyText: string | null;
    policySource: string;
    policyIndex: number;
    tokens: TokenRecord[];
  };
}

const MAGIC = [0x50, 0x4c, 0x53, 0x4d]; // "PLSM"
/**
 * The format written. 6 added access control (session owners, the owners of ended
 * sessions, the policy and the tokens); 5 added each lock's pending upgrade. 4 and 5 are
 * read too (no owners, no policy; 4's locks have no upgrade), so a node restarts from a
 * snapshot its older version wrote.
 */
const VERSION = 6;
const OLDEST_READ = 4;
/** Each way a grant ends by its code; typed as a record so a new one cannot be left out. */
const END_CODES: Readonly<Record<GrantEnd, number>> = {
  released: 0,
  sessionClosed: 1,
  sessionExpired: 2,
  revoked: 3,
  holdLimit: 4,
  handedOff: 5,
  upgraded: 6,
  downgraded: 7,
};
const END_REASONS: readonly GrantEnd[] = codeTable(END_CODES);
const MODE_CODE: Readonly<Record<GrantMode, number>> = {
  exclusive: 0,
  shared: 1,
  permit: 2,
  leader: 3,
  upgradeable: 4,
};
const MODE_CODES: readonly GrantMode[] = codeTable(MODE_CODE);

/** The names of a code record, indexed by code. */
function codeTable<K extends string>(codes: Readonly<Record<K, number>>): K[] {
  const table: K[] = [];
  for (const [name, code] of Object.entries(codes) as Array<[K, number]>) table[code] = name;
  return table;
}

const byNumber = (a: number, b: number): number => a - b;

/** Objects (sessions, locks, history records, remembered ids) written between two yields. */
const STEP = 512;

/**
 * `sizeHint`: the expected size in bytes (e.g. the previous snapshot's), so the state is
 * written into one buffer of about the right size instead of one regrown many times.
 */
export function writeSnapshot(state: SnapshotContent, sizeHint = 0): Uint8Array {
  const steps = snapshotSteps(state, sizeHint);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same bytes as writeSnapshot, written a few hundred objects at a time: the generator
 * yields between slices so a host can keep its event loop free while a large state is
 * encoded. The state must not change until the generator returns the bytes.
 */
export function* snapshotSteps(
  state: SnapshotContent,
  sizeHint = 0,
): Generator<void, Uint8Array, void> {
  const w = new ByteWriter(sizeHint > 0 ? sizeHint + (sizeHint >> 4) + 4_096 : 256);
  // The checksum follows the bytes as they are written, so no slice hashes the whole state.
  let crc = CRC32_START;
  let hashed = 0;
  let sinceYield = 0;
  const pause = (): boolean => {
    if (++sinceYield < STEP) return false;
    sinceYield = 0;
    const written = w.written();
    crc = crc32Update(crc, written.subarray(hashed));
    hashed = written.length;
    return true;
  };
  for (const b of MAGIC) w.u8(b);
  w.u8(VERSION).uint(state.applied).uint(state.epoch);
  w.uint(LIMIT_KEYS.length);
  for (const key of LIMIT_KEYS) w.uint(state.limits[key]);

  // Sessions, locks and the remembered ids in their replicated order (the order they were
  // created in by the log; a restored state keeps it), so no large sort runs in one slice.
  w.uint(state.sessions.size);
  for (const s of state.sessions.values()) {
    w.u64(s.id)
      .str(s.clientName)
      .uint(s.ttlMs)
      .uint(s.openedAt)
      .f64(s.openedWallMs)
      .str(s.requestId)
      .uint(s.mark);
    const seqs = [...s.answers.keys()].sort(byNumber);
    w.uint(seqs.length);
    for (const seq of seqs) {
      const kept = s.answers.get(seq) as KeptAnswer;
      w.uint(seq);
      // 0: not an Acquire; 1: of one lock; 2: of several, listed.
      if (kept.acquireOf === null) w.u8(0);
      else if (typeof kept.acquireOf === "string") w.u8(1).str(kept.acquireOf);
      else {
        w.u8(2).uint(kept.acquireOf.length);
        for (const name of kept.acquireOf) w.str(name);
      }
      writeAnswer(w, kept.answer);
    }
    const dropped = [...(s.dropped ?? [])].sort(byNumber);
    w.uint(dropped.length);
    for (const seq of dropped) w.uint(seq);
    // Held and waited locks in their session order (close and expiry walk them in this order).
    w.uint(s.held.size);
    for (const name of s.held) w.str(name);
    w.uint(s.waits?.size ?? 0);
    for (const name of s.waits?.keys() ?? []) w.str(name);
    if (pause()) yield;
  }

  w.uint(state.locks.size);
  for (const lock of state.locks.values()) {
    w.str(lock.name).uint(lock.semaphore?.permits ?? 0);
    const holders = holdersOf(lock);
    w.uint(holders.length);
    for (const h of holders) {
      w.u64(h.sessionId).u64(h.token).uint(h.grantedAt).uint(h.waitedFrom);
      writeTerms(w, h.terms);
    }
    // A multi-lock wait is written in the queue of each of its locks (its place differs in each).
    w.uint(lock.waiters?.size ?? 0);
    for (const waiter of lock.waiters?.values() ?? []) {
      w.u64(waiter.sessionId).uint(waiter.waitedFrom).uint(waiter.waitMs).uint(waiter.seqs.length);
      for (const seq of waiter.seqs) w.uint(seq);
      w.uint(waiter.targets.length);
      for (const t of waiter.targets) w.str(t.lock).u8(MODE_CODE[t.mode]).uint(t.permits);
      w.str(waiter.holderData).uint(waiter.holdMs);
    }
    const upgrade = lock.upgrade;
    w.bool(upgrade !== null);
    if (upgrade !== null) {
      w.uint(upgrade.waitedFrom).uint(upgrade.waitMs).uint(upgrade.seqs.length);
      for (const seq of upgrade.seqs) w.uint(seq);
    }
    if (pause()) yield;
  }

  const records = Array.isArray(state.history) ? state.history : null;
  w.uint(records?.length ?? state.historyCount ?? 0);
  let count = 0;
  for (const r of records ?? state.history) {
    w.str(r.lock)
      .u64(r.token)
      .u64(r.sessionId)
      .str(r.clientName)
      .uint(r.grantedAt)
      .uint(r.waitedFrom)
      .f64(r.grantedWallMs);
    writeTerms(w, r.terms);
    w.bool(r.endedAt !== null);
    if (r.endedAt !== null)
      w.uint(r.endedAt)
        .f64(r.endedWallMs ?? 0)
        .u8(END_CODES[r.reason as GrantEnd]);
    count++;
    if (pause()) yield;
  }
  if (records === null && count !== state.historyCount)
    throw new RangeError(`history has ${count} records, ${state.historyCount} were announced`);

  w.uint(state.requestIds.size);
  for (const [requestId, id] of state.requestIds) {
    w.str(requestId).u64(id);
    if (pause()) yield;
  }
  w.uint(state.closedIds.size);
  for (const id of state.closedIds) {
    w.u64(id);
    if (pause()) yield;
  }

  // Access control: the owners of sessions that have one (most have none in an open cluster).
  let owned = 0;
  for (const session of state.sessions.values()) if (session.owner !== "") owned++;
  w.uint(owned);
  for (const session of state.sessions.values()) {
    if (session.owner === "") continue;
    w.u64(session.id).str(session.owner);
    if (pause()) yield;
  }
  w.uint(state.endedOwners.size);
  for (const [id, owner] of state.endedOwners) {
    w.u64(id).str(owner);
    if (pause()) yield;
  }
  writeAccess(w, state.access);

  // The checksum goes behind the body in the same buffer: no copy of the whole state.
  crc = crc32Update(crc, w.written().subarray(hashed));
  w.u32be(crc32Final(crc));
  return w.finish();
}

/** A grant's terms: 0 for none (a plain exclusive grant), else the mode, slot + 1, data and hold limit. */
function writeTerms(w: ByteWriter, terms: GrantTerms | null): void {
  if (terms === null) {
    w.u8(0);
    return;
  }
  w.u8(1 + MODE_CODE[terms.mode])
    .uint(terms.slot + 1)
    .str(terms.holderData)
    .uint(terms.holdMs);
}

function readTerms(r: ByteReader): GrantTerms | null {
  const code = r.u8();
  if (code === 0) return null;
  const mode = MODE_CODES[code - 1];
  if (mode === undefined) throw new SnapshotError(`unknown grant mode ${code}`);
  const slot = r.uint() - 1;
  const holderData = r.str();
  const holdMs = r.uint();
  if ((mode === "permit") !== slot >= 0)
    throw new SnapshotError("a grant's slot does not match its mode");
  return grantTerms(mode, slot, holderData, holdMs);
}

export function readSnapshot(bytes: Uint8Array): RestoredContent {
  if (bytes.length < MAGIC.length + 5) throw new SnapshotError("snapshot too short");
  const body = bytes.subarray(0, bytes.length - 4);
  const stored = new DataView(bytes.buffer, bytes.byteOffset + body.length, 4).getUint32(0);
  if (crc32(body) !== stored) throw new SnapshotError("snapshot checksum mismatch");
  try {
    return parse(new ByteReader(body));
  } catch (err) {
    if (err instanceof ByteDecodeError)
      throw new SnapshotError(`malformed snapshot: ${err.message}`);
    throw err;
  }
}

function parse(r: ByteReader): RestoredContent {
  for (const b of MAGIC) if (r.u8() !== b) throw new SnapshotError("not a lock state snapshot");
  const version = r.u8();
  if (version < OLDEST_READ || version > VERSION)
    throw new SnapshotError(`unknown snapshot version ${version}`);
  const applied = r.uint();
  const epoch = r.uint();
  const limits = readLimits(r);

  // Every name, client name and id is shared with the object that owns it (the lock, the
  // session), as in a state built by applying the log, rather than kept once per mention.
  const clientNames = new Map<string, string>();
  const clientName = (name: string): string => {
    const known = clientNames.get(name);
    if (known !== undefined) return known;
    clientNames.set(name, name);
    return name;
  };
  const sessions = new Map<bigint, Session>();
  const heldOrder = new Map<bigint, string[]>();
  const waitOrder = new Map<bigint, string[]>();
  for (let i = r.count(); i > 0; i--) {
    const id = r.u64();
    const session = newSession({
      id,
      clientName: clientName(r.str()),
      ttlMs: r.uint(),
      openedAt: r.uint(),
      openedWallMs: r.f64(),
      requestId: r.str(),
      mark: r.uint(),
    });
    for (let n = r.count(); n > 0; n--) {
      const seq = r.uint();
      const acquireOf = readAcquireOf(r);
      session.answers.set(seq, { acquireOf, answer: readAnswer(r) });
    }
    for (let n = r.count(); n > 0; n--) (session.dropped ??= new Set()).add(r.uint());
    heldOrder.set(id, readStrings(r));
    waitOrder.set(id, readStrings(r));
    sessions.set(id, session);
  }
  const sessionId = (id: bigint): bigint => sessions.get(id)?.id ?? id;

  const locks = new Map<string, LockState>();
  // A multi-lock wait is read in each of its queues: the first reading makes the object the others share.
  const waits = new Map<string, Waiter>();
  for (let i = r.count(); i > 0; i--) {
    const name = r.str();
    const lock = newLock(name);
    const permits = r.uint();
    const holderCount = r.count();
    for (let n = holderCount; n > 0; n--) {
      // Until its history record is read (if the history still has it), a holder is a record
      // of its own that is not in the history.
      const holderSession = sessionId(r.u64());
      const token = r.u64();
      const grantedAt = r.uint();
      const waitedFrom = r.uint();
      const terms = readTerms(r);
      addHolder(lock, {
        lock: name,
        token,
        sessionId: holderSession,
        clientName: sessions.get(holderSession)?.clientName ?? "",
        grantedAt,
        waitedFrom,
        grantedWallMs: 0,
        terms,
        endedAt: null,
        endedWallMs: null,
        reason: null,
        evicted: true,
      });
    }
    if (permits > 0) {
      const slots = holdersOf(lock).map((h) => h.terms?.slot ?? -1);
      if (slots.some((s) => s < 0 || s >= permits) || new Set(slots).size !== slots.length)
        throw new SnapshotError(`semaphore ${name} has bad slots`);
      lock.semaphore = { permits, slots: SlotPool.holding(permits, slots) };
    }
    for (let n = r.count(); n > 0; n--) {
      const waiterSession = sessionId(r.u64());
      const waitedFrom = r.uint();
      const waitMs = r.uint();
      const seqs: number[] = [];
      for (let k = r.count(); k > 0; k--) seqs.push(r.uint());
      if (seqs.length === 0) throw new SnapshotError(`wait on ${name} without an Acquire seq`);
      const { targets, holderData, holdMs } = readWaitTerms(r);
      const first = targets[0] as Target;
      const key = `${waiterSession}:${first.lock}`;
      let waiter = waits.get(key);
      if (!waiter) {
        waiter = {
          sessionId: waiterSession,
          lock: first.lock,
          seqs,
          waitedFrom,
          waitMs,
          targets,
          holderData,
          holdMs,
        };
        waits.set(key, waiter);
      } else if (waiter.waitedFrom !== waitedFrom || waiter.seqs.join() !== seqs.join()) {
        throw new SnapshotError(
          `the wait of session ${waiterSession} for ${first.lock} differs between its queues`,
        );
      }
      if (!targets.some((t) => t.lock === name))
        throw new SnapshotError(`a wait in the queue of ${name} does not name it`);
      lock.waiters ??= new Map();
      lock.waiters.set(waiterSession, waiter);
    }
    if (version >= 5 && r.bool()) lock.upgrade = readUpgrade(r, lock);
    locks.set(name, lock);
  }

  const history: HistoryRecord[] = [];
  for (let i = r.count(); i > 0; i--) {
    const lockName = r.str();
    const token = r.u64();
    const grantee = sessionId(r.u64());
    const client = clientName(r.str());
    const grantedAt = r.uint();
    const waitedFrom = r.uint();
    const grantedWallMs = r.f64();
    const record: HistoryRecord = {
      lock: locks.get(lockName)?.name ?? lockName,
      token,
      sessionId: grantee,
      clientName: client,
      grantedAt,
      waitedFrom,
      grantedWallMs,
      terms: readTerms(r),
      endedAt: null,
      endedWallMs: null,
      reason: null,
      evicted: false,
    };
    if (r.bool()) {
      record.endedAt = r.uint();
      record.endedWallMs = r.f64();
      const reason = END_REASONS[r.u8()];
      if (reason === undefined) throw new SnapshotError("unknown history reason");
      record.reason = reason;
    }
    const owner = locks.get(lockName);
    if (!owner) throw new SnapshotError(`history record for unknown lock ${lockName}`);
    appendHistory(owner, record);
    // The current grant's record becomes the holder itself.
    const holder =
      record.endedAt === null
        ? holdersOf(owner).find((h) => h.sessionId === record.sessionId)
        : undefined;
    if (holder && holder.evicted && holder.token === record.token) {
      if (
        holder.grantedAt !== record.grantedAt ||
        holder.waitedFrom !== record.waitedFrom ||
        !sameTerms(holder.terms, record.terms)
      ) {
        throw new SnapshotError(`the holder of ${lockName} does not match its history record`);
      }
      replaceHolder(owner, holder, record);
    }
    history.push(record);
  }

  const requestIds = new Map<string, bigint>();
  for (let i = r.count(); i > 0; i--) {
    const requestId = r.str();
    requestIds.set(requestId, sessionId(r.u64()));
  }
  const closedIds = new Set<bigint>();
  for (let i = r.count(); i > 0; i--) closedIds.add(r.u64());
  const endedOwners = new Map<bigint, string>();
  let access: RestoredContent["access"] = {
    policyText: null,
    policySource: "",
    policyIndex: 0,
    tokens: [],
  };
  if (version >= 6) {
    for (let i = r.count(); i > 0; i--) {
      const session = sessions.get(r.u64());
      if (!session)
        throw new SnapshotError("an owner is recorded for a session that does not exist");
      session.owner = r.str();
    }
    for (let i = r.count(); i > 0; i--) endedOwners.set(r.u64(), r.str());
    access = readAccess(r);
  }
  r.expectEnd();

  // Re-link sessions to their locks and waits in the recorded order.
  for (const [id, session] of sessions) {
    for (const name of heldOrder.get(id) ?? []) session.held.add(locks.get(name)?.name ?? name);
    for (const name of waitOrder.get(id) ?? []) {
      const lock = locks.get(name);
      const upgrade = lock?.upgrade?.sessionId === id ? lock.upgrade : undefined;
      const waiter: Waiter | undefined = upgrade ?? lock?.waiters?.get(id);
      if (!waiter)
        throw new SnapshotError(
          `session ${id} lists a wait on ${name} that the lock does not have`,
        );
      (session.waits ??= new Map()).set(locks.get(name)?.name ?? name, waiter);
      for (const seq of waiter.seqs) (session.pending ??= new Map()).set(seq, waiter.lock);
    }
  }
  for (const lock of locks.values()) {
    const upgrade = lock.upgrade !== null ? [lock.upgrade] : [];
    for (const waiter of [...upgrade, ...(lock.waiters?.values() ?? [])]) {
      if (sessions.get(waiter.sessionId)?.waits?.get(lock.name) !== waiter) {
        throw new SnapshotError(
          `wait on ${lock.name} by session ${waiter.sessionId} is not listed by the session`,
        );
      }
    }
  }
  return {
    applied,
    epoch,
    limits,
    sessions,
    locks,
    history,
    requestIds,
    closedIds,
    endedOwners,
    access,
  };
}

function writeAccess(w: ByteWriter, access: AccessContent): void {
  w.bool(access.policyText !== null);
  if (access.policyText !== null)
    w.str(access.policyText).str(access.policySource).uint(access.policyIndex);
  const tokens = [...access.tokens];
  w.uint(tokens.length);
  for (const t of tokens) {
    w.str(t.id).str(t.identity).uint(t.roles.length);
    for (const role of t.roles) w.str(role);
    w.str(t.hash).uint(t.createdAt).f64(t.createdWallMs).uint(t.expiresAtMs);
  }
}

function readAccess(r: ByteReader): RestoredContent["access"] {
  let policyText: string | null = null;
  let policySource = "";
  let policyIndex = 0;
  if (r.bool()) {
    policyText = r.str();
    policySource = r.str();
    policyIndex = r.uint();
  }
  const tokens: TokenRecord[] = [];
  for (let i = r.count(); i > 0; i--) {
    const id = r.str();
    const identity = r.str();
    const roles = readStrings(r);
    const hash = r.str();
    const createdAt = r.uint();
    const createdWallMs = r.f64();
    const expiresAtMs = r.uint();
    tokens.push({ id, identity, roles, hash, createdAt, createdWallMs, expiresAtMs });
  }
  return { policyText, policySource, policyIndex, tokens };
}

/** A lock's pending upgrade: its upgradeable holder's wait to hold it exclusive. */
function readUpgrade(r: ByteReader, lock: LockState): Waiter {
  const waitedFrom = r.uint();
  const waitMs = r.uint();
  const seqs: number[] = [];
  for (let k = r.count(); k > 0; k--) seqs.push(r.uint());
  const holder = holdersOf(lock).find((h) => h.terms?.mode === "upgradeable");
  if (holder === undefined || seqs.length === 0)
    throw new SnapshotError(`the pending upgrade of ${lock.name} has no upgradeable holder or seq`);
  return {
    sessionId: holder.sessionId,
    lock: lock.name,
    seqs,
    waitedFrom,
    waitMs,
    targets: [{ lock: lock.name, mode: "exclusive", permits: 0 }],
    holderData: holder.terms?.holderData ?? "",
    holdMs: holder.terms?.holdMs ?? 0,
  };
}

/** The limits a snapshot carries; those added after it was written take their defaults. */
function readLimits(r: ByteReader): LockLimits {
  const n = r.count();
  if (n > LIMIT_KEYS.length)
    throw new SnapshotError(`snapshot carries ${n} limits, expected at most ${LIMIT_KEYS.length}`);
  const values: number[] = [];
  for (let i = 0; i < n; i++) values.push(r.uint());
  const limits = limitsFromValues(values) as LockLimits;
  const bad = checkLimits(limits);
  if (bad !== null) throw new SnapshotError(`snapshot limits: ${bad}`);
  return Object.freeze(limits);
}

function readAcquireOf(r: ByteReader): string | string[] | null {
  const kind = r.u8();
  if (kind === 0) return null;
  if (kind === 1) return r.str();
  if (kind === 2) return readStrings(r);
  throw new SnapshotError(`unknown kept answer kind ${kind}`);
}

function readWaitTerms(r: ByteReader): { targets: Target[]; holderData: string; holdMs: number } {
  const targets: Target[] = [];
  for (let n = r.count(); n > 0; n--) {
    const lock = r.str();
    const mode = MODE_CODES[r.u8()];
    const permits = r.uint();
    if (mode === undefined || (mode === "permit") !== permits > 0)
      throw new SnapshotError(`a wait for ${lock} has a bad mode`);
    targets.push({ lock, mode, permits });
  }
  if (targets.length === 0) throw new SnapshotError("a wait names no lock");
  return { targets, holderData: r.str(), holdMs: r.uint() };
}

function sameTerms(a: GrantTerms | null, b: GrantTerms | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.mode === b.mode && a.slot === b.slot && a.holderData === b.holderData && a.holdMs === b.holdMs
  );
}

/** Puts the history record in the place of the stand-in holder, keeping the grant order. */
function replaceHolder(lock: LockState, standIn: HistoryRecord, record: HistoryRecord): void {
  if (lock.holders === standIn) lock.holders = record;
  else if (lock.holders instanceof Map) lock.holders.set(record.sessionId, record);
}

function readStrings(r: ByteReader): string[] {
  const out: string[] = [];
  for (let n = r.count(); n > 0; n--) out.push(r.str());
  return out;
}
