// The wire contract between nodes and clients, beside the messages in proto/palisade:
// uint64 values between their wire form (protobufjs Long) and bigint or number, the
// metadata keys a node sends, the sizes both sides read (proto/limits.ts), and one table giving each ErrorReason its gRPC
// status code and the client error class it becomes. The node builds every error status from
// this table (node/api/status.ts) and names its reason in `palisade-reason`; the
// client maps that reason, never the message text (client/status-errors.ts).
import { status as Status, type Metadata } from "@grpc/grpc-js";
import Long from "long";
import { palisade } from "./gen/palisade.js";

/** Trailing metadata of every error status: the ErrorReason value's name. */
export const REASON_METADATA_KEY = "palisade-reason";
/** Metadata of an UNAVAILABLE from a node that knows the leader: the leader's client address. */
export const LEADER_METADATA_KEY = "palisade-leader";
/** A Watch stream's headers, and its OUT_OF_RANGE trailers: the node's applied index. */
export const CURRENT_INDEX_METADATA_KEY = "palisade-current-index";

export * from "./limits.ts";

/** The name of an ErrorReason that a node sends (every value but UNSPECIFIED). */
export type ErrorReasonName = Exclude<
  keyof typeof palisade.v1.ErrorReason,
  "ERROR_REASON_UNSPECIFIED"
>;

/** The client error classes a status can become (client/errors.ts defines them). */
export type ClientErrorClass =
  | "InvalidArgumentError"
  | "SessionNotFoundError"
  | "StaleTokenError"
  | "NotHolderError"
  | "RequestTooOldError"
  | "FailedPreconditionError"
  | "LimitError"
  | "UnavailableError"
  | "PermissionDeniedError"
  | "UnauthenticatedError"
  | "ServerError";

export interface WireError {
  readonly code: Status;
  readonly errorClass: ClientErrorClass;
}

const entry = (code: Status, errorClass: ClientErrorClass): WireError => ({ code, errorClass });

