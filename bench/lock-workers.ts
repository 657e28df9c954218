// The throughput harness's workers in one process: `count` workers, each with its own
// session of one backend, cycling acquire+release on their own lock (uncontended) or on one
// shared lock (contended) until the measured window ends. They record every cycle and, in
// contended mode, every hold, on the shared clock (bench/lock-part.ts); which of them fall in
// the window is decided when the records of every process are merged (bench/lock-merge.ts).
import { setMaxListeners } from "node:events";
import type { Acquired, LockBackend } from "./backends/backend.ts";
import { emptyCycleLog, type WorkerPart, type Window } from "./lock-part.ts";

/** What the workers of one process do, and which global worker numbers they have. */
export interface WorkerPlan {
  first: number;
  count: number;
  /** Lock names start with it: the same in every process of a run. */
  prefix: string;
  mode: "uncontended" | "contended";
  holdMs: number;
  retryDelayMs: number;
  retryJitterMs: number;
  acquireTimeoutMs: number;
}

/** Workers 0..concurrency-1 over `procs` plans, as even as they divide. */
export function splitPlans(
  base: Omit<WorkerPlan, "first" | "count">,
  concurrency: number,
  procs: number,
): WorkerPlan[] {
  const n = Math.max(1, Math.min(procs, concurrency));
  return Array.from({ length: n }, (_, k) => {
    const first = Math.floor((k * concurrency) / n);
    const next = Math.floor(((k + 1) * concurrency) / n);
    return { ...base, first, count: next - first };
  });
}

/** Sessions must be open by then, or the run fails with that said. */
const OPEN_BOUND_MS = 60_000;
/** Workers still running this long after the window are left behind (drained: false). */
const DRAIN_BOUND_MS = 15_000;
/** Closing the sessions may not hold the result back longer. */
const CLOSE_BOUND_MS = 10_000;

