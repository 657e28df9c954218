// The Python client in the failover benchmark: one `python3 bench/python/failover_probe.py`
// process with its own session. probe() is called right after the leader is signalled; the
// process sends acquires until one succeeds and answers the time that took.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";

/** Debian's interpreter, which sees python3-grpcio and python3-protobuf; PYTHON overrides it. */
const PYTHON = process.env["PYTHON"] ?? "/usr/bin/python3";

export class PythonProbe {
  private readonly lines: string[] = [];
  private waiter: ((line: string | null) => void) | undefined;
  private closed = false;
  private stderr = "";

  private constructor(
    private readonly child: ChildProcess,
    reader: Interface,
  ) {
    reader.on("line", (line) => this.deliver(line));
    reader.on("close", () => {
      this.closed = true;
      this.deliver(null);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2_000);
    });
  }

  /** Starts the process; rejects (with its stderr) unless it opens its session within 20 s. */
  static async start(endpoints: readonly string[]): Promise<PythonProbe> {
    const child = spawn(
      PYTHON,
      [join(PACKAGE_ROOT, "bench/python/failover_probe.py"), ...endpoints],
      {
        env: { ...process.env, PYTHONPATH: join(PACKAGE_ROOT, "clients/python") },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    if (!child.stdout) throw new Error("python3: no stdout");
    const probe = new PythonProbe(child, createInterface({ input: child.stdout }));
    child.on("error", () => probe.deliver(null));
    const first = await probe.next(20_000);
    if (first !== "ready") {
      probe.stop();
      const lastLine = probe.stderr.trim().split("\n").at(-1) ?? "";
      throw new Error(`the Python probe did not start: ${first ?? "exited"} ${lastLine}`.trim());
    }
    return probe;
  }

  /** Ms from now to the Python client's first successful acquire, or null if none in 30 s. */
  async probe(): Promise<number | null> {
    this.child.stdin?.write("probe\n");
    const answer = await this.next(40_000);
    if (answer === null)
      throw new Error(`the Python probe stopped: ${this.stderr.trim().split("\n").at(-1) ?? ""}`);
    const ms = /^ok ([\d.]+)$/.exec(answer);
    return ms?.[1] !== undefined ? Number(ms[1]) : null;
  }

  stop(): void {
    this.child.stdin?.end();
    this.child.kill("SIGKILL");
  }

  private deliver(line: string | null): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(line);
    else if (line !== null) this.lines.push(line);
  }

  private next(timeoutMs: number): Promise<string | null> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(null);
      }, timeoutMs);
      this.waiter = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
    });
  }
}
