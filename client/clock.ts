// The client's clocks. Monotonic time is process.hrtime.bigint(), which reads
// CLOCK_MONOTONIC on Linux and so means the same instant in every process on a host
// (performance.now() is relative to each process's start and cannot be handed to another
// process).
//
// Session, LockHandle and StallWatch take a ClientClock instead of reading the system's,
// so a simulator can run them in virtual time; systemClock is the real one.

/** A pending timer of a ClientClock. */
export interface Timer {
  cancel(): void;
}

export interface ClientClock {
  /** Milliseconds of a monotonic clock (fractional). */
  monotonicMs(): number;
  /** Milliseconds of the wall clock since the epoch; it can jump either way. */
  wallMs(): number;
  /** Runs `fn` once after `ms` of monotonic time; the timer does not keep the process alive. */
  setTimeout(fn: () => void, ms: number): Timer;
  /** Runs `fn` every `ms` until cancelled; the timer does not keep the process alive. */
  setInterval(fn: () => void, ms: number): Timer;
}

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

/** The host's clocks and Node's timers. */
export const systemClock: ClientClock = {
  monotonicMs,
  wallMs: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  setInterval(fn, ms) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};

/** Resolves after `ms` on `clock`. */
export function sleep(clock: ClientClock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, ms);
  });
}
