// Runs vitest's two projects side by side, as two processes. One vitest process runs its
// projects' groups one after the other (the integration files, one cluster at a time, form
// a group of their own) with one worker per core but one, so on two cores everything ran
// in a row. The integration files mostly wait on their clusters; the unit files fill the
// other core meanwhile. The integration output streams as it comes; the unit output is
// printed whole when that project ends, so neither interleaves with the other. Arguments
// go to both (e.g. a file filter, or -u).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);

function run(project, stream) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["node_modules/vitest/vitest.mjs", "run", "--project", project, "--passWithNoTests", ...args],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env },
    );
    const held = [];
    const out = (chunk, to) => (stream ? to.write(chunk) : held.push(chunk));
    child.stdout.on("data", (chunk) => out(chunk, process.stdout));
    child.stderr.on("data", (chunk) => out(chunk, process.stderr));
    child.on("close", (code, signal) => {
      if (!stream) process.stdout.write(Buffer.concat(held));
      resolve({ project, code: code ?? (signal ? 1 : 0) });
    });
  });
}

const results = await Promise.all([run("integration", true), run("unit", false)]);
const failed = results.filter((r) => r.code !== 0);
for (const r of results) console.log(`${r.project}: ${r.code === 0 ? "passed" : "FAILED"}`);
process.exit(failed.length === 0 ? 0 : 1);
