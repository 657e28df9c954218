// One contract for every RaftStorage: the same tests run against the in-memory reference
// store, the LevelDB store and the simulator's store. What a store can do only because of
// what it is built on (snapshot bodies as files for LevelDB, a crash between a write's issue
// and its durability for the stores in memory) is a capability of its medium; the tests of
// a capability say so in their titles and are skipped for stores without it.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Level } from "level";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entry, HardState, Membership, Snapshot } from "../../../node/raft/types.ts";
import { CorruptStoreError, StorageError } from "../../../node/storage/errors.ts";
import { HARD_STATE_KEY, entryKey } from "../../../node/storage/keys.ts";
import { LEVELDB_DIR, LevelStorage, SNAPSHOT_DIR } from "../../../node/storage/level-storage.ts";
import type { DurableState, RaftStorage } from "../../../node/storage/log-store.ts";
import { MemoryDisk, MemoryStorage } from "../../../node/storage/memory-storage.ts";
import { encodeEntry, encodeHardState } from "../../../node/storage/records.ts";
import { Scheduler } from "../../sim/scheduler.ts";
import { Disk, SimStorage } from "../../sim/sim-storage.ts";

// ---- what a test needs from a store's medium ----

/** Rewrites stored records behind the store's back, as a faulty disk or a bug would. Only while no store is open. */
interface StoredRecords {
  removeEntry(index: number): Promise<void>;
  putEntry(entry: Entry): Promise<void>;
  putHardState(hardState: HardState): Promise<void>;
}

