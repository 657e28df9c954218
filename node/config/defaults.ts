// Default values of every cluster-file knob. Plain constants, so any module (the
// deterministic core included) can read them without pulling in the schema library. The
// replicated lock limits take theirs from the lock state machine's one table.
import { configurableOf, DEFAULT_LOCK_LIMITS } from "../lock/limits.ts";

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
  ...configurableOf(DEFAULT_LOCK_LIMITS),
  /** The node's own limits: its message size and the request budget per client. */
  maxMessageBytes: 4 * MiB,
  requestsPerSecond: 10_000,
  requestBurst: 20_000,
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
