// What the throughput harness's workers record in one process (bench/lock-workers.ts), for
// bench/lock-merge.ts to turn into the figures of a cell. Times are milliseconds on a clock
// every process of a run shares: the host's monotonic clock from an epoch the harness picks,
// so records from several processes can be set against one measured window.

/** The measured part of a run, on the shared clock: [startMs, stopMs). */
export interface Window {
  startMs: number;
  stopMs: number;
}

/** Every acquire+release cycle that completed, one column per field (cheap to send). */
export interface CycleLog {
  worker: number[];
  /** Acquire sent. */
  start: number[];
  /** Acquire returned the lock. */
  acquired: number[];
  /** Release sent. */
  released: number[];
  /** Release returned. */
  end: number[];
}

/** One time a worker held the contended lock: from Acquire's answer to sending Release. */
export interface Hold {
  worker: number;
  startMs: number;
  endMs: number;
  /** The fencing token, where the system gives one. */
  fence: bigint | null;
}

/** What one process's workers (global numbers first .. first+count-1) recorded. */
export interface WorkerPart {
  first: number;
  count: number;
  cycles: CycleLog;
  /** Contended mode only: every hold, also outside the window, for the safety checks. */
  holds: Hold[];
  /** Acquire tries that found the lock taken, by the millisecond they were made in. */
  failedTriesByMs: Array<[number, number]>;
  timeouts: number;
  errors: number;
  errorSamples: Record<string, number>;
  /** This process's CPU time over the span it could sample of the window. */
  cpuMs: number;
  cpuSpanMs: number;
  /** Whether every worker returned within the drain bound after the window. */
  drained: boolean;
}

export const emptyCycleLog = (): CycleLog => ({
  worker: [],
  start: [],
  acquired: [],
  released: [],
  end: [],
});

/** Milliseconds since `epochNs` on the host's monotonic clock (the same in every process). */
export function sharedClock(epochNs: bigint): () => number {
  return () => Number(process.hrtime.bigint() - epochNs) / 1e6;
}
