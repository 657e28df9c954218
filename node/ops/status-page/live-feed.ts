// The status page's live event feed: server-sent events carrying the lock events of each
// applied entry (the events Watch streams), so a grant or an expiry shows without a
// reload. The number of open feeds is capped (each is a held connection and a writer per
// event); a browser over the cap is answered 503 and the page falls back to polling. A
// feed whose browser does not read is ended rather than buffered without bound; the
// browser reconnects with Last-Event-ID and gets what the recent-events ring still holds.
import type { ServerResponse } from "node:http";
import { safeJson, type EventJson } from "./views.ts";

export interface LiveFeedOptions {
  /** Feeds open at once. */
  readonly maxFeeds: number;
  /** Recent events kept for a feed that starts or reconnects (default 200). */
  readonly recent?: number;
  /** Bytes buffered for one slow browser before its feed is ended (default 256 KiB). */
  readonly maxBufferedBytes?: number;
  /** A comment line this often keeps idle connections open through proxies (default 15 s). */
  readonly heartbeatMs?: number;
}

const DEFAULT_RECENT = 200;
const DEFAULT_MAX_BUFFERED = 256 * 1024;
const DEFAULT_HEARTBEAT_MS = 15_000;

interface Feed {
  readonly res: ServerResponse;
  readonly prefix: string;
}

export class LiveFeed {
  private readonly feeds = new Set<Feed>();
  private readonly ring: EventJson[] = [];
  private readonly recent: number;
  private readonly maxBuffered: number;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: LiveFeedOptions) {
    this.recent = options.recent ?? DEFAULT_RECENT;
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
    this.heartbeat = setInterval(
      () => this.broadcast(": keep-alive\n\n", () => true),
      options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    );
    this.heartbeat.unref();
  }

  get open(): number {
    return this.feeds.size;
  }

  /**
   * Starts a feed on `res`, or answers 503 when the cap is reached. `lastEventId` (the
   * browser's Last-Event-ID) resumes after that index; without it the recent events of
   * the prefix are sent first.
   */
  attach(
    res: ServerResponse,
    prefix: string,
    lastEventId: string | undefined,
    headers: Record<string, string>,
  ): boolean {
    if (this.feeds.size >= this.options.maxFeeds) {
      res
        .writeHead(503, {
          ...headers,
          "content-type": "application/json; charset=utf-8",
          "retry-after": "10",
        })
        .end(
          safeJson({
            error: `this node serves at most ${this.options.maxFeeds} live feeds at once; the page polls instead`,
          }),
        );
      return false;
    }
    const feed: Feed = { res, prefix };
    this.feeds.add(feed);
    res.on("close", () => this.feeds.delete(feed));
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    res.write("retry: 2000\n\n");
    const after =
      lastEventId !== undefined && /^\d{1,20}$/.test(lastEventId) ? BigInt(lastEventId) : null;
    for (const e of this.ring) {
      if (after !== null && BigInt(e.index) <= after) continue;
      if (e.lock.startsWith(prefix)) this.send(feed, frame("lock", e));
    }
    return true;
  }

  /** The lock events of one applied entry. */
  publish(events: readonly EventJson[]): void {
    for (const e of events) {
      this.ring.push(e);
      if (this.ring.length > this.recent) this.ring.shift();
      const text = frame("lock", e);
      this.broadcast(text, (f) => e.lock.startsWith(f.prefix));
    }
  }

  /** The state was replaced by a snapshot: what the page shows must be read again. */
  reset(index: number): void {
    this.ring.length = 0;
    this.broadcast(`event: reset\ndata: ${safeJson({ index: String(index) })}\n\n`, () => true);
  }

  /** Ends every feed (the node is stopping). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const f of [...this.feeds]) f.res.end();
    this.feeds.clear();
  }

  private broadcast(text: string, wants: (f: Feed) => boolean): void {
    for (const f of [...this.feeds]) if (wants(f)) this.send(f, text);
  }

  private send(feed: Feed, text: string): void {
    if (feed.res.writableLength > this.maxBuffered) {
      this.feeds.delete(feed);
      feed.res.end();
      return;
    }
    feed.res.write(text);
  }
}

function frame(event: string, e: EventJson): string {
  return `event: ${event}\nid: ${e.index}\ndata: ${safeJson(e)}\n\n`;
}
