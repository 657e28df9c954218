// A simulated client process: its own drifting clock (a ClientClock on virtual time, which
// the real client library reads), and what can happen to a process: it pauses (SIGSTOP: no
// timer fires and no answer is seen until it resumes, all at once) or it crashes (nothing of
// it runs again). Everything that calls back into the client runs through `run`.
import type { ClientClock, Timer } from "../../client/clock.ts";
import type { Scheduler } from "./scheduler.ts";

export class SimClientProcess {
  pausedUntil = 0;
  crashed = false;
  readonly clock: ClientClock;

  constructor(
    private readonly sched: Scheduler,
    readonly endpoint: number,
    readonly drift: number,
  ) {
    const toVirtual = (localMs: number): number => localMs / (1 + drift);
    const local = (): number => sched.now * (1 + drift);
    this.clock = {
      monotonicMs: local,
      // The wall clock runs with the monotonic one (no jumps in the simulation): a fixed offset.
      wallMs: () => 1_700_000_000_000 + local(),
      setTimeout: (fn, ms) => {
        let live = true;
        sched.after(toVirtual(ms), "client-timer", () =>
          this.run(() => {
            if (live) fn();
          }),
        );
        return { cancel: () => (live = false) };
      },
      setInterval: (fn, ms): Timer => {
        let live = true;
        const every = (): void => {
          sched.after(toVirtual(ms), "client-interval", () =>
            this.run(() => {
              if (!live) return;
              fn();
              every();
            }),
          );
        };
        every();
        return { cancel: () => (live = false) };
      },
    };
  }

  /** The process's monotonic clock, in its own (drifting) milliseconds. */
  localNow(): number {
    return this.clock.monotonicMs();
  }

  /** A local instant (ms) as virtual time. */
  virtualOf(localMs: number): number {
    return localMs / (1 + this.drift);
  }

  /** Runs `fn` on this process: later if it is paused, never if it crashed. */
  run(fn: () => void): void {
    if (this.crashed) return;
    if (this.sched.now < this.pausedUntil) {
      this.sched.at(this.pausedUntil, "client-resume", () => this.run(fn));
      return;
    }
    fn();
  }

  /** Stops the process for `localMs` of its own time (every timer and answer waits). */
  pause(localMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.sched.now + localMs / (1 + this.drift));
  }

  /** Resolves after `localMs` of the process's time (a pause delays it further). */
  sleep(localMs: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, localMs));
  }
}
