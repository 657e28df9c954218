// The fence kit's shared-mode rule, in memory, on a real LevelDB and over HTTP: a shared
// access is admitted iff its token is at least the highest exclusive token admitted, an
// exclusive one iff at least the highest token of either mode. So concurrent readers never
// refuse one another, a reader paused past a writer's grant is refused, and a writer paused
// past later readers is refused. Shared grants only read: a write that claims one is
// refused whatever its token. A semaphore's permits are fenced per (semaphore, slot).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Level } from "level";
import { afterAll, describe, expect, it } from "vitest";
import {
  FENCING_MODE_HEADER,
  FENCING_TOKEN_HEADER,
  FenceRejectedError,
  LevelFence,
  MemoryFence,
  SharedWriteError,
  fenceModeOf,
  fencedFetch,
  fencedHandler,
  permitResource,
  type Access as AccessKind,
  type FenceMode,
  type TokenRecords,
} from "../../../client/fence/index.ts";

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

/**
 * How a fence answered one access: admitted; refused for its token (FenceRejectedError,
 * HTTP 409); or refused as a write that claims a shared grant (SharedWriteError, HTTP 403).
 */
type Outcome = "admitted" | "refused" | "shared write refused";

/** One access through a fence; `access` defaults to a read in shared mode and a write in exclusive mode. */
type Access = (
  resource: string,
  token: bigint,
  mode: FenceMode,
  access?: AccessKind,
) => Promise<Outcome>;

function outcomeOf(err: unknown): Outcome {
  if (err instanceof FenceRejectedError) return "refused";
  if (err instanceof SharedWriteError) return "shared write refused";
  throw err;
}

const defaultAccess = (mode: FenceMode): AccessKind => (mode === "shared" ? "read" : "write");

/** A write stores its token under `${resource}/last`; a read only reads it. */
async function kvAccess(
  fence: MemoryFence | LevelFence,
  resource: string,
  token: bigint,
  mode: FenceMode,
  access = defaultAccess(mode),
): Promise<Outcome> {
  try {
    await fence.guard(
      resource,
      token,
      async (tx) => {
        if (access === "write") tx.put(`${resource}/last`, String(token));
        else await tx.get(`${resource}/last`);
      },
      { mode, access },
    );
    return "admitted";
  } catch (err) {
    return outcomeOf(err);
  }
}

/** A fencedHandler service called with the headers on the wire (a GET reads, a PUT writes); `written` lists the tokens of the PUTs its handler ran. */
async function httpFence(
  tokens?: TokenRecords,
): Promise<Access & { written: bigint[]; base: string }> {
  const written: bigint[] = [];
  const listener: RequestListener = fencedHandler(tokens ? { tokens } : {}, (req, res, token) => {
    if (req.method === "PUT") written.push(token);
    res.end("ok");
  });
  const server: Server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const access: Access = async (resource, token, mode, kind = defaultAccess(mode)) => {
    const headers: Record<string, string> = {
      [FENCING_TOKEN_HEADER]: token.toString(),
      ...(mode === "shared" ? { [FENCING_MODE_HEADER]: "shared" } : {}),
    };
    const res = await fetch(`${base}/${encodeURIComponent(resource)}`, {
      method: kind === "read" ? "GET" : "PUT",
      headers,
    });
    const body = await res.text();
    if (res.status === 200) return "admitted";
    if (res.status === 409) return "refused";
    if (res.status === 403 && /shared/.test(body)) return "shared write refused";
    throw new Error(`unexpected status ${res.status}: ${body}`);
  };
  return Object.assign(access, { written, base });
}

const adapters: Array<[string, () => Promise<Access>]> = [
  [
    "in memory",
    async () => {
      const fence = new MemoryFence();
      return (r, t, m, a) => kvAccess(fence, r, t, m, a);
    },
  ],
  [
    "on LevelDB",
    async () => {
      const fence = await LevelFence.open(tempDir(), { sync: false });
      cleanups.push(() => fence.close());
      return (r, t, m, a) => kvAccess(fence, r, t, m, a);
    },
  ],
  ["over HTTP", () => httpFence()],
];

