// `npm start` (scripts/start-local.ts, built) on a three-node cluster file with OS-assigned
// ports: it says "cluster ready"; a node killed from outside is started again and serves;
// `stop N` on its standard input keeps a node down until `start N`; Ctrl-C stops every node
// and exits 0. Every pid it prints is recorded, so a test that dies leaves nothing running.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import { processAlive } from "../../chaos/fault/registry.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { REPO_ROOT } from "./ctl-process.ts";
import { ensureRoot, forgetPid, IT_ROOT, recordOwner, recordPid } from "./pidfiles.ts";

interface Said {
  msg: string;
}

let dir: string;
let starter: ChildProcessWithoutNullStreams;
let client: PalisadeClient;
let endpoints: string[] = [];
const said: string[] = [];
const pids = new Set<number>();
/** Resolvers waiting for a line of npm start's own that matches. */
const waiting: Array<{ pattern: RegExp; from: number; resolve: (m: RegExpMatchArray) => void }> =
  [];

/** The first line of npm start's own, at or after line `from`, that matches `pattern`. */
function line(pattern: RegExp, from = 0): Promise<RegExpMatchArray> {
  for (let i = from; i < said.length; i++) {
    const m = pattern.exec(said[i] as string);
    if (m) return Promise.resolve(m);
  }
  return new Promise((resolve) => waiting.push({ pattern, from, resolve }));
}

function heard(msg: string): void {
  said.push(msg);
  const started = /^node \d+ started \(pid (\d+)\)$/.exec(msg);
  if (started) {
    const pid = Number(started[1]);
    pids.add(pid);
    recordPid(pid, dir);
  }
  for (const w of [...waiting]) {
    const m = w.pattern.exec(msg);
    if (m && said.length - 1 >= w.from) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(m);
    }
  }
}

/** The pid npm start last said node `id` was started with. */
async function pidOf(id: number, from = 0): Promise<number> {
  let pid = 0;
  for (let i = from; i < said.length; i++) {
    const m = new RegExp(`^node ${id} started \\(pid (\\d+)\\)$`).exec(said[i] as string);
    if (m) pid = Number(m[1]);
  }
  if (pid === 0) pid = Number((await line(new RegExp(`^node ${id} started \\(pid (\\d+)\\)$`)))[1]);
  return pid;
}

/** Resolves once node `endpoint` answers Status (the budget of the client bounds each try). */
async function serves(endpoint: string): Promise<number> {
  for (;;) {
    try {
      return (await client.admin.status(endpoint)).nodeId;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

beforeAll(async () => {
  ensureRoot();
  dir = mkdtempSync(join(IT_ROOT, "cluster-start-"));
  recordOwner(dir);
  const ports = await freePorts(9);
  const nodes = [1, 2, 3].map((id) => ({
    id,
    peerAddress: `127.0.0.1:${ports[id - 1]}`,
    clientAddress: `127.0.0.1:${ports[id + 2]}`,
    metricsAddress: `127.0.0.1:${ports[id + 5]}`,
    dataDir: `node-${id}`,
  }));
  endpoints = nodes.map((n) => n.clientAddress);
  const config = join(dir, "cluster.json");
  writeFileSync(
    config,
    JSON.stringify({ clusterId: "palisade-start", nodes, disk: { reserveBytes: 0 } }),
  );
  starter = spawn(
    process.execPath,
    [join(REPO_ROOT, "dist/scripts/start-local.js"), "--config", config, "--log-format", "json"],
    { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  recordPid(starter.pid as number, dir);
  createInterface({ input: starter.stdout }).on("line", (text) => {
    try {
      const record = JSON.parse(text) as Said & { source?: string };
      if (record.source === "npm start") heard(record.msg);
    } catch {
      // Not JSON: not one of npm start's own lines.
    }
  });
  starter.stderr.resume();
  client = new PalisadeClient({ endpoints, callTimeoutMs: 1_000, retryBudgetMs: 2_000 });
  await line(/^cluster ready/);
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (starter && starter.exitCode === null && starter.signalCode === null) starter.kill("SIGKILL");
  for (const pid of pids) {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
    forgetPid(pid);
  }
  if (starter?.pid !== undefined) forgetPid(starter.pid);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("starts a node killed from outside again, and it serves", async () => {
    const before = await pidOf(2);
    const from = said.length;
    process.kill(before, "SIGKILL");
    await line(/^node 2 exited \(SIGKILL\); restarting it in 1 s$/, from);
    const after = Number((await line(/^node 2 started \(pid (\d+)\)$/, from))[1]);
    expect(after).not.toBe(before);
    expect(processAlive(before)).toBe(false);
    expect(await serves(endpoints[1] as string)).toBe(2);
  });

  it("keeps a node stopped from its console down until started again", async () => {
    const before = await pidOf(3);
    let from = said.length;
    starter.stdin.write("stop 3\n");
    await line(/^node 3 stopped \(code 0\); `start 3` starts it again$/, from);
    expect(processAlive(before)).toBe(false);
    // Asked again while down: it says the node stays down, and nothing started it meanwhile.
    from = said.length;
    starter.stdin.write("stop 3\n");
    await line(/^node 3 is not running; it stays down$/, from);
    expect(said.slice(from).some((m) => m.startsWith("node 3 started"))).toBe(false);
    from = said.length;
    starter.stdin.write("start 3\n");
    await line(/^node 3 started \(pid \d+\)$/, from);
    expect(await serves(endpoints[2] as string)).toBe(3);
  });

  it("answers a line it does not understand with its commands", async () => {
    const from = said.length;
    starter.stdin.write("stop 9\n");
    await line(/^not understood: "stop 9" \(nodes: 1, 2, 3\)$/, from);
    await line(/^commands: stop N/, from);
  });

  it("stops every node on Ctrl-C and exits 0", async () => {
    const exited = new Promise<number | null>((r) => starter.once("exit", (code) => r(code)));
    starter.kill("SIGINT");
    expect(await exited).toBe(0);
    for (const pid of pids) expect(processAlive(pid), `pid ${pid}`).toBe(false);
  });
});
