// A real node serving /metrics, the gRPC health service and the per-client rate limit.
// Single-node clusters run in this process: one leads by itself, so lock calls work.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { adminServiceDefinition, lockServiceDefinition } from "../../proto/grpc.ts";
import {
  nodeConfig,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { createLogger } from "../../node/util/logger.ts";
import { toU64 } from "../../proto/wire.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (s) =>
        new Promise<number>((resolve) => {
          s.listen(0, "127.0.0.1", () => {
            const a = s.address();
            resolve(typeof a === "object" && a ? a.port : 0);
          });
        }),
    ),
  );
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

interface Running {
  node: PalisadeNode;
  clientAddress: string;
  metricsUrl: string;
  dir: string;
}

async function startSingleNode(limits: ClusterConfigInput["limits"] = {}): Promise<Running> {
  ensureRoot();
  const dir = mkdtempSync(join(IT_ROOT, "metrics-"));
  const [peer, client, metrics] = await freePorts(3);
  const input: ClusterConfigInput = {
    clusterId: "palisade-metrics",
    nodes: [
      {
        id: 1,
        peerAddress: `127.0.0.1:${peer}`,
        clientAddress: `127.0.0.1:${client}`,
        metricsAddress: `127.0.0.1:${metrics}`,
        dataDir: "node-1",
      },
    ],
    raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
    limits: { minTtlMs: 500, ...limits },
    disk: { reserveBytes: 0 },
  };
  const cfg = nodeConfig(parseClusterConfig(input, "metrics test", dir), 1);
  const node = await PalisadeNode.start(cfg, {
    logger: createLogger({ nodeId: 1, level: "silent" }),
  });
  // A single node elects itself; the caller's timeout bounds how long that may take here.
  while (!node.host.isLeader) await new Promise((r) => setTimeout(r, 25));
  return {
    node,
    clientAddress: `127.0.0.1:${client}`,
    metricsUrl: `http://127.0.0.1:${metrics}/metrics`,
    dir,
  };
}

async function stopNode(r: Running | undefined): Promise<void> {
  if (!r) return;
  await r.node.stop();
  rmSync(r.dir, { recursive: true, force: true });
}

/** The value of one series in an exposition text; labels in the order prom-client writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const L = 'cluster="palisade-metrics",node="1"';

type Unary = (
  path: string,
  body: Uint8Array,
) => Promise<{ ok: true; bytes: Buffer } | { ok: false; code: grpc.status; details: string }>;

function rawCaller(address: string): { call: Unary; close(): void } {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const call: Unary = (path, body) =>
    new Promise((resolve) => {
      client.makeUnaryRequest<Uint8Array, Buffer>(
        path,
        (b) => Buffer.from(b),
        (b) => b,
        body,
        new grpc.Metadata(),
        { deadline: Date.now() + 5_000 },
        (err, res) =>
          resolve(
            err
              ? { ok: false, code: err.code, details: err.details }
              : { ok: true, bytes: res ?? Buffer.alloc(0) },
          ),
      );
    });
  return { call, close: () => client.close() };
}

/** grpc.health.v1.HealthCheckRequest { string service = 1 }. */
function healthRequest(service: string): Uint8Array {
  const name = new TextEncoder().encode(service);
  return Uint8Array.from([0x0a, name.length, ...name]);
}

/** HealthCheckResponse.status (field 1, varint): 1 SERVING, 2 NOT_SERVING; absent means 0 UNKNOWN. */
function healthStatus(bytes: Buffer): number {
  return bytes.length >= 2 && bytes[0] === 0x08 ? bytes[1] : 0;
}

const statusRequest = (): Uint8Array => palisade.v1.StatusRequest.encode({}).finish();

