// The chaos run's command line: --help prints how to call it, and an unknown option is named
// with the usage and exit status 2, never a stack trace (nothing starts either way).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function chaos(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", "chaos/run.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("npm run chaos's options", () => {
  it("--help prints the usage and exits 0", () => {
    const r = chaos("--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: npm run chaos -- --seed N --minutes M");
    expect(r.stderr).toBe("");
  });

  it("an unknown option is named beside the usage, with exit status 2 and no stack trace", () => {
    const r = chaos("--bogus");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain("usage: npm run chaos");
    expect(r.stderr).not.toContain("    at ");
  });
});
