#!/usr/bin/env node
// palisadectl: loads the TypeScript CLI through tsx and exits with its code.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../client/cli.ts");
// Exit at once: nothing should outlive the verb (a stray channel or timer must not hang the shell).
process.exit(await main(process.argv.slice(2)));
