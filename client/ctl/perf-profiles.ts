// The loads of `palisadectl check perf` and the limits a cluster must keep under each. The
// figures behind them are in docs/operations/sizing.md: small is a quiet developer machine's
// loopback cluster with room to spare, large a dedicated three-host deployment's load.

export type ProfileName = "small" | "medium" | "large";

export const PROFILE_NAMES: readonly ProfileName[] = ["small", "medium", "large"];

/** What a cluster must keep to pass a check. */
export interface PerfThresholds {
  /** Achieved acquire+release cycles per second over the target, at least (0..1). */
  readonly minThroughputRatio: number;
  /** Acquire latency p99 as the client sees it, at most. */
  readonly maxAcquireP99Ms: number;
  /** Failed acquires and releases over the acquires tried, at most (0..1). */
  readonly maxErrorRatio: number;
  /** The nodes' fsync time p99 over the load, at most. */
  readonly maxFsyncP99Ms: number;
  /** The nodes' peer round-trip time p99 over the load, at most. */
  readonly maxRttP99Ms: number;
  /** The nodes' proposal commit time p99 over the load, at most. */
  readonly maxCommitP99Ms: number;
  /** The nodes' event-loop delay p99 over the load (the busiest node's), at most. */
  readonly maxEventLoopP99Ms: number;
}

export interface PerfProfile {
  readonly name: ProfileName;
  /** Sessions opened; workers take them in turn, the others only keep alive. */
  readonly sessions: number;
  /** Workers, each cycling acquire → release on a lock of its own. */
  readonly concurrency: number;
  /** Target acquire+release cycles per second, all workers together. */
  readonly rate: number;
  /** Length of the load in seconds. */
  readonly seconds: number;
  readonly thresholds: PerfThresholds;
}

export const PERF_PROFILES: Readonly<Record<ProfileName, PerfProfile>> = {
  small: {
    name: "small",
    sessions: 50,
    concurrency: 8,
    rate: 200,
    seconds: 30,
    thresholds: {
      minThroughputRatio: 0.9,
      maxAcquireP99Ms: 100,
      maxErrorRatio: 0.01,
      maxFsyncP99Ms: 50,
      maxRttP99Ms: 50,
      maxCommitP99Ms: 100,
      maxEventLoopP99Ms: 50,
    },
  },
  medium: {
    name: "medium",
    sessions: 200,
    concurrency: 32,
    rate: 1_000,
    seconds: 30,
    thresholds: {
      minThroughputRatio: 0.9,
      maxAcquireP99Ms: 100,
      maxErrorRatio: 0.01,
      maxFsyncP99Ms: 20,
      maxRttP99Ms: 10,
      maxCommitP99Ms: 50,
      maxEventLoopP99Ms: 20,
    },
  },
  large: {
    name: "large",
    sessions: 1_000,
    concurrency: 128,
    rate: 2_500,
    seconds: 30,
    thresholds: {
      minThroughputRatio: 0.9,
      maxAcquireP99Ms: 150,
      maxErrorRatio: 0.01,
      maxFsyncP99Ms: 10,
      maxRttP99Ms: 5,
      maxCommitP99Ms: 50,
      maxEventLoopP99Ms: 20,
    },
  },
};

/** Limits given on the command line in place of the profile's. */
export type ThresholdOverrides = Partial<Record<keyof PerfThresholds, number>>;

/** The profile's thresholds with the given ones in their place. */
export function thresholdsWith(
  profile: PerfProfile,
  overrides: ThresholdOverrides,
): PerfThresholds {
  const given = Object.fromEntries(
    Object.entries(overrides).filter(([, v]) => v !== undefined),
  ) as ThresholdOverrides;
  return { ...profile.thresholds, ...given };
}
