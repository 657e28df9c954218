// A Palisade cluster of separate node processes on loopback that a benchmark part can
// start, kill and restart node by node. Ports are chosen by the OS; config, data and logs
// go under one folder. Only the pids this object spawned are ever signalled.
import { spawn, type ChildProcess } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClusterConfigInput } from "../node/config/index.ts";
import { PalisadeClient } from "../client/index.ts";
import type { NodeStatus } from "../client/index.ts";
import { freePorts } from "../scripts/free-ports.ts";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";
import { nodeMallocEnv } from "../node/util/malloc-env.ts";
import { waitServing } from "./ready-probe.ts";

/** Nodes run as operators run them: the `palisade` bin, on the compiled code in dist/. */
export const PALISADE_BIN = join(PACKAGE_ROOT, "bin/palisade.mjs");

// What this process started, so that an exit on a signal (which skips finally blocks)
// still stops the nodes and removes the folders.
const liveChildren = new Set<ChildProcess>();
const liveDirs = new Set<string>();
process.on("exit", () => {
  for (const child of liveChildren)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
});

/** Registers a child process to be killed if this process exits first. */
export function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
}

/** A fresh temp folder, removed by removeTempDir or at process exit. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  liveDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  liveDirs.delete(dir);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** VmRSS (or another /proc status field) of a process, in bytes; null once it is gone. */
export function procStatusBytes(pid: number, field = "VmRSS"): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface BenchClusterOptions {
  nodes?: number;
  /** Overrides of the cluster file's raft section (defaults: the product's). */
  raft?: Record<string, number>;
  /** Extra `node` options for each node process. */
  nodeArgs?: string[];
}

interface NodeSlot {
  id: number;
  clientAddress: string;
  child: ChildProcess | null;
}

export class BenchCluster {
  readonly configPath: string;
  private readonly slots: NodeSlot[];

  private constructor(
    readonly dir: string,
    slots: NodeSlot[],
    private readonly nodeArgs: string[],
  ) {
    this.slots = slots;
    this.configPath = join(dir, "cluster.json");
  }

  /** Writes the cluster file under `dir`; starts nothing. */
  static async create(dir: string, options: BenchClusterOptions = {}): Promise<BenchCluster> {
    const count = options.nodes ?? 3;
    mkdirSync(dir, { recursive: true });
    const ports = await freePorts(2 * count);
    const nodes = Array.from({ length: count }, (_, i) => ({
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
    const withRaft = options.raft ? { ...config, raft: options.raft } : config;
    const cluster = new BenchCluster(
      dir,
      nodes.map((n) => ({ id: n.id, clientAddress: n.clientAddress, child: null })),
      options.nodeArgs ?? [],
    );
    writeFileSync(cluster.configPath, JSON.stringify(withRaft, null, 2));
    return cluster;
  }

  get endpoints(): string[] {
    return this.slots.map((s) => s.clientAddress);
  }

  get ids(): number[] {
    return this.slots.map((s) => s.id);
  }

  endpointOf(id: number): string {
    return this.slot(id).clientAddress;
  }

  dataDirOf(id: number): string {
    return join(this.dir, `node-${id}`);
  }

  pidOf(id: number): number | null {
    const child = this.slot(id).child;
    return child && child.exitCode === null && child.signalCode === null
      ? (child.pid ?? null)
      : null;
  }

  /** Replaces the cluster file's raft section (takes effect at each node's next start). */
  setRaft(raft: Record<string, number>): void {
    const config = JSON.parse(readFileSync(this.configPath, "utf8")) as Record<string, unknown>;
    writeFileSync(this.configPath, JSON.stringify({ ...config, raft }, null, 2));
  }

  /** Spawns node `id`; returns the time (performance.now()) just before the spawn. */
  start(id: number): number {
    const slot = this.slot(id);
    if (this.pidOf(id) !== null) throw new Error(`node ${id} is already running`);
    const log = openSync(join(this.dir, `node-${id}.log`), "a");
    const startedAt = performance.now();
    const child = spawn(
      process.execPath,
      [
        ...this.nodeArgs,
        PALISADE_BIN,
        "node",
        "--config",
        this.configPath,
        "--id",
        String(id),
        "--log-format",
        "json",
      ],
      {
        cwd: PACKAGE_ROOT,
        stdio: ["ignore", log, log],
        // As the systemd unit runs a node (docs/operations/running.md#memory).
        env: {
          ...process.env,
          PALISADE_LOG_LEVEL: process.env["PALISADE_LOG_LEVEL"] ?? "info",
          ...nodeMallocEnv(process.env),
        },
      },
    );
    closeSync(log);
    if (child.pid === undefined) throw new Error(`node ${id} did not start`);
    slot.child = child;
    trackChild(child);
    return startedAt;
  }

  startAll(): void {
    for (const id of this.ids) this.start(id);
  }

  /** Sends `signal` to node `id` and waits (bounded) until the process has exited. */
  async stop(id: number, signal: NodeJS.Signals = "SIGTERM", waitMs = 15_000): Promise<void> {
    const child = this.slot(id).child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill(signal);
    const done = await Promise.race([exited.then(() => true), sleep(waitMs).then(() => false)]);
    if (!done) {
      child.kill("SIGKILL");
      await exited;
    }
  }

  async stopAll(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await Promise.all(this.ids.map((id) => this.stop(id, signal)));
  }

  /** Status of node `id`, or null when it does not answer within the call timeout. */
  async status(client: PalisadeClient, id: number): Promise<NodeStatus | null> {
    try {
      return await client.admin.status(this.endpointOf(id));
    } catch {
      return null;
    }
  }

  /** The node that reports itself leader, waiting up to `timeoutMs`. */
  async waitLeader(client: PalisadeClient, timeoutMs = 30_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      for (const id of this.ids) {
        if (this.pidOf(id) === null) continue;
        const s = await this.status(client, id);
        if (s?.role === "leader") return id;
      }
      await sleep(100);
    }
    throw new Error(`no leader within ${timeoutMs} ms\n${this.logTails()}`);
  }

  /** Bounded wait until a session opens and a probe lock is taken and released. */
  waitServing(timeoutMs = 30_000): Promise<void> {
    return waitServing(this.endpoints, timeoutMs, () => this.logTails());
  }

  logTails(chars = 1_500): string {
    return this.ids
      .map((id) => {
        let text: string;
        try {
          text = readFileSync(join(this.dir, `node-${id}.log`), "utf8").slice(-chars);
        } catch {
          text = "(no log)";
        }
        return `--- node ${id}\n${text}`;
      })
      .join("\n");
  }

  private slot(id: number): NodeSlot {
    const slot = this.slots.find((s) => s.id === id);
    if (!slot) throw new Error(`no node ${id}`);
    return slot;
  }
}
