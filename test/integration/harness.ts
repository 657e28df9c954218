// A Palisade cluster of real node processes for integration tests, on loopback or at the
// addresses a test gives (a network namespace per node): ports chosen by the OS, data in a
// fresh temp folder, every process killed and the folder removed by stop() (and the
// processes killed when the test process exits).
import { spawn, type ChildProcess } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll } from "vitest";
import type { ClusterConfigInput } from "../../node/config/index.ts";
import { PalisadeClient, type PalisadeClientOptions } from "../../client/index.ts";
import type { NodeStatus } from "../../client/index.ts";
import { statusFrom } from "../../client/types.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { adminServiceDefinition } from "../../proto/grpc.ts";
import { ensureRoot, forgetPid, IT_ROOT, recordOwner, recordPid } from "./pidfiles.ts";
import { freePorts } from "../../scripts/free-ports.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export interface ClusterOptions {
  nodes?: number;
  raft?: NonNullable<ClusterConfigInput["raft"]>;
  limits?: NonNullable<ClusterConfigInput["limits"]>;
  session?: NonNullable<ClusterConfigInput["session"]>;
  /** How long to wait for the first leader. */
  startTimeoutMs?: number;
  /** Cluster id (default "palisade-it"). */
  clusterId?: string;
  /** Free-space reserve (default 0: off). */
  disk?: NonNullable<ClusterConfigInput["disk"]>;
  /** Runs after the cluster file is written and before any node starts (e.g. to seed data directories). */
  beforeStart?: (setup: {
    dir: string;
    configPath: string;
    dataDir: (id: number) => string;
  }) => Promise<void> | void;
  /** Extra environment of a node's process. */
  env?: (id: number) => NodeJS.ProcessEnv | undefined;
  /** Limits of one node's own cluster file (the others use `limits`): a misconfigured node. */
  nodeLimits?: (id: number) => NonNullable<ClusterConfigInput["limits"]> | undefined;
  /** Give each node a metricsAddress (with /metrics and the status page at /ui). */
  metrics?: boolean;
  /** Give each node an httpAddress (the JSON gateway). */
  http?: boolean;
  statusPage?: NonNullable<ClusterConfigInput["statusPage"]>;
  /** The address a node listens on (default 127.0.0.1), e.g. that of its network namespace. */
  host?: (id: number) => string;
  /**
   * A command the node's command line is appended to, e.g. `ip netns exec NS`. It must exec
   * the node, so that the pid (signals, pidfiles) stays the node's own.
   */
  launcher?: (id: number) => string[];
  /** Mutual TLS for peers and clients (certificate paths absolute, `{id}` for a node's id). */
  tls?: NonNullable<ClusterConfigInput["tls"]>;
  auth?: NonNullable<ClusterConfigInput["auth"]>;
  /** What the harness's own calls and `client()` connect with (under `tls`: an admin certificate). */
  credentials?: grpc.ChannelCredentials;
  /**
   * The authorization header of the harness's own Status calls, when it returns one: under an
   * access policy an anonymous caller may not call Status.
   */
  authorization?: () => string | undefined;
}

