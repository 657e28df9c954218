// Runs palisadectl's main() in this process (no start-up cost), for tests with many verbs to
// call; ctl-process.ts runs it as a separate process, as a user would.
import { main } from "../../client/ctl/main.ts";
import type { Run } from "./ctl-process.ts";

/** palisadectl with `--endpoints` set to `endpoints`; resolves with its exit code and output. */
export async function runCtlHere(endpoints: readonly string[], ...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["--endpoints", endpoints.join(","), ...args], {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return {
    code,
    stdout: out.map((t) => `${t}\n`).join(""),
    stderr: err.map((t) => `${t}\n`).join(""),
  };
}

/** A run's stdout read as JSON (`--json` output). */
export const runJson = <T>(run: Run): T => JSON.parse(run.stdout) as T;
