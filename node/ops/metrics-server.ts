// The HTTP endpoint Prometheus scrapes: GET /metrics on the node's metricsAddress (and,
// without mTLS, the status page under /ui beside it).
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenHttp, type HttpListener } from "./http-listener.ts";

export type MetricsEndpoint = HttpListener;

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
  return listenHttp(
    address,
    "metrics",
    (req, res) => {
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
    },
    null,
  );
}
