// The status page's HTTP routes under /ui: the page and its script and style (served from
// the node, nothing external, so it works offline), JSON views, and the live feed. Read
// only: every route is a GET, and the data comes from the admin status and linearizable
// reads of the lock state. Every answer carries a strict Content-Security-Policy: scripts,
// styles and connections only from this origin, no inline script, no frames, no forms.
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HostStatus } from "../../host/admin-requests.ts";
import { RequestFailure } from "../../host/failures.ts";
import type { LockReader } from "../../host/node-host.ts";
import type { LiveFeed } from "./live-feed.ts";
import { clusterView, reads, safeJson, type AddressBook } from "./views.ts";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** Longest lock name or prefix the page asks about (a bound on what a query can make the node do). */
const MAX_NAME_CHARS = 1_024;

function asset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");
}

const ASSETS: ReadonlyMap<string, { readonly type: string; readonly body: string }> = new Map([
  ["/ui", { type: "text/html; charset=utf-8", body: asset("index.html") }],
  ["/ui/app.js", { type: "text/javascript; charset=utf-8", body: asset("app.js") }],
  ["/ui/app.css", { type: "text/css; charset=utf-8", body: asset("app.css") }],
]);

export interface StatusPageSource {
  /** A linearizable read of the lock state (LockRequests.read). */
  read<T>(query: (state: LockReader) => T): Promise<T>;
  /** This node's admin status. */
  status(): HostStatus;
  readonly book: AddressBook;
  readonly feed: LiveFeed;
  /** Wall-clock milliseconds, shown as the time of the data. */
  wallMs(): number;
}

class BadQuery extends Error {}

/** A request's path without its trailing slash. */
function pagePath(url: URL): string {
  return url.pathname.length > 3 && url.pathname.endsWith("/")
    ? url.pathname.slice(0, -1)
    : url.pathname;
}

function isPagePath(path: string): boolean {
  return path === "/ui" || path.startsWith("/ui/");
}

/** Whether a request is the page's (under /ui): what StatusPage.handle answers. */
export function isPageRequest(req: IncomingMessage): boolean {
  return isPagePath(pagePath(new URL(req.url ?? "/", "http://status.invalid")));
}

export class StatusPage {
  constructor(private readonly source: StatusPageSource) {}

  /** Answers a request under /ui; false for any other path (the caller answers it). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? "/", "http://status.invalid");
    const path = pagePath(url);
    if (!isPagePath(path)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res
        .writeHead(405, {
          ...SECURITY_HEADERS,
          allow: "GET, HEAD",
          "content-type": "text/plain; charset=utf-8",
        })
        .end("the status page is read-only\n");
      return true;
    }
    const file = ASSETS.get(path);
    if (file) {
      res
        .writeHead(200, { ...SECURITY_HEADERS, "content-type": file.type })
        .end(req.method === "HEAD" ? undefined : file.body);
      return true;
    }
    try {
      this.route(path, url.searchParams, req, res);
    } catch (error) {
      this.fail(res, error);
    }
    return true;
  }

  private route(path: string, q: URLSearchParams, req: IncomingMessage, res: ServerResponse): void {
    const src = this.source;
    switch (path) {
      case "/ui/api/cluster":
        this.json(res, clusterView(src.status(), src.book, src.wallMs()));
        return;
      case "/ui/api/locks":
        this.answer(res, src.read(reads.locks(text(q, "prefix", ""), optionalText(q, "after"))));
        return;
      case "/ui/api/sessions":
        this.answer(res, src.read(reads.sessions(sessionIdParam(q, "after"))));
        return;
      case "/ui/api/history": {
        const lock = text(q, "lock", "");
        if (lock === "") throw new BadQuery("lock: expected a lock name");
        this.answer(res, src.read(reads.history(lock)));
        return;
      }
      case "/ui/api/events": {
        const last = req.headers["last-event-id"];
        src.feed.attach(
          res,
          text(q, "prefix", ""),
          typeof last === "string" ? last : undefined,
          SECURITY_HEADERS,
        );
        return;
      }
      default:
        res
          .writeHead(404, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" })
          .end("no such page\n");
    }
  }

  private answer(res: ServerResponse, pending: Promise<unknown>): void {
    pending.then(
      (value) => this.json(res, value),
      (error: unknown) => this.fail(res, error),
    );
  }

  private json(res: ServerResponse, value: unknown): void {
    res
      .writeHead(200, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" })
      .end(safeJson(value));
  }

  private fail(res: ServerResponse, error: unknown): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    // A read that needs a leader fails while there is none: the page says why and retries.
    const status = error instanceof BadQuery ? 400 : error instanceof RequestFailure ? 503 : 500;
    const message =
      error instanceof BadQuery || error instanceof RequestFailure
        ? error.message
        : "the node could not answer this read";
    res
      .writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" })
      .end(safeJson({ error: message }));
  }
}

function text(q: URLSearchParams, name: string, fallback: string): string {
  const value = q.get(name) ?? fallback;
  if (value.length > MAX_NAME_CHARS)
    throw new BadQuery(`${name}: longer than ${MAX_NAME_CHARS} characters`);
  return value;
}

function optionalText(q: URLSearchParams, name: string): string | undefined {
  return q.has(name) ? text(q, name, "") : undefined;
}

function sessionIdParam(q: URLSearchParams, name: string): bigint {
  const value = q.get(name);
  if (value === null || value === "") return 0n;
  if (!/^\d{1,20}$/.test(value)) throw new BadQuery(`${name}: expected a session id`);
  return BigInt(value);
}
