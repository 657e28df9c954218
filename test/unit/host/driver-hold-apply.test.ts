import { describe, expect, it } from "vitest";
import { RaftCore } from "../../../node/raft/core.ts";
import type { Entry, Snapshot } from "../../../node/raft/types.ts";
import { Driver } from "../../../node/host/driver.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../../node/storage/log-store.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

/** Durable at once, in memory: enough for a one-node cluster. */
class InstantStorage implements RaftStorage {
  async load(): Promise<DurableState> {
    return { hardState: { term: 0, vote: 0, commit: 0 }, snapshot: null, entries: [] };
  }
  async save(_batch: SaveBatch): Promise<void> {}
  async compact(_snapshot: Snapshot, _upTo: number): Promise<void> {}
  async close(): Promise<void> {}
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function oneNodeLeader(applied: Entry[]): Promise<Driver<number>> {
  const core = new RaftCore(
    {
      id: 1,
      electionTicks: 10,
      heartbeatTicks: 1,
      maxInflightMsgs: 16,
      maxBytesPerAppend: 1 << 20,
      preVote: true,
      checkQuorum: true,
      random: new SeededRandom(1),
    },
    {
      hardState: { term: 0, vote: 0, commit: 0 },
      membership: { voters: [1], learners: [] },
      snapshotIndex: 0,
      snapshotTerm: 0,
      entries: [],
    },
  );
  const driver = new Driver<number>(
    core,
    new InstantStorage(),
    { send: () => undefined, onMessage: () => undefined, close: async () => {} },
    {
      apply: (entry) => {
        applied.push(entry);
        return entry.index;
      },
      restore: () => undefined,
    },
  );
  for (let i = 0; i < 30 && core.role !== "leader"; i++) {
    driver.tick();
    await flush();
  }
  expect(core.role).toBe("leader");
  return driver;
}

describe("Driver.holdApply", () => {
  it("holds applying while committing goes on, then applies every held entry in order", async () => {
    const applied: Entry[] = [];
    const driver = await oneNodeLeader(applied);
    await flush();
    const before = applied.length;
    const release = driver.holdApply();
    const results = driver.propose([new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])]);
    let settled = 0;
    for (const r of results) void r.then(() => settled++);
    for (let i = 0; i < 5; i++) await flush();
    // Committed (a one-node cluster commits at once) but not applied.
    expect(driver.core.log.committed).toBe(before + 3);
    expect(applied.length).toBe(before);
    expect(driver.applyBacklog).toBe(3);
    expect(settled).toBe(0);
    const read = driver.readIndex();
    release();
    expect((await Promise.all(results)).map((r) => r.index)).toEqual([
      before + 1,
      before + 2,
      before + 3,
    ]);
    expect(applied.map((e) => e.index)).toEqual(
      Array.from({ length: before + 3 }, (_, i) => i + 1),
    );
    expect(await read).toBeLessThanOrEqual(driver.applied);
    expect(driver.applyBacklog).toBe(0);
  });
});
