// The field readers and writers the LockService codec is built from. A reader takes a
// decoded protobuf field and gives the domain value or throws CodecError naming the field
// and what is allowed (so a node answers a malformed request INVALID_ARGUMENT with that
// message); a writer gives the protobuf field of a domain value.
import type Long from "long";
import { palisade } from "../gen/palisade.js";
import { checkLockName } from "../names.ts";
import type {
  GrantMode,
  HolderCursor,
  KindFields,
  LockMode,
  LockTarget,
  WriteAcks,
} from "../lock-values.ts";
import {
  CodecError,
  MAX_PAGE_SIZE,
  MAX_SAFE_BIG,
  safeLongNumber,
  toU64,
  u64,
  type U64Input,
} from "../wire.ts";

const pb = palisade.v1;

/** Throws CodecError for `problem` (a check's message), prefixed with the field it is about. */
export function ensure(problem: string | null, field?: string): void {
  if (problem !== null) throw new CodecError(field ? `${field}: ${problem}` : problem);
}

/** A uint64 field as a bigint. */
export function bigField(value: U64Input, field: string): bigint {
  return u64(value, field);
}

/** A uint64 field that must fit a JavaScript number (seqs, durations, indexes). */
export function numberField(value: U64Input, field: string): number {
  const fast = safeLongNumber(value);
  if (fast !== null) return fast;
  const big = u64(value, field);
  if (big > MAX_SAFE_BIG) throw new CodecError(`${field}: ${big} is too large`);
  return Number(big);
}

export function stringField(value: unknown, field: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") throw new CodecError(`${field}: expected a string`);
  return value;
}

/** A session id: never 0. */
export function sessionIdField(value: U64Input, field = "session_id"): bigint {
  const id = u64(value, field);
  if (id === 0n) throw new CodecError(`${field} is missing (0 is never a session id)`);
  return id;
}

/** A token: never 0. */
export function tokenField(value: U64Input, field = "token"): bigint {
  const token = u64(value, field);
  if (token === 0n) throw new CodecError(`${field} is missing (0 is never a token)`);
  return token;
}

export function lockField(value: unknown, field = "lock"): string {
  const name = stringField(value, field);
  ensure(checkLockName(name), field);
  return name;
}

/** A name prefix or a page token: "" or a lock name. */
export function optionalLockField(value: unknown, field: string): string {
  const name = stringField(value, field);
  if (name !== "") ensure(checkLockName(name), field);
  return name;
}

/** A uint32 count that protobufjs decoded (unset: 0). */
export function countField(value: number | null | undefined, field: string): number {
  const n = value ?? 0;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new CodecError(`${field}: expected a non-negative integer`);
  return n;
}

/** A page's limit: at most MAX_PAGE_SIZE (0: the default page, or for a list of GetLock none). */
export function pageLimitField(value: number | null | undefined, field: string): number {
  const limit = countField(value, field);
  if (limit > MAX_PAGE_SIZE)
    throw new CodecError(`${field}: ${limit} is above the largest page, ${MAX_PAGE_SIZE}`);
  return limit;
}

// ---------------------------------------------------------------- sequenced writes

interface SequencedFields {
  sessionId?: U64Input;
  seq?: U64Input;
  ackedUpTo?: U64Input;
  held?: readonly U64Input[] | null;
}

/** A write's session, seq and acknowledgements (the node checks them against its limits too). */
export function sequencedFields(req: SequencedFields): {
  sessionId: bigint;
  seq: number;
  ackedUpTo: number;
  held: number[];
} {
  const sessionId = sessionIdField(req.sessionId);
  const seq = numberField(req.seq, "seq");
  if (seq < 1) throw new CodecError("seq must be at least 1 (seqs start at 1 per session)");
  const ackedUpTo = numberField(req.ackedUpTo, "acked_up_to");
  const held = (req.held ?? []).map((v) => numberField(v, "held"));
  return { sessionId, seq, ackedUpTo, held };
}

export function wireSequenced(req: { sessionId: bigint; seq: number } & WriteAcks): {
  sessionId: Long;
  seq: Long;
  ackedUpTo: Long;
  held: Long[];
} {
  return {
    sessionId: toU64(req.sessionId, "sessionId"),
    seq: toU64(req.seq, "seq"),
    ackedUpTo: toU64(req.ackedUpTo),
    held: req.held.map((s) => toU64(s)),
  };
}

// ---------------------------------------------------------------- lock kinds

const LOCK_MODES: Readonly<Record<number, LockMode | undefined>> = {
  [pb.LockMode.LOCK_MODE_UNSPECIFIED]: undefined,
  [pb.LockMode.LOCK_MODE_SHARED]: "shared",
  [pb.LockMode.LOCK_MODE_EXCLUSIVE]: "exclusive",
  [pb.LockMode.LOCK_MODE_UPGRADEABLE]: "upgradeable",
};

/** The wire fields of one lock of an Acquire (its mode, or its permits), as a target names them. */
interface TargetFields {
  mode?: palisade.v1.LockMode | null;
  permits?: U64Input;
}

/** A lock's mode or a semaphore's permit count; `prefix` names the entry ("" for the request's own lock). */
export function targetFields(
  t: TargetFields,
  prefix: string,
): { mode?: LockMode; permits?: number } {
  const rawMode = t.mode ?? 0;
  if (rawMode === pb.LockMode.LOCK_MODE_LEADER)
    throw new CodecError(`${prefix}mode: an election's lead is taken with Campaign, not Acquire`);
  if (!Object.hasOwn(LOCK_MODES, rawMode)) {
    throw new CodecError(
      `${prefix}mode: ${String(rawMode)} is not a lock mode (LOCK_MODE_SHARED, LOCK_MODE_EXCLUSIVE or LOCK_MODE_UPGRADEABLE; unset: exclusive)`,
    );
  }
  const mode = LOCK_MODES[rawMode];
  // Unset (null) in a decoded message unless the client sent it; 0 then is a value it sent.
  if (t.permits === null || t.permits === undefined) return mode !== undefined ? { mode } : {};
  const permits = numberField(t.permits, `${prefix}permits`);
  if (mode !== undefined)
    throw new CodecError(
      `${prefix}mode: a semaphore (permits set) takes no mode; leave mode unset`,
    );
  return { permits };
}

