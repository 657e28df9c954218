// Upgradeable locks on a real cluster through the client library: an upgrade waits for the
// readers only and goes before a writer queued behind it, a second upgradeable request
// waits, an upgrade that runs out of time keeps the hold, a downgrade lets the waiting
// readers in, tokens grow across every mode change, and the calls reach the HTTP gateway.
import { describe, expect, it } from "vitest";
import { LockNotAcquiredError, type LockHandle, type PalisadeClient } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let clients: PalisadeClient[];

clusterForTests({ nodes: 3, http: true }, (started) => {
  cluster = started;
  clients = ["a", "b", "c", "d", "e"].map((clientName) => cluster.client({ clientName }));
});

function five(): [PalisadeClient, PalisadeClient, PalisadeClient, PalisadeClient, PalisadeClient] {
  return clients as [
    PalisadeClient,
    PalisadeClient,
    PalisadeClient,
    PalisadeClient,
    PalisadeClient,
  ];
}

/** Resolves once the lock's queue holds `count` requests. */
async function queued(reader: PalisadeClient, lock: string, count: number): Promise<void> {
  await cluster.waitFor(`${count} requests queued for ${lock}`, async () => {
    return (await reader.read.getLock(lock)).waiterCount === count;
  });
}

function growing(tokens: readonly bigint[]): boolean {
  return tokens.every((t, i) => i === 0 || t > (tokens[i - 1] as bigint));
}