export interface Cluster {
  readonly dir: string;
  readonly configPath: string;
  readonly ids: readonly number[];
  /** Absolute data directory of a node. */
  dataDir(id: number): string;
  /** Client address of a node. */
  endpoint(id: number): string;
  readonly endpoints: readonly string[];
  /** http://host:port of a node's metrics endpoint (with `metrics`), without a path. */
  metricsOrigin(id: number): string;
  /** http://host:port of a node's JSON gateway (with `http`), without a path. */
  httpOrigin(id: number): string;
  /** A client over every endpoint (or the given ones); closed by stop(). */
  client(options?: Partial<PalisadeClientOptions>): PalisadeClient;
  /** Sends a signal (SIGKILL by default) and waits until the process has exited. */
  kill(id: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a node that is not running (after kill). */
  restart(id: number): Promise<void>;
  /**
   * Starts a new, empty node with the next id that joins the running cluster (`--join`); it
   * becomes a member once `member add` names it. Its cluster file lists every node.
   */
  startJoiningNode(): Promise<{ id: number; peerAddress: string; clientAddress: string }>;
  isRunning(id: number): boolean;
  /** The pid of node `id`'s process while it runs (the node itself: no wrapper process). */
  pid(id: number): number | undefined;
  /** Waits until a running node is leader and a majority of running nodes agree; returns its id. */
  leaderId(timeoutMs?: number): Promise<number>;
  status(id: number): Promise<NodeStatus>;
  /**
   * Polls `check` until it returns true, for up to `timeoutMs` (default 20 s) of a cluster
   * whose running nodes all serve: the time a node spends starting does not count (see
   * WaitOptions for `progress`).
   */
  waitFor(
    what: string,
    check: () => Promise<boolean>,
    options?: number | WaitOptions,
  ): Promise<void>;
  /** stdout and stderr of a node so far (for failure messages). */
  logs(id: number): string;
  stop(): Promise<void>;
}

export interface WaitOptions {
  /** How long the check may keep failing with no node starting and no progress (default 20 s). */
  timeoutMs?: number;
  /**
   * A reading of the thing awaited (an applied index, a count): each time it changes, the
   * wait gets `timeoutMs` afresh, so a slow but moving catch-up is waited out and a stuck
   * one still fails.
   */
  progress?: () => Promise<unknown>;
}

/** What a node writes once it listens for clients and peers. */
const SERVING_LINE = /node \d+ serving clients on /;
/** Lines the failure tail leaves out: on a loaded machine they crowd out everything else. */
const NOISE_LINE = /"msg":"event loop stalled/;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  installExitHook();
  ensureRoot();
  const count = options.nodes ?? 3;
  const dir = mkdtempSync(join(IT_ROOT, "cluster-"));
  recordOwner(dir);
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  const nodes: Array<{
    id: number;
    peerAddress: string;
    clientAddress: string;
    dataDir: string;
    metricsAddress?: string;
    httpAddress?: string;
  }> = [];
  const perNode = 2 + (options.metrics ? 1 : 0) + (options.http ? 1 : 0);
  const ports = await freePorts(perNode * count);
  for (const id of ids) {
    const [peerPort, clientPort, ...more] = ports.slice(perNode * (id - 1), perNode * id);
    const host = options.host?.(id) ?? "127.0.0.1";
    nodes.push({
      id,
      peerAddress: `${host}:${peerPort}`,
      clientAddress: `${host}:${clientPort}`,
      dataDir: `node-${id}`,
      ...(options.metrics ? { metricsAddress: `${host}:${more.shift()}` } : {}),
      ...(options.http ? { httpAddress: `${host}:${more.shift()}` } : {}),
    });
  }
  const config: ClusterConfigInput = {
    clusterId: options.clusterId ?? "palisade-it",
    nodes,
    raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1, ...options.raft },
    limits: { minTtlMs: 500, ...options.limits },
    disk: { reserveBytes: 0, ...options.disk },
    ...(options.session ? { session: options.session } : {}),
    ...(options.statusPage ? { statusPage: options.statusPage } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
  };
  const configPath = join(dir, "cluster.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  /** Nodes whose own cluster file differs from the shared one (see nodeLimits). */
  const ownConfig = new Map<number, string>();
  for (const id of ids) {
    const limits = options.nodeLimits?.(id);
    if (!limits) continue;
    const path = join(dir, `cluster-node-${id}.json`);
    writeFileSync(
      path,
      JSON.stringify({ ...config, limits: { ...config.limits, ...limits } }, null, 2),
    );
    ownConfig.set(id, path);
  }

  const children = new Map<number, ChildProcess>();
  const clients: PalisadeClient[] = [];
  const endpointOf = (id: number): string => {
    const node = nodes.find((n) => n.id === id);
    if (!node) throw new Error(`no node ${id}`);
    return node.clientAddress;
  };
  const logPath = (id: number): string => join(dir, `node-${id}.log`);

  /** Nodes that joined later run from their own cluster file, with --join. */
  const joinArgs = new Map<number, string[]>();
  /** Where each node's log stood when it was last started: its serving line comes after. */
  const logOffset = new Map<number, number>();
  /** Nodes that have said they serve since they were last started. */
  const serving = new Set<number>();
  const start = (id: number): void => {
    if (children.has(id)) throw new Error(`node ${id} is already running`);
    let offset = 0;
    try {
      offset = statSync(logPath(id)).size;
    } catch {
      // No log yet: its first start.
    }
    logOffset.set(id, offset);
    serving.delete(id);
    const log = openSync(logPath(id), "a");
    const args = joinArgs.get(id) ?? ["--config", ownConfig.get(id) ?? configPath];
    const [program, ...argv] = [
      ...(options.launcher?.(id) ?? []),
      process.execPath,
      "--import",
      "tsx",
      "node/cli/main.ts",
      ...args,
      "--id",
      String(id),
    ];
    const child = spawn(program!, argv, {
      cwd: REPO_ROOT,
      stdio: ["ignore", log, log],
      env: { ...process.env, NODE_ENV: "test", ...options.env?.(id) },
    });
    closeSync(log);
    if (child.pid === undefined) throw new Error(`node ${id} did not start`);
    const pid = child.pid;
    recordPid(pid, dir);
    running.add(child);
    children.set(id, child);
    child.once("exit", (code, signal) => {
      // Recorded for failure messages: how the process ended.
      try {
        appendFileSync(
          logPath(id),
          `[harness] node ${id} exited: code ${code}, signal ${signal}\n`,
        );
      } catch {
        // the folder is gone after stop()
      }
      running.delete(child);
      forgetPid(pid);
      if (children.get(id) === child) children.delete(id);
    });
  };

  const logs = (id: number): string => {
    try {
      return readFileSync(logPath(id), "utf8");
    } catch {
      return "";
    }
  };

  /** True once node `id`, started last, has said it serves (false while it starts, or when it is not running). */
  const isServing = (id: number): boolean => {
    if (!children.has(id)) return false;
    if (!serving.has(id) && SERVING_LINE.test(logs(id).slice(logOffset.get(id) ?? 0)))
      serving.add(id);
    return serving.has(id);
  };

  /** Running nodes that have not said yet that they serve: their start-up is under way. */
  const starting = (): number[] => [...children.keys()].filter((id) => !isServing(id));

  const tail = (id: number): string =>
    logs(id)
      .split("\n")
      .filter((line) => !NOISE_LINE.test(line))
      .slice(-15)
      .join("\n");

  // One client for Status calls, each aimed at one endpoint.
  const credentials = options.credentials ?? grpc.credentials.createInsecure();
  const admin = new PalisadeClient({
    endpoints: nodes.map((n) => n.clientAddress),
    callTimeoutMs: 1_000,
    retryBudgetMs: 1_000,
    credentials,
  });

  const status = (id: number): Promise<NodeStatus> => {
    const authorization = options.authorization?.();
    return authorization === undefined
      ? admin.admin.status(endpointOf(id))
      : statusWith(endpointOf(id), credentials, authorization);
  };

  // Starting a node process takes from under a second to tens of seconds on a loaded
  // machine; what a wait proves happens after it, so the deadline runs only while every
  // running node serves, and afresh whenever the awaited thing moves (`progress`).
  const waitFor = async (
    what: string,
    check: () => Promise<boolean>,
    options: number | WaitOptions = {},
  ): Promise<void> => {
    const { timeoutMs = 20_000, progress } =
      typeof options === "number" ? { timeoutMs: options } : options;
    let giveUpAt = Date.now() + timeoutMs;
    let lastError: unknown;
    let lastReading: string | undefined;
    for (;;) {
      try {
        if (await check()) return;
        lastError = undefined;
      } catch (err) {
        lastError = err;
      }
      if (starting().length > 0) giveUpAt = Date.now() + timeoutMs;
      if (progress) {
        const reading = await progress().then(
          (r) => String(r),
          () => undefined,
        );
        if (reading !== undefined && reading !== lastReading) {
          if (lastReading !== undefined) giveUpAt = Date.now() + timeoutMs;
          lastReading = reading;
        }
      }
      if (Date.now() > giveUpAt) {
        const tails = ids.map((id) => `--- node ${id} ---\n${tail(id)}`).join("\n");
        const moved = progress
          ? ` (no progress for ${timeoutMs} ms; last reading ${lastReading ?? "none"})`
          : "";
        throw new Error(
          `timed out waiting for ${what}${moved}${lastError ? ` (last error: ${(lastError as Error).message})` : ""}\n${tails}`,
        );
      }
      await sleep(50);
    }
  };

  const leaderId = async (timeoutMs = 20_000): Promise<number> => {
    let leader = 0;
    await waitFor(
      "a leader",
      async () => {
        const live = ids.filter((id) => children.has(id));
        const answers = await Promise.all(live.map((id) => status(id).catch(() => undefined)));
        const leaders = answers.filter((s): s is NodeStatus => s?.role === "leader");
        if (leaders.length === 0) return false;
        const top = leaders.reduce((a, b) => (b.term > a.term ? b : a));
        const agree = answers.filter(
          (s) => s?.leaderId === top.nodeId && s.term === top.term,
        ).length;
        if (agree * 2 <= count) return false;
        leader = top.nodeId;
        return true;
      },
      timeoutMs,
    );
    return leader;
  };

  const cluster: Cluster = {
    dir,
    configPath,
    ids,
    dataDir: (id) => join(dir, `node-${id}`),
    endpoint: endpointOf,
    endpoints: nodes.map((n) => n.clientAddress),
    metricsOrigin(id) {
      const address = nodes.find((n) => n.id === id)?.metricsAddress;
      if (!address)
        throw new Error(`node ${id} has no metrics address (start the cluster with metrics: true)`);
      return `http://${address}`;
    },
    httpOrigin(id) {
      const address = nodes.find((n) => n.id === id)?.httpAddress;
      if (!address)
        throw new Error(`node ${id} has no HTTP address (start the cluster with http: true)`);
      return `http://${address}`;
    },
    client(opts = {}) {
      const client = new PalisadeClient({
        endpoints: nodes.map((n) => n.clientAddress),
        callTimeoutMs: 2_000,
        retryBudgetMs: 15_000,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        ...opts,
      });
      clients.push(client);
      return client;
    },
    async kill(id, signal = "SIGKILL") {
      const child = children.get(id);
      if (!child) return;
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill(signal);
      await exited;
    },
    async restart(id) {
      start(id);
    },
    async startJoiningNode() {
      const id = Math.max(...nodes.map((n) => n.id)) + 1;
      const [peerPort, clientPort] = await freePorts(2);
      const node = {
        id,
        peerAddress: `127.0.0.1:${peerPort}`,
        clientAddress: `127.0.0.1:${clientPort}`,
        dataDir: `node-${id}`,
      };
      nodes.push(node);
      const joinPath = join(dir, `cluster-join-${id}.json`);
      writeFileSync(joinPath, JSON.stringify({ ...config, nodes }, null, 2));
      joinArgs.set(id, ["--config", joinPath, "--join"]);
      ids.push(id);
      start(id);
      return { id, peerAddress: node.peerAddress, clientAddress: node.clientAddress };
    },
    isRunning: (id) => children.has(id),
    pid: (id) => children.get(id)?.pid,
    leaderId,
    status,
    waitFor,
    logs,
    async stop() {
      await Promise.allSettled(clients.map((c) => Promise.race([c.close(), sleep(2_000)])));
      admin.close().catch(() => undefined);
      await Promise.all([...children.keys()].map((id) => cluster.kill(id)));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await options.beforeStart?.({ dir, configPath, dataDir: (id) => join(dir, `node-${id}`) });
    for (const id of ids) start(id);
    await leaderId(options.startTimeoutMs ?? 30_000);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** One node's Status, asked with an authorization header. */
function statusWith(
  endpoint: string,
  credentials: grpc.ChannelCredentials,
  authorization: string,
): Promise<NodeStatus> {
  const client = new grpc.Client(endpoint, credentials);
  const method = adminServiceDefinition.Status;
  const metadata = new grpc.Metadata();
  metadata.set("authorization", authorization);
  return new Promise<NodeStatus>((resolve, reject) =>
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      palisade.v1.StatusRequest.create({}),
      metadata,
      { deadline: Date.now() + 1_000 },
      (err, answer) => (err || !answer ? reject(err) : resolve(statusFrom(endpoint, answer))),
    ),
  ).finally(() => client.close());
}

/** What a test file does with its cluster once it is up; may hand back its own cleanup. */
export type ClusterReady = (
  cluster: Cluster,
) => void | (() => void | Promise<void>) | Promise<void | (() => void | Promise<void>)>;

/**
 * The cluster of a test file (or of a describe block): started before its tests, handed to
 * `ready` (clients, helpers), and stopped after them even when they fail, after the cleanup
 * `ready` handed back.
 */
export function clusterForTests(options: ClusterOptions, ready: ClusterReady): void {
  let cluster: Cluster | undefined;
  let cleanup: (() => void | Promise<void>) | void;
  beforeAll(async () => {
    cluster = await startCluster(options);
    cleanup = await ready(cluster);
  });
  afterAll(async () => {
    try {
      await cleanup?.();
    } finally {
      await cluster?.stop();
    }
  });
}
