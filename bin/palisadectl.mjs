#!/usr/bin/env node
// palisadectl: loads the TypeScript CLI through tsx and exits with its code.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../client/cli.ts");
process.exitCode = await main(process.argv.slice(2));