describe("upgradeable locks", () => {
  it("an upgrade waits for the readers only and goes before the writer queued after it; a reader that comes meanwhile waits behind it", async () => {
    const [a, b, c, d, e] = five();
    const lock = "up/rw";
    const r1 = await a.lock(lock, { mode: "shared" });
    const r2 = await b.lock(lock, { mode: "shared" });
    const u = await c.lock(lock, { mode: "upgradeable" });
    const writer = d.lock(lock, { waitMs: 60_000 });
    await queued(a, lock, 1);
    const upgrading = u.upgrade({ waitMs: 60_000 });
    await cluster.waitFor("the holder's upgrade to wait", async () => {
      const info = await a.read.getLock(lock);
      return info.holders?.some((h) => h.sessionId === u.sessionId && h.upgradingSince) === true;
    });
    const lateReader = e.lock(lock, { mode: "shared", waitMs: 60_000 });
    await queued(a, lock, 2);
    const readToken = u.token;

    await r1.release();
    await r2.release();
    expect(await upgrading).toBe(true);
    expect(u.mode).toBe("exclusive");
    expect(u.token).toBeGreaterThan(readToken);
    // The writer and the late reader still wait, in their order.
    const info = await a.read.getLock(lock);
    expect(info.holder?.sessionId).toBe(u.sessionId);
    expect(info.waiters.map((w) => w.clientName)).toEqual(["d", "e"]);

    await u.release();
    const w = await writer;
    expect(w.token).toBeGreaterThan(u.token);
    await w.release();
    const late = await lateReader;
    await late.release();

    const history = await a.read.history(lock);
    const ofC = history.filter((h) => h.clientName === "c");
    expect(ofC.map((h) => [h.mode ?? "exclusive", h.reason])).toEqual([
      ["upgradeable", "upgraded"],
      ["exclusive", "released"],
    ]);
    expect(growing(history.map((h) => h.token))).toBe(true);
  });

  it("a second upgradeable request waits while one is held, and is granted when it is released", async () => {
    const [a, b] = five();
    const lock = "up/second";
    const first = await a.lock(lock, { mode: "upgradeable" });
    await expect(b.lock(lock, { mode: "upgradeable" })).rejects.toThrow(LockNotAcquiredError);
    const second = b.lock(lock, { mode: "upgradeable", waitMs: 60_000 });
    await queued(a, lock, 1);
    await first.release();
    const handle = await second;
    expect(handle.mode).toBe("upgradeable");
    expect(handle.token).toBeGreaterThan(first.token);
    await handle.release();
  });

  it("an upgrade that runs out of time keeps the upgradeable hold and its token", async () => {
    const [a, b] = five();
    const lock = "up/timeout";
    const reader = await a.lock(lock, { mode: "shared" });
    const u = await b.lock(lock, { mode: "upgradeable" });
    const before = u.token;
    expect(await u.upgrade({ waitMs: 300 })).toBe(false);
    expect(u).toMatchObject({ token: before, mode: "upgradeable", held: true });
    expect(await a.read.validateToken(lock, before)).toBe(true);
    const info = await a.read.getLock(lock);
    expect(info.holders?.find((h) => h.sessionId === u.sessionId)?.upgradingSince).toBeUndefined();
    // Once the reader is gone the same handle upgrades at once.
    await reader.release();
    expect(await u.upgrade()).toBe(true);
    await u.release();
  });

  it("a downgrade to shared lets the waiting readers in with the same new token, not the writer behind them", async () => {
    const [a, b, c, d] = five();
    const lock = "up/down";
    const x = await a.lock(lock);
    const readers = [b, c].map((client) => client.lock(lock, { mode: "shared", waitMs: 60_000 }));
    await queued(a, lock, 2);
    const writer = d.lock(lock, { waitMs: 60_000 });
    await queued(a, lock, 3);
    const exclusiveToken = x.token;
    await x.downgrade("shared");
    const handles: LockHandle[] = await Promise.all(readers);
    expect(x.mode).toBe("shared");
    expect(x.token).toBeGreaterThan(exclusiveToken);
    expect(handles.map((h) => h.token)).toEqual([x.token, x.token]);
    expect((await a.read.getLock(lock)).waiters.map((w) => w.clientName)).toEqual(["d"]);
    for (const h of [x, ...handles]) await h.release();
    const w = await writer;
    expect(w.token).toBeGreaterThan(x.token);
    await w.release();
    const reasons = (await a.read.history(lock)).map((h) => h.reason);
    expect(reasons[0]).toBe("downgraded");
  });

  it("tokens grow across every mode change: upgradeable, exclusive, upgradeable, exclusive, shared", async () => {
    const [a] = five();
    const lock = "up/cycle";
    const h = await a.lock(lock, { mode: "upgradeable" });
    const tokens = [h.token];
    expect(await h.upgrade()).toBe(true);
    tokens.push(h.token);
    await h.downgrade("upgradeable");
    tokens.push(h.token);
    expect(await h.upgrade()).toBe(true);
    tokens.push(h.token);
    await h.downgrade("shared");
    tokens.push(h.token);
    expect(growing(tokens)).toBe(true);
    expect(h.mode).toBe("shared");
    await h.release();
    // Watch shows each change as the release it completes and the new grant, at one index.
    const stop = new AbortController();
    const seen: string[] = [];
    for await (const e of a.read.watch(lock, { fromIndex: tokens[0], signal: stop.signal })) {
      if (e.kind === "resync") continue;
      const how = e.kind === "acquired" ? (e.mode ?? "exclusive") : (e.ended ?? "-");
      seen.push(`${e.kind}:${how}@${e.index - (tokens[0] as bigint)}`);
      if (seen.length === 10) stop.abort();
    }
    const at = (t: bigint): bigint => t - (tokens[0] as bigint);
    expect(seen).toEqual([
      `acquired:upgradeable@0`,
      `released:upgraded@${at(tokens[1] as bigint)}`,
      `acquired:exclusive@${at(tokens[1] as bigint)}`,
      `released:downgraded@${at(tokens[2] as bigint)}`,
      `acquired:upgradeable@${at(tokens[2] as bigint)}`,
      `released:upgraded@${at(tokens[3] as bigint)}`,
      `acquired:exclusive@${at(tokens[3] as bigint)}`,
      `released:downgraded@${at(tokens[4] as bigint)}`,
      `acquired:shared@${at(tokens[4] as bigint)}`,
      expect.stringMatching(/^released:-@\d+$/),
    ]);
  });

  it("Upgrade and Downgrade are served by the HTTP gateway from the call table", async () => {
    const origin = cluster.httpOrigin(await cluster.leaderId());
    for (const call of ["Upgrade", "Downgrade"]) {
      const res = await fetch(`${origin}/v1/${call}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          sessionId: "12345",
          lock: "up/http",
          token: "1",
          seq: "1",
          ...(call === "Downgrade" ? { mode: "LOCK_MODE_SHARED" } : {}),
        }),
      });
      const body = (await res.json()) as { reason?: string };
      expect([res.status, body.reason]).toEqual([404, "ERROR_REASON_SESSION_NOT_FOUND"]);
    }
  });
});
