// The HTTP endpoint Prometheus scrapes: GET /metrics on the node's metricsAddress (and,
// without mTLS, the status page under /ui beside it).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { parseHostPort } from "../config/index.ts";

export interface MetricsEndpoint {
  /** "host:port" actually bound. */
  readonly address: string;
  close(): Promise<void>;
}

export interface MetricsPage {
  text(): Promise<string>;
  readonly contentType: string;
}

/** More pages on the same port: `handle` returns false for a path it does not serve. */
export interface AlsoServed {
  readonly handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** What it serves, for the answer to any other path (e.g. "/ui"). */
  readonly paths: readonly string[];
}

/**
 * Serves `page` at http://address/metrics, and whatever `also` answers; rejects when the
 * address cannot be bound. Any other path is answered 404 with the paths served here.
 */
export function serveMetrics(
  address: string,
  page: MetricsPage,
  also?: AlsoServed,
): Promise<MetricsEndpoint> {
  const hostPort = parseHostPort(address);
  if (!hostPort) return Promise.reject(new Error(`invalid metrics address ${address}`));
  const server: Server = createServer((req, res) => {
    if (also?.handle(req, res)) return;
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      const served = ["/metrics", ...(also?.paths ?? [])].map((p) => `GET ${p}`).join(", ");
      res.writeHead(404, { "content-type": "text/plain" }).end(`served here: ${served}\n`);
      return;
    }
    page.text().then(
      (body) => res.writeHead(200, { "content-type": page.contentType }).end(body),
      (error: unknown) =>
        res.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", (err) =>
      reject(new Error(`cannot serve metrics on ${address}: ${err.message}`, { cause: err })),
    );
    server.listen(hostPort.port, hostPort.host, () => {
      resolve({
        address,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