/** The directory of snapshot bodies, for stores that keep them as files. */
interface SnapshotFiles {
  list(): Promise<string[]>;
  read(name: string): Promise<Uint8Array>;
  write(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

/** Where a store keeps its state; stores opened on one medium one after the other are restarts of one node. */
interface Medium {
  /** A store on this medium. One whose stored state fails verification rejects here or at its first load. */
  open(): Promise<RaftStorage>;
  records: StoredRecords;
  /** The machine crashes under the open store: what was not durable is lost, and the store is gone. */
  crash?(): Promise<void>;
  files?: SnapshotFiles;
  dispose(): Promise<void>;
}

interface StorageFactory {
  readonly name: string;
  /** Its media keep snapshot bodies as files (`files`). */
  readonly snapshotFiles: boolean;
  /** Its media can crash between a write's issue and its durability (`crash`). */
  readonly crashes: boolean;
  medium(): Promise<Medium>;
}

// ---- the three stores ----

function memoryRecords(disk: MemoryDisk): StoredRecords {
  return {
    removeEntry: async (index) => disk.alter((r) => void r.entries.delete(index)),
    putEntry: async (entry) => disk.alter((r) => void r.entries.set(entry.index, entry)),
    putHardState: async (hardState) => disk.alter((r) => void (r.hardState = hardState)),
  };
}

const memoryFactory: StorageFactory = {
  name: "MemoryStorage",
  snapshotFiles: false,
  crashes: true,
  async medium() {
    const disk = new MemoryDisk();
    return {
      open: async () => new MemoryStorage(disk),
      crash: async () => disk.crash(),
      records: memoryRecords(disk),
      dispose: async () => undefined,
    };
  },
};

async function withRawDb(
  dir: string,
  fn: (db: Level<Uint8Array, Uint8Array>) => Promise<void>,
): Promise<void> {
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

const levelFactory: StorageFactory = {
  name: "LevelStorage",
  snapshotFiles: true,
  crashes: false,
  async medium() {
    const dir = await mkdtemp(join(tmpdir(), "palisade-contract-"));
    const snapshots = join(dir, SNAPSHOT_DIR);
    return {
      open: () =>
        LevelStorage.open({
          dir,
          clusterId: "cluster-a",
          nodeId: 1,
          freeSpace: async () => Number.MAX_SAFE_INTEGER,
        }),
      records: {
        removeEntry: (index) => withRawDb(dir, (db) => db.del(entryKey(index))),
        putEntry: (entry) =>
          withRawDb(dir, (db) =>
            db.put(entryKey(entry.index), encodeEntry(entryKey(entry.index), entry)),
          ),
        putHardState: (hs) =>
          withRawDb(dir, (db) => db.put(HARD_STATE_KEY, encodeHardState(HARD_STATE_KEY, hs))),
      },
      files: {
        list: async () => (await readdir(snapshots)).sort(),
        read: async (name) => new Uint8Array(await readFile(join(snapshots, name))),
        write: (name, data) => writeFile(join(snapshots, name), data),
        remove: (name) => rm(join(snapshots, name)),
      },
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  },
};

/**
 * The simulator's store, with its scheduler run to the end after each call so that every
 * write completes (after its latency) before the call returns to the test.
 */
const simFactory: StorageFactory = {
  name: "SimStorage",
  snapshotFiles: false,
  crashes: true,
  async medium() {
    const sched = new Scheduler();
    const disk = new Disk();
    let instance = 0;
    const drain = <T>(result: Promise<T>): Promise<T> => {
      for (let ev = sched.next(); ev; ev = sched.next()) ev.fn();
      return result;
    };
    return {
      open: async () => {
        const mine = ++instance;
        const inner = new SimStorage(disk, sched, {
          writeDelay: () => 1,
          alive: () => instance === mine,
          resumeAt: () => 0,
        });
        return {
          load: () => drain(inner.load()),
          save: (batch, sync) => drain(inner.save(batch, sync)),
          compact: (snapshot, upTo) => drain(inner.compact(snapshot, upTo)),
          close: () => drain(inner.close()),
        };
      },
      crash: async () => {
        instance++;
        disk.crash();
      },
      records: memoryRecords(disk),
      dispose: async () => undefined,
    };
  },
};

// ---- test data ----

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ZERO: HardState = { term: 0, vote: 0, commit: 0 };
const MEMBERS: Membership = { voters: [1, 2, 3], learners: [4] };

function entry(index: number, term: number, text = `cmd-${index}-${term}`): Entry {
  return { index, term, kind: "normal", data: encoder.encode(text) };
}

function entries(from: number, to: number, term: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i <= to; i++) out.push(entry(i, term));
  return out;
}

function snapshot(
  index: number,
  term: number,
  text = `state@${index}`,
  membership: Membership = MEMBERS,
): Snapshot {
  return { meta: { index, term, membership }, data: encoder.encode(text) };
}

/** index/term/kind/text of each entry. */
function summary(list: readonly Entry[]): string[] {
  return list.map((e) => `${e.index}/${e.term}/${e.kind}/${decoder.decode(e.data)}`);
}

/** A loaded state in a form that compares by value and prints readably. */
function describeState(state: DurableState): object {
  return {
    hardState: state.hardState,
    snapshot:
      state.snapshot === null
        ? null
        : { meta: state.snapshot.meta, body: decoder.decode(state.snapshot.data) },
    entries: summary(state.entries),
  };
}

function storageContract(factory: StorageFactory): void {
  describe(`${factory.name} keeps the RaftStorage contract`, () => {
    let medium: Medium;
    const opened: RaftStorage[] = [];

    beforeEach(async () => {
      medium = await factory.medium();
    });

    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
      await medium.dispose();
    });

    async function open(): Promise<RaftStorage> {
      const store = await medium.open();
      opened.push(store);
      return store;
    }

    async function restart(store: RaftStorage): Promise<RaftStorage> {
      await store.close();
      return open();
    }

    async function crashAndReopen(store: RaftStorage): Promise<RaftStorage> {
      await medium.crash!();
      opened.splice(opened.indexOf(store), 1);
      return open();
    }

    /** Opening the medium and loading it fails verification with a message matching `pattern`. */
    async function expectRefusedAtStart(pattern: RegExp): Promise<void> {
      const err = await open()
        .then((s) => s.load())
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(CorruptStoreError);
      expect((err as Error).message).toMatch(pattern);
    }

    describe("appending", () => {
      it("starts empty", async () => {
        const store = await open();
        expect(await store.load()).toEqual({ hardState: ZERO, snapshot: null, entries: [] });
      });

      it("keeps entries of every kind and the hard state across a restart", async () => {
        let store = await open();
        const hs: HardState = { term: 3, vote: 2, commit: 2 };
        const written: Entry[] = [
          entry(1, 1),
          { index: 2, term: 2, kind: "noop", data: new Uint8Array() },
          entry(3, 3),
        ];
        await store.save({ hardState: hs, entries: written }, true);
        await store.save(
          { entries: [{ index: 4, term: 3, kind: "config", data: Uint8Array.of(0, 255, 7) }] },
          false,
        );
        expect((await store.load()).entries.map((e) => e.index)).toEqual([1, 2, 3, 4]);

        store = await restart(store);
        const state = await store.load();
        expect(state.hardState).toEqual(hs);
        expect(state.snapshot).toBeNull();
        expect(state.entries.map((e) => [e.index, e.term, e.kind])).toEqual([
          [1, 1, "normal"],
          [2, 2, "noop"],
          [3, 3, "normal"],
          [4, 3, "config"],
        ]);
        expect(Array.from(state.entries[3].data)).toEqual([0, 255, 7]);
        expect(decoder.decode(state.entries[0].data)).toBe("cmd-1-1");
      });

      it("takes several saves in flight in the order they were given, and resolves them in that order", async () => {
        let store = await open();
        const resolved: number[] = [];
        const given = [
          store.save(
            { hardState: { term: 1, vote: 1, commit: 0 }, entries: entries(1, 3, 1) },
            true,
          ),
          store.save({ entries: entries(4, 5, 1) }, false),
          // A new leader's entries replace 3..5 while the writes of 1..5 may still be in flight.
          store.save(
            { hardState: { term: 2, vote: 2, commit: 2 }, entries: entries(3, 4, 2) },
            true,
          ),
          store.save({ hardState: { term: 2, vote: 2, commit: 3 } }, false),
          store.save({ entries: entries(5, 5, 2) }, true),
        ].map((p, i) => p.then(() => void resolved.push(i + 1)));
        await Promise.all(given);
        expect(resolved).toEqual([1, 2, 3, 4, 5]);
        const expected = {
          hardState: { term: 2, vote: 2, commit: 3 },
          snapshot: null,
          entries: [
            "1/1/normal/cmd-1-1",
            "2/1/normal/cmd-2-1",
            "3/2/normal/cmd-3-2",
            "4/2/normal/cmd-4-2",
            "5/2/normal/cmd-5-2",
          ],
        };
        expect(describeState(await store.load())).toEqual(expected);
        store = await restart(store);
        expect(describeState(await store.load())).toEqual(expected);
      });

      it("keeps 1,000 entries written in one batch, in index order", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 5, vote: 1, commit: 1000 }, entries: entries(1, 1000, 5) },
          true,
        );
        store = await restart(store);
        const state = await store.load();
        expect(state.entries.map((e) => e.index)).toEqual(
          Array.from({ length: 1000 }, (_, i) => i + 1),
        );
        expect(decoder.decode(state.entries[999].data)).toBe("cmd-1000-5");
        expect(state.hardState.commit).toBe(1000);
      });

      it("replaces a conflicting tail with the entries of a later term in one batch, and the removed entries never return", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 2 }, entries: entries(1, 6, 1) },
          true,
        );
        await store.save(
          { hardState: { term: 2, vote: 0, commit: 2 }, entries: entries(3, 4, 2) },
          true,
        );
        const expected = [
          "1/1/normal/cmd-1-1",
          "2/1/normal/cmd-2-1",
          "3/2/normal/cmd-3-2",
          "4/2/normal/cmd-4-2",
        ];
        expect(summary((await store.load()).entries)).toEqual(expected);
        store = await restart(store);
        const state = await store.load();
        expect(summary(state.entries)).toEqual(expected);
        expect(state.hardState).toEqual({ term: 2, vote: 0, commit: 2 });
        await store.save({ entries: [entry(5, 2)] }, true);
        store = await restart(store);
        expect(summary((await store.load()).entries).slice(-2)).toEqual([
          "4/2/normal/cmd-4-2",
          "5/2/normal/cmd-5-2",
        ]);
      });

      it("overwrites entries inside the log with the same indexes and keeps the ones before them", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 1 }, entries: entries(1, 3, 1) },
          true,
        );
        await store.save(
          {
            hardState: { term: 2, vote: 1, commit: 1 },
            entries: [entry(2, 2), entry(3, 2), entry(4, 2)],
          },
          true,
        );
        store = await restart(store);
        expect(summary((await store.load()).entries)).toEqual([
          "1/1/normal/cmd-1-1",
          "2/2/normal/cmd-2-2",
          "3/2/normal/cmd-3-2",
          "4/2/normal/cmd-4-2",
        ]);
      });

      it("refuses a batch that would leave a gap, is not contiguous, starts inside a snapshot or has a bad term, and changes nothing", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 3 }, entries: entries(1, 3, 1) },
          true,
        );
        const before = describeState(await store.load());
        await expect(store.save({ entries: [entry(5, 1)] }, true)).rejects.toThrow(/ends at 3/);
        await expect(store.save({ entries: [entry(4, 1), entry(6, 1)] }, true)).rejects.toThrow(
          /not contiguous/,
        );
        await expect(store.save({ entries: [entry(4, -1)] }, true)).rejects.toThrow(
          /term of entry 4 must be a non-negative integer/,
        );
        await expect(
          store.save({ entries: [entry(4, 1)], hardState: { term: 1, vote: 1, commit: 5 } }, true),
        ).rejects.toThrow(/commit index 5/);
        await store.compact!(snapshot(2, 1), 2);
        await expect(store.save({ entries: [entry(2, 1)] }, true)).rejects.toThrow(
          /compacted up to 2/,
        );
        const after = describeState(await store.load());
        expect(after).toEqual({
          ...before,
          snapshot: { meta: snapshot(2, 1).meta, body: "state@2" },
          entries: ["3/1/normal/cmd-3-1"],
        });
        store = await restart(store);
        expect(describeState(await store.load())).toEqual(after);
        // Still usable after the refusals.
        await store.save(
          { entries: [entry(4, 1)], hardState: { term: 1, vote: 1, commit: 4 } },
          true,
        );
        expect((await store.load()).entries.map((e) => e.index)).toEqual([3, 4]);
      });
    });

    describe("hard state", () => {
      it("keeps the newest hard state, written alone or with entries, across a restart", async () => {
        let store = await open();
        await store.save({ hardState: { term: 1, vote: 2, commit: 0 } }, true);
        store = await restart(store);
        expect((await store.load()).hardState).toEqual({ term: 1, vote: 2, commit: 0 });
        await store.save(
          { hardState: { term: 2, vote: 0, commit: 0 }, entries: [entry(1, 2)] },
          true,
        );
        await store.save({ hardState: { term: 4, vote: 3, commit: 1 } }, true);
        store = await restart(store);
        const state = await store.load();
        expect(state.hardState).toEqual({ term: 4, vote: 3, commit: 1 });
        expect(state.entries.map((e) => e.index)).toEqual([1]);
      });

      it("refuses a hard state with a negative or fractional field and a commit past the last entry, and keeps the old one", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 1 }, entries: [entry(1, 1)] },
          true,
        );
        await expect(
          store.save({ hardState: { term: -1, vote: 1, commit: 1 } }, true),
        ).rejects.toThrow(/term must be a non-negative integer/);
        await expect(
          store.save({ hardState: { term: 1, vote: 0.5, commit: 1 } }, true),
        ).rejects.toThrow(/vote must be a non-negative integer/);
        await expect(
          store.save({ hardState: { term: 1, vote: 1, commit: 2 } }, true),
        ).rejects.toThrow(/commit index 2 would be past the last entry 1/);
        store = await restart(store);
        expect((await store.load()).hardState).toEqual({ term: 1, vote: 1, commit: 1 });
      });

      it("a commit index written without sync is seen by load, kept by a restart and carried by the next write or compaction", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 0 }, entries: entries(1, 4, 1) },
          true,
        );
        await store.save({ hardState: { term: 1, vote: 1, commit: 2 } }, false);
        expect((await store.load()).hardState).toEqual({ term: 1, vote: 1, commit: 2 });
        store = await restart(store);
        expect((await store.load()).hardState).toEqual({ term: 1, vote: 1, commit: 2 });

        // Carried by a write with entries and no hard state of its own.
        await store.save({ hardState: { term: 1, vote: 1, commit: 3 } }, false);
        await store.save({ entries: [entry(5, 1)] }, true);
        // A newer hard state in a later write wins over an older unsynced one.
        await store.save({ hardState: { term: 1, vote: 1, commit: 4 } }, false);
        await store.save(
          { hardState: { term: 2, vote: 3, commit: 4 }, entries: [entry(6, 2)] },
          true,
        );
        await store.save({ hardState: { term: 2, vote: 3, commit: 5 } }, false);
        await store.compact!(snapshot(5, 1), 5);
        store = await restart(store);
        const state = await store.load();
        expect(state.hardState).toEqual({ term: 2, vote: 3, commit: 5 });
        expect(state.entries.map((e) => [e.index, e.term])).toEqual([[6, 2]]);
      });
    });

    describe("installing a snapshot from the leader", () => {
      it("a snapshot past the end of the log replaces the whole log, and entries after it in the same batch are kept", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 2 }, entries: entries(1, 6, 1) },
          true,
        );
        await store.save(
          {
            snapshot: snapshot(20, 4),
            hardState: { term: 4, vote: 0, commit: 20 },
            entries: [entry(21, 4)],
          },
          true,
        );
        const expected = {
          hardState: { term: 4, vote: 0, commit: 20 },
          snapshot: { meta: snapshot(20, 4).meta, body: "state@20" },
          entries: ["21/4/normal/cmd-21-4"],
        };
        expect(describeState(await store.load())).toEqual(expected);
        store = await restart(store);
        expect(describeState(await store.load())).toEqual(expected);
        await store.save({ entries: [entry(22, 4)] }, true);
        expect((await store.load()).entries.map((e) => e.index)).toEqual([21, 22]);
      });

      it("a snapshot inside the log whose term matches the stored entry keeps the entries after it", async () => {
        let store = await open();
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
        store = await restart(store);
        const state = await store.load();
        expect(state.snapshot?.meta).toEqual({ index: 7, term: 2, membership: MEMBERS });
        expect(decoder.decode(state.snapshot?.data)).toBe("state@7");
        expect(state.entries.map((e) => e.index)).toEqual([8, 9, 10]);
        expect(state.hardState.commit).toBe(7);
      });

      it("a snapshot inside the log whose term differs from the stored entry replaces the whole log", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 2 }, entries: entries(1, 6, 1) },
          true,
        );
        await store.save(
          { snapshot: snapshot(4, 3), hardState: { term: 3, vote: 0, commit: 4 } },
          true,
        );
        store = await restart(store);
        const state = await store.load();
        expect(state.snapshot?.meta.index).toBe(4);
        expect(state.entries).toEqual([]);
        // The log goes on from the snapshot, with none of the replaced entries 5..6.
        await store.save({ entries: entries(5, 6, 3) }, true);
        store = await restart(store);
        expect(summary((await store.load()).entries)).toEqual([
          "5/3/normal/cmd-5-3",
          "6/3/normal/cmd-6-3",
        ]);
      });

      it("a snapshot at the stored snapshot's index and term keeps the entries after it", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 4 }, entries: entries(1, 6, 1) },
          true,
        );
        await store.compact!(snapshot(4, 1), 4);
        await store.save({ snapshot: snapshot(4, 1, "state@4 from the leader") }, true);
        store = await restart(store);
        const state = await store.load();
        expect(decoder.decode(state.snapshot?.data)).toBe("state@4 from the leader");
        expect(state.entries.map((e) => e.index)).toEqual([5, 6]);
      });

      it("refuses a snapshot older than the stored one and changes nothing", async () => {
        let store = await open();
        await store.save(
          {
            hardState: { term: 2, vote: 1, commit: 10 },
            snapshot: snapshot(10, 2),
            entries: entries(11, 12, 2),
          },
          true,
        );
        const before = describeState(await store.load());
        await expect(store.save({ snapshot: snapshot(8, 2) }, true)).rejects.toThrow(
          /snapshot at index 8 is older than the stored one at 10/,
        );
        expect(describeState(await store.load())).toEqual(before);
        store = await restart(store);
        expect(describeState(await store.load())).toEqual(before);
      });
    });

    describe("compacting after a local snapshot", () => {
      it("records the snapshot and drops entries up to upTo, keeping the ones after it", async () => {
        let store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 8 }, entries: entries(1, 10, 1) },
          true,
        );
        await store.compact!(snapshot(8, 1), 5);
        store = await restart(store);
        let state = await store.load();
        expect(state.snapshot?.meta.index).toBe(8);
        expect(decoder.decode(state.snapshot?.data)).toBe("state@8");
        expect(state.entries.map((e) => e.index)).toEqual([9, 10]);

        // Entries 6..8 were kept for followers; a later compaction drops them.
        await store.compact!(snapshot(10, 1, "state@10"), 10);
        store = await restart(store);
        state = await store.load();
        expect(state.entries).toEqual([]);
        expect(decoder.decode(state.snapshot?.data)).toBe("state@10");
        await store.save(
          { entries: [entry(11, 2)], hardState: { term: 2, vote: 1, commit: 11 } },
          true,
        );
        expect((await store.load()).entries.map((e) => e.index)).toEqual([11]);
      });

      it("refuses an older snapshot, one past the last entry or of another term, and dropping past the snapshot, changing nothing", async () => {
        let store = await open();
        await store.save(
          {
            hardState: { term: 2, vote: 1, commit: 6 },
            entries: [...entries(1, 3, 1), ...entries(4, 8, 2)],
          },
          true,
        );
        await store.compact!(snapshot(5, 2), 5);
        const before = describeState(await store.load());
        await expect(store.compact!(snapshot(4, 2), 4)).rejects.toThrow(
          /older than the stored one/,
        );
        await expect(store.compact!(snapshot(9, 2), 9)).rejects.toThrow(
          /local snapshot at index 9 is past the last entry 8/,
        );
        await expect(store.compact!(snapshot(7, 1), 7)).rejects.toThrow(
          /local snapshot at index 7 has term 1 but the stored entry has term 2/,
        );
        await expect(store.compact!(snapshot(6, 2), 7)).rejects.toThrow(
          /cannot drop entries up to 7, past the snapshot index 6/,
        );
        expect(describeState(await store.load())).toEqual(before);
        store = await restart(store);
        expect(describeState(await store.load())).toEqual(before);
      });
    });

    describe("restarting", () => {
      /** A history of writes, and what a store must hold after it. */
      interface Case {
        readonly state: string;
        write(store: RaftStorage): Promise<void>;
        readonly expected: { hardState: HardState; snapshot: string | null; entries: string[] };
      }
      const hs = (term: number, vote: number, commit: number): HardState => ({
        term,
        vote,
        commit,
      });
      const cases: Case[] = [
        {
          state: "nothing written",
          write: async () => undefined,
          expected: { hardState: ZERO, snapshot: null, entries: [] },
        },
        {
          state: "a vote and no entries",
          write: (s) => s.save({ hardState: hs(3, 2, 0) }, true),
          expected: { hardState: hs(3, 2, 0), snapshot: null, entries: [] },
        },
        {
          state: "entries and a commit index",
          write: (s) => s.save({ hardState: hs(1, 1, 2), entries: entries(1, 3, 1) }, true),
          expected: { hardState: hs(1, 1, 2), snapshot: null, entries: ["1/1", "2/1", "3/1"] },
        },
        {
          state: "a tail replaced by a later term",
          write: async (s) => {
            await s.save({ hardState: hs(1, 1, 1), entries: entries(1, 4, 1) }, true);
            await s.save({ hardState: hs(2, 2, 1), entries: entries(2, 2, 2) }, true);
          },
          expected: { hardState: hs(2, 2, 1), snapshot: null, entries: ["1/1", "2/2"] },
        },
        {
          state: "a snapshot installed past the end of the log",
          write: async (s) => {
            await s.save({ hardState: hs(1, 1, 1), entries: entries(1, 2, 1) }, true);
            await s.save({ hardState: hs(3, 0, 9), snapshot: snapshot(9, 3) }, true);
          },
          expected: { hardState: hs(3, 0, 9), snapshot: "9/3", entries: [] },
        },
        {
          state: "a snapshot installed inside the log, with the entries after it kept",
          write: async (s) => {
            await s.save({ hardState: hs(2, 1, 3), entries: entries(1, 6, 2) }, true);
            await s.save({ hardState: hs(2, 1, 4), snapshot: snapshot(4, 2) }, true);
          },
          expected: { hardState: hs(2, 1, 4), snapshot: "4/2", entries: ["5/2", "6/2"] },
        },
        {
          state: "a local snapshot with entries before it kept for followers",
          write: async (s) => {
            await s.save({ hardState: hs(1, 1, 6), entries: entries(1, 8, 1) }, true);
            await s.compact!(snapshot(6, 1), 3);
          },
          expected: { hardState: hs(1, 1, 6), snapshot: "6/1", entries: ["7/1", "8/1"] },
        },
        {
          state: "a local snapshot that took the whole log, then new entries",
          write: async (s) => {
            await s.save({ hardState: hs(1, 1, 4), entries: entries(1, 4, 1) }, true);
            await s.compact!(snapshot(4, 1), 4);
            await s.save({ hardState: hs(2, 2, 4), entries: entries(5, 6, 2) }, true);
          },
          expected: { hardState: hs(2, 2, 4), snapshot: "4/1", entries: ["5/2", "6/2"] },
        },
        {
          state: "a commit index written without sync",
          write: async (s) => {
            await s.save({ hardState: hs(1, 1, 0), entries: entries(1, 3, 1) }, true);
            await s.save({ hardState: hs(1, 1, 3) }, false);
          },
          expected: { hardState: hs(1, 1, 3), snapshot: null, entries: ["1/1", "2/1", "3/1"] },
        },
      ];

      for (const c of cases) {
        it(`a store holding ${c.state} loads the same after a restart and goes on from its last entry`, async () => {
          let store = await open();
          await c.write(store);
          const shape = (state: DurableState): Case["expected"] => ({
            hardState: state.hardState,
            snapshot:
              state.snapshot === null
                ? null
                : `${state.snapshot.meta.index}/${state.snapshot.meta.term}`,
            entries: state.entries.map((e) => `${e.index}/${e.term}`),
          });
          const live = await store.load();
          expect(shape(live)).toEqual(c.expected);
          store = await restart(store);
          const reloaded = await store.load();
          expect(describeState(reloaded)).toEqual(describeState(live));

          const last = live.entries.at(-1)?.index ?? live.snapshot?.meta.index ?? 0;
          const term = Math.max(live.hardState.term, 1);
          await store.save(
            {
              entries: [entry(last + 1, term)],
              hardState: { ...live.hardState, term, commit: last + 1 },
            },
            true,
          );
          store = await restart(store);
          const next = await store.load();
          expect(next.entries.map((e) => `${e.index}/${e.term}`)).toEqual([
            ...c.expected.entries,
            `${last + 1}/${term}`,
          ]);
          expect(next.hardState.commit).toBe(last + 1);
        });
      }

      it("keeps the addresses of added members and the ids of removed ones in a snapshot, taken locally or installed", async () => {
        // Node 4 joined with `member add` (so only the membership knows its address) and node 1 was removed.
        const membership: Membership = {
          voters: [2, 3, 4],
          learners: [5],
          addresses: {
            "4": { peer: "10.0.0.4:7001", client: "10.0.0.4:7000" },
            "5": { peer: "10.0.0.5:7001", client: "10.0.0.5:7000" },
          },
          retired: [1],
        };
        let store = await open();
        await store.save(
          { hardState: { term: 2, vote: 2, commit: 6 }, entries: entries(1, 8, 2) },
          true,
        );
        await store.compact!(snapshot(6, 2, "state@6", membership), 6);
        store = await restart(store);
        expect((await store.load()).snapshot?.meta).toEqual({ index: 6, term: 2, membership });
        await store.save(
          {
            snapshot: snapshot(20, 3, "state@20", membership),
            hardState: { term: 3, vote: 0, commit: 20 },
          },
          true,
        );
        store = await restart(store);
        expect((await store.load()).snapshot?.meta).toEqual({ index: 20, term: 3, membership });
      });

      it("a closed store refuses loads and writes", async () => {
        const store = await open();
        await store.save({ entries: [entry(1, 1)] }, true);
        await store.close();
        await expect(store.load()).rejects.toThrow(StorageError);
        await expect(store.save({ entries: [entry(2, 1)] }, true)).rejects.toThrow(/closed/);
        await expect(store.compact!(snapshot(1, 1), 1)).rejects.toThrow(/closed/);
        const again = await open();
        expect((await again.load()).entries.map((e) => e.index)).toEqual([1]);
      });
    });

    describe("start-up checks", () => {
      const damaged = (): StoredRecords => medium.records;

      it("detects a gap in the log", async () => {
        const store = await open();
        await store.save({ entries: entries(1, 5, 1) }, true);
        await store.close();
        await damaged().removeEntry(3);
        await expectRefusedAtStart(/gap in the log: entry 4 follows entry 2/);
      });

      it("detects a log that does not start at 1 when there is no snapshot", async () => {
        const store = await open();
        await store.save({ entries: entries(1, 3, 1) }, true);
        await store.close();
        await damaged().removeEntry(1);
        await expectRefusedAtStart(/starts at entry 2 but there is no snapshot/);
      });

      it("detects a log that does not start right after the snapshot", async () => {
        const store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 3 }, entries: entries(1, 6, 1) },
          true,
        );
        await store.compact!(snapshot(3, 1), 3);
        await store.close();
        await damaged().removeEntry(4);
        await expectRefusedAtStart(
          /starts at entry 5 but the snapshot ends at 3: entries 4..4 are missing/,
        );
      });

      it("detects a stored commit index past the last entry (a truncated log)", async () => {
        const store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 5 }, entries: entries(1, 5, 1) },
          true,
        );
        await store.close();
        await damaged().removeEntry(5);
        await damaged().removeEntry(4);
        await expectRefusedAtStart(/commit index 5 is past the last entry 3/);
      });

      it("detects a hard state rewritten with a commit past the end", async () => {
        const store = await open();
        await store.save(
          { hardState: { term: 1, vote: 1, commit: 1 }, entries: entries(1, 2, 1) },
          true,
        );
        await store.close();
        await damaged().putHardState({ term: 1, vote: 1, commit: 9 });
        await expectRefusedAtStart(/commit index 9 is past the last entry 2/);
      });

      it("detects an entry whose term is lower than the one before it", async () => {
        const store = await open();
        await store.save(
          { hardState: { term: 3, vote: 1, commit: 1 }, entries: entries(1, 3, 3) },
          true,
        );
        await store.close();
        await damaged().putEntry(entry(3, 2));
        await expectRefusedAtStart(/entry 3 has term 2, lower than term 3 of entry 2/);
      });

      it("detects a kept entry at the snapshot index whose term is not the snapshot's", async () => {
        const store = await open();
        await store.save(
          { hardState: { term: 2, vote: 1, commit: 4 }, entries: entries(1, 6, 2) },
          true,
        );
        await store.compact!(snapshot(4, 2), 2);
        await store.close();
        await damaged().putEntry(entry(4, 3));
        await expectRefusedAtStart(/entry 4 has term 3 but the snapshot at that index has term 2/);
      });
    });

    describe.runIf(factory.snapshotFiles)(
      "a write torn by a crash, for stores that keep snapshot bodies as files",
      () => {
        const files = (): SnapshotFiles => medium.files!;

        it("a snapshot body written without its record (a crash before the batch) is removed at start-up, and the older snapshot stays", async () => {
          let store = await open();
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 4 }, entries: entries(1, 6, 1) },
            true,
          );
          await store.compact!(snapshot(3, 1), 3);
          const current = await files().list();
          expect(current).toHaveLength(1);
          await store.close();
          // The crash came after the new body (and a temporary of another) reached the directory, before the batch.
          await files().write(
            "snapshot-0000000000000005-1-0badc0de.bin",
            encoder.encode("state@5"),
          );
          await files().write(
            "snapshot-0000000000000006-1-0badc0de.bin.tmp",
            encoder.encode("stat"),
          );
          store = await open();
          const state = await store.load();
          expect(state.snapshot?.meta.index).toBe(3);
          expect(decoder.decode(state.snapshot?.data)).toBe("state@3");
          expect(state.entries.map((e) => e.index)).toEqual([4, 5, 6]);
          expect(await files().list()).toEqual(current);
        });

        it("the bodies of older snapshots are removed once a newer one is recorded, and at start-up if one was left", async () => {
          let store = await open();
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 6 }, entries: entries(1, 6, 1) },
            true,
          );
          await store.compact!(snapshot(3, 1), 3);
          const [older] = await files().list();
          const olderBody = await files().read(older);
          await store.compact!(snapshot(6, 1), 6);
          const [newer] = await files().list();
          expect(await files().list()).toEqual([newer]);
          expect(newer).toMatch(/^snapshot-0000000000000006-1-[0-9a-f]{8}\.bin$/);
          await store.close();
          // A removal that did not happen (it is best effort) leaves the older body behind.
          await files().write(older, olderBody);
          store = await open();
          expect((await store.load()).snapshot?.meta.index).toBe(6);
          expect(await files().list()).toEqual([newer]);
        });

        it("a record whose body file is damaged, truncated or missing is refused at start-up", async () => {
          const store = await open();
          await store.save(
            { entries: entries(1, 4, 1), hardState: { term: 1, vote: 1, commit: 4 } },
            true,
          );
          await store.compact!(snapshot(3, 1, "the whole lock table"), 3);
          await store.close();
          const [file] = await files().list();
          const body = await files().read(file);
          body[2] ^= 0x01;
          await files().write(file, body);
          await expectRefusedAtStart(/checksum mismatch/);

          await files().write(file, body.subarray(0, 5));
          await expectRefusedAtStart(/has 5 bytes, its record says 20/);

          await files().remove(file);
          await expectRefusedAtStart(/is missing/);
        });
      },
    );

    describe.runIf(factory.crashes)(
      "a write torn by a crash, for stores that can crash between a write's issue and its durability",
      () => {
        it("a crash loses a write made without sync, whole, and keeps every synced one", async () => {
          let store = await open();
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 1 }, entries: entries(1, 3, 1) },
            true,
          );
          await store.save({ hardState: { term: 1, vote: 1, commit: 3 } }, false);
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 3 }, entries: entries(4, 5, 1) },
            false,
          );
          expect((await store.load()).entries.map((e) => e.index)).toEqual([1, 2, 3, 4, 5]);
          store = await crashAndReopen(store);
          expect(describeState(await store.load())).toEqual({
            hardState: { term: 1, vote: 1, commit: 1 },
            snapshot: null,
            entries: ["1/1/normal/cmd-1-1", "2/1/normal/cmd-2-1", "3/1/normal/cmd-3-1"],
          });
        });

        it("writes made without sync become durable with the next synced write", async () => {
          let store = await open();
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 0 }, entries: entries(1, 3, 1) },
            true,
          );
          await store.save({ hardState: { term: 1, vote: 1, commit: 2 } }, false);
          await store.save({ entries: [entry(4, 1)] }, true);
          store = await crashAndReopen(store);
          const state = await store.load();
          expect(state.hardState.commit).toBe(2);
          expect(state.entries.map((e) => e.index)).toEqual([1, 2, 3, 4]);
        });

        it("a compaction, and a snapshot install even when asked for no sync, are durable once they complete", async () => {
          let store = await open();
          await store.save(
            { hardState: { term: 1, vote: 1, commit: 2 }, entries: entries(1, 4, 1) },
            true,
          );
          await store.compact!(snapshot(2, 1), 2);
          store = await crashAndReopen(store);
          expect((await store.load()).snapshot?.meta.index).toBe(2);
          await store.save(
            { snapshot: snapshot(9, 2), hardState: { term: 2, vote: 0, commit: 9 } },
            false,
          );
          store = await crashAndReopen(store);
          const state = await store.load();
          expect(state.snapshot?.meta).toMatchObject({ index: 9, term: 2 });
          expect(state.hardState).toEqual({ term: 2, vote: 0, commit: 9 });
          expect(state.entries).toEqual([]);
        });

        it("a store that was open when its machine crashed refuses every later call", async () => {
          const store = await open();
          await store.save({ entries: [entry(1, 1)] }, true);
          const fresh = await crashAndReopen(store);
          await expect(store.save({ entries: [entry(2, 1)] }, true)).rejects.toThrow(StorageError);
          await expect(store.load()).rejects.toThrow(StorageError);
          expect((await fresh.load()).entries.map((e) => e.index)).toEqual([1]);
        });
      },
    );
  });
}

storageContract(memoryFactory);
storageContract(levelFactory);
storageContract(simFactory);

describe("SimStorage with writes of different latencies", () => {
  it("completes writes in the order they were issued, a short one right after the long one before it", async () => {
    const sched = new Scheduler();
    const delays = [5, 1, 3];
    const store = new SimStorage(new Disk(), sched, {
      writeDelay: () => delays.shift() ?? 1,
      alive: () => true,
      resumeAt: () => 0,
    });
    const done: Array<{ write: number; at: number }> = [];
    const writes = [1, 2, 3].map((n) =>
      store
        .save({ entries: [entry(n, 1)] }, true)
        .then(() => void done.push({ write: n, at: sched.now })),
    );
    for (let ev = sched.next(); ev; ev = sched.next()) {
      ev.fn();
      await Promise.resolve();
    }
    await Promise.all(writes);
    expect(done).toEqual([
      { write: 1, at: 5 },
      { write: 2, at: 5 },
      { write: 3, at: 5 },
    ]);
  });
});
