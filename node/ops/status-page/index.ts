// Where a node serves its status page, and the page's own listener. Without mTLS the page
// is /ui on the metrics port (or on statusAddress when the cluster file gives one). Under
// mTLS the metrics port stays plain HTTP for Prometheus, so the page is off there: it is
// served only on a statusAddress, over HTTPS with statusPage.tls, to browsers presenting a
// client or admin certificate of the CA.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { ClusterConfig, NodeSpec } from "../../config/index.ts";
import { listenHttp, type HttpListener } from "../http-listener.ts";

export { LiveFeed } from "./live-feed.ts";
export { StatusPage, CONTENT_SECURITY_POLICY, isPageRequest } from "./routes.ts";
export { eventJson } from "./views.ts";

export type StatusPagePlace =
  | { readonly kind: "off"; readonly why: string }
  | { readonly kind: "metrics"; readonly url: string }
  | {
      readonly kind: "own";
      readonly address: string;
      readonly https: boolean;
      readonly url: string;
    };

/** Where `node` serves its page under `cfg`. */
export function statusPagePlace(
  cfg: Pick<ClusterConfig, "tls" | "statusPage">,
  node: Pick<NodeSpec, "metricsAddress" | "statusAddress">,
): StatusPagePlace {
  if (!cfg.statusPage.enabled) return { kind: "off", why: "statusPage.enabled is false" };
  if (node.statusAddress !== undefined) {
    const https = cfg.tls !== undefined;
    return {
      kind: "own",
      address: node.statusAddress,
      https,
      url: `${https ? "https" : "http"}://${node.statusAddress}/ui`,
    };
  }
  if (cfg.tls)
    return {
      kind: "off",
      why: "under mutual TLS the page needs a statusAddress and statusPage.tls of its own",
    };
  if (node.metricsAddress !== undefined)
    return { kind: "metrics", url: `http://${node.metricsAddress}/ui` };
  return { kind: "off", why: "the node has neither a metricsAddress nor a statusAddress" };
}

/** The page's URL for `node`, or null when it has none. */
export function statusPageUrl(
  cfg: Pick<ClusterConfig, "tls" | "statusPage">,
  node: Pick<NodeSpec, "metricsAddress" | "statusAddress">,
): string | null {
  const place = statusPagePlace(cfg, node);
  return place.kind === "off" ? null : place.url;
}

export type PageListener = HttpListener;

export interface PageTlsFiles {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
}

/** Certificate roles that may read the page: what any client may read, no more. */
const READER_ROLES = new Set(["client", "admin"]);

function readerOf(req: IncomingMessage): boolean {
  const cert = (req.socket as TLSSocket).getPeerCertificate?.();
  const ou = cert?.subject?.OU as string | string[] | undefined;
  const units = ou === undefined ? [] : Array.isArray(ou) ? ou : [ou];
  return units.some((u) => READER_ROLES.has(u));
}

/**
 * Serves `handle` on the page's own listener: plain HTTP, or HTTPS requiring a client
 * certificate signed by `tls.ca` whose OU is client or admin.
 */
export function servePageListener(
  address: string,
  handle: (req: IncomingMessage, res: ServerResponse) => boolean,
  tls: PageTlsFiles | null,
): Promise<PageListener> {
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (tls && !readerOf(req)) {
      res
        .writeHead(403, { "content-type": "text/plain; charset=utf-8" })
        .end("the status page needs a client or admin certificate\n");
      return;
    }
    if (!handle(req, res))
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end("the status page is at /ui\n");
  };
  return listenHttp(
    address,
    "the status page",
    listener,
    tls ? { ...tls, rejectUnauthorized: true } : null,
  );
}
