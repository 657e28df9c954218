// Input validation shared by the gRPC server (reject before proposing) and by apply
// (a bad command in the log gets an INVALID_ARGUMENT answer and changes nothing).
// Each check returns a message for the client, or null when the input is fine.
import { checkIdentityName, MAX_POLICY_BYTES, Policy, PolicyParseError } from "../auth/policy.ts";
import type { AcquireCommand, Command, LockTarget, SequencedWrite } from "./commands.ts";
import { LOCK_MODES } from "./kinds.ts";
import { checkClientName, checkLockName, checkRequestId, utf8Length } from "../../proto/names.ts";
import { checkLimits, DEFAULT_LOCK_LIMITS, type LockLimits } from "./limits.ts";

export { checkClientName, checkLockName, checkRequestId, utf8Length } from "../../proto/names.ts";

const MAX_U64 = (1n << 64n) - 1n;

export function checkTtl(ttlMs: number, limits: LockLimits = DEFAULT_LOCK_LIMITS): string | null {
  if (!Number.isSafeInteger(ttlMs) || ttlMs < limits.minTtlMs || ttlMs > limits.maxTtlMs) {
    return `ttl_ms ${ttlMs} is outside ${limits.minTtlMs}..${limits.maxTtlMs}`;
  }
  return null;
}

export function checkWaitMs(
  waitMs: number,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > limits.maxWaitMs) {
    return `wait_ms ${waitMs} is outside 0..${limits.maxWaitMs}`;
  }
  return null;
}

export function checkSessionId(sessionId: bigint): string | null {
  if (typeof sessionId !== "bigint" || sessionId < 1n || sessionId > MAX_U64)
    return `malformed session id ${String(sessionId)}`;
  return null;
}

export function checkToken(token: bigint): string | null {
  if (typeof token !== "bigint" || token < 1n || token > MAX_U64)
    return `malformed token ${String(token)}`;
  return null;
}

export function checkSeq(seq: number, what = "seq"): string | null {
  if (!Number.isSafeInteger(seq) || seq < 1) return `${what} must be a positive integer`;
  return null;
}

export function checkSequenced(
  write: SequencedWrite,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  const bad = checkSessionId(write.sessionId) ?? checkSeq(write.seq);
  if (bad) return bad;
  if (
    !Number.isSafeInteger(write.ackedUpTo) ||
    write.ackedUpTo < 0 ||
    write.ackedUpTo >= write.seq
  ) {
    return `acked_up_to ${write.ackedUpTo} must be in 0..seq-1`;
  }
  if (!Array.isArray(write.held) || write.held.length > limits.maxHeldList) {
    return `at most ${limits.maxHeldList} held seqs may be listed`;
  }
  for (const s of write.held) {
    if (!Number.isSafeInteger(s) || s <= write.ackedUpTo || s >= write.seq) {
      return `held seq ${s} must be above acked_up_to and below seq`;
    }
  }
  return null;
}

/** A target's mode or permit count (its name is checked on its own). */
function checkTarget(
  t: Omit<LockTarget, "mode"> & { readonly mode?: LockTarget["mode"] | "leader" },
  limits: LockLimits,
): string | null {
  // A Campaign: one election, neither a semaphore nor part of a set.
  if (t.mode === "leader") return t.permits === undefined ? null : "an election has no permits";
  if (t.permits !== undefined) {
    if (t.mode !== undefined) return `mode is for locks: semaphore ${t.lock} takes permits only`;
    if (!Number.isSafeInteger(t.permits) || t.permits < 1 || t.permits > limits.maxPermits) {
      return `permits ${t.permits} of semaphore ${t.lock} is outside 1..${limits.maxPermits}`;
    }
    return null;
  }
  if (t.mode !== undefined && !LOCK_MODES.includes(t.mode))
    return `mode ${JSON.stringify(t.mode)} of ${t.lock} is unknown (exclusive, shared or upgradeable)`;
  return null;
}

export function checkHolderData(
  data: string | undefined,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  if (data === undefined) return null;
  if (typeof data !== "string") return "holder_data must be a string";
  const length = utf8Length(data);
  if (length < 0) return "holder_data is not valid UTF-8";
  if (length > limits.maxHolderDataBytes)
    return `holder_data is ${length} bytes, more than ${limits.maxHolderDataBytes}`;
  return null;
}

export function checkHoldMs(
  holdMs: number | undefined,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  if (holdMs === undefined || holdMs === 0) return null;
  if (!Number.isSafeInteger(holdMs) || holdMs < limits.minHoldMs || holdMs > limits.maxHoldMs) {
    return `hold_ms ${holdMs} is outside ${limits.minHoldMs}..${limits.maxHoldMs} (0: no hold limit)`;
  }
  return null;
}

/** Every lock of an Acquire: names, modes, permit counts, no name twice, at most the limit. */
export function checkTargets(
  cmd: AcquireCommand,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  const first = checkLockName(cmd.lock) ?? checkTarget(cmd, limits);
  if (first) return first;
  if (cmd.more === undefined) return null;
  if (cmd.mode === "leader") return "an election is campaigned for alone, never in a set";
  if (!Array.isArray(cmd.more)) return "locks must be a list";
  const count = cmd.more.length + 1;
  if (count > limits.maxLocksPerAcquire)
    return `locks: ${count} locks in one Acquire, more than ${limits.maxLocksPerAcquire}`;
  const names = new Set<string>([cmd.lock]);
  for (const t of cmd.more) {
    if (typeof t !== "object" || t === null) return "locks: each entry must name a lock";
    const bad = checkLockName(t.lock) ?? checkTarget(t, limits);
    if (bad) return bad;
    if (names.has(t.lock)) return `locks: ${t.lock} is named twice in one Acquire`;
    names.add(t.lock);
  }
  return null;
}

