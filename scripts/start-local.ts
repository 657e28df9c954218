// `npm start`: runs the three-node loopback cluster of cluster-config/local.json as three
// processes, data under ./data. Prints each node's client endpoint, metrics and status
// page, waits until the nodes agree on a leader and says "cluster ready", reports leader
// changes, and stops all three on Ctrl-C (SIGTERM, then SIGKILL after 5 s).
//
// It heals: a node that exits without being asked to is started again after a back-off
// (1 s, doubling up to 30 s; back to 1 s once a node has run a minute), and one that keeps
// failing within seconds of its start is given up after five tries. Lines typed on its
// standard input stop, start, kill, pause and resume one node, to try failures by hand.
//
// On a terminal every log line is one pretty, coloured line that starts with its node's
// id; otherwise (or with --log-format json) the nodes' lines are JSON, passed through
// untouched, and this script's own lines are JSON too.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { Command, Option } from "commander";
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition } from "../proto/grpc.ts";
import { tlsChannelCredentials } from "../proto/tls-channel.ts";
import { ConfigError, loadClusterConfig, type ClusterConfig } from "../node/config/index.ts";
import { statusPageUrl } from "../node/ops/status-page/index.ts";
import { gatewayOrigin } from "../node/ops/http-listener.ts";
import { u64ToNumber } from "../proto/wire.ts";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";
import { nodeMallocEnv } from "../node/util/malloc-env.ts";

// The same from this source and from its build in dist/scripts/.
const repoRoot = PACKAGE_ROOT;
const KILL_AFTER_MS = 5_000;
const POLL_MS = 300;
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A node that ran this long is healthy again: its next restart waits RESTART_FIRST_MS. */
const RAN_WELL_MS = 60_000;
/** An exit this soon after a start counts as failing to start. */
const QUICK_EXIT_MS = 10_000;
/** Consecutive quick exits after which a node is no longer restarted. */
const QUICK_EXITS_MAX = 5;

const CONSOLE_HELP =
  "commands: stop N (and keep it down), start N, kill N (SIGKILL: a crash, restarted), pause N (SIGSTOP), resume N (SIGCONT), help";

interface Options {
  config: string;
  data?: string;
  logFormat: "auto" | "pretty" | "json";
  adminCert?: string;
  adminKey?: string;
}

interface Member {
  readonly id: number;
  readonly clientAddress: string;
  readonly metricsAddress: string | undefined;
  process: ChildProcess | null;
  client: grpc.Client;
  /** False once stopped from the console (or given up): an exit is then not restarted. */
  wanted: boolean;
  startedAt: number;
  /** The back-off before the next restart. */
  restartMs: number;
  quickExits: number;
  restartTimer: ReturnType<typeof setTimeout> | undefined;
  paused: boolean;
}

/** A node's Status, or that it answered without one: `denied` when a policy gives this console no admin role. */
type StatusResult =
  { ok: true; status: palisade.v1.StatusResponse } | { ok: false; denied: boolean };

function parseArgs(): Options {
  return new Command("npm start")
    .description("Run the three-node loopback Palisade cluster in this terminal.")
    .option("-c, --config <file>", "cluster file", join(repoRoot, "cluster-config/local.json"))
    .option(
      "-d, --data <dir>",
      "data folder for all nodes (default: the dataDir of each node in the cluster file)",
    )
    .addOption(
      new Option(
        "--log-format <format>",
        "pretty lines (the default on a terminal) or JSON lines (the default otherwise)",
      )
        .choices(["auto", "pretty", "json"])
        .default("auto"),
    )
    .option(
      "--admin-cert <file>",
      "with TLS: admin certificate for status polling (default admin.crt beside the CA file)",
    )
    .option(
      "--admin-key <file>",
      "with TLS: its private key (default admin.key beside the CA file)",
    )
    .parse()
    .opts<Options>();
}

