// The status page's HTTP side on a real socket with a stand-in node: security headers,
// escaping of user input in every view, read-only routes, errors while there is no
// leader, the cap on live feeds, and where the page is served under each cluster file.
import { readFileSync } from "node:fs";
import { createServer, get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConfigError,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../../../node/config/index.ts";
import type { HostStatus } from "../../../node/host/admin-requests.ts";
import { RequestFailure } from "../../../node/host/failures.ts";
import { LockStateMachine } from "../../../node/lock/index.ts";
import {
  CONTENT_SECURITY_POLICY,
  eventJson,
  LiveFeed,
  StatusPage,
  statusPagePlace,
} from "../../../node/ops/status-page/index.ts";
import { eventually } from "../eventually.ts";
import { Client, setup, tokenOf } from "../lock/kit.ts";

const NASTY = `<script>window.pwned=1</script>"'&`;

const status: HostStatus = {
  id: 2,
  clusterId: "c",
  role: "leader",
  term: 4,
  leader: 2,
  commitIndex: 9,
  appliedIndex: 9,
  lastIndex: 10,
  snapshotIndex: 0,
  epoch: 0,
  members: [
    {
      id: 1,
      kind: "voter",
      peerAddress: "h:1",
      clientAddress: "c:1",
      reachable: false,
      matchIndex: 7,
    },
    {
      id: 2,
      kind: "voter",
      peerAddress: "h:2",
      clientAddress: "c:2",
      reachable: true,
      matchIndex: 10,
    },
  ],
};

/** A state with a session and a lock named with markup and quotes, one holder and one waiter. */
function nastyState(): LockStateMachine {
  const sm = new LockStateMachine();
  sm.apply(1, {
    type: "openSession",
    requestId: "r1",
    ttlMs: 10_000,
    clientName: NASTY,
    wallMs: 1,
  });
  sm.apply(2, {
    type: "openSession",
    requestId: "r2",
    ttlMs: 10_000,
    clientName: `b${NASTY}`,
    wallMs: 1,
  });
  sm.apply(3, {
    type: "acquire",
    sessionId: 1n,
    seq: 1,
    held: [],
    ackedUpTo: 0,
    lock: NASTY,
    waitMs: 0,
    wallMs: 2,
  });
  sm.apply(4, {
    type: "acquire",
    sessionId: 2n,
    seq: 1,
    held: [],
    ackedUpTo: 0,
    lock: NASTY,
    waitMs: 60_000,
    wallMs: 3,
  });
  return sm;
}

interface Running {
  base: string;
  feed: LiveFeed;
  server: Server;
}

const running: Running[] = [];

async function serve(
  options: {
    read?: (q: (s: LockStateMachine) => unknown) => Promise<unknown>;
    maxFeeds?: number;
  } = {},
): Promise<Running> {
  const sm = nastyState();
  const feed = new LiveFeed({ maxFeeds: options.maxFeeds ?? 4 });
  const page = new StatusPage({
    read: (options.read ??
      ((q: (s: LockStateMachine) => unknown) => Promise.resolve(q(sm)))) as never,
    status: () => status,
    book: { clientAddressOf: (id) => `c:${id}`, pageOf: (id) => `http://m:${id}/ui` },
    feed,
    wallMs: () => 5,
  });
  const server = createServer((req, res) => {
    if (!page.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const r = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, feed, server };
  running.push(r);
  return r;
}

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.feed.closeAll();
    r.server.closeAllConnections();
    await new Promise((done) => r.server.close(done));
  }
});

/** Opens an SSE request and resolves with its response once headers arrive. */
function openFeed(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).on("error", reject));
}

