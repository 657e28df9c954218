// What only LevelStorage has, against a real LevelDB in a fresh temporary directory per test:
// the identity record, record checksums, the directory lock, the free-space reserve, fatal
// write errors, the deferred commit index and the raw layout. The rules every store shares
// are in storage-contract.test.ts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Level } from "level";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entry, Snapshot } from "../../../node/raft/types.ts";
import {
  CorruptStoreError,
  DiskReserveError,
  FatalStorageError,
  IdentityMismatchError,
  StorageError,
} from "../../../node/storage/errors.ts";
import { HARD_STATE_KEY, IDENTITY_KEY, entryKey } from "../../../node/storage/keys.ts";
import {
  FORMAT_VERSION,
  LEVELDB_DIR,
  LevelStorage,
  SNAPSHOT_DIR,
} from "../../../node/storage/level-storage.ts";
import type {
  DiskSpaceEvent,
  LevelStorageOptions,
  StorageWrite,
} from "../../../node/storage/level-storage.ts";
import { encodeIdentity } from "../../../node/storage/records.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function entry(index: number, term: number, text = `cmd-${index}-${term}`): Entry {
  return { index, term, kind: "normal", data: encoder.encode(text) };
}

function entries(from: number, to: number, term: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i <= to; i++) out.push(entry(i, term));
  return out;
}

function snapshot(index: number, term: number, text = `state@${index}`): Snapshot {
  return {
    meta: { index, term, membership: { voters: [1, 2, 3], learners: [4] } },
    data: encoder.encode(text),
  };
}

let dir = "";
const open: LevelStorage[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "palisade-storage-"));
});

afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

async function openStore(extra: Partial<LevelStorageOptions> = {}): Promise<LevelStorage> {
  const store = await LevelStorage.open({
    dir,
    clusterId: "cluster-a",
    nodeId: 1,
    freeSpace: async () => Number.MAX_SAFE_INTEGER,
    ...extra,
  });
  open.push(store);
  return store;
}

async function reopen(
  store: LevelStorage,
  extra: Partial<LevelStorageOptions> = {},
): Promise<LevelStorage> {
  await store.close();
  return openStore(extra);
}

/** Direct access to the LevelDB files, to damage them as a disk or a bug would. */
async function withRawDb(fn: (db: Level<Uint8Array, Uint8Array>) => Promise<void>): Promise<void> {
  const db = new Level<Uint8Array, Uint8Array>(join(dir, LEVELDB_DIR), {
    keyEncoding: "view",
    valueEncoding: "view",
  });
  await db.open();
  try {
    await fn(db);
  } finally {
    await db.close();
  }
}

async function flipByte(
  db: Level<Uint8Array, Uint8Array>,
  key: Uint8Array,
  offset: number,
): Promise<void> {
  const value = await db.get(key);
  if (value === undefined) throw new Error("no such key");
  const damaged = value.slice();
  damaged[offset] ^= 0x40;
  await db.put(key, damaged);
}

async function expectOpenFails(pattern: RegExp): Promise<void> {
  const err = await openStore().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CorruptStoreError);
  expect((err as Error).message).toMatch(pattern);
}