function prefixed(what: string, problem: string | null): string | null {
  return problem === null ? null : `${what} ${problem}`;
}

function checkTokenId(id: string): string | null {
  return typeof id === "string" && TOKEN_ID.test(id) ? null : "token id must be 16 hex digits";
}

function checkRoles(roles: readonly string[]): string | null {
  if (!Array.isArray(roles) || roles.length > 16) return "a token has at most 16 roles";
  for (const role of roles) {
    const bad = checkIdentityName(role);
    if (bad) return `role "${role}" ${bad}`;
  }
  return null;
}

/** A policy's text, parsed as apply will parse it: every error with its line. */
function checkPolicyText(text: string): string | null {
  try {
    Policy.parse(text);
    return null;
  } catch (err) {
    if (err instanceof PolicyParseError) return `policy refused: ${err.message}`;
    throw err;
  }
}

function checkWallMs(wallMs: number): string | null {
  return typeof wallMs === "number" ? null : "wall clock must be a number";
}

const TOKEN_ID = /^[0-9a-f]{16}$/;

/** Checks a whole command; null when it may be applied. */
export function validateCommand(
  cmd: Command,
  limits: LockLimits = DEFAULT_LOCK_LIMITS,
): string | null {
  switch (cmd.type) {
    case "openSession":
      return (
        (cmd.requestId === "" ? null : checkRequestId(cmd.requestId)) ??
        checkTtl(cmd.ttlMs, limits) ??
        checkClientName(cmd.clientName) ??
        checkWallMs(cmd.wallMs)
      );
    case "closeSession":
      return checkSequenced(cmd, limits) ?? checkWallMs(cmd.wallMs);
    case "expireSession":
      return checkSessionId(cmd.sessionId) ?? checkWallMs(cmd.wallMs);
    case "acquire":
      return (
        checkSequenced(cmd, limits) ??
        checkTargets(cmd, limits) ??
        checkWaitMs(cmd.waitMs, limits) ??
        checkHolderData(cmd.holderData, limits) ??
        checkHoldMs(cmd.holdMs, limits) ??
        checkWallMs(cmd.wallMs)
      );
    case "cancelWait":
      if (cmd.reason !== "client" && cmd.reason !== "timeout") return "unknown cancel reason";
      return (
        checkSessionId(cmd.sessionId) ??
        checkLockName(cmd.lock) ??
        checkSeq(cmd.acquireSeq, "acquire_seq") ??
        checkWallMs(cmd.wallMs)
      );
    case "release":
      return (
        checkSequenced(cmd, limits) ??
        checkLockName(cmd.lock) ??
        checkToken(cmd.token) ??
        (cmd.successor === undefined ? null : checkSessionId(cmd.successor)) ??
        (cmd.successor === cmd.sessionId ? "a session cannot hand a grant to itself" : null) ??
        checkWallMs(cmd.wallMs)
      );
    case "proclaim":
      return (
        checkSequenced(cmd, limits) ??
        checkLockName(cmd.lock) ??
        checkToken(cmd.token) ??
        checkHolderData(cmd.value, limits) ??
        checkWallMs(cmd.wallMs)
      );
    case "upgrade":
      return (
        checkSequenced(cmd, limits) ??
        checkLockName(cmd.lock) ??
        checkToken(cmd.token) ??
        checkWaitMs(cmd.waitMs, limits) ??
        checkWallMs(cmd.wallMs)
      );
    case "downgrade":
      return (
        checkSequenced(cmd, limits) ??
        checkLockName(cmd.lock) ??
        checkToken(cmd.token) ??
        (cmd.mode === "shared" || cmd.mode === "upgradeable"
          ? null
          : "a downgrade makes a grant shared or upgradeable") ??
        checkWallMs(cmd.wallMs)
      );
    case "revoke":
      return checkLockName(cmd.lock) ?? checkToken(cmd.token) ?? checkWallMs(cmd.wallMs);
    case "holdLimit":
      // Not the hold bounds: they may have changed since the grant, whose limit still ends it.
      return (
        checkSessionId(cmd.sessionId) ??
        checkToken(cmd.token) ??
        checkSeq(cmd.holdMs, "hold_ms") ??
        checkWallMs(cmd.wallMs)
      );
    case "setLimits":
      return checkLimits(cmd.limits) ?? checkWallMs(cmd.wallMs);
    case "setPolicy":
      return (
        checkPolicyText(cmd.text) ??
        (cmd.source === undefined ||
        (typeof cmd.source === "string" && utf8Length(cmd.source) <= MAX_POLICY_BYTES)
          ? null
          : `a policy's source is at most ${MAX_POLICY_BYTES} bytes of UTF-8`) ??
        checkWallMs(cmd.wallMs)
      );
    case "createToken":
      return (
        checkTokenId(cmd.id) ??
        prefixed("identity", checkIdentityName(cmd.identity)) ??
        checkRoles(cmd.roles) ??
        (/^[0-9a-f]{64}$/.test(cmd.hash) ? null : "token hash must be 64 hex digits") ??
        (Number.isSafeInteger(cmd.expiresAtMs) && cmd.expiresAtMs >= 0
          ? null
          : "token expiry must be a non-negative integer") ??
        checkWallMs(cmd.wallMs)
      );
    case "revokeToken":
      return checkTokenId(cmd.id) ?? checkWallMs(cmd.wallMs);
    default:
      return "unknown command";
  }
}
