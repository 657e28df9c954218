// Where the package's files are, the same from the TypeScript sources (tsx, tests) and from
// their build in dist/, which sits one folder deeper: the folder of the nearest package.json
// above this module.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The built JavaScript of a source file: `node/cli/main.ts` is `<root>/dist/node/cli/main.js`. */
export function builtFile(source: string): string {
  return join(PACKAGE_ROOT, "dist", source.replace(/\.ts$/, ".js"));
}