/** The other locks of a multi-lock Acquire: names, kinds, none twice. */
export function moreLocksField(
  raw: readonly palisade.v1.LockTarget.$Properties[] | null | undefined,
  lock: string,
): LockTarget[] {
  if (raw === null || raw === undefined || raw.length === 0) return [];
  const names = new Set<string>([lock]);
  return (raw ?? []).map((entry, i) => {
    const prefix = `more_locks[${i}].`;
    const name = lockField(entry.lock, `${prefix}lock`);
    if (names.has(name))
      throw new CodecError(`${prefix}lock: ${name} is named twice in one Acquire`);
    names.add(name);
    return { lock: name, ...targetFields(entry, prefix) };
  });
}

/** Exclusive is the unset mode. */
export function wireMode(mode: LockMode | GrantMode | undefined): { mode?: palisade.v1.LockMode } {
  switch (mode) {
    case "shared":
      return { mode: pb.LockMode.LOCK_MODE_SHARED };
    case "upgradeable":
      return { mode: pb.LockMode.LOCK_MODE_UPGRADEABLE };
    case "leader":
      return { mode: pb.LockMode.LOCK_MODE_LEADER };
    default:
      return {};
  }
}

/** A lock mode other than exclusive as the wire names it (exclusive, the default, is undefined). */
export function sharedModeOf(
  raw: palisade.v1.LockMode | null | undefined,
): "shared" | "upgradeable" | undefined {
  if (raw === pb.LockMode.LOCK_MODE_SHARED) return "shared";
  return raw === pb.LockMode.LOCK_MODE_UPGRADEABLE ? "upgradeable" : undefined;
}

/** One lock of a multi-lock request. */
export function wireTarget(t: LockTarget): palisade.v1.LockTarget.$Properties {
  if (t.permits !== undefined) return { lock: t.lock, permits: toU64(t.permits, "permits") };
  return { lock: t.lock, ...wireMode(t.mode) };
}

export function targetFrom(t: palisade.v1.LockTarget.$Properties): LockTarget {
  const lock = t.lock ?? "";
  if (t.permits !== null && t.permits !== undefined)
    return { lock, permits: numberField(t.permits, "permits") };
  const mode = sharedModeOf(t.mode);
  return mode !== undefined ? { lock, mode } : { lock };
}

const utf8 = new TextEncoder();
const text = new TextDecoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Holder data: UTF-8 text (the node checks its size against its limits). */
export function holderDataField(raw: Uint8Array | null | undefined): string {
  if (raw === null || raw === undefined || raw.byteLength === 0) return "";
  try {
    return strictUtf8.decode(raw);
  } catch {
    throw new CodecError("holder_data: not valid UTF-8 (holder data is text)");
  }
}

export interface WireKindFields {
  mode?: palisade.v1.LockMode;
  permits?: number;
  slot?: number;
  holderData?: Uint8Array;
  holdMs?: Long;
}

/**
 * The kinds' fields of a holder, waiter, grant or event, each set only when it differs
 * from an exclusive grant without holder data or hold limit.
 */
export function wireKindFields(k: KindFields): WireKindFields {
  return {
    ...wireMode(k.mode),
    ...(k.mode === "permit"
      ? { permits: k.permits ?? 0, ...(k.slot ? { slot: k.slot } : {}) }
      : {}),
    ...(k.data ? { holderData: utf8.encode(k.data) } : {}),
    ...(k.holdMs ? { holdMs: toU64(k.holdMs, "holdMs") } : {}),
  };
}

/** The kinds' fields of a wire holder, waiter, event or record (permit: the wire marks a permit by a nonzero count or `permit`). */
export function kindFieldsFrom(
  wire: {
    mode?: palisade.v1.LockMode | null;
    permits?: number | null;
    slot?: number | null;
    holderData?: Uint8Array | null;
    holdMs?: U64Input;
  },
  permit = false,
): KindFields {
  const permits = wire.permits ?? 0;
  const isPermit = permit || permits > 0;
  const holdMs = numberField(wire.holdMs, "hold_ms");
  return {
    ...(isPermit
      ? { mode: "permit" as const, ...(permits > 0 ? { permits } : {}), slot: wire.slot ?? 0 }
      : sharedModeOf(wire.mode) !== undefined
        ? { mode: sharedModeOf(wire.mode) as "shared" | "upgradeable" }
        : wire.mode === pb.LockMode.LOCK_MODE_LEADER
          ? { mode: "leader" as const }
          : {}),
    ...(wire.holderData && wire.holderData.byteLength > 0
      ? { data: text.decode(wire.holderData) }
      : {}),
    ...(holdMs > 0 ? { holdMs } : {}),
  };
}

export function cursorFrom(
  wire: palisade.v1.HolderCursor.$Properties | null | undefined,
  field: string,
): HolderCursor | undefined {
  if (!wire) return undefined;
  return {
    token: bigField(wire.token, `${field}.token`),
    sessionId: bigField(wire.sessionId, `${field}.session_id`),
  };
}

export function wireCursor(
  c: HolderCursor | undefined,
): palisade.v1.HolderCursor.$Properties | null {
  return c === undefined ? null : { token: toU64(c.token), sessionId: toU64(c.sessionId) };
}
