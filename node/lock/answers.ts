// Answers of the lock state machine, each carrying a status code named by the SPEC.
import { ByteDecodeError, type ByteReader, type ByteWriter } from "./bytes.ts";

export type StatusCode = "OK" | "INVALID_ARGUMENT" | "NOT_FOUND" | "FAILED_PRECONDITION" | "RESOURCE_EXHAUSTED";
export type ErrorCode = Exclude<StatusCode, "OK">;

export type OkAnswer =
  | { readonly code: "OK"; readonly kind: "sessionOpened"; readonly sessionId: bigint }
  | { readonly code: "OK"; readonly kind: "sessionClosed" }
  | { readonly code: "OK"; readonly kind: "sessionExpired" }
  | { readonly code: "OK"; readonly kind: "granted"; readonly token: bigint }
  /** Not granted: wait_ms was 0 or the wait timed out. Names the holder at that index. */
  | { readonly code: "OK"; readonly kind: "notAcquired"; readonly holderSessionId: bigint; readonly holderToken: bigint }
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

export interface ErrorAnswer {
  readonly code: ErrorCode;
  readonly kind: "error";
  readonly reason: ErrorReason;
  readonly message: string;
}

export type Answer = OkAnswer | ErrorAnswer;

export function isError(answer: Answer): answer is ErrorAnswer {
  return answer.kind === "error";
}

export function fail(code: ErrorCode, reason: ErrorReason, message: string): ErrorAnswer {
  return { code, kind: "error", reason, message };
}

export const invalid = (message: string): ErrorAnswer => fail("INVALID_ARGUMENT", "invalid argument", message);

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
const ERROR_TAG = 255;

export function writeAnswer(w: ByteWriter, answer: Answer): void {
  if (answer.kind === "error") {
    w.u8(ERROR_TAG).u8(ERROR_CODES.indexOf(answer.code)).u8(ERROR_REASONS.indexOf(answer.reason)).str(answer.message);
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

export function readAnswer(r: ByteReader): Answer {
  const tag = r.u8();
  if (tag === ERROR_TAG) {
    const code = ERROR_CODES[r.u8()];
    const reason = ERROR_REASONS[r.u8()];
    if (code === undefined || reason === undefined) throw new ByteDecodeError("unknown error answer");
    return fail(code, reason, r.str());
  }
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
