// The paused-client scenario of "How to do distributed locking", on real processes:
// worker-1 acquires (token t) and reads, is stopped with SIGSTOP past its session TTL,
// its session expires, worker-2 acquires (token > t), reads and writes, then worker-1 is
// resumed and writes with t without consulting its lost signal. With the fence on, the
// store refuses that write and keeps worker-2's update; with it off, worker-2's update
// is lost.
// Run against a cluster (e.g. `npm start`): npx tsx examples/fenced-store/scenario.ts [--no-fence]
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PalisadeClient } from "../../client/index.ts";
import type { WorkerEvent } from "./worker.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export interface ScenarioOptions {
  endpoints: readonly string[];
  fenced: boolean;
  /** Lock name (one per run, so runs do not share a lock). */
  lock?: string;
  ttlMs?: number;
  log?: (line: string) => void;
}

export interface ScenarioResult {
  token1: bigint;
  token2: bigint;
  /** Whether worker-1 still held the lock once stopped (the pause, not load, ended its grant). */
  heldAtStop: boolean;
  /** How worker-1's grant ended, according to the lock history. */
  grant1Ended: string;
  /** HTTP status of worker-1's late write. */
  lateWriteStatus: number;
  /** worker-2's write status. */
  write2Status: number;
  /** The store's list when all is done. */
  contents: string[];
  transcript: string[];
}

/** A child process whose stdout lines are collected and can be awaited. */
class Child {
  readonly lines: string[] = [];
  private readonly waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(
    readonly proc: ChildProcess,
    readonly label: string,
  ) {
    let stderr = "";
    proc.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (proc.stdout) {
      createInterface({ input: proc.stdout }).on("line", (line) => {
        this.lines.push(line);
        for (const wake of this.waiters.splice(0)) wake();
      });
    }
    this.exited = new Promise((resolveExit) => {
      proc.once("exit", (code) => {
        if (code !== 0 && stderr) this.lines.push(`stderr: ${stderr.trim()}`);
        for (const wake of this.waiters.splice(0)) wake();
        resolveExit(code);
      });
    });
  }

