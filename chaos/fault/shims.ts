// The fault kit's C programs (chaos/fault/c): built on first use with gcc into the
// repository's .build/fault (not in git), and rebuilt when their source is newer. A build
// writes a temporary file and renames it, so concurrent runs never load half a binary.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../node/util/package-root.ts";
import { run } from "./command.ts";

export type ShimName = "fsync-fail" | "clock-jump";
export type ProgramName = "nfq-delay";

const SOURCE_DIR = join(PACKAGE_ROOT, "chaos/fault/c");
export const BUILD_DIR = join(PACKAGE_ROOT, ".build/fault");

/** How each is built: shared object for LD_PRELOAD, or a program, and what it links. */
const RECIPES: Record<
  ShimName | ProgramName,
  { output: string; flags: string[]; libs: string[]; hint: string }
> = {
  "fsync-fail": {
    output: "fsync-fail.so",
    flags: ["-shared", "-fPIC"],
    libs: ["-ldl"],
    hint: "gcc",
  },
  "clock-jump": { output: "clock-jump.so", flags: ["-shared", "-fPIC"], libs: [], hint: "gcc" },
  "nfq-delay": {
    output: "nfq-delay",
    flags: [],
    libs: ["-lnetfilter_queue"],
    hint: "gcc libnetfilter-queue-dev",
  },
};

export function sourceOf(name: ShimName | ProgramName): string {
  return join(SOURCE_DIR, `${name}.c`);
}

function fresh(output: string, source: string): boolean {
  return existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs;
}

async function build(name: ShimName | ProgramName): Promise<string> {
  const recipe = RECIPES[name];
  const source = sourceOf(name);
  const output = join(BUILD_DIR, recipe.output);
  if (fresh(output, source)) return output;
  mkdirSync(BUILD_DIR, { recursive: true });
  const partial = `${output}.${process.pid}.tmp`;
  try {
    await run("gcc", ["-O2", "-Wall", ...recipe.flags, "-o", partial, source, ...recipe.libs], {
      timeoutMs: 120_000,
    });
    renameSync(partial, output);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new Error(
      `cannot build ${source} (apt-get install ${recipe.hint}, or run scripts/install-test-deps.sh): ${(err as Error).message}`,
      { cause: err },
    );
  }
  return output;
}

/** The path of an LD_PRELOAD shim, built if needed. */
export function buildShim(name: ShimName): Promise<string> {
  return build(name);
}

/** The path of a helper program, built if needed. */
export function buildProgram(name: ProgramName): Promise<string> {
  return build(name);
}