/** With --data, writes a copy of the cluster file whose nodes keep their data under that folder. */
function effectiveConfig(opts: Options): { file: string; cfg: ClusterConfig } {
  const cfg = loadClusterConfig(opts.config);
  if (!opts.data) return { file: resolve(opts.config), cfg };
  const dataRoot = resolve(opts.data);
  mkdirSync(dataRoot, { recursive: true });
  const moved: ClusterConfig = {
    ...cfg,
    nodes: cfg.nodes.map((n) => ({ ...n, dataDir: join(dataRoot, `node-${n.id}`) })),
  };
  const file = join(dataRoot, "cluster.json");
  writeFileSync(file, `${JSON.stringify(moved, null, 2)}\n`);
  return { file, cfg: moved };
}

/** Plaintext, or under TLS an admin certificate (Status is an AdminService call). */
function adminCredentials(cfg: ClusterConfig, opts: Options): grpc.ChannelCredentials {
  if (!cfg.tls) return grpc.credentials.createInsecure();
  const caDir = dirname(cfg.tls.ca);
  const cert = readFileSync(opts.adminCert ?? join(caDir, "admin.crt"));
  const key = readFileSync(opts.adminKey ?? join(caDir, "admin.key"));
  return tlsChannelCredentials({ ca: readFileSync(cfg.tls.ca), key, cert });
}

function status(client: grpc.Client): Promise<StatusResult> {
  const method = adminServiceDefinition.Status;
  return new Promise((done) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      palisade.v1.StatusRequest.create({}),
      new grpc.Metadata(),
      { deadline: Date.now() + 1_000 },
      (err, res) =>
        done(
          err || !res
            ? { ok: false, denied: err?.code === grpc.status.PERMISSION_DENIED }
            : { ok: true, status: res },
        ),
    );
  });
}

/** How the cluster's access control stands, for the ready line. */
function accessLine(client: grpc.Client | undefined): Promise<string> {
  const method = adminServiceDefinition.GetPolicy;
  return new Promise((done) => {
    if (client === undefined) return done("access control unknown");
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      palisade.v1.GetPolicyRequest.create({}),
      new grpc.Metadata(),
      { deadline: Date.now() + 2_000 },
      (err, res) => {
        if (err?.code === grpc.status.PERMISSION_DENIED)
          done("access control: a policy is applied (palisadectl acl show, as an admin)");
        else if (err || !res) done("access control unknown");
        else if (u64ToNumber(res.version) === 0)
          done("open policy: every caller may do everything (docs/access-control.md)");
        else done(`access policy version ${u64ToNumber(res.version)} applied`);
      },
    );
  });
}

/** The leader every reachable node agrees on (a majority must answer), or null. */
function agreedLeader(
  results: readonly StatusResult[],
  size: number,
): { id: number; term: number } | null {
  const answers = results.flatMap((r) => (r.ok ? [r.status] : []));
  if (answers.length <= size / 2) return null;
  const leaders = new Set(answers.map((s) => `${u64ToNumber(s.leaderId)}/${u64ToNumber(s.term)}`));
  if (leaders.size !== 1) return null;
  const first = answers[0] as palisade.v1.StatusResponse;
  const id = u64ToNumber(first.leaderId);
  return id === 0 ? null : { id, term: u64ToNumber(first.term) };
}

function prefixLines(
  stream: NodeJS.ReadableStream | null,
  prefix: string,
  out: NodeJS.WritableStream,
): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) =>
    out.write(`${prefix}${line}\n`),
  );
}

/** This script's own lines: beside pretty node lines, or as JSON lines beside JSON ones. */
function sayer(pretty: boolean, color: boolean): (msg: string) => void {
  if (!pretty) {
    return (msg) =>
      process.stdout.write(
        `${JSON.stringify({ level: 30, time: new Date().toISOString(), source: "npm start", msg })}\n`,
      );
  }
  const bold = (text: string): string => (color ? `\u001b[1m${text}\u001b[22m` : text);
  return (msg) => process.stdout.write(`${bold("palisade")} ${msg}\n`);
}