describe("metrics endpoint and health service", () => {
  let running: Running | undefined;
  let client: PalisadeClient;

  beforeAll(async () => {
    running = await startSingleNode();
    client = new PalisadeClient({
      endpoints: [running.clientAddress],
      callTimeoutMs: 2_000,
      retryBudgetMs: 10_000,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stopNode(running);
  });

  it("exposes Raft, lock, latency and event-loop series", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    const got = await session.acquire("metrics-lock");
    expect(got.acquired).toBe(true);
    const response = await fetch(running!.metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(sample(text, `palisade_raft_role{role="leader",${L}}`)).toBe(1);
    expect(sample(text, `palisade_raft_leader_id{${L}}`)).toBe(1);
    expect(sample(text, `palisade_raft_term{${L}}`)).toBeGreaterThanOrEqual(1);
    const commit = sample(text, `palisade_raft_commit_index{${L}}`) ?? 0;
    expect(commit).toBeGreaterThanOrEqual(3); // no-op, OpenSession, Acquire
    expect(sample(text, `palisade_raft_applied_index{${L}}`)).toBe(commit);
    expect(sample(text, `palisade_raft_last_index{${L}}`)).toBe(commit);
    expect(sample(text, `palisade_raft_leader_changes_total{${L}}`)).toBeGreaterThanOrEqual(1);
    expect(sample(text, `palisade_sessions{${L}}`)).toBe(1);
    expect(sample(text, `palisade_locks_held{${L}}`)).toBe(1);
    expect(sample(text, `palisade_lock_waiters{${L}}`)).toBe(0);
    expect(
      sample(text, `palisade_proposals_total{result="committed",${L}}`),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, `palisade_proposal_commit_seconds_count{${L}}`)).toBeGreaterThanOrEqual(2);
    expect(sample(text, `palisade_storage_fsync_seconds_count{${L}}`)).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{/m);
    await session.close();
  });

  it("counts requests answered with an error by method and reason", async () => {
    const raw = rawCaller(running!.clientAddress);
    try {
      const bad = palisade.v1.GetSessionRequest.encode({ sessionId: toU64(987_654) }).finish();
      const answer = await raw.call(lockServiceDefinition.GetSession.path, bad);
      expect(answer.ok ? 0 : answer.code).toBe(grpc.status.NOT_FOUND);
    } finally {
      raw.close();
    }
    const text = await (await fetch(running!.metricsUrl)).text();
    expect(
      sample(text, `palisade_requests_rejected_total{method="GetSession",reason="not_found",${L}}`),
    ).toBe(1);
  });

  it("a grant, a queued wait and their ends show in the lock series of the leader", async () => {
    const holder = await client.openSession({ ttlMs: 10_000 });
    const waiter = await client.openSession({ ttlMs: 10_000 });
    const first = await holder.acquire("metrics/queued");
    expect(first.acquired).toBe(true);
    const waiting = waiter.acquire("metrics/queued", { waitMs: 10_000 });
    const queued = async (): Promise<number | undefined> =>
      sample(
        await (await fetch(running!.metricsUrl)).text(),
        `palisade_lock_queue_length_max{lock_prefix="",${L}}`,
      );
    // The wait is queued once the leader has applied it, however long that takes here.
    while (((await queued()) ?? 0) < 1) await new Promise((r) => setTimeout(r, 10));
    expect(await queued()).toBe(1);
    await holder.release("metrics/queued", first.token ?? 0n);
    const second = await waiting;
    expect(second.acquired).toBe(true);
    await waiter.release("metrics/queued", second.token ?? 0n);
    const text = await (await fetch(running!.metricsUrl)).text();
    const K = `kind="exclusive",lock_prefix="",${L}`;
    expect(sample(text, `palisade_lock_grants_total{${K}}`)).toBeGreaterThanOrEqual(2);
    expect(
      sample(
        text,
        `palisade_lock_grants_ended_total{kind="exclusive",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^palisade_lock_hold_seconds_count\{.*reason="released".*\} [1-9]/m);
    expect(text).toMatch(/^palisade_lock_wait_seconds_count\{.*kind="exclusive".*\} 1$/m);
    expect(await queued()).toBe(0);
    await holder.close();
    await waiter.close();
  });

  it("answers other paths 404, naming what it serves (the status page too)", async () => {
    const other = await fetch(running!.metricsUrl.replace("/metrics", "/other"));
    expect(other.status).toBe(404);
    expect(await other.text()).toBe("served here: GET /metrics, GET /ui\n");
  });

  it("serves grpc.health.v1 with the node and LockService SERVING once a leader is known", async () => {
    const raw = rawCaller(running!.clientAddress);
    try {
      for (const service of ["", "palisade.v1.LockService", "palisade.v1.AdminService"]) {
        const answer = await raw.call("/grpc.health.v1.Health/Check", healthRequest(service));
        expect(answer.ok, service).toBe(true);
        if (answer.ok) expect(healthStatus(answer.bytes), service).toBe(1);
      }
      const unknown = await raw.call(
        "/grpc.health.v1.Health/Check",
        healthRequest("no.such.Service"),
      );
      expect(unknown.ok ? 0 : unknown.code).toBe(grpc.status.NOT_FOUND);
    } finally {
      raw.close();
    }
  });
});

describe("per-client rate limit", () => {
  let running: Running | undefined;

  beforeAll(async () => {
    // One token per 1,000 s: nothing refills while the test runs, however slow the machine.
    running = await startSingleNode({ requestsPerSecond: 0.001, requestBurst: 3 });
  });

  afterAll(async () => {
    await stopNode(running);
  });

  it("answers RESOURCE_EXHAUSTED past a client's budget, and keeps each session's budget apart", async () => {
    const raw = rawCaller(running!.clientAddress);
    try {
      // OpenSession has no session yet: it spends the caller's connection budget (1 of 3).
      const opened = await raw.call(
        lockServiceDefinition.OpenSession.path,
        palisade.v1.OpenSessionRequest.encode({ ttlMs: toU64(60_000), requestId: "rl-1" }).finish(),
      );
      expect(opened.ok).toBe(true);
      const sessionId = opened.ok
        ? palisade.v1.OpenSessionResponse.decode(opened.bytes).sessionId
        : toU64(0);
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push(await raw.call(adminServiceDefinition.Status.path, statusRequest()));
      expect(answers.map((a) => a.ok)).toEqual([true, true, false]);
      const refused = answers[2];
      expect(refused.ok ? 0 : refused.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(refused.ok ? "" : refused.details).toMatch(/rate limit/);

      // Session calls spend the session's own budget, not the exhausted connection budget.
      const getSession = () =>
        raw.call(
          lockServiceDefinition.GetSession.path,
          palisade.v1.GetSessionRequest.encode({ sessionId }).finish(),
        );
      const sessionAnswers = [
        await getSession(),
        await getSession(),
        await getSession(),
        await getSession(),
      ];
      expect(sessionAnswers.map((a) => a.ok)).toEqual([true, true, true, false]);
      const last = sessionAnswers[3];
      expect(last.ok ? 0 : last.code).toBe(grpc.status.RESOURCE_EXHAUSTED);

      // Health checks are never limited, so probes keep working.
      const health = await raw.call("/grpc.health.v1.Health/Check", healthRequest(""));
      expect(health.ok).toBe(true);
    } finally {
      raw.close();
    }
    const text = await (await fetch(running!.metricsUrl)).text();
    expect(
      sample(text, `palisade_requests_rejected_total{method="Status",reason="rate_limited",${L}}`),
    ).toBe(1);
    expect(
      sample(
        text,
        `palisade_requests_rejected_total{method="GetSession",reason="rate_limited",${L}}`,
      ),
    ).toBe(1);
  });
});