describe("status page routes", () => {
  it("every answer carries a strict Content-Security-Policy, nosniff and no framing", async () => {
    const { base } = await serve();
    for (const path of [
      "/ui",
      "/ui/app.js",
      "/ui/app.css",
      "/ui/api/cluster",
      "/ui/api/locks",
      "/ui/api/nope",
    ]) {
      const res = await fetch(base + path);
      expect(res.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  });

  it("lock names and client names with markup and quotes come back escaped in every view, and whole", async () => {
    const { base } = await serve();
    for (const path of [
      "/ui/api/locks",
      "/ui/api/sessions",
      `/ui/api/history?lock=${encodeURIComponent(NASTY)}`,
    ]) {
      const body = await (await fetch(base + path)).text();
      expect(body, path).not.toContain("<");
      expect(body, path).not.toContain(">");
      expect(body, path).not.toContain("&");
      expect(body, path).toContain("\\u003cscript\\u003e");
    }
    const locks = (await (await fetch(`${base}/ui/api/locks`)).json()) as {
      locks: Array<{
        name: string;
        holders: Array<{ clientName: string; token: string }>;
        waiters: Array<{ clientName: string }>;
      }>;
    };
    expect(locks.locks[0].name).toBe(NASTY);
    expect(locks.locks[0].holders[0]).toMatchObject({ clientName: NASTY, token: "3" });
    expect(locks.locks[0].waiters.map((w) => w.clientName)).toEqual([`b${NASTY}`]);
  });

  it("the page puts user input into the document only as text, and loads nothing from elsewhere", () => {
    const html = readFileSync(
      new URL("../../../node/ops/status-page/assets/index.html", import.meta.url),
      "utf8",
    );
    const js = readFileSync(
      new URL("../../../node/ops/status-page/assets/app.js", import.meta.url),
      "utf8",
    );
    const css = readFileSync(
      new URL("../../../node/ops/status-page/assets/app.css", import.meta.url),
      "utf8",
    );
    expect(js).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/,
    );
    for (const text of [html, js, css])
      expect(text).not.toMatch(/(src|href|url)\s*[=(]\s*["']?(https?:)?\/\/|@import/);
    // One script, from this origin, and no inline handlers.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script src="/ui/app.js" defer></script>');
    expect(html).not.toMatch(/\son[a-z]+=/);
  });

  it("is read-only: anything but GET and HEAD is refused", async () => {
    const { base } = await serve();
    const res = await fetch(`${base}/ui/api/locks`, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
  });

  it("a read that needs a leader answers 503 with the reason while there is none", async () => {
    const { base } = await serve({
      read: () =>
        Promise.reject(new RequestFailure("ERROR_REASON_NOT_LEADER", "no leader is known; retry")),
    });
    const res = await fetch(`${base}/ui/api/locks`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "no leader is known; retry" });
    // The cluster view is this node's own status: it answers without a leader.
    expect((await fetch(`${base}/ui/api/cluster`)).status).toBe(200);
  });

  it("a bad query is answered 400 and changes nothing", async () => {
    const { base } = await serve();
    expect((await fetch(`${base}/ui/api/sessions?after=12x`)).status).toBe(400);
    expect((await fetch(`${base}/ui/api/history`)).status).toBe(400);
    expect((await fetch(`${base}/ui/api/locks?prefix=${"a".repeat(2_000)}`)).status).toBe(400);
  });

  it("the live feed takes at most maxLiveFeeds browsers, answers 503 beyond, and takes one again after a feed closes", async () => {
    const { base, feed } = await serve({ maxFeeds: 2 });
    const first = await openFeed(`${base}/ui/api/events`);
    const second = await openFeed(`${base}/ui/api/events`);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.headers["content-type"]).toContain("text/event-stream");
    const third = await openFeed(`${base}/ui/api/events`);
    expect(third.statusCode).toBe(503);
    third.resume();
    expect(feed.open).toBe(2);
    first.destroy();
    await eventually(() => expect(feed.open).toBeLessThanOrEqual(1));
    const fourth = await openFeed(`${base}/ui/api/events`);
    expect(fourth.statusCode).toBe(200);
    second.destroy();
    fourth.destroy();
  });

  it("the live feed sends each lock event of its prefix with the event's index as its id, escaped", async () => {
    const { base, feed } = await serve();
    const res = await openFeed(`${base}/ui/api/events?prefix=${encodeURIComponent("<s")}`);
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (text += chunk));
    await eventually(() => expect(feed.open).toBeGreaterThan(0));
    feed.publish([
      eventJson(
        { type: "acquired", index: 12, lock: "other", sessionId: 1n, token: 12n, wallMs: 0 },
        "x",
      ),
      eventJson(
        { type: "acquired", index: 13, lock: NASTY, sessionId: 1n, token: 13n, wallMs: 0 },
        NASTY,
      ),
    ]);
    await eventually(() => expect(text).toContain("id: 13"));
    res.destroy();
    expect(text).toContain("event: lock\nid: 13\ndata: ");
    expect(text).not.toContain("id: 12");
    expect(text).not.toContain("<script>");
    expect(text).toContain("\\u003cscript\\u003e");
  });
});

describe("where the status page is served", () => {
  const base: ClusterConfigInput = {
    clusterId: "c",
    nodes: [
      {
        id: 1,
        peerAddress: "127.0.0.1:1",
        clientAddress: "127.0.0.1:2",
        metricsAddress: "127.0.0.1:3",
        dataDir: "d1",
      },
    ],
  };
  const tls = { ca: "ca.crt", cert: "node-{id}.crt", key: "node-{id}.key" };

  it("without mTLS, on the metrics port", () => {
    const cfg = parseClusterConfig(base, "t", "/");
    expect(statusPagePlace(cfg, cfg.nodes[0])).toEqual({
      kind: "metrics",
      url: "http://127.0.0.1:3/ui",
    });
  });

  it("under mTLS, off unless the node has a listener and credentials of its own", () => {
    const off = parseClusterConfig({ ...base, tls }, "t", "/");
    expect(statusPagePlace(off, off.nodes[0]).kind).toBe("off");
    const own = parseClusterConfig(
      {
        ...base,
        tls,
        statusPage: { tls: { cert: "node-{id}.crt", key: "node-{id}.key" } },
        nodes: [{ ...base.nodes[0], statusAddress: "127.0.0.1:4" }],
      },
      "t",
      "/",
    );
    expect(statusPagePlace(own, own.nodes[0])).toEqual({
      kind: "own",
      address: "127.0.0.1:4",
      https: true,
      url: "https://127.0.0.1:4/ui",
    });
  });

  it("a statusAddress under mTLS without statusPage.tls is a config error naming the field", () => {
    const input = { ...base, tls, nodes: [{ ...base.nodes[0], statusAddress: "127.0.0.1:4" }] };
    expect(() => parseClusterConfig(input, "t", "/")).toThrow(ConfigError);
    expect(() => parseClusterConfig(input, "t", "/")).toThrow(
      /nodes\[0\]\.statusAddress: under mutual TLS the status page needs statusPage\.tls/,
    );
  });

  it("can be turned off", () => {
    const cfg = parseClusterConfig({ ...base, statusPage: { enabled: false } }, "t", "/");
    expect(statusPagePlace(cfg, cfg.nodes[0]).kind).toBe("off");
  });
});

describe("the status page's view of the lock kinds", () => {
  it("lists every shared holder with its mode and data, and a semaphore's permits with each permit's slot", async () => {
    const { lockJson, LOCK_LISTS } = await import("../../../node/ops/status-page/views.ts");
    const sm = new LockStateMachine();
    sm.apply(1, {
      type: "openSession",
      requestId: "r1",
      ttlMs: 10_000,
      clientName: "a",
      wallMs: 1,
    });
    sm.apply(2, {
      type: "openSession",
      requestId: "r2",
      ttlMs: 10_000,
      clientName: "b",
      wallMs: 1,
    });
    sm.apply(3, {
      type: "acquire",
      sessionId: 1n,
      seq: 1,
      held: [],
      ackedUpTo: 0,
      lock: "r",
      waitMs: 0,
      wallMs: 2,
      mode: "shared",
      holderData: "report <job>",
    });
    sm.apply(4, {
      type: "acquire",
      sessionId: 2n,
      seq: 1,
      held: [],
      ackedUpTo: 0,
      lock: "r",
      waitMs: 0,
      wallMs: 2,
      mode: "shared",
    });
    sm.apply(5, {
      type: "acquire",
      sessionId: 2n,
      seq: 2,
      held: [],
      ackedUpTo: 1,
      lock: "s",
      waitMs: 0,
      wallMs: 2,
      permits: 3,
    });
    const shared = lockJson(sm.lockPage("r", LOCK_LISTS));
    expect(shared.kind).toBe("shared");
    expect(shared.holders.map((h) => [h.clientName, h.mode, h.data])).toEqual([
      ["a", "shared", "report <job>"],
      ["b", "shared", undefined],
    ]);
    const sem = lockJson(sm.lockPage("s", LOCK_LISTS));
    expect(sem.kind).toBe("semaphore of 3");
    expect(sem.holders.map((h) => [h.clientName, h.mode])).toEqual([["b", "slot 0"]]);
    expect(lockJson(sm.lockPage("free", LOCK_LISTS))).toMatchObject({
      kind: "exclusive",
      holders: [],
    });
    // An election: its leader with its value, its candidates as the waiters.
    const campaign = (index: number, sessionId: bigint, seq: number, value: string): void =>
      void sm.apply(index, {
        type: "acquire",
        sessionId,
        seq,
        held: [],
        ackedUpTo: 0,
        lock: "e",
        waitMs: 60_000,
        wallMs: 3,
        mode: "leader",
        holderData: value,
      });
    campaign(6, 1n, 2, "host-a");
    campaign(7, 2n, 3, "host-b");
    const election = lockJson(sm.lockPage("e", LOCK_LISTS));
    expect(election.kind).toBe("election");
    expect(election.holders.map((h) => [h.clientName, h.mode, h.data])).toEqual([
      ["a", "leader", "host-a"],
    ]);
    expect(election.waiters.map((w) => w.clientName)).toEqual(["b"]);
  });

  it("shows an upgradeable holder as such with its pending upgrade, and the upgraded and downgraded ends", async () => {
    const { lockJson, historyJson, LOCK_LISTS } =
      await import("../../../node/ops/status-page/views.ts");
    const r = setup();
    const [reader, writer] = [new Client(r, "reader"), new Client(r, "writer")];
    const readToken = tokenOf(reader.shared("u").result);
    const upToken = tokenOf(writer.upgradeable("u").result);
    expect(lockJson(r.machine.lockPage("u", LOCK_LISTS))).toMatchObject({
      kind: "shared + upgradeable",
      holders: [
        { clientName: "reader", mode: "shared" },
        { clientName: "writer", mode: "upgradeable" },
      ],
    });
    // The upgrade waits for the reader, and the page shows since when.
    const waiting = writer.upgrade("u", upToken, 60_000);
    expect(waiting.result.kind).toBe("waiting");
    const upgrading = lockJson(r.machine.lockPage("u", LOCK_LISTS));
    expect(upgrading.holders.map((h) => [h.clientName, h.mode, h.upgradingSince])).toEqual([
      ["reader", "shared", undefined],
      ["writer", "upgradeable", String(waiting.index)],
    ]);
    const out = reader.release("u", readToken);
    const exclusiveToken = BigInt(out.index);
    expect(lockJson(r.machine.lockPage("u", LOCK_LISTS))).toMatchObject({
      kind: "exclusive",
      holders: [{ clientName: "writer", token: String(exclusiveToken) }],
    });
    expect(lockJson(r.machine.lockPage("u", LOCK_LISTS)).holders[0]).not.toHaveProperty("mode");
    tokenOf(writer.downgrade("u", exclusiveToken, "upgradeable").result);
    expect(lockJson(r.machine.lockPage("u", LOCK_LISTS)).kind).toBe("upgradeable");
    expect(
      r.machine
        .history("u")
        .map(historyJson)
        .map((h) => [h.clientName, h.mode, h.reason]),
    ).toEqual([
      ["reader", "shared", "released"],
      ["writer", "upgradeable", "upgraded"],
      ["writer", undefined, "downgraded"],
      ["writer", "upgradeable", null],
    ]);
    // The live feed names how a release was completed.
    const events = out.events.map((e) => eventJson(e, "writer"));
    expect(events.map((e) => [e.type, e.ended])).toEqual(
      expect.arrayContaining([["released", "upgraded"]]),
    );
    // The page has words for both ends, in its history and in its live feed.
    const js = readFileSync(
      new URL("../../../node/ops/status-page/assets/app.js", import.meta.url),
      "utf8",
    );
    const endWords = /const END_WORDS = \{([^}]*)\}/.exec(js)?.[1] ?? "";
    expect(endWords).toContain('upgraded: "upgraded"');
    expect(endWords).toContain('downgraded: "downgraded"');
    expect(endWords).toContain('handedOff: "handed off"');
    expect(js).toContain("upgrading since #");
  });

  it("names a grant revoked for its hold limit in the history, apart from an admin's revoke", async () => {
    const { historyJson } = await import("../../../node/ops/status-page/views.ts");
    const r = setup();
    const [a, b] = [new Client(r, "a"), new Client(r, "b")];
    const limited = tokenOf(a.exclusive("h", 0, { holdMs: 1_000 }).result);
    r.run({ type: "holdLimit", sessionId: a.id, token: limited, holdMs: 1_000, wallMs: 0 });
    const taken = tokenOf(b.exclusive("h").result);
    r.run({ type: "revoke", lock: "h", token: taken, wallMs: 0 });
    expect(r.machine.history("h").map((h) => historyJson(h).reason)).toEqual([
      "holdLimit",
      "revoked",
    ]);
  });
});

describe("the status page's views of locks with long lists", () => {
  /**
   * 2,000 sessions holding permits of "wide", a semaphore of 2,000 permits, and waiting
   * behind the holder of "deep"; and 100 semaphores "big/NN" of 50 permits each held by
   * 50 of them. Every grant and wait carries 1 KiB of holder data.
   */
  function wideState(): LockStateMachine {
    const sm = new LockStateMachine();
    let index = 0;
    const seqs = new Map<bigint, number>();
    const acquire = (
      sessionId: bigint,
      lock: string,
      fields: { permits?: number; waitMs?: number } = {},
    ): void => {
      const seq = (seqs.get(sessionId) ?? 0) + 1;
      seqs.set(sessionId, seq);
      const answer = sm.apply(++index, {
        type: "acquire",
        sessionId,
        seq,
        held: [],
        ackedUpTo: seq - 1,
        lock,
        waitMs: 0,
        wallMs: 2,
        holderData: `${sessionId} `.padEnd(1_024, "d"),
        ...fields,
      }).result;
      if (answer.kind === "error")
        throw new Error(`acquire of ${lock} by ${sessionId} answered ${answer.reason}`);
    };
    const sessions: bigint[] = [];
    for (let i = 0; i < 2_001; i++) {
      sm.apply(++index, {
        type: "openSession",
        requestId: `r${index}`,
        ttlMs: 10_000,
        clientName: `c${index}`,
        wallMs: 1,
      });
      sessions.push(BigInt(index));
    }
    const owner = sessions.pop() as bigint;
    acquire(owner, "deep");
    for (const s of sessions) acquire(s, "wide", { permits: 2_000 });
    for (const s of sessions) acquire(s, "deep", { waitMs: 60_000 });
    for (let l = 0; l < 100; l++)
      for (const s of sessions.slice(0, 50))
        acquire(s, `big/${String(l).padStart(2, "0")}`, { permits: 50 });
    return sm;
  }

  interface LockView {
    name: string;
    holders: unknown[];
    holderCount: number;
    waiters: unknown[];
    waiterCount: number;
  }
  const sm = wideState();
  const read = (q: (s: LockStateMachine) => unknown): Promise<unknown> => Promise.resolve(q(sm));

  it("a lock with 2,000 holders and 2,000 waiters shows at most 20 of each with the totals, in the locks view and the history view", async () => {
    const { base } = await serve({ read });
    const locks = (await (await fetch(`${base}/ui/api/locks?prefix=wide`)).json()) as {
      locks: LockView[];
    };
    expect(locks.locks).toHaveLength(1);
    expect(locks.locks[0]).toMatchObject({ name: "wide", holderCount: 2_000, waiterCount: 0 });
    expect(locks.locks[0]?.holders.length).toBeGreaterThan(0);
    expect(locks.locks[0]?.holders.length).toBeLessThanOrEqual(20);
    const deep = (await (await fetch(`${base}/ui/api/locks?prefix=deep`)).json()) as {
      locks: LockView[];
    };
    expect(deep.locks[0]).toMatchObject({ name: "deep", holderCount: 1, waiterCount: 2_000 });
    expect(deep.locks[0]?.waiters.length).toBeLessThanOrEqual(20);
    const history = (await (await fetch(`${base}/ui/api/history?lock=wide`)).json()) as {
      current: LockView;
    };
    expect(history.current.holderCount).toBe(2_000);
    expect(history.current.holders.length).toBeLessThanOrEqual(20);
  });

  it("the locks view is cut by bytes as well as by count, and its continuation reaches every lock once", async () => {
    const { base } = await serve({ read });
    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const q = new URLSearchParams({ prefix: "big/", ...(after !== null ? { after } : {}) });
      const body = await (await fetch(`${base}/ui/api/locks?${q}`)).text();
      expect(body.length).toBeLessThan(512 * 1024);
      const view = JSON.parse(body) as { locks: LockView[]; nextAfter: string | null };
      expect(view.locks.length).toBeGreaterThan(0);
      for (const l of view.locks) expect(l).toMatchObject({ holderCount: 50, waiterCount: 0 });
      names.push(...view.locks.map((l) => l.name));
      after = view.nextAfter;
      pages++;
    } while (after !== null);
    expect(pages).toBeGreaterThan(1);
    expect(names).toEqual(
      Array.from({ length: 100 }, (_, l) => `big/${String(l).padStart(2, "0")}`),
    );
  });
});
