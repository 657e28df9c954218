// palisade-lock/client stands alone: following its imports from client/index.ts never reaches
// the server, the CLI, or the CLI's argument parser.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** Every file and package reachable by static imports from `entry`. */
function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [resolve(ROOT, entry)];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
      const spec = m[1];
      if (/^import\s+type\s/m.test(m[0]) || /^export\s+type\s/m.test(m[0])) continue;
      if (spec.startsWith(".")) todo.push(resolve(dirname(file), spec));
      else
        packages.add(
          spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0],
        );
    }
  }
  return { files: new Set([...files].map((f) => relative(ROOT, f))), packages };
}

describe("palisade-lock/client", () => {
  it("loads neither the server nor palisadectl", () => {
    const { files, packages } = reachable("client/index.ts");
    expect(files.has("client/session.ts")).toBe(true);
    expect(
      [...files].filter(
        (f) =>
          f.startsWith("node/server/") || f.startsWith("node/raft/") || f.startsWith("client/ctl/"),
      ),
    ).toEqual([]);
    expect(packages.has("commander")).toBe(false);
    expect(packages.has("level")).toBe(false);
  });

  it("exports application code's names only; the simulator's seams are client/testing's", async () => {
    const app = Object.keys(await import("../../../client/index.ts")).sort();
    const seams = Object.keys(await import("../../../client/testing.ts")).sort();
    expect(app).toEqual([
      "FailedPreconditionError",
      "HoldLimitError",
      "InvalidArgumentError",
      "LimitError",
      "LockBusyError",
      "LockHandle",
      "LockNotAcquiredError",
      "MAX_IN_FLIGHT",
      "NotHolderError",
      "OutcomeUnknownError",
      "PalisadeClient",
      "PalisadeError",
      "PermissionDeniedError",
      "RequestTooOldError",
      "ServerError",
      "Session",
      "SessionLostError",
      "SessionNotFoundError",
      "StaleTokenError",
      "UnauthenticatedError",
      "UnavailableError",
      "tlsCredentials",
    ]);
    expect(seams).toEqual(["Connection", "isAnswer", "systemClock"]);
  });
});