describe.each(adapters)("the shared-mode fence %s", (_name, make) => {
  it("concurrent readers never refuse one another, in whatever order their accesses land", async () => {
    const access = await make();
    expect(await access("r", 10n, "exclusive")).toBe("admitted");
    // Readers granted together (12) or one after another (11, 13) land out of order.
    for (const token of [13n, 11n, 12n, 12n, 11n, 13n])
      expect(await access("r", token, "shared")).toBe("admitted");
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

  it("a write that claims a shared grant is refused whatever its token, and raises nothing", async () => {
    const access = await make();
    expect(await access("s", 10n, "exclusive")).toBe("admitted");
    expect(await access("s", 50n, "shared", "write")).toBe("shared write refused");
    // Nothing was recorded: the writer of 11 and a reader of 11 still pass.
    expect(await access("s", 11n, "exclusive")).toBe("admitted");
    expect(await access("s", 11n, "shared")).toBe("admitted");
  });

  it("a stale exclusive holder that labels its write shared is refused once only readers came after it", async () => {
    const access = await make();
    expect(await access("late", 20n, "exclusive")).toBe("admitted");
    expect(await access("late", 30n, "shared")).toBe("admitted");
    // Its grant ended and a reader's began: its late write, labelled shared to pass the reader rule.
    expect(await access("late", 20n, "shared", "write")).toBe("shared write refused");
    expect(await access("late", 20n, "exclusive")).toBe("refused");
  });
});

describe("shared grants only read", () => {
  it("over HTTP, the handler of a write that claims a shared grant never runs", async () => {
    const access = await httpFence();
    expect(await access("h", 20n, "exclusive")).toBe("admitted");
    expect(await access("h", 30n, "shared")).toBe("admitted");
    expect(await access("h", 20n, "shared", "write")).toBe("shared write refused");
    expect(access.written).toEqual([20n]);
  });

  it.each([
    ["in memory", async () => new MemoryFence()],
    [
      "on LevelDB",
      async () => {
        const fence = await LevelFence.open(tempDir(), { sync: false });
        cleanups.push(() => fence.close());
        return fence;
      },
    ],
  ])(
    "%s, a shared access whose effect writes is refused and stores nothing, its token included",
    async (_name, make) => {
      const fence = await make();
      await fence.guard("k", 20n, (tx) => tx.put("k/value", "from 20"));
      await fence.guard("k", 30n, async (tx) => tx.get("k/value"), {
        mode: "shared",
        access: "read",
      });
      // A stale exclusive holder that calls its write a shared read.
      let ran = false;
      const refused = await fence
        .guard(
          "k",
          20n,
          (tx) => {
            ran = true;
            tx.put("k/value", "from 20, late");
          },
          { mode: "shared", access: "read" },
        )
        .catch((err: unknown) => err);
      expect(ran).toBe(true);
      expect(await fence.peek("k/value")).toBe("from 20");
      expect([await fence.highest("k"), await fence.highestExclusive("k")]).toEqual([30n, 20n]);
      expect(refused).toBeInstanceOf(SharedWriteError);
      expect((refused as SharedWriteError).message).toMatch(/shared/);
      // A write under the fence's rule for shared grants is refused before its effect runs.
      let wrote = false;
      await expect(
        fence.guard(
          "k",
          40n,
          () => {
            wrote = true;
          },
          { mode: "shared", access: "write" },
        ),
      ).rejects.toBeInstanceOf(SharedWriteError);
      expect(wrote).toBe(false);
      expect(await fence.highest("k")).toBe(30n);
    },
  );
});

describe("an upgradeable grant", () => {
  it("is fenced as shared until upgraded: it reads beside readers, its writes are refused; the upgrade's grant writes", async () => {
    expect(fenceModeOf({ token: 7n, mode: "upgradeable" })).toBe("shared");
    expect(fenceModeOf({ token: 9n, mode: "exclusive" })).toBe("exclusive");
    const fence = await httpFence();
    const url = `${fence.base}/doc`;
    // A handle's mode and token as they are before and after upgrade().
    const grant = { token: 7n, mode: "upgradeable" as const };
    expect((await fencedFetch(grant, url)).status).toBe(200);
    expect((await fencedFetch({ token: 6n, mode: "shared" }, url)).status).toBe(200);
    expect((await fencedFetch(grant, url, { method: "PUT" })).status).toBe(403);
    const upgraded = { token: 9n, mode: "exclusive" as const };
    expect((await fencedFetch(upgraded, url, { method: "PUT" })).status).toBe(200);
    // The upgradeable token, older than the upgrade's exclusive grant, no longer even reads.
    expect((await fencedFetch(grant, url)).status).toBe(409);
    expect(fence.written).toEqual([9n]);
  });
});

describe("shared mode on records from before the modes", () => {
  it("a LevelDB fence whose database has only the highest token counts it as exclusive: a lower shared token is refused", async () => {
    const dir = tempDir();
    const db = new Level<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
    await db.open();
    await db
      .sublevel<string, string>("fence", { keyEncoding: "utf8", valueEncoding: "utf8" })
      .put("old", "20");
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
    await expect(
      fence.guard("m", 1n, () => undefined, { mode: "read" as FenceMode }),
    ).rejects.toThrow(RangeError);
    expect(await fence.highest("m")).toBeUndefined();
  });
});
