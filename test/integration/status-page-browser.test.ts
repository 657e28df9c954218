// The status page in a real browser (Debian's headless Chromium through playwright-core)
// against a real three-node cluster: it shows the leader, a lock acquired by a client
// appears live with its token, names with markup and quotes are shown as text and never
// run, and when the leader is killed the page follows the new one. Then, against a
// stand-in node, a holder's mode and data (which lock kinds will carry) get the same care,
// and an upgradeable holder, its pending upgrade and the upgraded and downgraded ends of a
// history are shown in words.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { LockStateMachine } from "../../node/lock/index.ts";
import { CONTENT_SECURITY_POLICY, LiveFeed, StatusPage } from "../../node/ops/status-page/index.ts";
import { safeJson } from "../../node/ops/status-page/views.ts";
import { LogRunner } from "../lock/log-runner.ts";
import { Client, tokenOf } from "../unit/lock/kit.ts";
import { launchChromium, CHROMIUM } from "./browser.ts";
import { startCluster, type Cluster } from "./harness.ts";

// Markup, both quotes and an ampersand: if any of it were parsed, a flag would be set.
const LOCK = `jobs/<img src=x onerror="window.__pwned='lock'">'&"`;
const CLIENT = `<script>window.__pwned="client"</script>'"&`;

/**
 * The text of the first element matching `selector` now ("" while there is none). Read in
 * the page in one step, so a slow browser makes the read slow, never wrongly empty.
 */
async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).allTextContents())[0] ?? "";
}

/**
 * Waits until `check` returns true. Anything else it returns says what it saw instead, and
 * the last of that is in the error if the wait gives up.
 */
