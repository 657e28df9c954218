// The JSON gateway of real node processes: every LockService call as POST /v1/<Call> with
// proto3 JSON (a wait granted later, a retry with the same seq), bad and oversized bodies
// and a number past 2^53 refused with their reasons, a write on a follower redirected to
// the leader's gateway, Watch as server-sent events resumed by Last-Event-ID; then, against
// in-process nodes under mutual TLS, callers with, without and with the wrong certificate.
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  nodeConfig,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { createLogger } from "../../node/util/logger.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { IT_ROOT, ensureRoot } from "./pidfiles.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { CALL_NAMES } from "../../proto/lock-calls.ts";
import { SeededRandom } from "../../node/util/rng.ts";

const REPO_ROOT = join(import.meta.dirname, "..", "..");

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  text: string;
}

interface TlsFiles {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/** One HTTP(S) request; the body is sent as given (a string) or as JSON. */
function send(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    tls?: TlsFiles;
  } = {},
): Promise<Answer> {
  const raw =
    options.body === undefined
      ? undefined
      : typeof options.body === "string" || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
  // Content-Length always: Node's client sends a DELETE's body without it (nor chunked).
  const headers: Record<string, string> = {
    ...(raw !== undefined
      ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(raw)) }
      : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const done = (res: import("node:http").IncomingMessage): void => {
      // An event stream that started does not end: its status and headers are the answer.
      if (res.statusCode === 200 && res.headers["content-type"]?.startsWith("text/event-stream")) {
        resolve({ status: 200, headers: res.headers, body: {}, text: "" });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // Not JSON: the test looks at `text`.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
      res.on("error", reject);
    };
    const req = options.tls
      ? httpsRequest(url, { method: options.method ?? "POST", headers, ...options.tls }, done)
      : httpRequest(url, { method: options.method ?? "POST", headers }, done);
    req.on("error", reject);
    req.end(raw);
  });
}

