// `npm run bench` entry: runs bench/run.sh (which starts and stops both clusters), passing
// arguments and environment through and exiting with its code.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./run.sh", import.meta.url));
const result = spawnSync("bash", [script, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
