// The load of `palisadectl check perf`: sessions opened up front, then workers that each
// cycle acquire → release on a lock of their own under one prefix, paced together to a
// target rate, for a set time. Whatever happens (an error, Ctrl-C), every session is closed
// at the end, which frees whatever a worker still held.
import type { PalisadeClient } from "../client.ts";
import type { Session } from "../session.ts";

export interface LoadPlan {
  readonly sessions: number;
  readonly concurrency: number;
  /** Target acquire+release cycles per second, all workers together. */
  readonly rate: number;
  readonly seconds: number;
  /** Lock names start with it ("check-perf/1a2b3c4d/"). */
  readonly prefix: string;
}

export interface LoadResult {
  /** Cycles started within the window and completed. */
  readonly cycles: number;
  /** Acquires tried within the window. */
  readonly attempts: number;
  /** Latency of each granted acquire, in milliseconds. */
  readonly acquireMs: number[];
  /** Time the workers spent in completed cycles, acquire to release answered, in milliseconds. */
  readonly cycleMs: number;
  /** Failed acquires and releases. */
  readonly errors: number;
  /** Each kind of failure ("UnavailableError: …") with its count, most frequent first. */
  readonly errorKinds: ReadonlyArray<{ readonly what: string; readonly count: number }>;
  /** Length of the window actually run (shorter when interrupted). */
  readonly elapsedS: number;
  readonly interrupted: boolean;
}

/** Sessions opened at once, so a thousand of them do not queue a thousand calls together. */
const OPEN_PARALLEL = 32;
/** After a failed cycle a worker pauses this long, so an unavailable cluster is not spun on. */
const ERROR_PAUSE_MS = 50;
/** The closing of the sessions may not keep the command longer. */
const CLOSE_BOUND_MS = 10_000;

/** Sleeps `ms`, or less if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Opens `count` sessions, OPEN_PARALLEL at a time; stops early (keeping those open) on abort. */
async function openSessions(
  client: PalisadeClient,
  count: number,
  signal: AbortSignal,
  into: Session[],
): Promise<void> {
  let next = 0;
  const opener = async (): Promise<void> => {
    while (next < count && !signal.aborted) {
      next++;
      into.push(await client.openSession({ clientName: "palisadectl check perf" }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_PARALLEL, count) }, opener));
}

/** Closes every session, bounded in time; a session that fails to close expires by its TTL. */
export async function closeSessions(sessions: readonly Session[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_BOUND_MS);
  });
  const closing = Promise.allSettled(sessions.map((s) => s.close()));
  await Promise.race([closing, bound]);
  clearTimeout(timer);
}

class Tally {
  cycles = 0;
  attempts = 0;
  errors = 0;
  readonly acquireMs: number[] = [];
  cycleMs = 0;
  private readonly kinds = new Map<string, number>();

  failed(err: unknown): void {
    this.errors++;
    const what =
      err instanceof Error ? `${err.name}: ${err.message.split("\n")[0]}` : `error: ${String(err)}`;
    this.kinds.set(what, (this.kinds.get(what) ?? 0) + 1);
  }

  errorKinds(): Array<{ what: string; count: number }> {
    return [...this.kinds.entries()]
      .map(([what, count]) => ({ what, count }))
      .sort((a, b) => b.count - a.count);
  }
}

/**
 * Runs the load on sessions already open: worker i cycles on lock `prefix + "w" + i` with
 * session i mod sessions. Slot k of the schedule starts at k / rate seconds; a worker takes
 * the next free slot and waits for its time, so the workers together never run ahead of the
 * rate, and fall behind it only when they cannot keep up. Cycles started in the window
 * count, also when they end after it.
 */
async function runWorkers(
  sessions: readonly Session[],
  plan: LoadPlan,
  signal: AbortSignal,
  tally: Tally,
): Promise<number> {
  const start = performance.now();
  const end = start + plan.seconds * 1_000;
  let nextSlot = 0;
  const worker = async (i: number): Promise<void> => {
    const session = sessions[i % sessions.length]!;
    const lock = `${plan.prefix}w${i}`;
    for (;;) {
      const at = start + (nextSlot++ * 1_000) / plan.rate;
      if (at >= end) return;
      await sleep(at - performance.now(), signal);
      // Workers that fell behind stop with the window, not once they caught up with the
      // schedule: what they did not start in it is throughput not achieved.
      if (signal.aborted || performance.now() >= end) return;
      tally.attempts++;
      try {
        const sent = performance.now();
        const result = await session.acquire(lock, { signal });
        if (!result.acquired || result.token === undefined) {
          if (signal.aborted) return;
          throw new Error(`${lock} not acquired`);
        }
        tally.acquireMs.push(performance.now() - sent);
        await session.release(lock, result.token);
        tally.cycles++;
        tally.cycleMs += performance.now() - sent;
      } catch (err) {
        if (signal.aborted) return;
        tally.failed(err);
        await sleep(ERROR_PAUSE_MS, signal);
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, (_, i) => worker(i)));
  return Math.min(performance.now(), end) - start;
}

/**
 * Opens the sessions, calls `ready` (the cluster's figures are read then), runs the load and
 * calls `loaded` before the sessions are closed. `signal` stops it early (Ctrl-C): the load
 * ends, the sessions are closed, and the result says interrupted.
 */
export async function runLoad(
  client: PalisadeClient,
  plan: LoadPlan,
  signal: AbortSignal,
  hooks: { ready: () => Promise<void>; loaded: () => Promise<void> },
): Promise<LoadResult> {
  const sessions: Session[] = [];
  const tally = new Tally();
  try {
    await openSessions(client, plan.sessions, signal, sessions);
    let elapsedMs = 0;
    if (!signal.aborted) {
      await hooks.ready();
      elapsedMs = await runWorkers(sessions, plan, signal, tally);
      if (!signal.aborted) await hooks.loaded();
    }
    return {
      cycles: tally.cycles,
      attempts: tally.attempts,
      acquireMs: tally.acquireMs,
      cycleMs: tally.cycleMs,
      errors: tally.errors,
      errorKinds: tally.errorKinds(),
      elapsedS: elapsedMs / 1_000,
      interrupted: signal.aborted,
    };
  } finally {
    await closeSessions(sessions);
  }
}
