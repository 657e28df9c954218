// Validation of client requests, before anything is proposed or read. Each parser turns a
// decoded protobuf request into the values the lock state machine takes, or throws
// RequestError with a message that says which field is wrong and what is allowed.
import { palisade } from "../../proto/gen/palisade.js";
import {
  checkClientName, checkHolderData, checkHoldMs, checkLockName, checkRequestId, checkSequenced, checkSessionId, checkTargets, checkToken,
  checkTtl, checkWaitMs, type AcquireCommand, type CancelWaitCommand, type CloseSessionCommand, type LockLimits, type LockMode,
  type LockPageBounds, type LockTarget, type ReleaseCommand, type RevokeCommand, type SequencedWrite,
} from "../lock/index.ts";
import { CodecError, MAX_KEEPALIVE_SESSION_IDS, u64, type U64Input } from "../../proto/wire.ts";

const LockModeEnum = palisade.v1.LockMode;

/** A request that cannot be served as sent: answered INVALID_ARGUMENT with this message. */
export class RequestError extends Error {
  override readonly name = "RequestError";
}

/** Session TTL when OpenSession leaves ttl_ms at 0. */
export const DEFAULT_TTL_MS = 10_000;
/** Page size when ListLocks / ListSessions leave limit at 0, and the largest page served. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1_000;

// Byte bounds of the lock reads' pages (as LockPageInfo counts bytes, above their encoded
// size): a GetLock answer (two lists and the oldest holder) and a ListLocks page stay well
// below the 4 MiB gRPC message limit even when one entry is as large as the limits allow,
// and leave room for several answers in one frame of the Stream RPC.
/** One page of a lock's holders or of its waiters in GetLock. */
export const LIST_PAGE_BYTES = 256 * 1024;
/** One ListLocks page. */
export const LOCKS_PAGE_BYTES = 512 * 1024;
/** The holders one ListLocks entry lists at most (GetLock reads the rest). */
export const SUMMARY_HOLDERS = 10;
const SUMMARY_HOLDER_BYTES = 64 * 1024;

/** What each ListLocks entry lists: its oldest holders, no waiters (their count is there). */
export const SUMMARY_BOUNDS: LockPageBounds = {
  holders: { limit: SUMMARY_HOLDERS, maxBytes: SUMMARY_HOLDER_BYTES },
  waiters: { limit: 0, maxBytes: 0 },
};

function ensure(problem: string | null, field?: string): void {
  if (problem !== null) throw new RequestError(field ? `${field}: ${problem}` : problem);
}

/** A uint64 field as a bigint; never throws anything but RequestError. */
export function bigField(value: U64Input, field: string): bigint {
  try {
    return u64(value, field);
  } catch (err) {
    if (err instanceof CodecError) throw new RequestError(err.message);
    throw err;
  }
}

/** A uint64 field that must fit a JavaScript number (seqs, durations, indexes). */
export function numberField(value: U64Input, field: string): number {
  const big = bigField(value, field);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new RequestError(`${field}: ${big} is too large`);
  return Number(big);
}

function stringField(value: unknown, field: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") throw new RequestError(`${field}: expected a string`);
  return value;
}

export function sessionIdField(value: U64Input, field = "session_id"): bigint {
  const id = bigField(value, field);
  if (id === 0n) throw new RequestError(`${field} is missing (0 is never a session id)`);
  ensure(checkSessionId(id), field);
  return id;
}

/** The refusal of a KeepAliveSessions request naming `count` ids, or null when the count is allowed. */
export function keepAliveCountProblem(count: number): string | null {
  if (count === 0) return "session_ids is empty (name at least one session)";
  if (count > MAX_KEEPALIVE_SESSION_IDS) return `session_ids: ${count} ids, more than ${MAX_KEEPALIVE_SESSION_IDS} in one request`;
  return null;
}

/** The ids of a KeepAliveSessions request: 1 to MAX_KEEPALIVE_SESSION_IDS valid session ids. */
export function parseKeepAliveSessions(req: palisade.v1.KeepAliveSessionsRequest): bigint[] {
  const raw = req.sessionIds ?? [];
  ensure(keepAliveCountProblem(raw.length));
  return raw.map((id, i) => sessionIdField(id, `session_ids[${i}]`));
}

export function lockField(value: unknown, field = "lock"): string {
  const name = stringField(value, field);
  ensure(checkLockName(name), field);
  return name;
}

function tokenField(value: U64Input, field = "token"): bigint {
  const token = bigField(value, field);
  if (token === 0n) throw new RequestError(`${field} is missing (0 is never a token)`);
  ensure(checkToken(token), field);
  return token;
}

interface SequencedFields {
  sessionId?: U64Input;
  seq?: U64Input;
  ackedUpTo?: U64Input;
  held?: readonly U64Input[] | null;
}

