// Client processes that report their state as JSON lines on stdout (keepalive-proc.ts,
// etcd-keepalive-proc.ts): the latest report of each, and stopping them all.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { sleep, trackChild } from "./cluster-control.ts";

export interface ProcStatus {
  event: string;
  opened?: number;
  open_errors?: number;
  lost?: number;
  lost_samples?: string[];
  message?: string;
}

export interface ClientProc {
  child: ChildProcess;
  last: ProcStatus | null;
  opened: boolean;
  error: string | null;
}

export function startProc(script: string, args: string[]): ClientProc {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child);
  const proc: ClientProc = { child, last: null, opened: false, error: null };
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2_000);
  });
  child.once("exit", (code, signal) => {
    if (!proc.error && signal !== "SIGKILL")
      proc.error = `client process exited (${code ?? signal}): ${stderr}`;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let message: ProcStatus;
    try {
      message = JSON.parse(line) as ProcStatus;
    } catch {
      return;
    }
    if (message.event === "error") proc.error = message.message ?? "error";
    else proc.last = message;
    if (message.event === "opened") proc.opened = true;
  });
  return proc;
}

/** SIGKILLs every process still running and waits (bounded) for them to exit. */
export async function stopProcs(procs: readonly ClientProc[]): Promise<void> {
  const running = procs.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  const exited = running.map((p) => new Promise((r) => p.child.once("exit", r)));
  for (const p of running) p.child.kill("SIGKILL");
  await Promise.race([Promise.all(exited), sleep(5_000)]);
}
