// Processes started inside a namespace of the chaos lab: `ip netns exec nI env VARS node FILE`, FILE being
// the compiled JavaScript in dist/ (or a script such as bin/palisade.mjs, which runs the node
// in its own process). `ip netns exec` and `env` both exec, so the child's pid is the Node
// process's own, which is what SIGKILL, SIGSTOP and SIGCONT must reach.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { builtFile, PACKAGE_ROOT } from "../node/util/package-root.ts";
import { findTool } from "./fault/command.ts";
import { namespaceOf } from "./fault/lab-spec.ts";
import { CHAOS_LAB } from "./netns.ts";
import type { Line } from "./protocol.ts";

/** What node runs for `script`: a TypeScript source's build in dist/, any other file as it is. */
export function scriptPath(script: string): string {
  return script.endsWith(".ts") ? builtFile(script) : join(PACKAGE_ROOT, script);
}

export interface NsProcessOptions {
  name: string;
  /** The chaos lab's member to run in (1..5). */
  ns: number;
  /** From the repository root: a TypeScript source (its build runs) or a JavaScript file. */
  script: string;
  args: string[];
  /** A program to run instead of `node script args`. */
  command?: string[];
  env?: Record<string, string>;
  /** Receives the JSON lines of stdout; without it stdout goes to the log file. */
  onLine?: (line: Line) => void;
  logPath: string;
}

/** Every process started by this run, so teardown can reach each one by pid. */
export const started = new Set<NsProcess>();

export class NsProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  stopped = false;

  constructor(readonly options: NsProcessOptions) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process, with `env` instead of the options' environment for this run only. */
  start(env?: Record<string, string>): void {
    if (this.child) throw new Error(`${this.options.name} is already running`);
    const o = this.options;
    const envArgs = Object.entries(env ?? o.env ?? {}).map(([k, v]) => `${k}=${v}`);
    const log = openSync(o.logPath, "a");
    const child = spawn(
      findTool("ip") ?? "ip",
      [
        "netns",
        "exec",
        namespaceOf(CHAOS_LAB, o.ns),
        "/usr/bin/env",
        ...envArgs,
        ...(o.command ?? [process.execPath, scriptPath(o.script), ...o.args]),
      ],
      { cwd: PACKAGE_ROOT, stdio: ["pipe", o.onLine ? "pipe" : log, log] },
    );
    closeSync(log);
    this.child = child;
    this.stopped = false;
    started.add(this);
    this.exited = new Promise((resolve) =>
      child.once("exit", () => {
        if (this.child === child) this.child = undefined;
        resolve();
      }),
    );
    if (o.onLine && child.stdout) {
      const onLine = o.onLine;
      createInterface({ input: child.stdout }).on("line", (text) => {
        if (!text.startsWith("{")) return;
        try {
          onLine(JSON.parse(text) as Line);
        } catch {
          // not one of ours
        }
      });
    }
    child.stdin?.on("error", () => undefined);
  }

  send(line: string): void {
    this.child?.stdin?.write(`${line}\n`);
  }

  signal(sig: NodeJS.Signals): void {
    if (!this.child) return;
    this.child.kill(sig);
    if (sig === "SIGSTOP") this.stopped = true;
    if (sig === "SIGCONT") this.stopped = false;
  }

  async kill(): Promise<void> {
    if (!this.child) return;
    const exited = this.exited;
    this.child.kill("SIGKILL");
    await exited;
  }

  /** Resolves when the process exits, or false after `ms`. */
  async waitExit(ms: number): Promise<boolean> {
    if (!this.child) return true;
    return Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
    ]);
  }
}

/** SIGCONT then SIGKILL to every process still running (teardown). */
export async function killAll(): Promise<void> {
  for (const p of started) p.signal("SIGCONT");
  await Promise.all([...started].map((p) => p.kill()));
}