export function parseSequenced(req: SequencedFields, limits: LockLimits): SequencedWrite {
  const sessionId = sessionIdField(req.sessionId);
  const seq = numberField(req.seq, "seq");
  if (seq < 1) throw new RequestError("seq must be at least 1 (seqs start at 1 per session)");
  const ackedUpTo = numberField(req.ackedUpTo, "acked_up_to");
  const rawHeld = req.held ?? [];
  if (rawHeld.length > limits.maxHeldList) {
    throw new RequestError(`held lists ${rawHeld.length} seqs; at most ${limits.maxHeldList} are allowed`);
  }
  const held = rawHeld.map((v) => numberField(v, "held"));
  const write: SequencedWrite = { sessionId, seq, ackedUpTo, held };
  ensure(checkSequenced(write, limits));
  return write;
}

export interface OpenSessionParams {
  readonly ttlMs: number;
  readonly clientName: string;
  /** Empty when the client sent none: the caller then makes one (no retry protection). */
  readonly requestId: string;
}

export function parseOpenSession(req: palisade.v1.OpenSessionRequest, limits: LockLimits): OpenSessionParams {
  const raw = numberField(req.ttlMs, "ttl_ms");
  const ttlMs = raw === 0 ? DEFAULT_TTL_MS : raw;
  ensure(checkTtl(ttlMs, limits));
  const clientName = stringField(req.clientName, "client_name");
  ensure(checkClientName(clientName), "client_name");
  const requestId = stringField(req.requestId, "request_id");
  if (requestId !== "") ensure(checkRequestId(requestId), "request_id");
  return { ttlMs, clientName, requestId };
}

export function parseAcquire(req: palisade.v1.AcquireRequest, limits: LockLimits, wallMs: number): AcquireCommand {
  const write = parseSequenced(req, limits);
  const lock = lockField(req.lock);
  const waitMs = numberField(req.waitMs, "wait_ms");
  ensure(checkWaitMs(waitMs, limits));
  const first = targetFields(req, "", limits);
  const more = moreLocksField(req.moreLocks, lock, limits);
  const holderData = holderDataField(req.holderData, limits);
  const holdMs = numberField(req.holdMs, "hold_ms");
  if (checkHoldMs(holdMs, limits) !== null) {
    throw new RequestError(`hold_ms: ${holdMs} is outside ${limits.minHoldMs}..${limits.maxHoldMs} (0: no hold limit)`);
  }
  const cmd: AcquireCommand = {
    type: "acquire", ...write, lock, waitMs, wallMs, ...first,
    ...(more.length > 0 ? { more } : {}), ...(holderData !== "" ? { holderData } : {}), ...(holdMs !== 0 ? { holdMs } : {}),
  };
  // The state machine's own checks, which apply decides by (the ones above say which field).
  ensure(checkTargets(cmd, limits) ?? checkHolderData(cmd.holderData, limits));
  return cmd;
}

const LOCK_MODES: Readonly<Record<number, LockMode | undefined>> = {
  [LockModeEnum.LOCK_MODE_UNSPECIFIED]: undefined,
  [LockModeEnum.LOCK_MODE_SHARED]: "shared",
  [LockModeEnum.LOCK_MODE_EXCLUSIVE]: "exclusive",
};

/** The wire fields of one lock of an Acquire (its mode, or its permits), as a target names them. */
interface TargetFields {
  mode?: palisade.v1.LockMode | null;
  permits?: U64Input;
}

/** A lock's mode or a semaphore's permit count; `prefix` names the entry ("" for the request's own lock). */
function targetFields(t: TargetFields, prefix: string, limits: LockLimits): { mode?: LockMode; permits?: number } {
  const rawMode = t.mode ?? 0;
  if (!Object.hasOwn(LOCK_MODES, rawMode)) {
    throw new RequestError(`${prefix}mode: ${String(rawMode)} is not a lock mode (LOCK_MODE_SHARED or LOCK_MODE_EXCLUSIVE; unset: exclusive)`);
  }
  const mode = LOCK_MODES[rawMode];
  // Unset (null) in a decoded message unless the client sent it; 0 then is a value it sent.
  if (t.permits === null || t.permits === undefined) return mode !== undefined ? { mode } : {};
  const permits = numberField(t.permits, `${prefix}permits`);
  if (permits < 1 || permits > limits.maxPermits) throw new RequestError(`${prefix}permits: ${permits} is outside 1..${limits.maxPermits}`);
  if (mode !== undefined) throw new RequestError(`${prefix}mode: a semaphore (permits set) takes no mode; leave mode unset`);
  return { permits };
}