async function main(): Promise<void> {
  const opts = parseArgs();
  let file: string;
  let cfg: ClusterConfig;
  try {
    ({ file, cfg } = effectiveConfig(opts));
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const pretty =
    opts.logFormat === "auto" ? process.stdout.isTTY === true : opts.logFormat === "pretty";
  const color = pretty && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const say = sayer(pretty, color);
  const width = Math.max(...cfg.nodes.map((n) => String(n.id).length));
  let credentials: grpc.ChannelCredentials;
  try {
    credentials = adminCredentials(cfg, opts);
  } catch (error) {
    process.stderr.write(
      `cannot load the admin certificate for TLS: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
  const members: Member[] = cfg.nodes.map((n) => ({
    id: n.id,
    clientAddress: n.clientAddress,
    metricsAddress: n.metricsAddress,
    process: null,
    client: new grpc.Client(n.clientAddress, credentials),
    wanted: true,
    startedAt: 0,
    restartMs: RESTART_FIRST_MS,
    quickExits: 0,
    restartTimer: undefined,
    paused: false,
  }));
  let stopping = false;

  const launch = (m: Member): void => {
    m.restartTimer = undefined;
    const child = spawn(
      process.execPath,
      // The `palisade` bin runs the node, compiled, in the child's own process (its pid is the node's).
      [
        join(repoRoot, "bin/palisade.mjs"),
        "node",
        "--config",
        file,
        "--id",
        String(m.id),
        "--log-format",
        pretty ? "pretty" : "json",
        "--log-color",
        color ? "always" : "never",
      ],
      // glibc's malloc as the systemd unit sets it (docs/operations/running.md#memory).
      {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...nodeMallocEnv(process.env) },
      },
    );
    m.process = child;
    m.startedAt = Date.now();
    m.paused = false;
    say(`node ${m.id} started (pid ${child.pid})`);
    // Log lines carry their node id already (first on pretty lines, `nodeId` in JSON);
    // anything else a node prints (a crash, a runtime warning) goes to stderr, prefixed.
    prefixLines(child.stdout, "", process.stdout);
    prefixLines(child.stderr, `node ${String(m.id).padStart(width)} ! `, process.stderr);
    child.on("exit", (code, signal) => exited(m, code, signal));
  };

  const exited = (m: Member, code: number | null, signal: NodeJS.Signals | null): void => {
    m.process = null;
    const how = signal ?? `code ${code}`;
    if (stopping) {
      if (members.every((x) => x.process === null)) process.exit(0);
      return;
    }
    if (!m.wanted) {
      say(`node ${m.id} stopped (${how}); \`start ${m.id}\` starts it again`);
      return;
    }
    const ran = Date.now() - m.startedAt;
    m.quickExits = ran < QUICK_EXIT_MS ? m.quickExits + 1 : 0;
    if (m.quickExits >= QUICK_EXITS_MAX) {
      m.wanted = false;
      say(
        `node ${m.id} exited (${how}) within ${QUICK_EXIT_MS / 1000} s of its start ${QUICK_EXITS_MAX} times in a row: not restarting it (its lines above say why; \`start ${m.id}\` tries again)`,
      );
      if (members.every((x) => !x.wanted)) {
        say("every node has stopped");
        process.exit(1);
      }
      return;
    }
    if (ran >= RAN_WELL_MS) m.restartMs = RESTART_FIRST_MS;
    const wait = m.restartMs;
    m.restartMs = Math.min(RESTART_MAX_MS, m.restartMs * 2);
    say(`node ${m.id} exited (${how}); restarting it in ${wait / 1000} s`);
    m.restartTimer = setTimeout(() => {
      if (!stopping && m.wanted && m.process === null) launch(m);
    }, wait);
  };

  for (const m of members) launch(m);
  for (const m of members) {
    const spec = cfg.nodes.find((n) => n.id === m.id);
    const metrics = m.metricsAddress ? `, metrics http://${m.metricsAddress}/metrics` : "";
    const page = spec ? statusPageUrl(cfg, spec) : null;
    const gateway = spec?.httpAddress
      ? `, HTTP gateway ${gatewayOrigin(spec.httpAddress, cfg.tls !== undefined)}/v1/`
      : "";
    say(
      `node ${m.id}: client endpoint ${m.clientAddress}${cfg.tls ? " (mTLS)" : ""}${metrics}${page ? `, status page ${page}` : ""}${gateway}`,
    );
  }

  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping all nodes`);
    for (const m of members) clearTimeout(m.restartTimer);
    if (members.every((m) => m.process === null)) process.exit(0);
    for (const m of members) {
      m.process?.kill("SIGTERM");
      // A paused node handles the SIGTERM once it runs again.
      if (m.paused) m.process?.kill("SIGCONT");
    }
    setTimeout(() => {
      for (const m of members) {
        if (m.process) {
          say(`node ${m.id} did not stop within ${KILL_AFTER_MS / 1000} s: killing it`);
          m.process.kill("SIGKILL");
        }
      }
    }, KILL_AFTER_MS).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  /** One console line: a verb and a node id. */
  const command = (line: string): void => {
    if (line === "") return;
    const [verb, idText, ...rest] = line.split(/\s+/);
    const m = members.find((x) => String(x.id) === idText);
    if (verb === "help" || m === undefined || rest.length > 0) {
      if (verb !== "help")
        say(
          `not understood: ${JSON.stringify(line)} (nodes: ${members.map((x) => x.id).join(", ")})`,
        );
      say(CONSOLE_HELP);
      return;
    }
    const running = m.process;
    switch (verb) {
      case "stop":
        m.wanted = false;
        clearTimeout(m.restartTimer);
        if (running === null) say(`node ${m.id} is not running; it stays down`);
        else {
          running.kill("SIGTERM");
          if (m.paused) running.kill("SIGCONT");
        }
        return;
      case "start":
        m.wanted = true;
        m.quickExits = 0;
        m.restartMs = RESTART_FIRST_MS;
        if (running !== null) say(`node ${m.id} is running already (pid ${running.pid})`);
        else {
          clearTimeout(m.restartTimer);
          launch(m);
        }
        return;
      case "kill":
      case "pause":
      case "resume":
        if (running === null) {
          say(`node ${m.id} is not running`);
          return;
        }
        if (verb === "kill") running.kill("SIGKILL");
        else {
          running.kill(verb === "pause" ? "SIGSTOP" : "SIGCONT");
          m.paused = verb === "pause";
          say(`node ${m.id} ${verb === "pause" ? "paused (SIGSTOP)" : "resumed (SIGCONT)"}`);
        }
        return;
      default:
        say(`not understood: ${JSON.stringify(line)}`);
        say(CONSOLE_HELP);
    }
  };

  if (!process.stdin.destroyed)
    createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
      if (!stopping) command(line.trim());
    });

  // Poll Status until the nodes agree on a leader, then keep watching for leader changes.
  let ready = false;
  let last: string | null = null;
  const startedAt = Date.now();
  let nextHintAt = startedAt + 10_000;
  while (!stopping) {
    const results = await Promise.all(members.map((m) => status(m.client)));
    const leader = agreedLeader(results, members.length);
    if (leader) {
      const key = `${leader.id}/${leader.term}`;
      if (key !== last) {
        const address = members.find((m) => m.id === leader.id)?.clientAddress ?? "?";
        say(`leader: node ${leader.id} (${address}), term ${leader.term}`);
        last = key;
      }
      if (!ready) {
        ready = true;
        const access = await accessLine(members[0]?.client);
        say(
          `cluster ready (${members.map((m) => m.clientAddress).join(",")}); ${access}; Ctrl-C stops all nodes; type help for stopping, killing or pausing one`,
        );
      }
    } else if (!ready && results.filter((r) => !r.ok && r.denied).length > members.length / 2) {
      // A policy is applied and this console is not an admin: the nodes answer, but their
      // Status (and so the leader) is not shown.
      ready = true;
      say(
        `cluster ready (${members.map((m) => m.clientAddress).join(",")}); access control: a policy is applied, and this console has no admin role, so leader changes are not shown; Ctrl-C stops all nodes`,
      );
    } else if (!ready && Date.now() > nextHintAt) {
      nextHintAt = Date.now() + 10_000;
      say(
        `still waiting for the nodes to agree on a leader (${Math.round((Date.now() - startedAt) / 1000)} s)`,
      );
    }
    await new Promise((r) => setTimeout(r, ready ? 1_000 : POLL_MS));
  }
}

void main();
