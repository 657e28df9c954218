// Starts a three-node Palisade cluster on loopback for the benchmark and returns once a
// session can be opened and a lock taken:
//   node dist/bench/palisade-cluster.js DIR
// PALISADE_NODE_ARGS (space-separated) adds options to each node's `node` command line, e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the nodes (written when they stop).
// Ports are chosen by the OS; config, data and logs go under DIR. The node pids are written
// one per line to DIR/pids and the client endpoints, comma-separated, to DIR/endpoints;
// the nodes keep running after this exits (run.sh stops them by those pids).
// Raft and limits are the defaults of the product (node/config/defaults.ts; fsync on every append).
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ClusterConfigInput } from "../node/config/index.ts";
import { freePorts } from "../scripts/free-ports.ts";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";
import { PALISADE_BIN } from "./cluster-control.ts";
import { waitServing } from "./ready-probe.ts";

const NODES = 3;
const READY_TIMEOUT_MS = 30_000;
const extraNodeArgs = (process.env["PALISADE_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "");

async function main(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const ports = await freePorts(2 * NODES);
  const nodes = Array.from({ length: NODES }, (_, i) => ({
    id: i + 1,
    peerAddress: `127.0.0.1:${ports[2 * i]}`,
    clientAddress: `127.0.0.1:${ports[2 * i + 1]}`,
    dataDir: `node-${i + 1}`,
  }));
  const config: ClusterConfigInput = {
    clusterId: "palisade-bench",
    nodes,
    disk: { reserveBytes: 0 },
  };
  const configPath = join(dir, "cluster.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));

  const pids: number[] = [];
  for (const node of nodes) {
    const log = openSync(join(dir, `node-${node.id}.log`), "a");
    const child = spawn(
      process.execPath,
      [...extraNodeArgs, PALISADE_BIN, "node", "--config", configPath, "--id", String(node.id)],
      {
        cwd: PACKAGE_ROOT,
        stdio: ["ignore", log, log],
        detached: true,
      },
    );
    closeSync(log);
    if (child.pid === undefined) throw new Error(`node ${node.id} did not start`);
    pids.push(child.pid);
    child.unref();
    // Record as we go, so the caller can stop what started even if a later step fails.
    writeFileSync(join(dir, "pids"), pids.join("\n") + "\n");
  }
  const endpoints = nodes.map((n) => n.clientAddress);
  const logsOf = (): string =>
    nodes
      .map(
        (n) =>
          `--- node ${n.id}\n${readFileSync(join(dir, `node-${n.id}.log`), "utf8").slice(-2_000)}`,
      )
      .join("\n");
  await waitServing(endpoints, READY_TIMEOUT_MS, logsOf);
  writeFileSync(join(dir, "endpoints"), endpoints.join(",") + "\n");
  process.stdout.write(`palisade cluster ready: ${endpoints.join(",")} (pids ${pids.join(",")})\n`);
}

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: node dist/bench/palisade-cluster.js DIR\n");
  process.exit(2);
}
main(dir).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