/** Sleeps `ms`, or less if `signal` aborts; whether it slept the whole time. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `promise`, or an error naming `what` once `ms` pass. */
async function bounded<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class LocalWorkers<Session, Handle> {
  private readonly stop = new AbortController();
  private readonly cycles = emptyCycleLog();
  private readonly holds: WorkerPart["holds"] = [];
  private readonly failedTries = new Map<number, number>();
  private readonly errorSamples = new Map<string, number>();
  private errors = 0;
  private timeouts = 0;
  private readonly cycled: boolean[];
  private notCycled: number;
  private running: Array<Promise<void>> = [];
  private onWarm: () => void = () => undefined;
  /** Resolves once every worker here has completed a cycle (the queue has turned once). */
  readonly warm: Promise<void>;

  private constructor(
    private readonly backend: LockBackend<Session, Handle>,
    private readonly plan: WorkerPlan,
    private readonly sessions: Session[],
    private readonly clock: () => number,
  ) {
    this.cycled = new Array<boolean>(plan.count).fill(false);
    this.notCycled = plan.count;
    this.warm = new Promise((resolve) => (this.onWarm = resolve));
    // Every worker's poll sleep and acquire listen on it at once.
    setMaxListeners(0, this.stop.signal);
  }

  /** Opens one session per worker; fails with a clear message if they are not all open in time. */
  static async open<S, H>(
    backend: LockBackend<S, H>,
    plan: WorkerPlan,
    clock: () => number,
  ): Promise<LocalWorkers<S, H>> {
    let opened = 0;
    const sessions = await bounded(
      Promise.all(
        Array.from({ length: plan.count }, async (_, i) => {
          const s = await backend.session(plan.first + i);
          opened++;
          return s;
        }),
      ),
      OPEN_BOUND_MS,
      () => `opened ${opened} of ${plan.count} sessions in ${OPEN_BOUND_MS / 1000} s`,
    );
    return new LocalWorkers(backend, plan, sessions, clock);
  }

  start(): void {
    this.running = this.sessions.map((session, i) => this.worker(i, session));
  }

  /**
   * Runs to the end of `window`, then stops the workers, closes the sessions and the
   * backend, and gives what was recorded (cycles that ended before the window left out).
   */
  async measure(window: Window): Promise<WorkerPart> {
    await sleep(window.startMs - this.clock());
    const cpu0 = process.cpuUsage();
    const at0 = this.clock();
    await sleep(window.stopMs - this.clock());
    const cpu = process.cpuUsage(cpu0);
    const at1 = this.clock();
    this.backend.stopping?.();
    this.stop.abort();
    const drained = await Promise.race([
      Promise.all(this.running).then(() => true),
      sleep(DRAIN_BOUND_MS).then(() => false),
    ]);
    await Promise.race([
      Promise.all(this.sessions.map((s) => this.backend.closeSession?.(s).catch(() => undefined))),
      sleep(CLOSE_BOUND_MS),
    ]);
    await this.backend.close();
    return {
      first: this.plan.first,
      count: this.plan.count,
      cycles: this.cyclesFrom(window.startMs),
      holds: this.holds,
      failedTriesByMs: [...this.failedTries],
      timeouts: this.timeouts,
      errors: this.errors,
      errorSamples: Object.fromEntries(this.errorSamples),
      cpuMs: (cpu.user + cpu.system) / 1000,
      cpuSpanMs: at1 - at0,
      drained,
    };
  }

  /** Stops the workers without waiting for them (the run is being given up). */
  abort(): void {
    this.stop.abort();
  }

  private cyclesFrom(startMs: number): WorkerPart["cycles"] {
    const out = emptyCycleLog();
    const c = this.cycles;
    for (let i = 0; i < c.end.length; i++) {
      if (c.end[i]! < startMs) continue;
      out.worker.push(c.worker[i]!);
      out.start.push(c.start[i]!);
      out.acquired.push(c.acquired[i]!);
      out.released.push(c.released[i]!);
      out.end.push(c.end[i]!);
    }
    return out;
  }

  private error(where: string, err: unknown): void {
    this.errors++;
    const key = `${where}: ${(err instanceof Error ? err.message : String(err)).slice(0, 160)}`;
    this.errorSamples.set(key, (this.errorSamples.get(key) ?? 0) + 1);
  }

  private async acquireOnce(session: Session, lock: string): Promise<Acquired<Handle> | null> {
    const { backend, plan, stop } = this;
    if (backend.acquire) {
      const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(plan.acquireTimeoutMs)]);
      const got = await backend.acquire(session, lock, signal);
      if (!got && !stop.signal.aborted) this.timeouts++;
      return got;
    }
    if (!backend.tryAcquire) throw new Error("the backend has neither acquire nor tryAcquire");
    const giveUpAt = this.clock() + plan.acquireTimeoutMs;
    for (;;) {
      const got = await backend.tryAcquire(session, lock);
      if (got) return got;
      const now = this.clock();
      const ms = Math.floor(now);
      this.failedTries.set(ms, (this.failedTries.get(ms) ?? 0) + 1);
      if (now > giveUpAt) {
        this.timeouts++;
        return null;
      }
      if (!(await sleep(plan.retryDelayMs + Math.random() * plan.retryJitterMs, stop.signal)))
        return null;
    }
  }

  private async worker(i: number, session: Session): Promise<void> {
    const { plan, clock, stop } = this;
    const w = plan.first + i;
    const lock = plan.mode === "contended" ? `${plan.prefix}/shared` : `${plan.prefix}/w${w}`;
    while (!stop.signal.aborted) {
      const t0 = clock();
      let got: Acquired<Handle> | null;
      try {
        got = await this.acquireOnce(session, lock);
      } catch (err) {
        if (stop.signal.aborted) break;
        this.error("acquire", err);
        await sleep(10, stop.signal);
        continue;
      }
      if (!got) continue;
      const t1 = clock();
      if (plan.holdMs > 0) await sleep(plan.holdMs);
      const tr = clock();
      if (plan.mode === "contended")
        this.holds.push({ worker: w, startMs: t1, endMs: tr, fence: got.fence });
      try {
        await this.backend.release(session, got.handle);
      } catch (err) {
        this.error("release", err);
        continue;
      }
      this.record(i, w, t0, t1, tr, clock());
    }
  }

  private record(i: number, w: number, t0: number, t1: number, tr: number, t2: number): void {
    const c = this.cycles;
    c.worker.push(w);
    c.start.push(t0);
    c.acquired.push(t1);
    c.released.push(tr);
    c.end.push(t2);
    if (!this.cycled[i]) {
      this.cycled[i] = true;
      if (--this.notCycled === 0) this.onWarm();
    }
  }
}
