// The client's clocks. Monotonic time is process.hrtime.bigint(), which reads
// CLOCK_MONOTONIC on Linux and so means the same instant in every process on a host
// (performance.now() is relative to each process's start and cannot be handed to another
// process). CLOCK_MONOTONIC stops while the host is suspended and the wall clock does not,
// so session deadlines measure elapsed time on both (elapsedMs).
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

/** Wake-ups shared by everything sleeping until the same instant of a clock. */
const wakeups = new WeakMap<ClientClock, Map<number, Promise<void>>>();

/**
 * Resolves at monotonic instant `atMs` of `clock`. Everything waiting for the same instant
 * shares one timer, so it all resumes in the same turn (the keepalives of many sessions
 * then leave in one stream message).
 */
export function sleepUntil(clock: ClientClock, atMs: number): Promise<void> {
  let byInstant = wakeups.get(clock);
  if (!byInstant) wakeups.set(clock, (byInstant = new Map()));
  const shared = byInstant.get(atMs);
  if (shared) return shared;
  const instants = byInstant;
  const wake = new Promise<void>((resolve) => {
    clock.setTimeout(
      () => {
        instants.delete(atMs);
        resolve();
      },
      Math.max(0, atMs - clock.monotonicMs()),
    );
  });
  instants.set(atMs, wake);
  return wake;
}

/** One moment, read on both clocks. */
export interface Instant {
  readonly monotonicMs: number;
  readonly wallMs: number;
}

export function instantOf(clock: ClientClock): Instant {
  return { monotonicMs: clock.monotonicMs(), wallMs: clock.wallMs() };
}

/** Date.now() counts whole milliseconds, so two readings can differ by one more than the time between them. */
const WALL_RESOLUTION_MS = 1;

/**
 * Time from `from` to `to`: the larger of the monotonic and the wall-clock difference. The
 * monotonic clock does not advance while the host is suspended, the wall clock does, so a
 * suspend counts. A forward jump of the wall clock only makes the time longer (the client
 * more cautious); after a backward jump the monotonic difference counts. The wall
 * difference loses one resolution step, so that rounding never adds time by itself.
 */
export function elapsedMs(from: Instant, to: Instant): number {
  return Math.max(to.monotonicMs - from.monotonicMs, to.wallMs - from.wallMs - WALL_RESOLUTION_MS);
}