async function until(
  what: string,
  check: () => Promise<true | string | false>,
  timeoutMs = 15_000,
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const seen = await check();
    if (seen === true) return;
    if (Date.now() > giveUpAt)
      throw new Error(`timed out waiting for ${what}${seen === false ? "" : ` (saw ${seen})`}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * True once the page shows the leader the nodes agree on now and the watched node's own
 * role; otherwise what it shows. Elections may move the leader while the page catches up
 * (a loaded machine can miss a heartbeat), so the leader is asked again on every check.
 */
async function showsAgreedLeader(page: Page, cluster: Cluster, watched: number) {
  const [leader, self] = await Promise.all([cluster.leaderId(), cluster.status(watched)]);
  const want = leader === watched ? `node ${leader} (this node)` : `node ${leader}`;
  const wantSelf = `node ${watched} (${self.role})`;
  const [shown, shownSelf] = await Promise.all([textOf(page, "#leader"), textOf(page, "#self")]);
  return (
    (shown === want && shownSelf === wantSelf) ||
    `the page showing leader "${shown}", self "${shownSelf}"; the nodes: "${want}", "${wantSelf}"`
  );
}

describe("status page in a browser", () => {
  let cluster: Cluster;
  let browser: Browser;
  let page: Page;
  let watched: number;
  let leader: number;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ metrics: true });
    browser = await launchChromium();
    leader = await cluster.leaderId();
    // Watch a follower's page: it must outlive the leader.
    watched = cluster.ids.find((id) => id !== leader) as number;
    page = await browser.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(`${cluster.metricsOrigin(watched)}/ui`);
  });

  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
  });

  it(`shows the leader the nodes agree on (browser ${CHROMIUM})`, async () => {
    await until("the leader on the page", () => showsAgreedLeader(page, cluster, watched));
    await until("the live feed connected", async () => (await textOf(page, "#live")) === "live");
    const rows = await page.locator("#cluster tbody tr").count();
    expect(rows).toBe(3);
  });

  it("a lock acquired by a client appears live with its token and holder, names shown as text", async () => {
    const client = cluster.client();
    const session = await client.openSession({ ttlMs: 10_000, clientName: CLIENT });
    const got = await session.acquire(LOCK);
    expect(got.acquired).toBe(true);
    const granted = got.token ?? 0n;
    const token = String(granted);
    // The live feed (server-sent events, not the poll) shows the grant.
    await until("the grant in the live feed", async () =>
      (await page.locator("#feed li").allTextContents()).some(
        (t) => t.includes(LOCK) && t.includes(token),
      ),
    );
    await until("the lock in the locks table", async () =>
      (await page.locator("#locks tbody tr").allTextContents()).some((t) => t.includes(LOCK)),
    );
    const row = page.locator("#locks tbody tr", { hasText: LOCK });
    expect(await row.locator("td.token").textContent()).toBe(token);
    expect(await row.textContent()).toContain(CLIENT);
    await until(
      "the session in the sessions table",
      async () => (await page.locator("#sessions tbody").textContent())?.includes(CLIENT) ?? false,
    );

    // Its history, opened from the table, follows the release live. The first read of it
    // fails, as one may while the node cannot reach its leader: the page reads it again.
    await page.route(
      "**/ui/api/history?*",
      (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: "no leader (test)" }),
        }),
      { times: 1 },
    );
    await page.locator("#locks button.lockname", { hasText: LOCK }).first().click();
    await until("the history with the grant held", async () =>
      ((await page.locator("#history tbody").textContent()) ?? "").includes("held"),
    );
    await session.release(LOCK, granted);
    await until("the history with its release reason", async () => {
      const text = (await page.locator("#history tbody").textContent()) ?? "";
      return text.includes(token) && text.includes("released") && text.includes(CLIENT);
    });
    expect(await textOf(page, "#history-lock")).toBe(LOCK);

    // Nothing of the names ran: no flag, and the page still has its one script.
    expect(
      await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("#locks img, #feed img, #sessions script").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await session.close();
  });

  it("follows the new leader when the leader is killed", async () => {
    const old = await cluster.leaderId();
    if (old === watched) {
      // An election since the page was opened made the watched node leader: watch another.
      watched = cluster.ids.find((id) => id !== old) as number;
      await page.goto(`${cluster.metricsOrigin(watched)}/ui`);
    }
    await cluster.kill(old);
    // The cluster elects within its election timeout; the page polls every second.
    // Only live nodes are asked who leads, so the agreed leader is never the killed one.
    await until(
      "the page naming the new leader",
      () => showsAgreedLeader(page, cluster, watched),
      30_000,
    );
    expect(await cluster.leaderId()).not.toBe(old);
    expect(pageErrors).toEqual([]);
  });
});

describe("status page rendering of holder data", () => {
  let browser: Browser;
  let server: Server;
  let feed: LiveFeed;

  beforeAll(async () => {
    browser = await launchChromium();
    // A stand-in node whose one lock has a holder with a mode and data (what lock kinds
    // will carry), each full of markup and quotes; the rest is the real page and routes.
    const sm = new LockStateMachine();
    // A history of "catalog": upgradeable, upgraded, exclusive, downgraded, shared, released.
    const runner = new LogRunner(sm);
    const writer = new Client(runner, "writer");
    const upgradeable = tokenOf(writer.upgradeable("catalog").result);
    const exclusive = tokenOf(writer.upgrade("catalog", upgradeable).result);
    const shared = tokenOf(writer.downgrade("catalog", exclusive, "shared").result);
    writer.release("catalog", shared);
    feed = new LiveFeed({ maxFeeds: 2 });
    const page = new StatusPage({
      read: (query) => Promise.resolve(query(sm)),
      status: () => ({
        id: 1,
        clusterId: "c",
        role: "leader",
        term: 1,
        leader: 1,
        commitIndex: 1,
        appliedIndex: 1,
        lastIndex: 1,
        snapshotIndex: 0,
        epoch: 0,
        members: [],
      }),
      book: { clientAddressOf: () => undefined, pageOf: () => null },
      feed,
      wallMs: () => Date.now(),
    });
    const lock = {
      name: LOCK,
      kind: "exclusive",
      waiters: [],
      holders: [
        {
          sessionId: "7",
          clientName: CLIENT,
          token: "99",
          grantedAt: "99",
          waitedFrom: "99",
          mode: CLIENT,
          data: LOCK,
        },
      ],
    };
    // Readers beside an upgradeable holder whose upgrade waits for them.
    const upgrading = {
      name: "catalog",
      kind: "shared + upgradeable",
      waiters: [],
      holders: [
        {
          sessionId: "3",
          clientName: "reader",
          token: "40",
          grantedAt: "40",
          waitedFrom: "40",
          mode: "shared",
        },
        {
          sessionId: "4",
          clientName: "writer",
          token: "41",
          grantedAt: "41",
          waitedFrom: "41",
          mode: "upgradeable",
          upgradingSince: "45",
        },
      ],
    };
    server = createServer((req, res) => {
      if (req.url?.startsWith("/ui/api/locks")) {
        res
          .writeHead(200, {
            "content-type": "application/json",
            "content-security-policy": CONTENT_SECURITY_POLICY,
          })
          .end(safeJson({ locks: [lock, upgrading], nextAfter: null }));
        return;
      }
      if (!page.handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });

  afterAll(async () => {
    feed?.closeAll();
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it("shows a holder's mode and data as text, and runs none of it", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ui`);
    await until(
      "the holder's data",
      async () => (await textOf(page, "#locks .holder-data")) === LOCK,
    );
    expect(await textOf(page, "#locks tbody tr")).toContain(`· ${CLIENT}`);
    expect(
      await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("#locks img").count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows an upgradeable holder, its pending upgrade, and the upgraded and downgraded ends", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ui`);
    const row = page.locator("#locks tbody tr", { hasText: "catalog" });
    await until("the upgradeable lock", async () => (await row.count()) === 1);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("shared + upgradeable");
    expect(text).toContain("writer · session 4 · upgradeable · upgrading since #45");
    expect(await row.locator(".upgrading").textContent()).toBe(" · upgrading since #45");
    await row.locator("button.lockname").click();
    await until("the history in words", async () => {
      const rows = await page.locator("#history tbody tr").allTextContents();
      return rows.length === 3 || `${rows.length} rows`;
    });
    // Newest first: the shared grant released, the exclusive one downgraded, the upgradeable one upgraded.
    const rows = await page.locator("#history tbody tr").allTextContents();
    expect(rows[0]).toMatch(/writer · session \d+ · shared.*released$/);
    expect(rows[1]).toMatch(/writer · session \d+[^·]*downgraded$/);
    expect(rows[2]).toMatch(/writer · session \d+ · upgradeable.*upgraded$/);
    expect(errors).toEqual([]);
  });
});
