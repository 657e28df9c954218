// The throughput harness's workers as one group, in this process or spread over child
// processes (bench/lock-bench-child.ts) that each run a share of them: many clients over a
// few processes, so that at high concurrency one client's event loop is not what is
// measured. The harness drives either kind the same way: start, wait until warm, measure
// one window on the shared clock; the children are forked with IPC and answer in the
// messages below.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BackendOptions, LockBackend } from "./backends/backend.ts";
import { BACKENDS, type BackendName } from "./backends/index.ts";
import type { Window, WorkerPart } from "./lock-part.ts";
import { LocalWorkers, type WorkerPlan } from "./lock-workers.ts";

/** What a backend says of itself, copied into the result line. */
export interface Described {
  info: Record<string, unknown>;
  fencing: string;
  /** Waits on the server (else the workers poll). */
  blocking: boolean;
}

export interface WorkerGroup {
  readonly described: Described;
  start(): void;
  /** Resolves once every worker has completed a cycle. */
  readonly warm: Promise<void>;
  /** What every process recorded, once the window is over and the workers stopped. */
  measure(window: Window): Promise<WorkerPart[]>;
  /** Gives up the run: stops the workers, kills the children. */
  abort(): void;
  /** Settles if a child fails or exits before its result (never for this process's group). */
  readonly failed: Promise<Error>;
}

/** What a child needs to run its share. */
export interface ChildSpec {
  backend: BackendName;
  options: BackendOptions;
  plan: WorkerPlan;
  epochNs: bigint;
}

export type ToChild =
  { kind: "open"; spec: ChildSpec } | { kind: "start" } | { kind: "measure"; window: Window };
export type FromChild =
  | { kind: "ready"; described: Described }
  | { kind: "warm" }
  | { kind: "part"; part: WorkerPart }
  | { kind: "failed"; message: string };

const CHILD = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "./lock-bench-child.ts" : "./lock-bench-child.js",
    import.meta.url,
  ),
);
/** Backstops behind the children's own bounds (lock-workers.ts), for a child that hangs. */
const READY_BOUND_MS = 90_000;
const RESULT_AFTER_WINDOW_MS = 45_000;

/** The backend opened here and the workers in this process. */
export async function openLocalGroup(
  name: BackendName,
  options: BackendOptions,
  plan: WorkerPlan,
  clock: () => number,
): Promise<WorkerGroup> {
  const open = BACKENDS[name] as (o: BackendOptions) => Promise<LockBackend<unknown, unknown>>;
  const backend = await open(options);
  const workers = await LocalWorkers.open(backend, plan, clock);
  return {
    described: {
      info: backend.info,
      fencing: backend.fencing,
      blocking: backend.acquire !== undefined,
    },
    start: () => workers.start(),
    warm: workers.warm,
    measure: async (window) => [await workers.measure(window)],
    abort: () => workers.abort(),
    failed: new Promise<Error>(() => undefined),
  };
}

/** One child's side of the conversation: its next answers, in order. */
class ChildLink {
  private readonly queue: FromChild[] = [];
  private waiter: ((m: FromChild) => void) | null = null;
  readonly warm: Promise<void>;
  private onWarm: () => void = () => undefined;
  readonly failed: Promise<Error>;
  private onFailed: (err: Error) => void = () => undefined;

  constructor(
    readonly proc: ChildProcess,
    readonly plan: WorkerPlan,
  ) {
    this.warm = new Promise((resolve) => (this.onWarm = resolve));
    this.failed = new Promise((resolve) => (this.onFailed = resolve));
    proc.on("message", (m: FromChild) => {
      if (m.kind === "warm") return this.onWarm();
      this.push(m);
    });
    proc.on("exit", (code, signal) =>
      this.push({
        kind: "failed",
        message: `exited (${signal ?? `code ${String(code)}`}) before its result`,
      }),
    );
  }

  private get who(): string {
    const { first, count } = this.plan;
    return `lock-bench process for workers ${first}..${first + count - 1}`;
  }

  private push(m: FromChild): void {
    if (m.kind === "failed") this.onFailed(new Error(`${this.who}: ${m.message}`));
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w(m);
    } else this.queue.push(m);
  }

  send(m: ToChild): void {
    this.proc.send(m);
  }

  /** The next answer, which must be `kind`; else an error that says which child and why. */
  async expect<K extends FromChild["kind"]>(
    kind: K,
    boundMs: number,
  ): Promise<Extract<FromChild, { kind: K }>> {
    const next =
      this.queue.shift() ??
      (await new Promise<FromChild | null>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = null;
          resolve(null);
        }, boundMs);
        this.waiter = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
      }));
    const who = this.who;
    if (next === null) throw new Error(`${who}: no ${kind} answer within ${boundMs / 1000} s`);
    if (next.kind === "failed") throw new Error(`${who}: ${next.message}`);
    if (next.kind !== kind) throw new Error(`${who}: sent ${next.kind}, expected ${kind}`);
    return next as Extract<FromChild, { kind: K }>;
  }
}

/** Forks one child per plan; resolves once every child has its sessions open. */
export async function forkGroup(
  spec: Omit<ChildSpec, "plan">,
  plans: readonly WorkerPlan[],
  clock: () => number,
): Promise<WorkerGroup> {
  const links = plans.map(
    (plan) =>
      new ChildLink(
        fork(CHILD, [], {
          serialization: "advanced",
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        }),
        plan,
      ),
  );
  const kill = (): void => {
    for (const l of links) if (l.proc.exitCode === null) l.proc.kill("SIGKILL");
  };
  let ready: Array<Extract<FromChild, { kind: "ready" }>>;
  try {
    for (const l of links) l.send({ kind: "open", spec: { ...spec, plan: l.plan } });
    ready = await Promise.all(links.map((l) => l.expect("ready", READY_BOUND_MS)));
  } catch (err) {
    kill();
    throw err;
  }
  return {
    described: ready[0]!.described,
    start: () => links.forEach((l) => l.send({ kind: "start" })),
    warm: Promise.all(links.map((l) => l.warm)).then(() => undefined),
    async measure(window) {
      links.forEach((l) => l.send({ kind: "measure", window }));
      const bound = Math.max(0, window.stopMs - clock()) + RESULT_AFTER_WINDOW_MS;
      try {
        return await Promise.all(links.map(async (l) => (await l.expect("part", bound)).part));
      } finally {
        kill();
      }
    },
    abort: kill,
    failed: Promise.race(links.map((l) => l.failed)),
  };
}