function moreLocksField(raw: readonly palisade.v1.LockTarget.$Properties[] | null | undefined, lock: string, limits: LockLimits): LockTarget[] {
  const entries = raw ?? [];
  if (entries.length === 0) return [];
  if (entries.length + 1 > limits.maxLocksPerAcquire) {
    throw new RequestError(`more_locks: ${entries.length + 1} locks in one Acquire, more than ${limits.maxLocksPerAcquire}`);
  }
  const names = new Set<string>([lock]);
  return entries.map((entry, i) => {
    const prefix = `more_locks[${i}].`;
    const name = lockField(entry.lock, `${prefix}lock`);
    if (names.has(name)) throw new RequestError(`${prefix}lock: ${name} is named twice in one Acquire`);
    names.add(name);
    return { lock: name, ...targetFields(entry, prefix, limits) };
  });
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function holderDataField(raw: Uint8Array | null | undefined, limits: LockLimits): string {
  if (raw === null || raw === undefined || raw.byteLength === 0) return "";
  if (raw.byteLength > limits.maxHolderDataBytes) {
    throw new RequestError(`holder_data: ${raw.byteLength} bytes, more than ${limits.maxHolderDataBytes}`);
  }
  try {
    return strictUtf8.decode(raw);
  } catch {
    throw new RequestError("holder_data: not valid UTF-8 (holder data is text)");
  }
}

export function parseRelease(req: palisade.v1.ReleaseRequest, limits: LockLimits, wallMs: number): ReleaseCommand {
  const write = parseSequenced(req, limits);
  return { type: "release", ...write, lock: lockField(req.lock), token: tokenField(req.token), wallMs };
}

export function parseCloseSession(req: palisade.v1.CloseSessionRequest, limits: LockLimits, wallMs: number): CloseSessionCommand {
  return { type: "closeSession", ...parseSequenced(req, limits), wallMs };
}

export function parseCancelWait(req: palisade.v1.CancelWaitRequest, wallMs: number): CancelWaitCommand {
  const sessionId = sessionIdField(req.sessionId);
  const lock = lockField(req.lock);
  const acquireSeq = numberField(req.acquireSeq, "acquire_seq");
  if (acquireSeq < 1) throw new RequestError("acquire_seq must be the seq (≥ 1) of the Acquire whose wait to cancel");
  return { type: "cancelWait", sessionId, lock, acquireSeq, reason: "client", wallMs };
}

export function parseRevoke(req: palisade.v1.RevokeLockRequest, wallMs: number): RevokeCommand {
  return { type: "revoke", lock: lockField(req.lock), token: tokenField(req.token), wallMs };
}

export function parseValidateToken(req: palisade.v1.ValidateTokenRequest): { lock: string; token: bigint } {
  return { lock: lockField(req.lock), token: tokenField(req.token) };
}

export function parsePageLimit(value: number | null | undefined, field = "limit"): number {
  const limit = value ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RequestError(`${field}: expected a non-negative integer`);
  if (limit > MAX_PAGE_SIZE) throw new RequestError(`${field}: ${limit} is above the largest page, ${MAX_PAGE_SIZE}`);
  return limit === 0 ? DEFAULT_PAGE_SIZE : limit;
}

/** A GetLock list's limit: unset is the default page, 0 lists none. */
function listLimit(value: number | null | undefined, field: string): number {
  return value === null || value === undefined ? DEFAULT_PAGE_SIZE : value === 0 ? 0 : parsePageLimit(value, field);
}

export function parseGetLock(req: palisade.v1.GetLockRequest): { lock: string; bounds: LockPageBounds } {
  const lock = lockField(req.lock);
  const cursor = req.holdersAfter;
  const after = cursor
    ? { token: bigField(cursor.token, "holders_after.token"), sessionId: bigField(cursor.sessionId, "holders_after.session_id") }
    : undefined;
  return {
    lock,
    bounds: {
      holders: { limit: listLimit(req.holderLimit, "holder_limit"), maxBytes: LIST_PAGE_BYTES, after },
      waiters: { limit: listLimit(req.waiterLimit, "waiter_limit"), maxBytes: LIST_PAGE_BYTES, afterIndex: numberField(req.waitersAfterIndex, "waiters_after_index") },
    },
  };
}

export function parseListLocks(req: palisade.v1.ListLocksRequest): { prefix: string; after: string | undefined; limit: number } {
  const prefix = stringField(req.prefix, "prefix");
  if (prefix !== "") ensure(checkLockName(prefix), "prefix");
  const after = stringField(req.after, "after");
  if (after !== "") ensure(checkLockName(after), "after");
  return { prefix, after: after === "" ? undefined : after, limit: parsePageLimit(req.limit) };
}

export function parseListSessions(req: palisade.v1.ListSessionsRequest): { after: bigint; limit: number } {
  return { after: bigField(req.afterSessionId, "after_session_id"), limit: parsePageLimit(req.limit) };
}

export function parseHistory(req: palisade.v1.GetLockHistoryRequest): { lock: string; limit: number } {
  const limit = req.limit ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RequestError("limit: expected a non-negative integer");
  return { lock: lockField(req.lock), limit };
}

export function parseWatch(req: palisade.v1.WatchRequest): { prefix: string; fromIndex: number } {
  const prefix = stringField(req.prefix, "prefix");
  if (prefix !== "") ensure(checkLockName(prefix), "prefix");
  return { prefix, fromIndex: numberField(req.fromIndex, "from_index") };
}
