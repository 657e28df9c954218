// Compiles the TypeScript to dist/ (npm run build; `npm ci` and `npm pack` run it as
// `prepare`): tsc with tsconfig.build.json (sourcemaps, declarations, `.ts` import
// specifiers rewritten to `.js`), plus the JavaScript files the compiled code loads beside
// itself (the generated protobuf module, the `palisadectl run` watchdog), plus
// dist/bundle/node.mjs: the node process (node/cli/main.ts and everything it imports, its
// dependencies included) bundled by esbuild into one file, which `palisade node` runs. Node
// 20 spends about half of a node's start loading its ~500 modules one by one (zod alone is
// 95 ES modules); one file halves that. LevelDB's native binding stays outside. A bundled
// module that finds files through import.meta.url finds them beside the bundle: each such
// module is listed below with the files it reads, which are copied there, and the build
// fails on one that is not listed.
//
//   node scripts/build.mjs             build dist/ from scratch
//   node scripts/build.mjs --if-stale  only if a source changed, appeared or went away since
//                                      the last build (what tests and the benchmark call)
//
// The build goes to a temporary folder that replaces dist/ at the end, so a process running
// from dist/ meanwhile (or a second build) never sees it half written.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const stampFile = join(dist, ".build-stamp.json");

/** What the build reads: the folders tsconfig.build.json compiles (and what they import from test/sim), the configs, and the lock file (the bundle holds the dependencies). */
const SOURCE_DIRS = ["node", "client", "proto", "scripts", "bench", "chaos", "verify"];
const SOURCE_FILES = [
  "tsconfig.json",
  "tsconfig.build.json",
  "scripts/build.mjs",
  "package-lock.json",
];
/** Files the compiled modules load from their own folder, copied as they are. */
const COPIED = [
  "proto/gen/palisade.js",
  "proto/gen/palisade.d.ts",
  "client/run/watchdog.mjs",
  "node/ops/status-page/assets",
];
/** The bundled node process; see above. */
const NODE_BUNDLE = "bundle/node.mjs";
/**
 * The bundle's modules that use import.meta, each with the files it reads relative to itself
 * (copied to the same place relative to the bundle).
 */
const BUNDLE_META_URL = {
  "node/cli/main.ts": [], // only to tell whether it is the entry point
  "node/auth/yaml-off-thread.ts": [], // resolves the yaml package for its worker thread
  "node/ops/status-page/routes.ts": ["assets"],
};

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === "results" || name === "node_modules") continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function sources() {
  const files = SOURCE_DIRS.flatMap((d) => walk(join(root, d), []));
  files.push(...SOURCE_FILES.map((f) => join(root, f)));
  return files.map((f) => relative(root, f)).sort();
}

/** Fresh: the last build saw exactly these files, and none changed after it started. */
function isFresh(files) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, "utf8"));
  } catch {
    return false;
  }
  if (JSON.stringify(stamp.sources) !== JSON.stringify(files)) return false;
  return files.every((f) => statSync(join(root, f)).mtimeMs <= stamp.startedAtMs);
}

const require = createRequire(import.meta.url);

function tscPath() {
  try {
    return require.resolve("typescript/bin/tsc");
  } catch {
    process.stderr.write(
      "build: typescript is not installed (a production-only install?). Build dist/ where the dev dependencies are " +
        "(npm ci), or install the package made by `npm pack`, which contains dist/.\n",
    );
    process.exit(1);
  }
}

/** Whether code (not a comment line) uses import.meta (url, dirname, filename). */
function usesImportMeta(source) {
  return source
    .split("\n")
    .some((line) => !/^\s*(\/\/|\/\*|\*)/.test(line) && line.includes("import.meta"));
}

/** Bundles the node process into `outfile`, with a sourcemap beside it that names the sources. */
async function bundleNode(outfile) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, "node/cli/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // classic-level loads its native binding from its own folder.
    external: ["level", "classic-level"],
    // The CommonJS dependencies bundled (grpc-js, protobufjs, pino, prom-client) call require().
    banner: {
      js: 'import { createRequire as __palisadeRequire } from "node:module";\nconst require = __palisadeRequire(import.meta.url);',
    },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "linked",
    // Without comments and indentation the source V8 keeps in memory is a third of the size,
    // and one byte per character (a comment with a non-Latin-1 character makes V8 hold the whole
    // source as UTF-16); stack traces map back through the sourcemap.
    minifyWhitespace: true,
    logLevel: "warning",
    metafile: true,
  });
  for (const input of Object.keys(result.metafile.inputs)) {
    if (
      input.startsWith("node_modules/") ||
      !usesImportMeta(readFileSync(join(root, input), "utf8"))
    )
      continue;
    const reads = BUNDLE_META_URL[input];
    if (reads === undefined) {
      throw new Error(
        `${input} uses import.meta and is bundled into ${NODE_BUNDLE}: list it in BUNDLE_META_URL with the files it reads`,
      );
    }
    for (const file of reads)
      cpSync(join(root, dirname(input), file), join(dirname(outfile), file), { recursive: true });
  }
}

async function build(files) {
  const startedAtMs = Date.now();
  const tmp = join(root, `.dist-build-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    execFileSync(
      process.execPath,
      [tscPath(), "-p", join(root, "tsconfig.build.json"), "--outDir", tmp],
      { cwd: root, stdio: "inherit" },
    );
    for (const file of COPIED) {
      mkdirSync(dirname(join(tmp, file)), { recursive: true });
      cpSync(join(root, file), join(tmp, file), { recursive: true });
    }
    await bundleNode(join(tmp, NODE_BUNDLE));
    writeFileSync(
      join(tmp, ".build-stamp.json"),
      `${JSON.stringify({ startedAtMs, sources: files }, null, 1)}\n`,
    );
    rmSync(dist, { recursive: true, force: true });
    renameSync(tmp, dist);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (error && typeof error === "object" && ("status" in error || "errors" in error)) {
      process.stderr.write("build: compiling failed (see above); dist/ is unchanged\n");
      process.exit(1);
    }
    if (error instanceof Error && error.message.includes("BUNDLE_META_URL")) {
      process.stderr.write(`build: ${error.message}; dist/ is unchanged\n`);
      process.exit(1);
    }
    throw error;
  }
}

const files = sources();
if (process.argv.includes("--if-stale") && isFresh(files)) process.exit(0);
const t0 = Date.now();
await build(files);
process.stderr.write(`build: dist/ compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
