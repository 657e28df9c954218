// A three-member etcd cluster (Debian's etcd 3.4, default timeouts: heartbeat 100 ms,
// election 1000 ms, WAL fsync on) on OS-chosen loopback ports, that a benchmark part can
// kill and restart member by member, and the etcd-lockapi backend to drive it. Only the
// pids spawned here are ever signalled.
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { freePorts } from "../scripts/free-ports.ts";
import { openEtcdLockApi, type EtcdLockApi } from "./backends/etcd-lock-api.ts";
import { sleep, trackChild } from "./cluster-control.ts";

/** Whether `command` runs and exits 0 (etcd answers --version, etcdctl the version command). */
const runs = (command: string[]): boolean =>
  spawnSync(command[0]!, command.slice(1), { stdio: "ignore" }).status === 0;

/** Whether the etcd side of the parts runs: etcd is installed and SKIP_ETCD is not 1. */
export function etcdWanted(): boolean {
  return (
    process.env["SKIP_ETCD"] !== "1" && runs(["etcd", "--version"]) && runs(["etcdctl", "version"])
  );
}

/** The etcd-lockapi backend on `endpoints`, sessions being leases of `ttlMs`. */
export function openEtcdLockBackend(endpoints: string[], ttlMs: number): Promise<EtcdLockApi> {
  return openEtcdLockApi({ endpoints, ttlMs, acquireTimeoutMs: 30_000 });
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs }, (error, stdout) => resolve(error ? null : stdout));
  });
}

export class EtcdCluster {
  private readonly children = new Map<number, ChildProcess>();

  private constructor(
    readonly dir: string,
    private readonly clientPorts: number[],
    private readonly peerPorts: number[],
    private readonly outlive: boolean,
  ) {}

  /** `outlive`: the members keep running when this process exits (stopped later by pid). */
  static async create(dir: string, options: { outlive?: boolean } = {}): Promise<EtcdCluster> {
    const ports = await freePorts(6);
    return new EtcdCluster(dir, ports.slice(0, 3), ports.slice(3), options.outlive ?? false);
  }

  get ids(): number[] {
    return [1, 2, 3];
  }

  get endpoints(): string[] {
    return this.clientPorts.map((p) => `http://127.0.0.1:${p}`);
  }

  endpointOf(id: number): string {
    return `http://127.0.0.1:${this.clientPorts[id - 1]}`;
  }

  pidOf(id: number): number | null {
    const child = this.children.get(id);
    return child && child.exitCode === null && child.signalCode === null
      ? (child.pid ?? null)
      : null;
  }

  /** Spawns member `id` (the same command on a restart: etcd then reads its data directory). */
  start(id: number): void {
    const cluster = this.ids
      .map((i) => `m${i}=http://127.0.0.1:${this.peerPorts[i - 1]}`)
      .join(",");
    const log = openSync(join(this.dir, `m${id}.log`), "a");
    const child = spawn(
      "etcd",
      [
        "--name",
        `m${id}`,
        "--data-dir",
        join(this.dir, `m${id}`),
        "--listen-client-urls",
        this.endpointOf(id),
        "--advertise-client-urls",
        this.endpointOf(id),
        "--listen-peer-urls",
        `http://127.0.0.1:${this.peerPorts[id - 1]}`,
        "--initial-advertise-peer-urls",
        `http://127.0.0.1:${this.peerPorts[id - 1]}`,
        "--initial-cluster",
        cluster,
        "--initial-cluster-token",
        "palisade-bench-etcd",
        "--initial-cluster-state",
        "new",
        "--listen-metrics-urls",
        "",
        "--logger",
        "zap",
        "--log-outputs",
        "stderr",
      ],
      { stdio: ["ignore", log, log], detached: this.outlive },
    );
    closeSync(log);
    if (child.pid === undefined) throw new Error(`etcd m${id} did not start`);
    if (this.outlive) child.unref();
    else trackChild(child);
    this.children.set(id, child);
  }

  startAll(): void {
    for (const id of this.ids) this.start(id);
  }

  async stop(id: number, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.children.get(id);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill(signal);
    if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
      child.kill("SIGKILL");
      await exited;
    }
  }

  async stopAll(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await Promise.all(this.ids.map((id) => this.stop(id, signal)));
  }

  /** Whether member `id` reports itself leader (etcdctl endpoint status); null if it does not answer. */
  async isLeader(id: number): Promise<boolean | null> {
    const out = await run(
      "etcdctl",
      [
        "--endpoints",
        this.endpointOf(id),
        "--command-timeout=1s",
        "-w",
        "table",
        "endpoint",
        "status",
      ],
      3_000,
    );
    const row = out?.split("\n").find((line) => line.includes(this.endpointOf(id)));
    if (!row) return null;
    // | ENDPOINT | ID | VERSION | DB SIZE | IS LEADER | ...
    const cells = row.split("|").map((c) => c.trim());
    return cells[5] === "true";
  }

  async waitLeader(timeoutMs = 30_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      for (const id of this.ids) {
        if (this.pidOf(id) !== null && (await this.isLeader(id)) === true) return id;
      }
      await sleep(100);
    }
    throw new Error(`etcd: no leader within ${timeoutMs} ms`);
  }

  /** Bounded wait until member `id` answers endpoint status (with the cluster's leader known to it). */
  async waitAnswering(id: number, timeoutMs = 30_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if ((await this.isLeader(id)) !== null) return;
      await sleep(100);
    }
    throw new Error(`etcd m${id} did not answer within ${timeoutMs} ms`);
  }
}
