#!/usr/bin/env node
// palisade: command-line entry for running a Palisade node.
//   palisade node --config FILE --id N [--log-level L]
//   palisade restore --backup FILE --config NEW.json [--epoch N] [--id N]
//   palisade init [--dir DIR] [--hosts A,B,C]
// Runs the built command in this very process: the pid a supervisor records, and the signals
// it sends, are the node's own. The node runs from dist/bundle/node.mjs, the whole node
// process in one file (Node loads it in about half the time it takes for the module tree);
// restore and init from dist/node/cli/. Sourcemap support is left off, since reading the maps
// costs every start; NODE_OPTIONS=--enable-source-maps turns it on (stack traces then name
// the TypeScript sources).
import { existsSync } from "node:fs";

const [verb, ...rest] = process.argv.slice(2);

const usage = `Usage: palisade node --config FILE --id N [--log-level LEVEL]

Runs one node of a Palisade cluster. Every node reads the same cluster file and is told
which entry is its own with --id. Stop it with SIGINT or SIGTERM.

Commands:
  node      run a node (see: palisade node --help)
  restore   seed a new cluster's data directories from a backup (see: palisade restore --help)
  init      write a three-host cluster file, development certificates and the systemd unit (see: palisade init --help)
  help      show this help
`;

if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
  process.stdout.write(usage);
  process.exit(verb === undefined ? 1 : 0);
}
const modules = {
  node: "../dist/bundle/node.mjs",
  restore: "../dist/node/cli/restore.js",
  init: "../dist/node/cli/init.js",
};
if (!Object.hasOwn(modules, verb)) {
  process.stderr.write(`palisade: unknown command "${verb}"\n\n${usage}`);
  process.exit(1);
}

const url = new URL(modules[verb], import.meta.url);
if (!existsSync(url)) {
  process.stderr.write(
    "palisade: the compiled code (dist/) is missing: run `npm run build` (`npm ci` runs it)\n",
  );
  process.exit(1);
}
if (verb === "node") {
  // Before the bundle is evaluated, which would grow the young generation for good;
  // node/cli/main.ts then applies PALISADE_SEMI_SPACE_GROWTH (V8's own 2 by default).
  const { setFlagsFromString } = await import("node:v8");
  setFlagsFromString("--semi-space-growth-factor=1");
  const { runNode } = await import(url.href);
  await runNode(rest);
} else if (verb === "restore") {
  const { restoreMain } = await import(url.href);
  process.exit(await restoreMain(rest));
} else {
  const { initMain } = await import(url.href);
  initMain(rest);
}
