// The client's monotonic clock: process.hrtime.bigint(), which reads CLOCK_MONOTONIC on
// Linux and so means the same instant in every process on a host (performance.now() is
// relative to each process's start and cannot be handed to another process).

/** Now, in nanoseconds of the host's monotonic clock. */
export function monotonicNs(): bigint {
  return process.hrtime.bigint();
}

/** Now, in milliseconds of the host's monotonic clock (fractional). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** A monotonic millisecond instant as the absolute nanosecond value other processes understand. */
export function msToNs(ms: number): bigint {
  return BigInt(Math.floor(ms * 1e6));
}
