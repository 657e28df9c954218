// The PostgreSQL fence against a real, throwaway PostgreSQL server: numeric(20,0) tokens,
// one conditional upsert with its row count checked, the data change in the same
// transaction, the 33/34 interleavings (between transactions and inside the guarded
// effect, where the later access blocks on the row lock), and the SQL for own tables.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FenceRejectedError,
  PgFence,
  SharedWriteError,
  fenceSql,
} from "../../client/fence/index.ts";
import {
  INSTALL_COMMAND,
  postgresBinDir,
  startPostgres,
  type PostgresServer,
} from "./fence-pg-server.ts";

let server: PostgresServer;
let pool: pg.Pool;
let observer: pg.Pool;

beforeAll(async () => {
  server = await startPostgres();
  pool = server.pool(6);
  observer = server.pool(1);
  await pool.query("CREATE TABLE orders (key text PRIMARY KEY, items jsonb NOT NULL)");
});

afterAll(async () => {
  await server?.stop();
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Waits until some backend waits on a lock (the blocked access), polling the server. */
async function blockedOnLock(): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    const { rows } = await observer.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (rows[0]?.n === "1") return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no access ever blocked on the fence row");
}

async function readItems(client: pg.PoolClient | pg.Pool, key: string): Promise<string[]> {
  const { rows } = await client.query<{ items: string[] }>(
    "SELECT items FROM orders WHERE key = $1",
    [key],
  );
  return rows[0]?.items ?? [];
}

async function writeItems(client: pg.PoolClient, key: string, items: string[]): Promise<void> {
  await client.query(
    "INSERT INTO orders (key, items) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET items = EXCLUDED.items",
    [key, JSON.stringify(items)],
  );
}

let tables = 0;
async function freshFence(options: { readsRaise?: boolean } = {}): Promise<PgFence> {
  const fence = new PgFence(pool, { ...options, table: `fence_${++tables}` });
  await fence.init();
  return fence;
}

describe("PostgreSQL fence", () => {
  it("finds the server binaries, or fails with the install command", () => {
    expect(postgresBinDir()).toMatch(/^\/usr\/lib\/postgresql\/[^/]+\/bin$/);
    expect(() => postgresBinDir("/nonexistent/postgresql")).toThrow(INSTALL_COMMAND);
    expect(INSTALL_COMMAND).toContain("apt-get install -y postgresql");
  });

  it("stores tokens as numeric(20,0) up to the largest uint64", async () => {
    const fence = await freshFence();
    const { rows } = await pool.query<{ numeric_precision: number; numeric_scale: number }>(
      "SELECT numeric_precision, numeric_scale FROM information_schema.columns WHERE table_name = $1 AND column_name = 'token'",
      [`fence_${tables}`],
    );
    expect(rows).toEqual([{ numeric_precision: 20, numeric_scale: 0 }]);
    const max = (1n << 64n) - 1n;
    await fence.guard("big", max - 1n, async () => undefined);
    await fence.guard("big", max, async () => undefined);
    expect(await fence.highest("big")).toBe(max);
    await expect(fence.guard("big", max - 1n, async () => undefined)).rejects.toMatchObject({
      highest: max,
    });
    await expect(fence.guard("big", 1n << 64n, async () => undefined)).rejects.toBeInstanceOf(
      RangeError,
    );
  });

  it("admits equal and higher tokens, refuses lower ones, and runs no effect for them", async () => {
    const fence = await freshFence();
    await fence.guard("a", 33n, (c) => writeItems(c, "a", ["33"]));
    await fence.guard("a", 33n, (c) => writeItems(c, "a", ["33", "33 again"]));
    await fence.guard("a", 34n, (c) => writeItems(c, "a", ["34"]));
    let ran = false;
    await expect(
      fence.guard("a", 33n, async (c) => {
        ran = true;
        await writeItems(c, "a", ["stale"]);
      }),
    ).rejects.toBeInstanceOf(FenceRejectedError);
    expect(ran).toBe(false);
    expect(await readItems(pool, "a")).toEqual(["34"]);
  });

  it("counts the accesses it admitted and refused", async () => {
    const fence = await freshFence();
    await fence.guard("c", 5n, (c) => writeItems(c, "c", ["5"]));
    await fence.guard("c", 6n, async () => undefined, { access: "read" });
    await expect(fence.guard("c", 4n, async () => undefined)).rejects.toBeInstanceOf(
      FenceRejectedError,
    );
    expect(fence.counts.snapshot()).toEqual({ admitted: 2, rejected: 1 });
  });

  it("rolls back the token record with the data when the effect fails", async () => {
    const fence = await freshFence();
    await fence.guard("b", 10n, (c) => writeItems(c, "b", ["10"]));
    await expect(
      fence.guard("b", 20n, async (c) => {
        await writeItems(c, "b", ["20"]);
        throw new Error("effect failed");
      }),
    ).rejects.toThrow("effect failed");
    expect(await fence.highest("b")).toBe(10n);
    expect(await readItems(pool, "b")).toEqual(["10"]);
    await fence.guard("b", 15n, (c) => writeItems(c, "b", ["15"]));
    expect(await readItems(pool, "b")).toEqual(["15"]);
  });

  async function readModifyWrite(
    fence: PgFence,
    key: string,
  ): Promise<{ rejected: boolean; afterStale: string[]; final: string[] }> {
    await fence.guard(key, 33n, (c) => writeItems(c, key, ["seed"]));
    const seenBy33 = await fence.guard(key, 33n, (c) => readItems(c, key), { access: "read" });
    // 33 pauses past its session; 34 is granted and reads.
    const seenBy34 = await fence.guard(key, 34n, (c) => readItems(c, key), { access: "read" });
    let rejected = false;
    try {
      await fence.guard(key, 33n, (c) => writeItems(c, key, [...seenBy33, "from-33"]));
    } catch (err) {
      if (!(err instanceof FenceRejectedError)) throw err;
      rejected = true;
    }
    const afterStale = await readItems(pool, key);
    await fence.guard(key, 34n, (c) => writeItems(c, key, [...seenBy34, "from-34"]));
    return { rejected, afterStale, final: await readItems(pool, key) };
  }

  it("refuses the former holder's write after the new holder's read (33/34)", async () => {
    expect(await readModifyWrite(await freshFence(), "rmw-on")).toEqual({
      rejected: true,
      afterStale: ["seed"],
      final: ["seed", "from-34"],
    });
  });

  it("loses 33's update when only writes raise the fence (so the test above can tell)", async () => {
    const outcome = await readModifyWrite(await freshFence({ readsRaise: false }), "rmw-off");
    expect(outcome).toEqual({
      rejected: false,
      afterStale: ["seed", "from-33"],
      final: ["seed", "from-34"],
    });
  });

  for (const seeded of [true, false]) {
    it(`blocks 33 on the row lock while 34's transaction runs, then refuses it (33/34 inside the effect, ${seeded ? "existing" : "new"} fence row)`, async () => {
      const fence = await freshFence();
      const key = `inside-${seeded}`;
      if (seeded) await fence.guard(key, 30n, (c) => writeItems(c, key, ["from-30"]));
      const inside = deferred();
      const resume = deferred();
      const by34 = fence.guard(key, 34n, async (c) => {
        const before = await readItems(c, key);
        inside.resolve();
        await resume.promise;
        await writeItems(c, key, [...before, "from-34"]);
      });
      await inside.promise;
      let ran33 = false;
      const by33 = fence.guard(key, 33n, async (c) => {
        ran33 = true;
        await writeItems(c, key, ["from-33"]);
      });
      // It may be refused while we still await 34: mark it handled now, assert on it below.
      by33.catch(() => undefined);
      await blockedOnLock();
      expect(ran33).toBe(false);
      resume.resolve();
      await by34;
      await expect(by33).rejects.toMatchObject({ token: 33n, highest: 34n });
      expect(ran33).toBe(false);
      expect(await readItems(pool, key)).toEqual(seeded ? ["from-30", "from-34"] : ["from-34"]);
    });
  }

  it("blocks 34 while the paused 33's transaction runs; 34 then sees 33's committed write", async () => {
    const fence = await freshFence();
    const inside = deferred();
    const resume = deferred();
    const by33 = fence.guard("rev", 33n, async (c) => {
      const before = await readItems(c, "rev");
      inside.resolve();
      await resume.promise;
      await writeItems(c, "rev", [...before, "from-33"]);
    });
    await inside.promise;
    const by34 = fence.guard("rev", 34n, async (c) => {
      const before = await readItems(c, "rev");
      await writeItems(c, "rev", [...before, "from-34"]);
    });
    await blockedOnLock();
    resume.resolve();
    await Promise.all([by33, by34]);
    expect(await readItems(pool, "rev")).toEqual(["from-33", "from-34"]);
    await expect(fence.guard("rev", 33n, async () => undefined)).rejects.toBeInstanceOf(
      FenceRejectedError,
    );
  });

  it("exposes its statements, and refuses table names that are not plain identifiers", () => {
    expect(fenceSql("t").admit).toContain("WHERE f.token <= EXCLUDED.token");
    expect(fenceSql().createTable).toContain("numeric(20,0)");
    expect(() => fenceSql('x"; DROP TABLE orders; --')).toThrow(RangeError);
  });

  // The statements "How to fence your resource" gives for fencing your own table.
  it("fences an application's own table with a token column", async () => {
    await pool.query(
      "CREATE TABLE accounts (id text PRIMARY KEY, balance bigint NOT NULL, fence_token numeric(20,0) NOT NULL DEFAULT 0)",
    );
    await pool.query("INSERT INTO accounts (id, balance) VALUES ('acct-1', 100)");
    const read =
      "UPDATE accounts SET fence_token = $2 WHERE id = $1 AND fence_token <= $2 RETURNING balance";
    const write =
      "UPDATE accounts SET balance = $3, fence_token = $2 WHERE id = $1 AND fence_token <= $2";
    const by33 = await pool.query<{ balance: string }>(read, ["acct-1", "33"]);
    expect(by33.rowCount).toBe(1);
    const by34 = await pool.query<{ balance: string }>(read, ["acct-1", "34"]);
    expect(by34.rowCount).toBe(1);
    const stale = await pool.query(write, ["acct-1", "33", Number(by33.rows[0]?.balance) + 10]);
    expect(stale.rowCount).toBe(0);
    const fresh = await pool.query(write, ["acct-1", "34", Number(by34.rows[0]?.balance) + 5]);
    expect(fresh.rowCount).toBe(1);
    const { rows } = await pool.query<{ balance: string; fence_token: string }>(
      "SELECT balance::text, fence_token::text FROM accounts",
    );
    expect(rows).toEqual([{ balance: "105", fence_token: "34" }]);
  });
});

describe("PostgreSQL fence in shared mode", () => {
  const access = async (
    fence: PgFence,
    resource: string,
    token: bigint,
    mode: "shared" | "exclusive",
  ): Promise<string> => {
    try {
      await fence.guard(resource, token, async () => undefined, {
        mode,
        access: mode === "shared" ? "read" : "write",
      });
      return "admitted";
    } catch (err) {
      if (err instanceof FenceRejectedError) return "refused";
      throw err;
    }
  };

  it("concurrent readers never refuse one another; a reader paused past a writer's grant and a writer paused past later readers are refused", async () => {
    const fence = await freshFence();
    expect(await access(fence, "rw", 10n, "exclusive")).toBe("admitted");
    for (const token of [13n, 11n, 12n])
      expect(await access(fence, "rw", token, "shared")).toBe("admitted");
    // The writer of 10 paused past the readers: refused.
    expect(await access(fence, "rw", 10n, "exclusive")).toBe("refused");
    expect(await access(fence, "rw", 14n, "exclusive")).toBe("admitted");
    // A reader of 13 paused past the writer of 14: refused.
    expect(await access(fence, "rw", 13n, "shared")).toBe("refused");
    expect(await access(fence, "rw", 15n, "shared")).toBe("admitted");
    expect([await fence.highest("rw"), await fence.highestExclusive("rw")]).toEqual([15n, 14n]);
  });

  it("a shared access that is refused names the exclusive token and changes nothing, also when reads do not raise", async () => {
    for (const readsRaise of [true, false]) {
      const fence = await freshFence({ readsRaise });
      await fence.guard("r", 8n, async () => undefined);
      const refused = await fence
        .guard("r", 7n, async () => undefined, { mode: "shared", access: "read" })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(FenceRejectedError);
      expect((refused as FenceRejectedError).message).toMatch(
        /\(shared\) is lower than the exclusive token 8/,
      );
      expect(await fence.highest("r")).toBe(8n);
    }
  });

  it("a stale exclusive holder's write labelled shared, after only readers came, is refused and changes nothing", async () => {
    const fence = await freshFence();
    await fence.guard("late", 20n, (c) => writeItems(c, "late", ["from-20"]));
    expect(await access(fence, "late", 30n, "shared")).toBe("admitted");
    let ran = false;
    const refused = await fence
      .guard(
        "late",
        20n,
        async (c) => {
          ran = true;
          await writeItems(c, "late", ["from-20", "late"]);
        },
        { mode: "shared", access: "write" },
      )
      .catch((e: unknown) => e);
    expect(await readItems(pool, "late")).toEqual(["from-20"]);
    expect(ran).toBe(false);
    expect(refused).toBeInstanceOf(SharedWriteError);
    expect([await fence.highest("late"), await fence.highestExclusive("late")]).toEqual([30n, 20n]);
  });

  it("a shared access whose effect writes is refused, and nothing of it commits, its token included", async () => {
    for (const readsRaise of [true, false]) {
      const fence = await freshFence({ readsRaise });
      const key = `ro-${readsRaise}`;
      await fence.guard(key, 20n, (c) => writeItems(c, key, ["from-20"]));
      // A stale exclusive holder (20) calling its write a shared read, and a reader (35) that writes.
      for (const token of [20n, 35n]) {
        const refused = await fence
          .guard(key, token, (c) => writeItems(c, key, ["from-20", `by ${token}`]), {
            mode: "shared",
            access: "read",
          })
          .catch((e: unknown) => e);
        expect(await readItems(pool, key)).toEqual(["from-20"]);
        expect(refused).toBeInstanceOf(SharedWriteError);
      }
      expect([await fence.highest(key), await fence.highestExclusive(key)]).toEqual([20n, 20n]);
      // Reads under a shared grant still work.
      expect(
        await fence.guard(key, 35n, (c) => readItems(c, key), { mode: "shared", access: "read" }),
      ).toEqual(["from-20"]);
    }
  });

  it("a table made before the modes gets its exclusive column, and its rows count every token as exclusive", async () => {
    const table = `fence_legacy_${++tables}`;
    await pool.query(
      `CREATE TABLE ${table} (resource text PRIMARY KEY, token numeric(20,0) NOT NULL)`,
    );
    await pool.query(`INSERT INTO ${table} VALUES ('old', 20)`);
    const fence = new PgFence(pool, { table });
    await fence.init();
    expect(await access(fence, "old", 19n, "shared")).toBe("refused");
    expect(await access(fence, "old", 20n, "shared")).toBe("admitted");
    expect(await access(fence, "old", 22n, "shared")).toBe("admitted");
    expect(await access(fence, "old", 21n, "exclusive")).toBe("refused");
    expect(await fence.highestExclusive("old")).toBe(20n);
  });
});
