// Answers of the lock state machine, each carrying a status code named by the SPEC.
import { ByteDecodeError, type ByteReader, type ByteWriter } from "./bytes.ts";

export type StatusCode = "OK" | "INVALID_ARGUMENT" | "NOT_FOUND" | "FAILED_PRECONDITION" | "RESOURCE_EXHAUSTED";
export type ErrorCode = Exclude<StatusCode, "OK">;

/** One lock of a multi-lock grant. */
export interface LockGrant {
  readonly lock: string;
  readonly token: bigint;
  /** A semaphore permit's slot. */
  readonly slot?: number;
}

export type OkAnswer =
  | { readonly code: "OK"; readonly kind: "sessionOpened"; readonly sessionId: bigint }
  | { readonly code: "OK"; readonly kind: "sessionClosed" }
  | { readonly code: "OK"; readonly kind: "sessionExpired" }
  /**
   * Granted. `slot`: of a semaphore permit. `grants`: every lock of a multi-lock Acquire in
   * the order it named them (`token` is then that of its first lock; a set granted by one
   * entry has that entry's token on every lock).
   */
  | { readonly code: "OK"; readonly kind: "granted"; readonly token: bigint; readonly slot?: number; readonly grants?: readonly LockGrant[] }
  /**
   * Not granted: wait_ms was 0 or the wait timed out. Names the oldest holder, at that
   * index, of the lock that kept the request out (0 and 0 when only requests queued ahead
   * did); `lock` names that lock for a multi-lock Acquire.
   */
  | { readonly code: "OK"; readonly kind: "notAcquired"; readonly holderSessionId: bigint; readonly holderToken: bigint; readonly lock?: string }
  /** The Acquire joined (or re-attached to) the queue: no final answer yet; it comes as a completion. */
  | { readonly code: "OK"; readonly kind: "waiting" }
  | { readonly code: "OK"; readonly kind: "cancelled" }
  | { readonly code: "OK"; readonly kind: "released" }
  | { readonly code: "OK"; readonly kind: "revoked" }
  | { readonly code: "OK"; readonly kind: "limitsSet" };

export type OkKind = OkAnswer["kind"];

/** Machine-readable cause of an error answer; `message` is for humans. */
export type ErrorReason =
  | "invalid argument"
  | "session not found"
  | "session ended"
  | "no such wait"
  | "not an acquire of this lock"
  | "stale token"
  | "not holder"
  | "request too old"
  | "too many sessions"
  | "too many locks in session"
  | "too many waiters"
  | "too many in flight";

/**
 * Why an Acquire of the lock kinds was refused as it stands (FAILED_PRECONDITION). Such an
 * answer's `reason` is "not holder", the nearest one the wire names today; `refusal` is
 * the precise one.
 */
export type Refusal =
  /** The session holds the lock in the other mode (no silent upgrade or downgrade). */
  | "held in another mode"
  /** The name is held or waited for as a semaphore and was asked for as a lock, or the reverse. */
  | "in use as another kind"
  /** The semaphore is held or waited for with another permit count. */
  | "other permit count"
  /** The session holds some, not all, of a multi-lock Acquire's locks. */
  | "set partly held"
  /** The session waits for one of the locks in another request. */
  | "waits in another request";

export const REFUSALS: readonly Refusal[] = ["held in another mode", "in use as another kind", "other permit count", "set partly held", "waits in another request"];

export interface ErrorAnswer {
  readonly code: ErrorCode;
  readonly kind: "error";
  readonly reason: ErrorReason;
  readonly message: string;
  readonly refusal?: Refusal;
}

export type Answer = OkAnswer | ErrorAnswer;

export function isError(answer: Answer): answer is ErrorAnswer {
  return answer.kind === "error";
}

export function fail(code: ErrorCode, reason: ErrorReason, message: string): ErrorAnswer {
  return { code, kind: "error", reason, message };
}

export const invalid = (message: string): ErrorAnswer => fail("INVALID_ARGUMENT", "invalid argument", message);

export function refuse(refusal: Refusal, message: string): ErrorAnswer {
  return { code: "FAILED_PRECONDITION", kind: "error", reason: "not holder", message, refusal };
}

export function sessionNotFound(sessionId: bigint): ErrorAnswer {
  return fail("NOT_FOUND", "session not found", `session ${sessionId} not found (unknown, closed or expired)`);
}

export function sessionEnded(sessionId: bigint): ErrorAnswer {
  return fail("NOT_FOUND", "session ended", `session ${sessionId} ended while the request was pending`);
}

