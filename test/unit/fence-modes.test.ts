// The fence kit's shared-mode rule, in memory, on a real LevelDB and over HTTP: a shared
// access is admitted iff its token is at least the highest exclusive token admitted, an
// exclusive one iff at least the highest token of either mode. So concurrent readers never
// refuse one another, a reader paused past a writer's grant is refused, and a writer paused
// past later readers is refused. A semaphore's permits are fenced per (semaphore, slot).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Level } from "level";
import { afterAll, describe, expect, it } from "vitest";
import {
  FenceRejectedError, LevelFence, MemoryFence, fencedFetch, fencedHandler, permitResource, type FenceMode, type TokenRecords,
} from "../../client/fence/index.ts";

const dirs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "palisade-fence-modes-"));
  dirs.push(dir);
  return dir;
}

/** One access through a fence: "admitted" or "refused" (a FenceRejectedError); anything else throws. */
type Access = (resource: string, token: bigint, mode: FenceMode) => Promise<"admitted" | "refused">;

async function kvAccess(fence: MemoryFence | LevelFence, resource: string, token: bigint, mode: FenceMode): Promise<"admitted" | "refused"> {
  try {
    await fence.guard(resource, token, (tx) => tx.put(`${resource}/last`, String(token)), { mode, access: mode === "shared" ? "read" : "write" });
    return "admitted";
  } catch (err) {
    if (err instanceof FenceRejectedError) return "refused";
    throw err;
  }
}

async function httpFence(tokens?: TokenRecords): Promise<Access> {
  const listener: RequestListener = fencedHandler(tokens ? { tokens } : {}, (_req, res) => {
    res.end("ok");
  });
  const server: Server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  cleanups.push(() => new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  }));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (resource, token, mode) => {
    const res = await fencedFetch(token, `${base}/${encodeURIComponent(resource)}`, { method: mode === "shared" ? "GET" : "PUT" }, { mode });
    await res.text();
    if (res.status === 200) return "admitted";
    if (res.status === 409) return "refused";
    throw new Error(`unexpected status ${res.status}`);
  };
}

const adapters: Array<[string, () => Promise<Access>]> = [
  ["in memory", async () => {
    const fence = new MemoryFence();
    return (r, t, m) => kvAccess(fence, r, t, m);
  }],
  ["on LevelDB", async () => {
    const fence = await LevelFence.open(tempDir(), { sync: false });
    cleanups.push(() => fence.close());
    return (r, t, m) => kvAccess(fence, r, t, m);
  }],
  ["over HTTP", () => httpFence()],
];

describe.each(adapters)("the shared-mode fence %s", (_name, make) => {
  it("concurrent readers never refuse one another, in whatever order their accesses land", async () => {
    const access = await make();
    expect(await access("r", 10n, "exclusive")).toBe("admitted");
    // Readers granted together (12) or one after another (11, 13) land out of order.
    for (const token of [13n, 11n, 12n, 12n, 11n, 13n]) expect(await access("r", token, "shared")).toBe("admitted");
  });

  it("a reader paused past a writer's grant is refused, and later readers are admitted", async () => {
    const access = await make();
    expect(await access("w", 11n, "shared")).toBe("admitted");
    expect(await access("w", 12n, "exclusive")).toBe("admitted");
    expect(await access("w", 11n, "shared")).toBe("refused");
    expect(await access("w", 13n, "shared")).toBe("admitted");
  });

  it("a writer paused past later readers is refused, as is one older than the last writer", async () => {
    const access = await make();
    expect(await access("x", 10n, "exclusive")).toBe("admitted");
    expect(await access("x", 12n, "shared")).toBe("admitted");
    expect(await access("x", 13n, "shared")).toBe("admitted");
    expect(await access("x", 10n, "exclusive")).toBe("refused");
    expect(await access("x", 11n, "exclusive")).toBe("refused");
    expect(await access("x", 14n, "exclusive")).toBe("admitted");
    expect(await access("x", 13n, "exclusive")).toBe("refused");
    expect(await access("x", 13n, "shared")).toBe("refused");
  });

  it("a semaphore's slots are fenced each on its own: another slot's later token does not refuse a slot's holder, its next holder's does", async () => {
    const access = await make();
    const slot0 = permitResource("pool", 0);
    const slot1 = permitResource("pool", 1);
    expect(await access(slot0, 5n, "exclusive")).toBe("admitted");
    expect(await access(slot1, 6n, "exclusive")).toBe("admitted");
    expect(await access(slot0, 5n, "exclusive")).toBe("admitted");
    // Slot 0 went to a new holder (token 7) while its old holder was paused.
    expect(await access(slot0, 7n, "exclusive")).toBe("admitted");
    expect(await access(slot0, 5n, "exclusive")).toBe("refused");
    expect(await access(slot1, 6n, "exclusive")).toBe("admitted");
  });
});

describe("shared mode on records from before the modes", () => {
  it("a LevelDB fence whose database has only the highest token counts it as exclusive: a lower shared token is refused", async () => {
    const dir = tempDir();
    const db = new Level<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
    await db.open();
    await db.sublevel<string, string>("fence", { keyEncoding: "utf8", valueEncoding: "utf8" }).put("old", "20");
    const fence = LevelFence.over(db, { sync: false });
    cleanups.push(() => fence.close());
    expect(await kvAccess(fence, "old", 19n, "shared")).toBe("refused");
    expect(await kvAccess(fence, "old", 21n, "shared")).toBe("admitted");
    expect(await fence.highestExclusive("old")).toBe(20n);
    expect(await kvAccess(fence, "old", 20n, "shared")).toBe("admitted");
  });

  it("HTTP token records that keep no exclusive mark refuse a shared request (501) instead of misjudging it, and still serve exclusive ones", async () => {
    const plain = new Map<string, bigint>();
    const records: TokenRecords = {
      highest: async (r) => plain.get(r),
      record: async (r, t) => void plain.set(r, t),
    };
    const access = await httpFence(records);
    expect(await access("p", 5n, "exclusive")).toBe("admitted");
    await expect(access("p", 6n, "shared")).rejects.toThrow(/status 501/);
    expect(await access("p", 4n, "exclusive")).toBe("refused");
  });

  it("a mode the fence does not know is refused before anything is admitted", async () => {
    const fence = new MemoryFence();
    await expect(fence.guard("m", 1n, () => undefined, { mode: "read" as FenceMode })).rejects.toThrow(RangeError);
    expect(await fence.highest("m")).toBeUndefined();
  });
});
