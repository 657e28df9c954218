// Runs palisadectl as a separate process against a test cluster, as a user would.
import { execFile } from "node:child_process";
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
