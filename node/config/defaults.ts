// Default values of every cluster-file knob. Plain constants with no dependencies, so
// any module (the deterministic core included) can read them without pulling in the
// schema library.

const KiB = 1024;
const MiB = 1024 * KiB;

export const DEFAULT_RAFT = {
  tickMs: 50,
  electionTicks: 10,
  heartbeatTicks: 1,
  maxInflightMsgs: 256,
  maxBytesPerAppend: 1 * MiB,
  snapshotEntries: 10_000,
} as const;

export const DEFAULT_LIMITS = {
  maxSessions: 100_000,
  maxLocksPerSession: 1_000,
  maxWaitersPerLock: 10_000,
  maxInflightPerSession: 64,
  maxMessageBytes: 4 * MiB,
  maxWaitMs: 3_600_000,
  minTtlMs: 1_000,
  maxTtlMs: 3_600_000,
  requestsPerSecond: 10_000,
  requestBurst: 20_000,
  maxPermits: 10_000,
  maxLocksPerAcquire: 64,
  maxHolderDataBytes: 1 * KiB,
  minHoldMs: 1_000,
  maxHoldMs: 86_400_000,
} as const;

export const DEFAULT_DISK = {
  reserveBytes: 64 * MiB,
} as const;

export const DEFAULT_SESSION = {
  driftBound: 0.01,
} as const;

export const DEFAULT_STATUS_PAGE = {
  enabled: true,
  maxLiveFeeds: 16,
} as const;