describe("LevelStorage", () => {
  it("refuses a directory of another cluster, node or format version, naming both values", async () => {
    const store = await openStore();
    await store.save({ entries: [entry(1, 1)] }, true);
    await store.close();

    const otherCluster = await openStore({ clusterId: "cluster-b" }).catch((e: unknown) => e);
    expect(otherCluster).toBeInstanceOf(IdentityMismatchError);
    expect((otherCluster as Error).message).toMatch(/"cluster-a".*"cluster-b"/);

    const otherNode = await openStore({ nodeId: 2 }).catch((e: unknown) => e);
    expect(otherNode).toBeInstanceOf(IdentityMismatchError);
    expect((otherNode as Error).message).toMatch(/node id 1 on disk, configured 2/);

    await withRawDb((db) =>
      db.put(
        IDENTITY_KEY,
        encodeIdentity(IDENTITY_KEY, {
          clusterId: "cluster-a",
          nodeId: 1,
          formatVersion: FORMAT_VERSION + 1,
        }),
      ),
    );
    const otherFormat = await openStore().catch((e: unknown) => e);
    expect(otherFormat).toBeInstanceOf(IdentityMismatchError);
    expect((otherFormat as Error).message).toMatch(
      new RegExp(`format version ${FORMAT_VERSION + 1} on disk, this build uses ${FORMAT_VERSION}`),
    );
  });

  it("refuses a second open of the same directory while the first is open", async () => {
    await openStore();
    const err = await openStore().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(/in use by another process/);
  });

  it("detects a damaged entry record at start-up", async () => {
    const store = await openStore();
    await store.save(
      { hardState: { term: 1, vote: 1, commit: 3 }, entries: entries(1, 5, 1) },
      true,
    );
    await store.close();
    await withRawDb((db) => flipByte(db, entryKey(3), 10));
    await expectOpenFails(/entry 3: checksum mismatch/);
  });

  it("detects a damaged hard state record at start-up", async () => {
    const store = await openStore();
    await store.save(
      { hardState: { term: 1, vote: 1, commit: 1 }, entries: entries(1, 2, 1) },
      true,
    );
    await store.close();
    await withRawDb((db) => flipByte(db, HARD_STATE_KEY, 3));
    await expectOpenFails(/hard state record: checksum mismatch/);
  });

  it("detects an entry stored under the wrong index", async () => {
    const store = await openStore();
    await store.save({ entries: entries(1, 3, 1) }, true);
    await store.close();
    await withRawDb(async (db) => {
      const value = await db.get(entryKey(3));
      if (value === undefined) throw new Error("missing");
      await db.put(entryKey(4), value);
    });
    await expectOpenFails(/entry 4: checksum mismatch/);
  });

  it("an installed snapshot deletes the entries it replaces from LevelDB, not only from what load returns", async () => {
    let store = await openStore();
    await store.save(
      {
        hardState: { term: 2, vote: 1, commit: 4 },
        entries: [...entries(1, 5, 1), ...entries(6, 10, 2)],
      },
      true,
    );
    await store.save(
      { snapshot: snapshot(7, 2), hardState: { term: 2, vote: 1, commit: 7 } },
      false,
    );
    store = await reopen(store);
    const state = await store.load();
    expect(state.snapshot?.meta).toEqual({
      index: 7,
      term: 2,
      membership: { voters: [1, 2, 3], learners: [4] },
    });
    expect(decoder.decode(state.snapshot?.data)).toBe("state@7");
    expect(state.entries.map((e) => e.index)).toEqual([8, 9, 10]);
    expect(state.hardState.commit).toBe(7);
    // The prefix is gone from disk, not just hidden.
    await store.close();
    await withRawDb(async (db) => {
      expect(await db.get(entryKey(7))).toBeUndefined();
      expect(await db.get(entryKey(1))).toBeUndefined();
      expect(await db.get(entryKey(8))).toBeDefined();
    });
  });

  it("a compaction keeps the entries after upTo in LevelDB, and the snapshot's body reads back verified after a restart", async () => {
    let store = await openStore();
    expect(await store.readSnapshot()).toBeNull();
    await store.save(
      { hardState: { term: 1, vote: 1, commit: 8 }, entries: entries(1, 10, 1) },
      true,
    );
    await store.compact(snapshot(8, 1), 5);
    expect(decoder.decode((await store.readSnapshot())?.data)).toBe("state@8");
    store = await reopen(store);
    expect((await store.readSnapshot())?.meta).toEqual({
      index: 8,
      term: 1,
      membership: { voters: [1, 2, 3], learners: [4] },
    });
    expect(decoder.decode((await store.readSnapshot())?.data)).toBe("state@8");
    await store.close();
    await withRawDb(async (db) => {
      expect(await db.get(entryKey(5))).toBeUndefined();
      expect(await db.get(entryKey(6))).toBeDefined();
      expect(await db.get(entryKey(8))).toBeDefined();
    });
  });

  it("waits below the free-space reserve and resumes when space returns", async () => {
    let free = 10;
    let checks = 0;
    let onCheck: (() => void) | null = null;
    const events: DiskSpaceEvent[] = [];
    const store = await openStore({
      reserveBytes: 100,
      pollMs: 1,
      onDiskSpace: (e) => events.push(e),
      freeSpace: async () => {
        checks++;
        onCheck?.();
        return free;
      },
    });
    expect(await store.spaceOk()).toBe(false);
    expect(store.lowOnSpace).toBe(true);

    let done = false;
    const write = store.save({ entries: [entry(1, 1)] }, true).then(() => {
      done = true;
    });
    // Let the write re-check a few times: it must still be waiting.
    const target = checks + 3;
    await new Promise<void>((resolve) => {
      onCheck = () => {
        if (checks >= target) resolve();
      };
    });
    expect(done).toBe(false);

    free = 1000;
    await write;
    expect(done).toBe(true);
    expect(store.lowOnSpace).toBe(false);
    expect((await store.load()).entries.map((e) => e.index)).toEqual([1]);
    expect(events).toEqual([
      { low: true, freeBytes: 10, reserveBytes: 100 },
      { low: false, freeBytes: 1000, reserveBytes: 100 },
    ]);
  });

  it("rejects a write below the reserve with DiskReserveError when configured to, writing nothing", async () => {
    let free = 50;
    const store = await openStore({
      reserveBytes: 100,
      whenLow: "reject",
      freeSpace: async () => free,
    });
    const err = await store.save({ entries: [entry(1, 1)] }, true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiskReserveError);
    expect(err).not.toBeInstanceOf(FatalStorageError);
    expect((await store.load()).entries).toEqual([]);
    free = 100;
    await store.save({ entries: [entry(1, 1)] }, true);
    expect((await store.load()).entries).toHaveLength(1);
  });

  it("abandons a write waiting for space when the store is closed", async () => {
    const store = await openStore({ reserveBytes: 100, pollMs: 1, freeSpace: async () => 0 });
    const write = store.save({ entries: [entry(1, 1)] }, true);
    await store.close();
    await expect(write).rejects.toThrow(/closed while a write waited/);
  });

  it("treats a failed durable write as fatal: later writes are refused", async () => {
    const store = await openStore();
    await store.save(
      { entries: entries(1, 3, 1), hardState: { term: 1, vote: 1, commit: 3 } },
      true,
    );
    // Make the snapshot directory unusable so writing the body fails.
    await rm(join(dir, SNAPSHOT_DIR), { recursive: true });
    await writeFile(join(dir, SNAPSHOT_DIR), "not a directory");
    const err = await store.compact(snapshot(3, 1), 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalStorageError);
    expect((err as Error).message).toMatch(/writing snapshot file .* failed/);
    await expect(store.save({ entries: [entry(4, 1)] }, true)).rejects.toBeInstanceOf(
      FatalStorageError,
    );
  });
  it("writes the saves that queued behind a write as one LevelDB write, in order", async () => {
    const writes: StorageWrite[] = [];
    const store = await openStore({ onWrite: (w) => writes.push(w) });
    const first = store.save({ entries: entries(1, 2, 1) }, true);
    await Promise.resolve(); // the first write has started: later saves queue behind it
    await Promise.resolve();
    const queued = [
      store.save({ entries: entries(3, 4, 1) }, false),
      store.save({ hardState: { term: 2, vote: 1, commit: 2 }, entries: entries(4, 5, 2) }, true),
      store.save({ entries: entries(6, 6, 2) }, false),
    ];
    await Promise.all([first, ...queued]);
    expect(writes.map((w) => [w.saves, w.sync])).toEqual([
      [1, true],
      [3, true],
    ]);
    const state = await store.load();
    expect(state.entries.map((e) => `${e.index}/${e.term}`)).toEqual([
      "1/1",
      "2/1",
      "3/1",
      "4/2",
      "5/2",
      "6/2",
    ]);
    expect(state.hardState).toEqual({ term: 2, vote: 1, commit: 2 });
  });

  it("keeps a commit-only unsynced write and stores it with the next write, on compaction and on close", async () => {
    let store = await openStore({ commitFlushMs: 60_000 });
    await store.save(
      { hardState: { term: 1, vote: 1, commit: 0 }, entries: entries(1, 4, 1) },
      true,
    );
    await store.save({ hardState: { term: 1, vote: 1, commit: 2 } }, false);
    store = await reopen(store, { commitFlushMs: 60_000 });
    expect((await store.load()).hardState).toEqual({ term: 1, vote: 1, commit: 2 });

    // Deferred, then carried by a write with entries and no hard state of its own.
    await store.save({ hardState: { term: 1, vote: 1, commit: 3 } }, false);
    await store.save({ entries: [entry(5, 1)] }, true);
    // A newer hard state from a synced write wins over an older deferred one.
    await store.save({ hardState: { term: 1, vote: 1, commit: 4 } }, false);
    await store.save({ hardState: { term: 2, vote: 3, commit: 4 }, entries: [entry(6, 2)] }, true);
    await store.save({ hardState: { term: 2, vote: 3, commit: 5 } }, false);
    await store.compact(snapshot(5, 1), 5);
    store = await reopen(store);
    const state = await store.load();
    expect(state.hardState).toEqual({ term: 2, vote: 3, commit: 5 });
    expect(state.entries.map((e) => [e.index, e.term])).toEqual([[6, 2]]);
  });

  it("does not lose a deferred commit index when no other write follows", async () => {
    let store = await openStore({ commitFlushMs: 5 });
    await store.save(
      { hardState: { term: 1, vote: 1, commit: 0 }, entries: entries(1, 2, 1) },
      true,
    );
    await store.save({ hardState: { term: 1, vote: 1, commit: 2 } }, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // load() waits for queued writes and reads the database back.
    expect((await store.load()).hardState.commit).toBe(2);
    store = await reopen(store);
    expect((await store.load()).hardState.commit).toBe(2);
  });

  it("checks free space once per interval while there is ample headroom, and before every write when it is thin", async () => {
    let checks = 0;
    let free = Number.MAX_SAFE_INTEGER;
    const store = await openStore({
      reserveBytes: 100,
      freeSpace: async () => {
        checks++;
        return free;
      },
    });
    for (let i = 1; i <= 20; i++) await store.save({ entries: [entry(i, 1)] }, true);
    expect(checks).toBeLessThanOrEqual(2);

    // Headroom of a few hundred bytes: every write measures again.
    free = 100 + 300;
    await store.spaceOk();
    checks = 0;
    for (let i = 21; i <= 25; i++)
      await store.save({ entries: [entry(i, 1, "x".repeat(200))] }, true);
    expect(checks).toBe(5);
  });
});
