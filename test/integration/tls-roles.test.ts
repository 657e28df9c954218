// Mutual TLS with real certificates from scripts/dev-certs.sh: a three-node cluster whose
// peers and clients all present certificates of the cluster CA, with roles enforced.
// The nodes run in this process; every call goes over real TLS sockets.
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import { main as ctl } from "../../client/ctl/main.ts";
import { tlsCredentials } from "../../client/connection.ts";
import { palisade } from "../../proto/gen/palisade.js";
import {
  adminServiceDefinition,
  lockServiceDefinition,
  raftServiceDefinition,
} from "../../proto/grpc.ts";
import {
  nodeConfig,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { accessRefusal, identityOf, nodeTlsFiles } from "../../node/ops/tls.ts";
import { createLogger } from "../../node/util/logger.ts";
import { encodeRaftBatch, encodeRaftMessage } from "../../node/transport/raft-codec.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (s) =>
        new Promise<number>((done) => {
          s.listen(0, "127.0.0.1", () => {
            const a = s.address();
            done(typeof a === "object" && a ? a.port : 0);
          });
        }),
    ),
  );
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function makeCerts(dir: string, nodes: number): void {
  execFileSync("bash", [join(REPO_ROOT, "scripts/dev-certs.sh"), dir, String(nodes)], {
    stdio: "ignore",
  });
}

type Answer = { ok: true; bytes: Buffer } | { ok: false; code: grpc.status; details: string };

/** One unary call with raw bytes and the given credentials. */
function callRaw(
  address: string,
  credentials: grpc.ChannelCredentials,
  path: string,
  body: Uint8Array,
): Promise<Answer> {
  const client = new grpc.Client(address, credentials);
  return new Promise<Answer>((done) => {
    client.makeUnaryRequest<Uint8Array, Buffer>(
      path,
      (b) => Buffer.from(b),
      (b) => b,
      body,
      new grpc.Metadata(),
      { deadline: Date.now() + 3_000 },
      (err, res) =>
        done(
          err
            ? { ok: false, code: err.code, details: err.details }
            : { ok: true, bytes: res ?? Buffer.alloc(0) },
        ),
    );
  }).finally(() => client.close());
}

/**
 * Opens RaftService/Stream with the given credentials, sends one batch and waits for its
 * acknowledgement (ok) or for the status that ends the stream.
 */
function sendBatch(
  address: string,
  credentials: grpc.ChannelCredentials,
  batch: Uint8Array,
): Promise<Answer> {
  const client = new grpc.Client(address, credentials);
  const method = raftServiceDefinition.Stream;
  return new Promise<Answer>((done) => {
    const stream = client.makeBidiStreamRequest<Uint8Array, Buffer>(
      method.path,
      (b) => Buffer.from(b),
      (b) => b,
      new grpc.Metadata(),
      { deadline: Date.now() + 3_000 },
    );
    stream.on("data", (bytes: Buffer) => {
      done({ ok: true, bytes });
      stream.cancel();
    });
    stream.on("error", (err: grpc.ServiceError) =>
      done({ ok: false, code: err.code, details: err.details }),
    );
    stream.write(batch);
  }).finally(() => client.close());
}

const codeOf = (a: Answer): grpc.status => (a.ok ? grpc.status.OK : a.code);
const statusBody = (): Uint8Array => palisade.v1.StatusRequest.encode({}).finish();

/** A harmless Raft batch (one heartbeat response) claiming to come from `from`. */
function raftBatch(from: number, to: number): Uint8Array {
  // Term 0 is below every node's term, so the node ignores it.
  const message = encodeRaftMessage({ type: "heartbeatResp", from, to, term: 0, round: 0 });
  return encodeRaftBatch({ clusterId: "palisade-tls", from, to }, [message]);
}

