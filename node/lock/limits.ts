// Limits of the lock state machine. They decide answers at apply time, so they are
// replicated state: every replica starts from the same values (DEFAULT_LOCK_LIMITS on a
// node) and changes them only by applying a setLimits command from the log, and they
// travel in snapshots. A node's cluster file only says what its leader proposes.

export interface LockLimits {
  /** Live sessions in the cluster. */
  readonly maxSessions: number;
  /** Locks a session holds or waits for. */
  readonly maxLocksPerSession: number;
  readonly maxWaitersPerLock: number;
  /** Kept answers plus pending waits per session. */
  readonly maxInFlightPerSession: number;
  /** Entries of the acknowledged-seq list a write may carry. */
  readonly maxHeldList: number;
  readonly minTtlMs: number;
  readonly maxTtlMs: number;
  readonly maxWaitMs: number;
  readonly historyPerLock: number;
  readonly historyTotal: number;
  /** OpenSession request ids remembered for retries. */
  readonly rememberedRequestIds: number;
  /** Closed session ids remembered so a retried CloseSession answers OK. */
  readonly rememberedClosedSessions: number;
  /** Most permits a semaphore may have. */
  readonly maxPermits: number;
  /** Most locks one (multi-lock) Acquire may name. */
  readonly maxLocksPerAcquire: number;
  /** Bytes of UTF-8 an Acquire's holder data may have. */
  readonly maxHolderDataBytes: number;
  /** Bounds of a hold limit (0 asks for none). */
  readonly minHoldMs: number;
  readonly maxHoldMs: number;
}

export const DEFAULT_LOCK_LIMITS: LockLimits = Object.freeze({
  maxSessions: 100_000,
  maxLocksPerSession: 1_000,
  maxWaitersPerLock: 10_000,
  maxInFlightPerSession: 64,
  maxHeldList: 64,
  minTtlMs: 1_000,
  maxTtlMs: 3_600_000,
  maxWaitMs: 3_600_000,
  historyPerLock: 16,
  historyTotal: 100_000,
  rememberedRequestIds: 100_000,
  rememberedClosedSessions: 100_000,
  maxPermits: 10_000,
  maxLocksPerAcquire: 64,
  maxHolderDataBytes: 1_024,
  minHoldMs: 1_000,
  maxHoldMs: 86_400_000,
});

/** The limits a cluster file may set (its `limits` section); the others keep their defaults. */
export const CONFIGURABLE_LIMITS = Object.freeze([
  "maxSessions",
  "maxLocksPerSession",
  "maxWaitersPerLock",
  "maxInFlightPerSession",
  "maxWaitMs",
  "minTtlMs",
  "maxTtlMs",
  "maxPermits",
  "maxLocksPerAcquire",
  "maxHolderDataBytes",
  "minHoldMs",
  "maxHoldMs",
] as const satisfies readonly (keyof LockLimits)[]);

export type ConfigurableLimit = (typeof CONFIGURABLE_LIMITS)[number];

/** The configurable limits of `values` (a cluster file's section, or the defaults). */
export function configurableOf(
  values: Readonly<Record<ConfigurableLimit, number>>,
): Record<ConfigurableLimit, number> {
  return Object.fromEntries(CONFIGURABLE_LIMITS.map((k) => [k, values[k]])) as Record<
    ConfigurableLimit,
    number
  >;
}

/**
 * Every limit, in the fixed order of their binary encoding (commands and snapshots). New
 * limits go at the end: an encoding that carries fewer (written before they existed) leaves
 * the later ones at their defaults.
 */
export const LIMIT_KEYS: readonly (keyof LockLimits)[] = Object.freeze([
  "maxSessions",
  "maxLocksPerSession",
  "maxWaitersPerLock",
  "maxInFlightPerSession",
  "maxHeldList",
  "minTtlMs",
  "maxTtlMs",
  "maxWaitMs",
  "historyPerLock",
  "historyTotal",
  "rememberedRequestIds",
  "rememberedClosedSessions",
  "maxPermits",
  "maxLocksPerAcquire",
  "maxHolderDataBytes",
  "minHoldMs",
  "maxHoldMs",
]);

/**
 * Limits decoded from `values` in LIMIT_KEYS order; values missing at the end (an older
 * encoding) take their defaults. Null when there are more values than limits.
 */
export function limitsFromValues(values: readonly number[]): LockLimits | null {
  if (values.length > LIMIT_KEYS.length) return null;
  const limits: Record<string, number> = { ...DEFAULT_LOCK_LIMITS };
  LIMIT_KEYS.forEach((key, i) => {
    if (i < values.length) limits[key] = values[i] as number;
  });
  return limits as unknown as LockLimits;
}

/** Why a set of limits cannot be used, or null when it can. */
export function checkLimits(limits: LockLimits): string | null {
  for (const key of LIMIT_KEYS) {
    const value = limits[key];
    if (!Number.isSafeInteger(value) || value < 0)
      return `lock limit ${key} must be a non-negative integer`;
  }
  if (limits.minTtlMs > limits.maxTtlMs) return "lock limit minTtlMs is above maxTtlMs";
  if (limits.minHoldMs > limits.maxHoldMs) return "lock limit minHoldMs is above maxHoldMs";
  if (limits.maxLocksPerAcquire < 1) return "lock limit maxLocksPerAcquire must be at least 1";
  return null;
}

export function resolveLimits(overrides: Partial<LockLimits> = {}): LockLimits {
  const limits: LockLimits = { ...DEFAULT_LOCK_LIMITS, ...overrides };
  const bad = checkLimits(limits);
  if (bad !== null) throw new RangeError(bad);
  return Object.freeze(limits);
}

export function sameLimits(a: LockLimits, b: LockLimits): boolean {
  return LIMIT_KEYS.every((key) => a[key] === b[key]);
}

export {
  MAX_CLIENT_NAME_BYTES,
  MAX_LOCK_NAME_BYTES,
  MAX_REQUEST_ID_BYTES,
} from "../../proto/names.ts";
/** Log indexes stay below 2^48 so that epoch × 2^48 + index is a unique token. */
export const MAX_INDEX = 2 ** 48 - 1;
export const MAX_EPOCH = 2 ** 16 - 1;
