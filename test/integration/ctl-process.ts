// Runs palisadectl as a separate process against a test cluster, as a user would.
import { execFile, spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const CTL = resolve(REPO_ROOT, "bin/palisadectl.mjs");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** palisadectl with `endpoints` in PALISADE_ENDPOINTS; resolves with its exit code and output. */
export function runCtl(endpoints: readonly string[], ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CTL, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, PALISADE_ENDPOINTS: endpoints.join(",") } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

export interface HeldCtl {
  /** Resolves with the exit code and output once the process has exited. */
  readonly done: Promise<Run>;
  /** Resolves once the CLI has printed (its grant), or has exited without printing. */
  readonly printed: Promise<void>;
  /** What it has printed on stdout so far: the grant, read while it is still held. */
  stdoutSoFar(): string;
  /** What it has said on stderr so far. */
  stderrSoFar(): string;
  /** Ctrl-C once the grant is printed (the hold is then set up): `--hold` without a duration releases and exits 0. */
  interrupt(): Promise<Run>;
  /** Sends `name` now, whatever it printed (a wait prints nothing); resolves once it exited. */
  signal(name: NodeJS.Signals): Promise<Run>;
  /** SIGKILL, if it still runs (for cleanup). */
  kill(): void;
}

/** A held palisadectl whose standard input is a pipe the test writes to. */
export interface TalkingCtl extends HeldCtl {
  /** Writes `line` and a newline to its stdin. */
  send(line: string): void;
  /** Closes its stdin (EOF). */
  endInput(): void;
}

/**
 * palisadectl started in its own process, left running: for `--hold` without a duration,
 * which holds until interrupted, so a test reads what it needs while the grant is held
 * and ends the hold itself rather than racing a timer. Its stdin is empty (at its end).
 */
export function spawnCtl(endpoints: readonly string[], ...args: string[]): HeldCtl {
  const run = spawnCtlWithInput(endpoints, ...args);
  run.endInput();
  return run;
}

/** As spawnCtl, with a stdin the test writes lines to (`acquire --hold` reads them). */
export function spawnCtlWithInput(endpoints: readonly string[], ...args: string[]): TalkingCtl {
  const child = spawn(process.execPath, [CTL, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PALISADE_ENDPOINTS: endpoints.join(",") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A write after the process has gone fails with EPIPE: the test sees that from its output.
  child.stdin.on("error", () => undefined);
  let stdout = "";
  let stderr = "";
  const firstOutput = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) =>
    child.once("close", (code) => resolve({ code: code ?? 1, stdout, stderr })),
  );
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const printed = Promise.race([firstOutput, done.then(() => undefined)]);
  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    endInput: () => void child.stdin.end(),
    done,
    printed,
    stdoutSoFar: () => stdout,
    stderrSoFar: () => stderr,
    interrupt: async () => {
      // The CLI prints the grant and sets up the hold in one turn of its loop: after the
      // output, Ctrl-C ends the hold; before it, Ctrl-C would kill the process.
      await printed;
      if (running()) child.kill("SIGINT");
      return done;
    },
    signal: (name) => {
      if (running()) child.kill(name);
      return done;
    },
    kill: () => {
      if (running()) child.kill("SIGKILL");
    },
  };
}
