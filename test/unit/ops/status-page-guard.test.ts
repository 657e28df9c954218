// The status page behind access control, where it shares the metrics port: once a policy is
// applied the page needs a caller that may read every name, and /metrics beside it stays
// Prometheus's, answered without any caller.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AccessState } from "../../../node/auth/access-state.ts";
import { Policy } from "../../../node/auth/policy.ts";
import { newToken } from "../../../node/auth/tokens.ts";
import { AccessGate } from "../../../node/host/access-gate.ts";
import { serveMetrics, type MetricsEndpoint } from "../../../node/ops/metrics-server.ts";
import type { StatusPage } from "../../../node/ops/status-page/index.ts";
import { guardedPage } from "../../../node/server/node.ts";
import { freePorts } from "../../../scripts/free-ports.ts";

const POLICY = `
roles:
  viewer: { grants: [{ prefix: "", actions: [read] }] }
identities:
  grafana: { roles: [viewer] }
`;

/** A page that answers /ui (and below) as the real one does, nothing else. */
const fakePage = (): StatusPage =>
  ({
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path !== "/ui" && !path.startsWith("/ui/")) return false;
      res.writeHead(200, { "content-type": "text/plain" }).end("the page\n");
      return true;
    },
  }) as unknown as StatusPage;

let endpoint: MetricsEndpoint | null = null;

afterEach(async () => {
  await endpoint?.close();
  endpoint = null;
});

/** The metrics port of a node without TLS, its page guarded by `state`. */
async function metricsPort(state: AccessState): Promise<string> {
  const gate = new AccessGate({
    tls: false,
    certIdentity: "cn",
    admins: [],
    state: () => state,
    wallMs: () => 0,
    logger: { warn: () => undefined },
  });
  const page = guardedPage(fakePage(), gate) as StatusPage;
  const [port] = await freePorts(1);
  const address = `127.0.0.1:${port}`;
  endpoint = await serveMetrics(
    address,
    { text: async () => "palisade_up 1\n", contentType: "text/plain" },
    { handle: (req, res) => page.handle(req, res), paths: ["/ui"] },
  );
  return `http://${address}`;
}

async function get(url: string, token?: string): Promise<string> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return `${res.status} ${(await res.text()).trim()}`;
}

describe("the status page on the metrics port, under a policy", () => {
  it("refuses the page to a caller that may not read every name, and serves /metrics to anyone", async () => {
    const state = new AccessState();
    state.setPolicy(Policy.parse(POLICY), 5);
    const token = newToken();
    state.tokens.set(token.id, {
      id: token.id,
      identity: "grafana",
      roles: [],
      hash: token.hash,
      createdAt: 6,
      createdWallMs: 0,
      expiresAtMs: 0,
    });
    const base = await metricsPort(state);
    expect(await get(`${base}/metrics`)).toBe("200 palisade_up 1");
    expect(await get(`${base}/ui`)).toBe(
      "403 an anonymous caller lacks permission read on every lock name",
    );
    expect(await get(`${base}/ui/api/locks`)).toMatch(/^403 /);
    expect(await get(`${base}/ui`, token.secret)).toBe("200 the page");
  });

  it("serves the page to anyone while no policy is applied", async () => {
    const base = await metricsPort(new AccessState());
    expect(await get(`${base}/ui`)).toBe("200 the page");
    expect(await get(`${base}/metrics`)).toBe("200 palisade_up 1");
  });
});
