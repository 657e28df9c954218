// The integration tests run palisadectl (and pack the package) from the compiled code in
// dist/; the nodes of harness.ts run the TypeScript sources. Before the run, dist/ is
// rebuilt if a source changed since its last build, so no test runs stale code.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export function ensureBuilt(): void {
  execFileSync(process.execPath, [resolve(REPO_ROOT, "scripts/build.mjs"), "--if-stale"], {
    cwd: REPO_ROOT,
    stdio: "inherit",
  });
}