describe("mutual TLS and certificate roles", () => {
  let dir: string;
  let certs: string;
  let stranger: string;
  const nodes: PalisadeNode[] = [];
  let clientAddress: string[] = [];
  let peerAddress: string[] = [];
  const closers: Array<() => Promise<void>> = [];
  const creds = (base: string, name: string): grpc.ChannelCredentials =>
    tlsCredentials({
      ca: join(base, "ca.crt"),
      cert: join(base, `${name}.crt`),
      key: join(base, `${name}.key`),
    });

  // Every warning this process prints, from the first TLS connection on.
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);

  beforeAll(async () => {
    process.on("warning", onWarning);
    ensureRoot();
    dir = mkdtempSync(join(IT_ROOT, "tls-"));
    certs = join(dir, "certs");
    stranger = join(dir, "stranger");
    makeCerts(certs, 4); // node-4 is signed by the cluster CA but is not a member
    makeCerts(stranger, 3); // another CA altogether
    const ports = await freePorts(6);
    peerAddress = [0, 1, 2].map((i) => `127.0.0.1:${ports[2 * i]}`);
    clientAddress = [0, 1, 2].map((i) => `127.0.0.1:${ports[2 * i + 1]}`);
    const input: ClusterConfigInput = {
      clusterId: "palisade-tls",
      nodes: [1, 2, 3].map((id) => ({
        id,
        peerAddress: peerAddress[id - 1],
        clientAddress: clientAddress[id - 1],
        dataDir: `node-${id}`,
      })),
      raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
      limits: { minTtlMs: 500 },
      disk: { reserveBytes: 0 },
      tls: { ca: "certs/ca.crt", cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" },
    };
    const cluster = parseClusterConfig(input, "tls test", dir);
    for (const id of [1, 2, 3]) {
      nodes.push(
        await PalisadeNode.start(nodeConfig(cluster, id), {
          logger: createLogger({ nodeId: id, level: "silent" }),
        }),
      );
    }
  });

  afterAll(async () => {
    process.off("warning", onWarning);
    for (const close of closers) await close().catch(() => undefined);
    await Promise.all(nodes.map((n) => n.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("elects a leader over mutual TLS and serves a client certificate on LockService", async () => {
    const client = new PalisadeClient({
      endpoints: clientAddress,
      callTimeoutMs: 2_000,
      retryBudgetMs: 20_000,
      credentials: creds(certs, "client"),
    });
    closers.push(() => client.close());
    const session = await client.openSession({ ttlMs: 5_000 });
    const first = await session.acquire("tls-lock");
    expect(first.acquired).toBe(true);
    expect(first.token).toBeGreaterThan(0n);
    await session.close();
    expect(nodes.filter((n) => n.host.isLeader)).toHaveLength(1);
  });

  it("lets an admin certificate call AdminService", async () => {
    const answer = await callRaw(
      clientAddress[0],
      creds(certs, "admin"),
      adminServiceDefinition.Status.path,
      statusBody(),
    );
    expect(codeOf(answer)).toBe(grpc.status.OK);
    if (answer.ok)
      expect(palisade.v1.StatusResponse.decode(answer.bytes).clusterId).toBe("palisade-tls");
  });

  it("refuses a valid client certificate on AdminService", async () => {
    const answer = await callRaw(
      clientAddress[0],
      creds(certs, "client"),
      adminServiceDefinition.Status.path,
      statusBody(),
    );
    expect(codeOf(answer)).toBe(grpc.status.PERMISSION_DENIED);
    expect(answer.ok ? "" : answer.details).toMatch(/Status needs the admin role/);
  });

  it("refuses a valid client or admin certificate on RaftService", async () => {
    for (const name of ["client", "admin"]) {
      const answer = await sendBatch(peerAddress[0], creds(certs, name), raftBatch(2, 1));
      expect(codeOf(answer), name).toBe(grpc.status.PERMISSION_DENIED);
      expect(answer.ok ? "" : answer.details, name).toMatch(/node certificate/);
    }
  });

  it("refuses a node certificate sending as another node, and one of a non-member", async () => {
    const impersonation = await sendBatch(peerAddress[0], creds(certs, "node-2"), raftBatch(3, 1));
    expect(codeOf(impersonation)).toBe(grpc.status.PERMISSION_DENIED);
    expect(impersonation.ok ? "" : impersonation.details).toMatch(/node 2 cannot send as node 3/);
    const outsider = await sendBatch(peerAddress[0], creds(certs, "node-4"), raftBatch(4, 1));
    expect(codeOf(outsider)).toBe(grpc.status.PERMISSION_DENIED);
    expect(outsider.ok ? "" : outsider.details).toMatch(/not a member/);
    // A member's own certificate sending as itself is accepted.
    const own = await sendBatch(peerAddress[0], creds(certs, "node-2"), raftBatch(2, 1));
    expect(codeOf(own)).toBe(grpc.status.OK);
  });

  it("refuses a stranger whose certificate another CA signed, on both ports", async () => {
    // The stranger trusts the cluster CA (so it could verify the node) but presents its own certificate.
    const strangerCreds = tlsCredentials({
      ca: join(certs, "ca.crt"),
      cert: join(stranger, "client.crt"),
      key: join(stranger, "client.key"),
    });
    const lock = await callRaw(
      clientAddress[0],
      strangerCreds,
      lockServiceDefinition.ListLocks.path,
      palisade.v1.ListLocksRequest.encode({}).finish(),
    );
    expect(codeOf(lock)).toBe(grpc.status.UNAVAILABLE);
    const strangerNode = tlsCredentials({
      ca: join(certs, "ca.crt"),
      cert: join(stranger, "node-2.crt"),
      key: join(stranger, "node-2.key"),
    });
    const raft = await sendBatch(peerAddress[0], strangerNode, raftBatch(2, 1));
    expect(codeOf(raft)).toBe(grpc.status.UNAVAILABLE);
  });

  it("refuses a plaintext client and a TLS client without a certificate", async () => {
    const plain = await callRaw(
      clientAddress[0],
      grpc.credentials.createInsecure(),
      lockServiceDefinition.ListLocks.path,
      palisade.v1.ListLocksRequest.encode({}).finish(),
    );
    expect(codeOf(plain)).toBe(grpc.status.UNAVAILABLE);
    const noCert = await callRaw(
      clientAddress[0],
      tlsCredentials({ ca: join(certs, "ca.crt") }),
      lockServiceDefinition.ListLocks.path,
      palisade.v1.ListLocksRequest.encode({}).finish(),
    );
    expect(codeOf(noCert)).toBe(grpc.status.UNAVAILABLE);
    const plainPeer = await sendBatch(
      peerAddress[0],
      grpc.credentials.createInsecure(),
      raftBatch(2, 1),
    );
    expect(codeOf(plainPeer)).toBe(grpc.status.UNAVAILABLE);
  });

  it("palisadectl connects with --cacert, --cert and --key", async () => {
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
    const tls = (name: string) => [
      "--cacert",
      join(certs, "ca.crt"),
      "--cert",
      join(certs, `${name}.crt`),
      "--key",
      join(certs, `${name}.key`),
    ];
    const endpoints = ["--endpoints", clientAddress.join(","), "--timeout", "5s"];
    expect(await ctl([...endpoints, ...tls("admin"), "status"], io), lines.join("\n")).toBe(0);
    expect(lines.join("\n")).toMatch(/leader/);
    lines.length = 0;
    expect(
      await ctl([...endpoints, ...tls("client"), "acquire", "ctl-tls-lock"], io),
      lines.join("\n"),
    ).toBe(0);
    lines.length = 0;
    // A client certificate has no admin role: no node answers Status.
    expect(await ctl([...endpoints, ...tls("client"), "status"], io)).toBe(1);
    expect(lines.join("\n")).toMatch(/PERMISSION_DENIED|admin role/);
  });

  it("a client that cannot connect names the TLS cause: plaintext to a TLS cluster, a CA it does not trust", async () => {
    const budget = { endpoints: clientAddress, callTimeoutMs: 500, retryBudgetMs: 1_500 };
    const plain = new PalisadeClient(budget);
    const untrusting = new PalisadeClient({ ...budget, credentials: creds(stranger, "client") });
    try {
      const plainError = await plain.openSession().then(
        () => null,
        (e: unknown) => e as Error,
      );
      const caError = await untrusting.openSession().then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(plainError?.message).toMatch(
        /^\/palisade\.v1\.LockService\/OpenSession: no member reachable \(127\.0\.0\.1:\d+ connection failed \(does the server require TLS\?\)/,
      );
      expect(caError?.message).toMatch(/certificate signed by an unknown CA/);
    } finally {
      await plain.close();
      await untrusting.close();
    }
  });

  it("prints no deprecation warning on any TLS path: an IP endpoint is sent as no TLS server name", () => {
    expect(
      warnings.map((w) => `${w.name}: ${w.message}`),
      "warnings printed while the tests above ran",
    ).toEqual([]);
  });

  it("reads roles from the certificates dev-certs.sh makes", () => {
    const subjectOf = (name: string) => {
      const cert = new X509Certificate(readFileSync(join(certs, `${name}.crt`)));
      const fields = Object.fromEntries(
        cert.subject.split("\n").map((l) => l.split("=") as [string, string]),
      );
      return identityOf({
        sslPeerCertificate: { subject: fields } as unknown as NonNullable<
          Parameters<typeof identityOf>[0]["sslPeerCertificate"]
        >,
      });
    };
    expect(subjectOf("node-3")).toMatchObject({ role: "node", nodeId: 3 });
    expect(subjectOf("admin")).toMatchObject({ role: "admin", nodeId: null });
    expect(subjectOf("client")).toMatchObject({ role: "client", nodeId: null });
    expect(accessRefusal("/palisade.v1.LockService/Acquire", subjectOf("admin"))).toBeNull();
    expect(accessRefusal("/palisade.v1.LockService/Acquire", subjectOf("node-3"))?.code).toBe(
      grpc.status.PERMISSION_DENIED,
    );
    expect(accessRefusal("/grpc.health.v1.Health/Check", subjectOf("node-3"))).toBeNull();
    expect(identityOf({})).toBeNull();
    expect(
      nodeTlsFiles({ ca: "/c/ca.crt", cert: "/c/node-{id}.crt", key: "/c/node-{id}.key" }, 7),
    ).toEqual({ ca: "/c/ca.crt", cert: "/c/node-7.crt", key: "/c/node-7.key" });
  });
});
