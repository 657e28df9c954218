// Runs one test of the Python client's cluster suite (clients/python/tests/cluster) in a
// child process under Debian's Python, with the cluster's endpoints in its environment,
// and answers the control requests it writes on stdout ("@palisade-control VERB ARGS")
// with one line on its stdin ("ok ..." or "error ...").
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const PYTHON_CLIENT_DIR = join(REPO_ROOT, "clients", "python");
/** Debian's interpreter: the one that sees python3-grpcio and python3-protobuf. */
export const PYTHON = "/usr/bin/python3";

const CONTROL_PREFIX = "@palisade-control ";

export type ControlHandler = (args: string[], child: { pid: number }) => Promise<string[]>;

export interface PythonRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** unittest's report (it writes to stderr). */
  stderr: string;
  /** stdout lines that were not control requests. */
  stdout: string;
  /** The control requests, in order, with their answers. */
  requests: string[];
}

/**
 * Runs `python3 -m unittest -v TEST` in clients/python and serves its control requests.
 * The test may take as long as its cluster work does (restarting a node included); when
 * `signal` aborts (the calling test timed out) the process is killed.
 */
export function runPythonTest(
  test: string,
  env: Record<string, string>,
  handlers: Readonly<Record<string, ControlHandler>>,
  signal: AbortSignal,
): Promise<PythonRun> {
  const child = spawn(PYTHON, ["-m", "unittest", "-v", test], {
    cwd: PYTHON_CLIENT_DIR,
    env: {
      ...process.env,
      PYTHONPATH: PYTHON_CLIENT_DIR,
      PYTHONUNBUFFERED: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      PALISADE_CONTROL: "stdio",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) return Promise.reject(new Error("python3 did not start"));
  let stderr = "";
  const stdout: string[] = [];
  const requests: string[] = [];
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // One request at a time, answered in order.
  let queue = Promise.resolve();
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith(CONTROL_PREFIX)) {
      stdout.push(line);
      return;
    }
    const [verb = "", ...args] = line.slice(CONTROL_PREFIX.length).trim().split(/\s+/);
    queue = queue.then(async () => {
      let answer: string;
      try {
        const handler = handlers[verb];
        if (!handler) throw new Error(`unknown control verb ${JSON.stringify(verb)}`);
        answer = ["ok", ...(await handler(args, { pid }))].join(" ");
      } catch (err) {
        answer = `error ${(err as Error).message.replace(/\s+/g, " ")}`;
      }
      requests.push(`${line.slice(CONTROL_PREFIX.length)} -> ${answer}`);
      if (child.stdin.writable) child.stdin.write(`${answer}\n`);
    });
  });
  return new Promise((resolvePromise, reject) => {
    const abort = (): void => {
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      reject(new Error(`python test ${test} did not finish\n${stderr}`));
    };
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    child.once("error", (err) => {
      signal.removeEventListener("abort", abort);
      reject(err);
    });
    child.once("exit", (code, exitSignal) => {
      signal.removeEventListener("abort", abort);
      void queue.then(() =>
        resolvePromise({ code, signal: exitSignal, stderr, stdout: stdout.join("\n"), requests }),
      );
    });
  });
}