describe("HTTP gateway of a three-node cluster", () => {
  let cluster: Cluster;
  let leader: number;
  let follower: number;
  const call = (name: string, body: unknown, id = leader): Promise<Answer> =>
    send(`${cluster.httpOrigin(id)}/v1/${name}`, { body });

  beforeAll(async () => {
    cluster = await startCluster({
      http: true,
      limits: { maxMessageBytes: 64 * 1024 },
      raft: { maxBytesPerAppend: 64 * 1024 },
    });
    leader = await cluster.leaderId();
    follower = cluster.ids.find((id) => id !== leader) as number;
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it("serves every call: sessions, an acquire that waits and is granted later, reads, release, close", async () => {
    const a = await call("OpenSession", { ttlMs: "10000", clientName: "curl-a", requestId: "r-a" });
    expect(a.status, a.text).toBe(200);
    const b = await call("OpenSession", {
      ttl_ms: 10_000,
      client_name: "curl-b",
      request_id: "r-b",
    });
    expect(b.status, b.text).toBe(200);
    const sa = a.body.sessionId as string;
    const sb = b.body.sessionId as string;
    expect(sa).toMatch(/^\d+$/);
    expect(a.body.ttlMs).toBe("10000");

    const kept = await call("KeepAlive", { sessionIds: [sa, sb] });
    expect(kept.status, kept.text).toBe(200);
    expect((kept.body.sessions as unknown[]).length).toBe(2);

    const first = await call("Acquire", { sessionId: sa, lock: "jobs/a", seq: "1" });
    expect(first.status, first.text).toBe(200);
    expect(first.body.acquired).toBe(true);
    const token = BigInt(first.body.token as string);

    // B waits in the queue; its answer comes once A releases.
    const waiting = call("Acquire", { sessionId: sb, lock: "jobs/a", seq: "1", waitMs: "20000" });
    let seenWaiter = false;
    for (let i = 0; i < 200 && !seenWaiter; i++) {
      const got = await call("GetLock", { lock: "jobs/a" });
      seenWaiter = (got.body.waiters as unknown[]).length === 1;
      if (!seenWaiter) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seenWaiter).toBe(true);

    const lock = await call("GetLock", { lock: "jobs/a" });
    expect((lock.body.holder as Record<string, unknown>).token).toBe(String(token));
    const list = await call("ListLocks", { prefix: "jobs/" });
    expect((list.body.locks as Array<{ lock: string }>).map((l) => l.lock)).toEqual(["jobs/a"]);
    const session = await call("GetSession", { sessionId: sa });
    expect((session.body.session as Record<string, unknown>).clientName).toBe("curl-a");
    const sessions = await call("ListSessions", {});
    expect((sessions.body.sessions as unknown[]).length).toBeGreaterThanOrEqual(2);
    const valid = await call("ValidateToken", { lock: "jobs/a", token: String(token) });
    expect(valid.body.valid).toBe(true);

    const released = await call("Release", {
      sessionId: sa,
      lock: "jobs/a",
      token: String(token),
      seq: "2",
      ackedUpTo: "1",
    });
    expect(released.status, released.text).toBe(200);
    const granted = await waiting;
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.acquired).toBe(true);
    expect(BigInt(granted.body.token as string)).toBeGreaterThan(token);

    const history = await call("GetLockHistory", { lock: "jobs/a" });
    expect((history.body.records as unknown[]).length).toBe(2);

    // A wait cancelled by CancelWait: B holds jobs/a, A waits, then cancels.
    const queued = call("Acquire", {
      sessionId: sa,
      lock: "jobs/a",
      seq: "3",
      ackedUpTo: "2",
      waitMs: "20000",
    });
    let cancel: Answer | undefined;
    for (let i = 0; i < 200; i++) {
      cancel = await call("CancelWait", { sessionId: sa, lock: "jobs/a", acquireSeq: "3" });
      if (cancel.body.outcome !== "CANCEL_WAIT_OUTCOME_NOT_FOUND") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(cancel?.status, cancel?.text).toBe(200);
    expect(cancel?.body.outcome).toBe("CANCEL_WAIT_OUTCOME_CANCELLED");
    const cancelled = await queued;
    expect(cancelled.body.acquired).toBe(false);

    const closed = await call("CloseSession", { sessionId: sb, seq: "2", ackedUpTo: "1" });
    expect(closed.status, closed.text).toBe(200);
    expect((await call("GetLock", { lock: "jobs/a" })).body.holder).toBeNull();
    expect((await call("CloseSession", { sessionId: sa, seq: "4", ackedUpTo: "3" })).status).toBe(
      200,
    );
  });

  it("answers a retry with the same seq with its first answer, once", async () => {
    const opened = await call("OpenSession", {
      ttlMs: "10000",
      clientName: "retry",
      requestId: "r-retry",
    });
    const sid = opened.body.sessionId as string;
    // The same OpenSession again (a retry after a timeout) opens no second session.
    const again = await call("OpenSession", {
      ttlMs: "10000",
      clientName: "retry",
      requestId: "r-retry",
    });
    expect(again.body.sessionId).toBe(sid);
    const request = { sessionId: sid, lock: "retry/x", seq: "1" };
    const one = await call("Acquire", request);
    const two = await call("Acquire", request);
    expect(one.status, one.text).toBe(200);
    expect(two.body).toEqual(one.body);
    const history = await call("GetLockHistory", { lock: "retry/x" });
    expect((history.body.records as unknown[]).length).toBe(1);
    await call("CloseSession", { sessionId: sid, seq: "2", ackedUpTo: "1" });
  });

  it("refuses bad bodies with their reasons and loses nothing", async () => {
    const url = `${cluster.httpOrigin(leader)}/v1/Acquire`;
    const notJson = await send(url, { body: "{not json" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({
      code: "INVALID_ARGUMENT",
      reason: "ERROR_REASON_MALFORMED_REQUEST",
    });
    const unknownField = await send(url, { body: { lock: "a", colour: "red" } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toContain("colour");
    // {"lock":"<0xff>"}: not UTF-8, so not JSON.
    const notUtf8 = await send(url, { body: Buffer.from('{"lock":"\xff"}', "latin1") });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.reason).toBe("ERROR_REASON_MALFORMED_REQUEST");
    const wrongType = await send(url, { body: { lock: 7 } });
    expect(wrongType.body.message).toContain("lock: expected a string");
    // 2^53 + 1: JSON parsing would round it to another session id.
    const past = await send(url, {
      body: '{"sessionId": 9007199254740993, "lock": "a", "seq": "1"}',
    });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe("INVALID_ARGUMENT");
    expect(past.body.message).toContain("decimal strings");
    const noSession = await send(url, { body: { sessionId: "424242", lock: "a", seq: "1" } });
    expect(noSession.status).toBe(404);
    expect(noSession.body.reason).toBe("ERROR_REASON_SESSION_NOT_FOUND");
    const formPost = await send(url, {
      body: "lock=a",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(formPost.status).toBe(415);
    const oversized = await send(url, { body: { lock: "x".repeat(70 * 1024) } });
    expect(oversized.status).toBe(413);
    expect(oversized.body.message).toContain("limits.maxMessageBytes");
    const get = await send(url, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    const nowhere = await send(`${cluster.httpOrigin(leader)}/v1/Frobnicate`, { body: {} });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.message).toContain("POST /v1/<Call>");
    // The node still serves.
    const ok = await call("ListLocks", {});
    expect(ok.status).toBe(200);
  });

  it("answers hostile requests on every route with an error it names, and keeps serving", async () => {
    const rng = new SeededRandom(20261202);
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)] as T;
    const paths = [...CALL_NAMES, "Watch", "Stream", "", "../admin", "Acquire/x", "%00", "acquire"];
    const bodies = (): string =>
      pick([
        "",
        "{",
        "null",
        "[]",
        '"x"',
        "1e400",
        '{"lock": "\u0000"}',
        '{"sessionId": "1", "lock": "a", "seq": "1", "held": [1,2,3]}',
        JSON.stringify({ lock: "x".repeat(rng.int(0, 3000)), seq: String(rng.int(0, 5)) }),
        Buffer.from(Array.from({ length: 64 }, () => rng.int(0, 255))).toString("latin1"),
        `{"sessionIds": [${Array.from({ length: 50 }, () => `"${rng.int(0, 99)}"`).join(",")}]}`,
      ]);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      const method = pick(["POST", "POST", "POST", "GET", "PUT", "DELETE"]);
      const path = `/v1/${pick(paths)}`;
      const body = method === "GET" ? undefined : bodies();
      const answer = await send(`${cluster.httpOrigin(pick(cluster.ids))}${path}`, {
        method,
        body,
        headers: {
          "content-type": pick([
            "application/json",
            "application/json; charset=utf-8",
            "text/plain",
          ]),
        },
      }).catch((error: unknown): Answer => ({
        status: -1,
        text: String(error),
        body: {},
        headers: {},
      }));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const what = `${method} ${path} ${JSON.stringify(body?.slice(0, 80))}: ${answer.status} ${answer.text}`;
      expect([200, 307, 400, 404, 405, 413, 415, 429, 503], what).toContain(answer.status);
      if (answer.status !== 200) expect(typeof answer.body.code, what).toBe("string");
    }
    expect(statuses.get(400)).toBeGreaterThan(0);
    // Every node still answers.
    for (const id of cluster.ids) expect((await cluster.status(id)).nodeId).toBe(id);
    expect((await call("ListLocks", {})).status).toBe(200);
  });

  it("redirects a follower's write to the leader's gateway", async () => {
    const body = { ttlMs: "10000", clientName: "via-follower", requestId: "r-follow" };
    const answer = await call("OpenSession", body, follower);
    expect(answer.status, answer.text).toBe(307);
    expect(answer.headers.location).toBe(`${cluster.httpOrigin(leader)}/v1/OpenSession`);
    expect(answer.body.reason).toBe("ERROR_REASON_NOT_LEADER");
    const followed = await send(answer.headers.location as string, { body });
    expect(followed.status).toBe(200);
    await call("CloseSession", { sessionId: followed.body.sessionId, seq: "1" });
  });

  it("streams Watch as server-sent events and resumes after the last event seen", async () => {
    const opened = await call("OpenSession", {
      ttlMs: "10000",
      clientName: "watch",
      requestId: "r-w",
    });
    const sid = opened.body.sessionId as string;
    const first = await call("Acquire", { sessionId: sid, lock: "w/a", seq: "1" });
    const from = first.body.token as string;
    await call("Release", { sessionId: sid, lock: "w/a", token: from, seq: "2", ackedUpTo: "1" });
    const events = await readEvents(
      `${cluster.httpOrigin(leader)}/v1/Watch?prefix=w/&fromIndex=${from}`,
      2,
    );
    expect(events.map((e) => e.data.kind)).toEqual([
      "WATCH_EVENT_KIND_ACQUIRED",
      "WATCH_EVENT_KIND_RELEASED",
    ]);
    expect(events[0]?.id).toBe(from);
    // Resuming after the first event gives the second.
    const resumed = await readEvents(`${cluster.httpOrigin(leader)}/v1/Watch?prefix=w/`, 1, {
      "last-event-id": events[0]?.id ?? "",
    });
    expect(resumed[0]?.data).toEqual(events[1]?.data);
    await call("CloseSession", { sessionId: sid, seq: "3", ackedUpTo: "2" });
  });
});

/** Reads `count` events of an event stream, then closes it. */
function readEvents(
  url: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch answered ${res.statusCode}`));
        return;
      }
      let buffer = "";
      const events: Array<{ id: string; data: Record<string, unknown> }> = [];
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id !== undefined && data !== undefined)
            events.push({ id, data: JSON.parse(data) as Record<string, unknown> });
          if (events.length === count) {
            req.destroy();
            resolve(events);
            return;
          }
        }
      });
    });
    req.on("error", (e) => {
      if (!req.destroyed) reject(e);
    });
    req.end();
  });
}

describe("HTTP gateway under mutual TLS", () => {
  let dir: string;
  const nodes: PalisadeNode[] = [];
  let origins: string[] = [];
  let certs: string;
  const files = (name?: string): TlsFiles => ({
    ca: readFileSync(join(certs, "ca.crt")),
    ...(name
      ? {
          cert: readFileSync(join(certs, `${name}.crt`)),
          key: readFileSync(join(certs, `${name}.key`)),
        }
      : {}),
  });

  beforeAll(async () => {
    ensureRoot();
    dir = mkdtempSync(join(IT_ROOT, "gateway-tls-"));
    certs = join(dir, "certs");
    execFileSync("bash", [join(REPO_ROOT, "scripts/dev-certs.sh"), certs, "3"], {
      stdio: "ignore",
    });
    const ports = await freePorts(9);
    const input: ClusterConfigInput = {
      clusterId: "palisade-gateway-tls",
      nodes: [1, 2, 3].map((id) => ({
        id,
        peerAddress: `127.0.0.1:${ports[3 * (id - 1)]}`,
        clientAddress: `127.0.0.1:${ports[3 * (id - 1) + 1]}`,
        httpAddress: `127.0.0.1:${ports[3 * (id - 1) + 2]}`,
        dataDir: `node-${id}`,
      })),
      raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
      limits: { minTtlMs: 500 },
      disk: { reserveBytes: 0 },
      tls: { ca: "certs/ca.crt", cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" },
    };
    origins = [1, 2, 3].map((id) => `https://127.0.0.1:${ports[3 * (id - 1) + 2]}`);
    const cluster = parseClusterConfig(input, "gateway tls test", dir);
    for (const id of [1, 2, 3])
      nodes.push(
        await PalisadeNode.start(nodeConfig(cluster, id), {
          logger: createLogger({ nodeId: id, level: "silent" }),
        }),
      );
  });

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("serves a client certificate, and refuses none or a node's with their reasons", async () => {
    // Until the nodes elect a leader a read fails: ask until one answers.
    let served: Answer | undefined;
    for (let i = 0; i < 200; i++) {
      for (const origin of origins) {
        served = await send(`${origin}/v1/ListLocks`, { body: {}, tls: files("client") });
        if (served.status === 200) break;
      }
      if (served?.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(served?.status, served?.text).toBe(200);
    const none = await send(`${origins[0]}/v1/ListLocks`, { body: {}, tls: files() });
    expect(none.status).toBe(401);
    expect(none.body.reason).toBe("ERROR_REASON_CERTIFICATE_REQUIRED");
    const node = await send(`${origins[0]}/v1/ListLocks`, { body: {}, tls: files("node-2") });
    expect(node.status).toBe(403);
    expect(node.body.reason).toBe("ERROR_REASON_PERMISSION_DENIED");
  });
});
