#!/usr/bin/env node
// palisade: command-line entry for running a Palisade node.
//   palisade node --config FILE --id N [--log-level L]
//   palisade restore --backup FILE --config NEW.json [--epoch N] [--id N]
//   palisade init [--dir DIR] [--hosts A,B,C]
// Runs node/cli/main.ts (or restore.ts) through tsx in a child Node process and passes signals on.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
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
const scripts = { node: "node/cli/main.ts", restore: "node/cli/restore.ts", init: "node/cli/init.ts" };
if (!Object.hasOwn(scripts, verb)) {
  process.stderr.write(`palisade: unknown command "${verb}"\n\n${usage}`);
  process.exit(1);
}

// tsx is resolved from this package, so the command works from any directory.
const tsx = import.meta.resolve("tsx");
const child = spawn(process.execPath, ["--import", tsx, join(root, scripts[verb]), ...rest], {
  stdio: "inherit",
  cwd: process.cwd(),
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + 1 : 1));
});