/** Every reason with its status code and client error class. */
export const WIRE_ERRORS: Readonly<Record<ErrorReasonName, WireError>> = {
  ERROR_REASON_INVALID_ARGUMENT: entry(Status.INVALID_ARGUMENT, "InvalidArgumentError"),
  ERROR_REASON_MALFORMED_REQUEST: entry(Status.INVALID_ARGUMENT, "InvalidArgumentError"),
  ERROR_REASON_NOT_AN_ACQUIRE: entry(Status.INVALID_ARGUMENT, "InvalidArgumentError"),

  ERROR_REASON_SESSION_NOT_FOUND: entry(Status.NOT_FOUND, "SessionNotFoundError"),
  ERROR_REASON_SESSION_ENDED: entry(Status.NOT_FOUND, "SessionNotFoundError"),
  // Not about the session: a client that saw it must not take its session for lost.
  ERROR_REASON_NO_SUCH_WAIT: entry(Status.NOT_FOUND, "ServerError"),

  ERROR_REASON_STALE_TOKEN: entry(Status.FAILED_PRECONDITION, "StaleTokenError"),
  ERROR_REASON_NOT_HOLDER: entry(Status.FAILED_PRECONDITION, "NotHolderError"),
  ERROR_REASON_REQUEST_TOO_OLD: entry(Status.FAILED_PRECONDITION, "RequestTooOldError"),
  ERROR_REASON_NO_TRANSFER_TARGET: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_LEARNER_BEHIND: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_MEMBERSHIP_REFUSED: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),

  ERROR_REASON_TOO_MANY_SESSIONS: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_TOO_MANY_WAITERS: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_TOO_MANY_IN_FLIGHT: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_RATE_LIMITED: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_DISK_RESERVE: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_WATCH_TOO_SLOW: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
  ERROR_REASON_TOO_MANY_WAITS_ON_STREAM: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),

  ERROR_REASON_NOT_LEADER: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_NO_LEADER: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_PROPOSAL_DROPPED: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_LEADERSHIP_CHANGED: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_READ_NOT_CONFIRMED: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_SHUTTING_DOWN: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_WAIT_DETACHED: entry(Status.UNAVAILABLE, "UnavailableError"),
  ERROR_REASON_NODE_BUSY: entry(Status.UNAVAILABLE, "UnavailableError"),

  ERROR_REASON_BELOW_RETENTION: entry(Status.OUT_OF_RANGE, "ServerError"),
  ERROR_REASON_SNAPSHOT_INSTALLED: entry(Status.OUT_OF_RANGE, "ServerError"),

  ERROR_REASON_TRANSFER_TIMED_OUT: entry(Status.DEADLINE_EXCEEDED, "ServerError"),

  ERROR_REASON_CERTIFICATE_REQUIRED: entry(Status.UNAUTHENTICATED, "UnauthenticatedError"),
  ERROR_REASON_PERMISSION_DENIED: entry(Status.PERMISSION_DENIED, "PermissionDeniedError"),

  ERROR_REASON_UNSUPPORTED: entry(Status.UNIMPLEMENTED, "ServerError"),

  ERROR_REASON_INTERNAL: entry(Status.INTERNAL, "ServerError"),

  ERROR_REASON_HELD_IN_ANOTHER_MODE: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_KIND_MISMATCH: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_PERMITS_MISMATCH: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_SET_PARTLY_HELD: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_WAITS_IN_ANOTHER_REQUEST: entry(
    Status.FAILED_PRECONDITION,
    "FailedPreconditionError",
  ),
  ERROR_REASON_SUCCESSOR_NOT_WAITING: entry(Status.FAILED_PRECONDITION, "FailedPreconditionError"),
  ERROR_REASON_UNAUTHENTICATED: entry(Status.UNAUTHENTICATED, "UnauthenticatedError"),
  ERROR_REASON_QUOTA_EXCEEDED: entry(Status.RESOURCE_EXHAUSTED, "LimitError"),
};

/**
 * The class of a status that names no reason we know (one from the gRPC library itself,
 * such as a message over the size limit, or from a node older or newer than this table).
 */
const CLASS_BY_CODE: Readonly<Partial<Record<Status, ClientErrorClass>>> = {
  [Status.INVALID_ARGUMENT]: "InvalidArgumentError",
  [Status.NOT_FOUND]: "SessionNotFoundError",
  [Status.FAILED_PRECONDITION]: "FailedPreconditionError",
  [Status.RESOURCE_EXHAUSTED]: "LimitError",
  [Status.UNAVAILABLE]: "UnavailableError",
};

export function isErrorReasonName(value: string): value is ErrorReasonName {
  return Object.hasOwn(WIRE_ERRORS, value);
}

/** The reason a status names in its metadata, if it names one this table knows. */
export function reasonOf(metadata: Metadata | undefined): ErrorReasonName | undefined {
  const value = metadata?.get(REASON_METADATA_KEY)[0];
  return typeof value === "string" && isErrorReasonName(value) ? value : undefined;
}

/**
 * The client error class of a status: its reason's, when the reason goes with this code;
 * else the code's (a reason sent with another code is a node's mistake, and the code is
 * what every gRPC layer on the way agreed on).
 */
export function errorClassOf(code: Status, reason: ErrorReasonName | undefined): ClientErrorClass {
  const known = reason === undefined ? undefined : WIRE_ERRORS[reason];
  if (known !== undefined && known.code === code) return known.errorClass;
  return CLASS_BY_CODE[code] ?? "ServerError";
}

// ---------------------------------------------------------------- uint64

/** Invalid wire input (or a value that cannot be put on the wire). */
export class CodecError extends Error {
  override readonly name = "CodecError";
}

export const MAX_U64 = (1n << 64n) - 1n;

