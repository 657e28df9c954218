// The status page under mutual TLS: off on the plain-HTTP metrics port, served only on the
// node's own statusAddress over HTTPS, to browsers with a client or admin certificate of
// the cluster CA. A real node in this process with certificates from scripts/dev-certs.sh.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  nodeConfig,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { createLogger } from "../../node/util/logger.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

type Answer = { status: number; body: string } | { error: string };

function httpsGet(
  url: string,
  ca: Buffer,
  identity: { cert: Buffer; key: Buffer } | null,
): Promise<Answer> {
  return new Promise((done) => {
    const req = request(url, { ca, ...(identity ?? {}), timeout: 5_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (err) => done({ error: err.message }));
    req.end();
  });
}

describe("status page under mutual TLS", () => {
  let dir: string;
  let node: PalisadeNode | undefined;
  let metrics: string;
  let status: string;
  const file = (name: string): Buffer => readFileSync(join(dir, "certs", name));

  beforeAll(async () => {
    ensureRoot();
    dir = mkdtempSync(join(IT_ROOT, "page-tls-"));
    execFileSync("bash", [join(REPO_ROOT, "scripts/dev-certs.sh"), join(dir, "certs"), "1"], {
      stdio: "ignore",
    });
    const [peer, client, m, s] = await freePorts(4);
    metrics = `127.0.0.1:${m}`;
    status = `127.0.0.1:${s}`;
    const input: ClusterConfigInput = {
      clusterId: "palisade-page-tls",
      nodes: [
        {
          id: 1,
          peerAddress: `127.0.0.1:${peer}`,
          clientAddress: `127.0.0.1:${client}`,
          metricsAddress: metrics,
          statusAddress: status,
          dataDir: "node-1",
        },
      ],
      raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
      limits: { minTtlMs: 500 },
      disk: { reserveBytes: 0 },
      tls: { ca: "certs/ca.crt", cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" },
      statusPage: { tls: { cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" } },
    };
    const cfg = nodeConfig(parseClusterConfig(input, "page tls test", dir), 1);
    node = await PalisadeNode.start(cfg, { logger: createLogger({ nodeId: 1, level: "silent" }) });
  });

  afterAll(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is not on the plain-HTTP metrics port, which still serves Prometheus", async () => {
    expect((await fetch(`http://${metrics}/ui`)).status).toBe(404);
    expect((await fetch(`http://${metrics}/ui/api/locks`)).status).toBe(404);
    expect((await fetch(`http://${metrics}/metrics`)).status).toBe(200);
  });

  it("is served over HTTPS to a client or admin certificate of the cluster CA", async () => {
    for (const who of ["client", "admin"]) {
      const answer = await httpsGet(`https://${status}/ui/api/cluster`, file("ca.crt"), {
        cert: file(`${who}.crt`),
        key: file(`${who}.key`),
      });
      expect(answer, who).toMatchObject({ status: 200 });
      if ("body" in answer)
        expect(JSON.parse(answer.body).node.clusterId).toBe("palisade-page-tls");
    }
  });

  it("refuses a node certificate, and a browser without a certificate fails the handshake", async () => {
    const asNode = await httpsGet(`https://${status}/ui`, file("ca.crt"), {
      cert: file("node-1.crt"),
      key: file("node-1.key"),
    });
    expect(asNode).toMatchObject({ status: 403 });
    const anonymous = await httpsGet(`https://${status}/ui`, file("ca.crt"), null);
    expect("error" in anonymous || anonymous.status !== 200).toBe(true);
    expect(anonymous).not.toMatchObject({ status: 200 });
  });
});
