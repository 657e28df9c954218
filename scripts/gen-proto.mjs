// Generates the protobufjs static module and its TypeScript declarations from proto/.
//
//   node scripts/gen-proto.mjs            writes proto/gen/palisade.js and palisade.d.ts
//   node scripts/gen-proto.mjs --out DIR  writes them to DIR instead (used to check that the
//                                         committed files match a fresh generation)
//
// 64-bit fields are generated as Long (--force-long); proto/wire.ts is the one
// place that turns them into bigint or number. The output depends only on the .proto
// files (sorted, given by relative path), so regeneration is byte-for-byte reproducible.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const protoRoot = join(repoRoot, "proto");

function parseOutDir(argv) {
  const at = argv.indexOf("--out");
  if (at === -1) return join(protoRoot, "gen");
  const dir = argv[at + 1];
  if (!dir) throw new Error("--out needs a directory");
  return resolve(process.cwd(), dir);
}

function protoFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === "gen") continue;
    if (statSync(path).isDirectory()) found.push(...protoFiles(path));
    else if (name.endsWith(".proto")) found.push(path);
  }
  return found;
}

const outDir = parseOutDir(process.argv.slice(2));
mkdirSync(outDir, { recursive: true });
const jsOut = join(outDir, "palisade.js");
const dtsOut = join(outDir, "palisade.d.ts");
// Relative paths from the repo root keep absolute paths out of the generated files.
const sources = protoFiles(protoRoot).map((file) => relative(repoRoot, file));
const pbjs = require.resolve("protobufjs-cli/bin/pbjs");
const pbts = require.resolve("protobufjs-cli/bin/pbts");
const run = (bin, args) =>
  execFileSync(process.execPath, [bin, ...args], { cwd: repoRoot, stdio: "inherit" });

run(pbjs, [
  "-t",
  "static-module",
  "-w",
  "esm",
  "--force-long",
  "-p",
  "proto",
  "-o",
  jsOut,
  ...sources,
]);
run(pbts, ["-o", dtsOut, jsOut]);
console.log(
  `generated ${relative(process.cwd(), jsOut)} and ${relative(process.cwd(), dtsOut)} from ${sources.length} files`,
);