/** A uint64 as protobufjs hands it out or accepts it. Unset proto3 fields read as 0. */
export type U64Input = Long | number | string | bigint | null | undefined;

const U32 = 0x1_0000_0000n;
/** 2^53 - 1 as a bigint: the largest uint64 a number field may carry. */
export const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
/** The largest high word of a uint64 whose value is still a safe JavaScript integer. */
const MAX_SAFE_HIGH = 0x1f_ffff;

/**
 * A wire uint64 as a number when it is a Long that fits a safe integer, else null: the
 * common case of the number fields, read without a bigint.
 */
export function safeLongNumber(value: U64Input): number | null {
  if (value === null || typeof value !== "object" || !Long.isLong(value)) return null;
  if (!value.unsigned && value.high < 0) return null;
  const high = value.high >>> 0;
  return high <= MAX_SAFE_HIGH ? high * 0x1_0000_0000 + (value.low >>> 0) : null;
}

/** A wire uint64 (or a decimal string, number or bigint) as a bigint in [0, 2^64). */
export function u64(value: U64Input, field = "value"): bigint {
  if (value === null || value === undefined) return 0n;
  let result: bigint;
  if (typeof value === "bigint") {
    result = value;
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value))
      throw new CodecError(`${field}: ${value} is not a safe integer`);
    result = BigInt(value);
  } else if (typeof value === "string") {
    if (!/^[0-9]{1,20}$/.test(value))
      throw new CodecError(`${field}: "${value.slice(0, 40)}" is not a decimal uint64`);
    result = BigInt(value);
  } else if (Long.isLong(value)) {
    // Another copy of long.js may have made it (protobufjs loads the CommonJS build),
    // so read the bits rather than relying on instanceof or methods.
    if (!value.unsigned && value.high < 0) throw new CodecError(`${field}: negative value`);
    const high = value.high >>> 0;
    // Ids, seqs and tokens fit 53 bits: one conversion from an exact number, no bigint math.
    if (high <= MAX_SAFE_HIGH) return BigInt(high * 0x1_0000_0000 + (value.low >>> 0));
    result = BigInt(high) * U32 + BigInt(value.low >>> 0);
  } else {
    throw new CodecError(`${field}: not a uint64`);
  }
  if (result < 0n || result > MAX_U64)
    throw new CodecError(`${field}: ${result} is outside uint64`);
  return result;
}

/** A repeated uint64 field (such as `held`) as bigints. */
export function u64s(values: readonly U64Input[] | null | undefined, field = "values"): bigint[] {
  return (values ?? []).map((value) => u64(value, field));
}

/** A uint64 for the wire (a Long, as the generated encoders expect). */
export function toU64(value: bigint | number, field = "value"): Long {
  // Terms, indexes, seqs, ids and tokens are safe integers: split without bigint math.
  const n = typeof value === "number" ? value : value <= MAX_SAFE_BIG ? Number(value) : -1;
  if (n >= 0 && Number.isSafeInteger(n))
    return Long.fromBits(n >>> 0, Math.floor(n / 0x1_0000_0000) >>> 0, true);
  const big = typeof value === "number" ? safeNumberToBigint(value, field) : value;
  if (big < 0n || big > MAX_U64) throw new CodecError(`${field}: ${big} is outside uint64`);
  return Long.fromBits(Number(big % U32) | 0, Number(big / U32) | 0, true);
}

function safeNumberToBigint(value: number, field: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new CodecError(`${field}: ${value} is not a non-negative safe integer`);
  return BigInt(value);
}

/** A uint64 that must fit a JavaScript number exactly (terms, indexes, node ids, counters). */
export function u64ToNumber(value: U64Input, field = "value"): number {
  const fast = safeLongNumber(value);
  if (fast !== null) return fast;
  const big = u64(value, field);
  if (big > MAX_SAFE_BIG) throw new CodecError(`${field}: ${big} is above 2^53 - 1`);
  return Number(big);
}
