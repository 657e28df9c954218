// Runs the system tools the fault kit drives (ip, iptables, gcc) and finds them: as root
// they live in /usr/sbin, which a non-login PATH may lack.
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

const SYSTEM_DIRS = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

/** The absolute path of `tool` on PATH or in the system folders; undefined if none. */
export function findTool(tool: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? "").split(delimiter).filter((d) => d !== ""),
    ...SYSTEM_DIRS,
  ];
  for (const dir of dirs) {
    const path = join(dir, tool);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface RunOptions {
  /** Written to the tool's standard input. */
  input?: string;
  timeoutMs?: number;
}

/** Runs `tool args`; resolves with its stdout, rejects with its stderr in the message. */
export function run(
  tool: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<string> {
  const path = findTool(tool) ?? tool;
  return new Promise((resolve, reject) => {
    const child = execFile(
      path,
      args,
      { timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`${tool} ${args.join(" ")}: ${stderr.trim() || error.message}`, {
              cause: error,
            }),
          );
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like run, but a failure resolves undefined (for teardown steps whose target may be gone). */
export async function tryRun(
  tool: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<string | undefined> {
  try {
    return await run(tool, args, options);
  } catch {
    return undefined;
  }
}