  /** Waits for the first line that `match` accepts (failing if the process exits first). */
  async line<T>(what: string, match: (line: string) => T | undefined): Promise<T> {
    for (let seen = 0; ;) {
      for (; seen < this.lines.length; seen++) {
        const found = match(this.lines[seen]);
        if (found !== undefined) return found;
      }
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        throw new Error(`${this.label} exited before ${what}:\n${this.lines.join("\n")}`);
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  event<K extends WorkerEvent["event"]>(kind: K): Promise<Extract<WorkerEvent, { event: K }>> {
    return this.line(`event ${kind}`, (line) => {
      if (!line.startsWith("{")) return undefined;
      const event = JSON.parse(line) as WorkerEvent;
      return event.event === kind ? (event as Extract<WorkerEvent, { event: K }>) : undefined;
    });
  }
}

function tsx(script: string, args: string[], label: string): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Child(proc, label);
}

export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const ttlMs = options.ttlMs ?? 3_000;
  const lock =
    options.lock ?? `fenced-store/orders-${process.pid}-${options.fenced ? "on" : "off"}`;
  const transcript: string[] = [];
  const say = (line: string): void => {
    const tagged = `[fence ${options.fenced ? "on" : "off"}] ${line}`;
    transcript.push(tagged);
    options.log?.(tagged);
  };
  const dir = mkdtempSync(join(tmpdir(), "palisade-fenced-store-"));
  const children: Child[] = [];
  // A stopped worker outlives its parent unless killed: kill every child if we exit early.
  const killAll = (): void => {
    for (const child of children) child.proc.kill("SIGKILL");
  };
  process.once("exit", killAll);
  const client = new PalisadeClient({ endpoints: [...options.endpoints], clientName: "scenario" });
  try {
    const store = tsx(
      "examples/fenced-store/server.ts",
      ["--dir", dir, ...(options.fenced ? [] : ["--no-fence"])],
      "store",
    );
    children.push(store);
    const url = await store.line("listening", (line) => /^listening (\S+)/.exec(line)?.[1]);
    say(`store: ${url}, LevelDB, fence ${options.fenced ? "on" : "off"}`);

    const common = [
      "--endpoints",
      options.endpoints.join(","),
      "--store",
      url,
      "--lock",
      lock,
      "--key",
      "orders",
      "--ttl",
      String(ttlMs),
    ];
    const worker1 = tsx(
      "examples/fenced-store/worker.ts",
      [...common, "--name", "worker-1", "--pause-before-write"],
      "worker-1",
    );
    children.push(worker1);
    const acquired1 = await worker1.event("acquired");
    say(`worker-1: acquired ${lock}, token ${acquired1.token}, session TTL ${ttlMs} ms`);
    say(`worker-1: read ${JSON.stringify((await worker1.event("read")).items)}`);
    await worker1.event("paused");
    worker1.proc.kill("SIGSTOP");
    const stoppedAt = Date.now();
    say("worker-1: SIGSTOP (it will not send keepalives)");
    const holderAtStop = (await client.read.getLock(lock)).holder;
    const heldAtStop = holderAtStop?.token === BigInt(acquired1.token);
    say(
      `cluster: holder while worker-1 is stopped: ${holderAtStop ? `${holderAtStop.clientName}, token ${holderAtStop.token}` : "none"}`,
    );

    // worker-2 waits for the lock; it is granted once worker-1's session has expired.
    const worker2 = tsx(
      "examples/fenced-store/worker.ts",
      [...common, "--name", "worker-2"],
      "worker-2",
    );
    children.push(worker2);
    const acquired2 = await worker2.event("acquired");
    const history = await client.read.history(lock);
    const grant1 = history.find((record) => record.token === BigInt(acquired1.token));
    const grant1Ended = grant1?.reason ?? "unknown";
    say(`cluster: worker-1's grant (token ${acquired1.token}) ended: ${grant1Ended}`);
    say(`worker-2: acquired ${lock}, token ${acquired2.token}`);
    say(`worker-2: read ${JSON.stringify((await worker2.event("read")).items)}`);
    const write2 = await worker2.event("write");
    say(
      `worker-2: wrote ${JSON.stringify(write2.items)} with token ${write2.token} -> HTTP ${write2.status}`,
    );
    await worker2.exited;

    // Resume worker-1; it writes what it computed before the pause, with its old token.
    worker1.proc.stdin?.write("go\n");
    worker1.proc.kill("SIGCONT");
    say(`worker-1: SIGCONT after ${Date.now() - stoppedAt} ms stopped (session TTL ${ttlMs} ms)`);
    const late = await worker1.event("write");
    say(
      `worker-1: wrote ${JSON.stringify(late.items)} with token ${late.token} (session lost: ${late.sessionLost}, not consulted) -> HTTP ${late.status}${late.answer ? ` ${late.answer}` : ""}`,
    );
    await worker1.exited;

    const contents = (await (await fetch(`${url}/inspect/items/orders`)).json()) as string[];
    const lostUpdate = !contents.includes("worker-2");
    say(
      `store contents: ${JSON.stringify(contents)}${lostUpdate ? " (worker-2's update is lost)" : " (no lost update)"}`,
    );
    return {
      token1: BigInt(acquired1.token),
      token2: BigInt(acquired2.token),
      heldAtStop,
      grant1Ended,
      lateWriteStatus: late.status,
      write2Status: write2.status,
      contents,
      transcript,
    };
  } finally {
    for (const child of children) {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        child.proc.kill("SIGCONT");
        child.proc.kill("SIGTERM");
        await Promise.race([child.exited, new Promise((r) => setTimeout(r, 5_000))]);
        child.proc.kill("SIGKILL");
      }
    }
    process.off("exit", killAll);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      endpoints: {
        type: "string",
        default: process.env.PALISADE_ENDPOINTS ?? "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003",
      },
      "no-fence": { type: "boolean", default: false },
      ttl: { type: "string", default: "3000" },
    },
  });
  const result = await runScenario({
    endpoints: values.endpoints.split(","),
    fenced: !values["no-fence"],
    ttlMs: Number(values.ttl),
    log: (line) => console.log(line),
  });
  process.exitCode = result.contents.includes("worker-2") ? 0 : 3;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
