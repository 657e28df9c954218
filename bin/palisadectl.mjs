#!/usr/bin/env node
// palisadectl: runs the built command line (dist/client/ctl/main.js) and exits with its code.
import { existsSync } from "node:fs";

const cli = new URL("../dist/client/ctl/main.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "palisadectl: the compiled code (dist/) is missing: run `npm run build` (`npm ci` runs it)\n",
  );
  process.exit(1);
}
const { main } = await import(cli.href);
// Exit at once: nothing should outlive the verb (a stray channel or timer must not hang the shell).
process.exit(await main(process.argv.slice(2)));