const OK_KINDS: readonly OkKind[] = [
  "sessionOpened", "sessionClosed", "sessionExpired", "granted", "notAcquired", "waiting", "cancelled", "released", "revoked", "limitsSet",
];
const ERROR_CODES: readonly ErrorCode[] = ["INVALID_ARGUMENT", "NOT_FOUND", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED"];
const ERROR_REASONS: readonly ErrorReason[] = [
  "invalid argument", "session not found", "session ended", "no such wait", "not an acquire of this lock", "stale token",
  "not holder", "request too old", "too many sessions", "too many locks in session", "too many waiters", "too many in flight",
];
// The answers of exclusive locks keep the tags and bytes they had before the lock kinds;
// answers only the kinds give have tags of their own.
const ERROR_TAG = 255;
const REFUSAL_TAG = 254;
const GRANTED_KINDS_TAG = 253;
const NOT_ACQUIRED_IN_SET_TAG = 252;

export function writeAnswer(w: ByteWriter, answer: Answer): void {
  if (answer.kind === "error") {
    if (answer.refusal !== undefined) {
      w.u8(REFUSAL_TAG).u8(ERROR_CODES.indexOf(answer.code)).u8(ERROR_REASONS.indexOf(answer.reason)).u8(REFUSALS.indexOf(answer.refusal));
    } else {
      w.u8(ERROR_TAG).u8(ERROR_CODES.indexOf(answer.code)).u8(ERROR_REASONS.indexOf(answer.reason));
    }
    w.str(answer.message);
    return;
  }
  if (answer.kind === "granted" && (answer.slot !== undefined || answer.grants !== undefined)) {
    w.u8(GRANTED_KINDS_TAG).u64(answer.token);
    writeSlot(w, answer.slot);
    w.uint(answer.grants?.length ?? 0);
    for (const g of answer.grants ?? []) {
      w.str(g.lock).u64(g.token);
      writeSlot(w, g.slot);
    }
    // 0 grants and no list are told apart: a multi-lock grant always lists its locks.
    w.bool(answer.grants !== undefined);
    return;
  }
  if (answer.kind === "notAcquired" && answer.lock !== undefined) {
    w.u8(NOT_ACQUIRED_IN_SET_TAG).u64(answer.holderSessionId).u64(answer.holderToken).str(answer.lock);
    return;
  }
  w.u8(OK_KINDS.indexOf(answer.kind));
  switch (answer.kind) {
    case "sessionOpened":
      w.u64(answer.sessionId);
      break;
    case "granted":
      w.u64(answer.token);
      break;
    case "notAcquired":
      w.u64(answer.holderSessionId).u64(answer.holderToken);
      break;
    default:
      break;
  }
}

/** A slot as slot + 1, 0 for none. */
function writeSlot(w: ByteWriter, slot: number | undefined): void {
  w.uint(slot === undefined ? 0 : slot + 1);
}

function readSlot(r: ByteReader): number | undefined {
  const n = r.uint();
  return n === 0 ? undefined : n - 1;
}

function readGranted(r: ByteReader): Answer {
  const token = r.u64();
  const slot = readSlot(r);
  const grants: LockGrant[] = [];
  for (let n = r.count(); n > 0; n--) {
    const lock = r.str();
    const t = r.u64();
    const s = readSlot(r);
    grants.push(s === undefined ? { lock, token: t } : { lock, token: t, slot: s });
  }
  const listed = r.bool();
  return { code: "OK", kind: "granted", token, ...(slot !== undefined ? { slot } : {}), ...(listed ? { grants } : {}) };
}

export function readAnswer(r: ByteReader): Answer {
  const tag = r.u8();
  if (tag === ERROR_TAG || tag === REFUSAL_TAG) {
    const code = ERROR_CODES[r.u8()];
    const reason = ERROR_REASONS[r.u8()];
    const refusal = tag === REFUSAL_TAG ? REFUSALS[r.u8()] : undefined;
    if (code === undefined || reason === undefined || (tag === REFUSAL_TAG && refusal === undefined)) throw new ByteDecodeError("unknown error answer");
    const answer = fail(code, reason, r.str());
    return refusal === undefined ? answer : { ...answer, refusal };
  }
  if (tag === GRANTED_KINDS_TAG) return readGranted(r);
  if (tag === NOT_ACQUIRED_IN_SET_TAG) return { code: "OK", kind: "notAcquired", holderSessionId: r.u64(), holderToken: r.u64(), lock: r.str() };
  const kind = OK_KINDS[tag];
  switch (kind) {
    case "sessionOpened":
      return { code: "OK", kind, sessionId: r.u64() };
    case "granted":
      return { code: "OK", kind, token: r.u64() };
    case "notAcquired":
      return { code: "OK", kind, holderSessionId: r.u64(), holderToken: r.u64() };
    case "sessionClosed":
    case "sessionExpired":
    case "waiting":
    case "cancelled":
    case "released":
    case "revoked":
    case "limitsSet":
      return { code: "OK", kind };
    default:
      throw new ByteDecodeError(`unknown answer tag ${tag}`);
  }
}
