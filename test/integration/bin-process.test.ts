// `bin/palisade.mjs node` runs the node in the bin's own process: the pid a supervisor
// records (systemd, a pidfile, `npm start`) is the node's, so a signal sent to it reaches
// the node, and killing it leaves nothing running.
import { spawn, type ChildProcess } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import type { ClusterConfigInput } from "../../node/config/index.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { ensureRoot, forgetPid, IT_ROOT, recordOwner, recordPid } from "./pidfiles.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const BIN = resolve(REPO_ROOT, "bin/palisade.mjs");
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface BinNode {
  child: ChildProcess;
  pid: number;
  endpoint: string;
  log: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts a one-node cluster through the bin, as a supervisor would, and waits until it answers Status. */
async function startThroughBin(): Promise<BinNode> {
  ensureRoot();
  const dir = mkdtempSync(join(IT_ROOT, "cluster-"));
  dirs.push(dir);
  recordOwner(dir);
  const [peerPort, clientPort] = await freePorts(2);
  const endpoint = `127.0.0.1:${clientPort}`;
  const config: ClusterConfigInput = {
    clusterId: "palisade-bin",
    nodes: [
      { id: 1, peerAddress: `127.0.0.1:${peerPort}`, clientAddress: endpoint, dataDir: "node-1" },
    ],
    raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
    limits: { minTtlMs: 500 },
    disk: { reserveBytes: 0 },
  };
  const configPath = join(dir, "cluster.json");
  writeFileSync(configPath, JSON.stringify(config));
  const logPath = join(dir, "node.log");
  const log = openSync(logPath, "a");
  const child = spawn(
    process.execPath,
    [BIN, "node", "--config", configPath, "--id", "1", "--log-format", "json"],
    {
      cwd: dir,
      stdio: ["ignore", log, log],
    },
  );
  closeSync(log);
  children.push(child);
  const pid = child.pid;
  if (pid === undefined) throw new Error("the bin did not start");
  recordPid(pid, dir);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => {
      forgetPid(pid);
      done({ code, signal });
    }),
  );
  const readLog = (): string => (existsSync(logPath) ? readFileSync(logPath, "utf8") : "");
  // However long it takes to start here: a node that cannot start exits.
  while (!(await answers(endpoint))) {
    if (child.exitCode !== null) throw new Error(`the node did not answer Status\n${readLog()}`);
    await sleep(50);
  }
  return { child, pid, endpoint, log: readLog, exited };
}

/** One Status call on a client of its own (no reconnect back-off from earlier tries). */
async function answers(endpoint: string): Promise<boolean> {
  const client = new PalisadeClient({
    endpoints: [endpoint],
    callTimeoutMs: 500,
    retryBudgetMs: 500,
  });
  try {
    await client.admin.status(endpoint);
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

/** The pids the process started that are still its children (Linux). */
function childPids(pid: number): string[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter((p) => p !== "");
}

describe("bin/palisade.mjs node", () => {
  it("runs the node in its own process, and SIGTERM to that pid stops the node gracefully with exit code 0", async () => {
    const node = await startThroughBin();
    expect(childPids(node.pid)).toEqual([]);
    process.kill(node.pid, "SIGTERM");
    // A stop that hangs ends by the node's own stop deadline, with exit code 1.
    const exit = await node.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const messages = node
      .log()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain("SIGTERM received: stopping");
    expect(messages).toContain("node stopped");
  });

  it("leaves nothing serving the node's port once SIGKILL ends the pid it started as", async () => {
    const node = await startThroughBin();
    process.kill(node.pid, "SIGKILL");
    expect(await node.exited).toEqual({ code: null, signal: "SIGKILL" });
    await sleep(300);
    expect(await answers(node.endpoint)).toBe(false);
  });
});
