// The driver around one Raft core, with an in-memory store and transport: what it does
// with inputs the core cannot take, and with snapshots the state machine cannot load.
import { afterEach, describe, expect, it } from "vitest";
import type {
  Entry,
  InstallSnapshot,
  Message,
  NodeId,
  Snapshot,
} from "../../../node/raft/types.ts";
import { Driver, type Applier, type DriverHooks } from "../../../node/host/driver.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../../node/storage/log-store.ts";
import type { SnapshotStatus, Transport } from "../../../node/transport/transport.ts";
import { appendTo2, testCore, textEntry } from "../raft/test-core.ts";
import { eventually } from "../eventually.ts";

const membership = { voters: [1, 2, 3], learners: [] };
const drivers: Driver<string>[] = [];
afterEach(() => {
  for (const d of drivers.splice(0)) d.stop();
});

class MemoryStorage implements RaftStorage {
  readonly saves: SaveBatch[] = [];
  async load(): Promise<DurableState> {
    return { hardState: { term: 0, vote: 0, commit: 0 }, snapshot: null, entries: [] };
  }
  async save(batch: SaveBatch): Promise<void> {
    this.saves.push(batch);
  }
  async compact(): Promise<void> {}
  async close(): Promise<void> {}
}

class MemoryTransport implements Transport {
  readonly sent: Message[] = [];
  snapshotStatus: ((peer: NodeId, status: SnapshotStatus) => void) | null = null;
  send(messages: readonly Message[]): void {
    this.sent.push(...messages);
  }
  onMessage(): void {}
  onSnapshotStatus(handler: (peer: NodeId, status: SnapshotStatus) => void): void {
    this.snapshotStatus = handler;
  }
  async close(): Promise<void> {}
}

/** A state machine of text entries; a snapshot is valid only if its body starts with "ok". */
class TextApplier implements Applier<string> {
  applied: string[] = [];
  restored: Snapshot[] = [];
  apply(entry: Entry): string {
    const text = new TextDecoder().decode(entry.data);
    this.applied.push(text);
    return text;
  }
  validateSnapshot(snapshot: Snapshot): void {
    TextApplier.check(snapshot);
  }
  restore(snapshot: Snapshot): void {
    TextApplier.check(snapshot); // as a real state machine would, it cannot load a bad one either
    this.restored.push(snapshot);
  }
  private static check(snapshot: Snapshot): void {
    if (new TextDecoder().decode(snapshot.data.subarray(0, 2)) !== "ok")
      throw new Error("not a snapshot of this state machine");
  }
}

/** Node 2 of {1, 2, 3}, a follower with an empty log. */
function follower(hooks: DriverHooks = {}) {
  const core = testCore({ id: 2, seed: 3, preVote: true, checkQuorum: true, membership });
  const storage = new MemoryStorage();
  const transport = new MemoryTransport();
  const applier = new TextApplier();
  const fatal: unknown[] = [];
  const driver = new Driver<string>(core, storage, transport, applier, {
    onFatal: (e) => fatal.push(e),
    ...hooks,
  });
  drivers.push(driver);
  return { core, storage, transport, applier, fatal, driver };
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const entry = textEntry;
const append = appendTo2;

function installSnapshot(index: number, body: string): InstallSnapshot {
  return {
    type: "snapshot",
    from: 1,
    to: 2,
    term: 2,
    snapshot: { meta: { index, term: 2, membership }, data: text(body) },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("Driver", () => {
  it("drops a message the core throws on, counts and reports it, and goes on with the next", async () => {
    const dropped: Array<{ message: Message; error: unknown }> = [];
    const f = follower({ onStepError: (message, error) => dropped.push({ message, error }) });
    // Entries that do not follow each other (the codec refuses these; a bug could still produce one).
    const broken = append(0, [entry(1, 2), entry(7, 2)], 0);
    f.driver.receive(broken);
    await settle();
    f.driver.receive(append(0, [entry(1, 2), entry(2, 2)], 2));
    await eventually(() => expect(f.applier.applied).toEqual(["e1", "e2"]));
    // The acknowledgement leaves once the write of e1 and e2 completed.
    await eventually(() =>
      expect(f.transport.sent).toContainEqual(
        expect.objectContaining({ type: "appendResp", to: 1, success: true, index: 2 }),
      ),
    );
    expect(f.fatal).toEqual([]);
    expect(f.driver.isStopped).toBe(false);
    expect(f.driver.droppedMessages).toBe(1);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.message).toBe(broken);
    expect(String(dropped[0]!.error)).toMatch(/append at 7/);
  });

  it("checks a snapshot from the leader before storing it: one the state machine cannot load is dropped and reported, and the next good one installs", async () => {
    const rejected: Array<{ message: InstallSnapshot; error: unknown }> = [];
    const f = follower({
      onSnapshotRejected: (message, error) => rejected.push({ message, error }),
    });
    const bad = installSnapshot(10, "garbage from another version");
    f.driver.receive(bad);
    await settle();
    await settle();
    // Nothing of it reached the disk (a restart would crash on it) or the core.
    expect(f.storage.saves.filter((b) => b.snapshot)).toEqual([]);
    expect(f.core.log.offset).toBe(0);
    expect(f.core.log.committed).toBe(0);
    expect(f.applier.restored).toEqual([]);
    expect(f.fatal).toEqual([]);
    expect(f.driver.isStopped).toBe(false);
    expect(f.driver.rejectedSnapshots).toBe(1);
    expect(rejected.map((r) => r.message)).toEqual([bad]);
    expect(String(rejected[0]!.error)).toMatch(/not a snapshot of this state machine/);
    expect(f.transport.sent.filter((m) => m.type === "appendResp")).toEqual([]);

    const good = installSnapshot(10, "ok: state at 10");
    f.driver.receive(good);
    await eventually(() => expect(f.applier.restored).toEqual([good.snapshot]));
    expect(f.storage.saves.filter((b) => b.snapshot).map((b) => b.snapshot)).toEqual([
      good.snapshot,
    ]);
    expect(f.core.log.offset).toBe(10);
    expect(f.transport.sent).toContainEqual(
      expect.objectContaining({ type: "appendResp", to: 1, success: true, index: 10 }),
    );
    expect(f.driver.rejectedSnapshots).toBe(1);
  });

  it("passes the transport's snapshot reports to the core: progress keeps a long transfer going, a failure makes the leader probe at once", async () => {
    // Node 1 of {1, 2} with entries 1..10 committed: it becomes leader and compacts them.
    const core = testCore({
      id: 1,
      seed: 5,
      hardState: { term: 1, vote: 0, commit: 10 },
      membership: { voters: [1, 2], learners: [] },
      entries: Array.from({ length: 10 }, (_, i) => entry(i + 1, 1)),
    });
    const transport = new MemoryTransport();
    const driver = new Driver<string>(core, new MemoryStorage(), transport, new TextApplier());
    drivers.push(driver);
    for (let i = 0; i < 30 && !transport.sent.some((m) => m.type === "vote"); i++) {
      driver.tick();
      await settle();
    }
    driver.receive({ type: "voteResp", from: 2, to: 1, term: 2, pre: false, granted: true });
    await eventually(() => expect(driver.applied).toBe(10));
    await driver.compact({
      meta: { index: 10, term: 1, membership: { voters: [1, 2], learners: [] } },
      data: text("ok"),
    });
    driver.receive({
      type: "appendResp",
      from: 2,
      to: 1,
      term: 2,
      success: false,
      index: 10,
      hintIndex: 0,
      hintTerm: 0,
    });
    await eventually(() =>
      expect(transport.sent.filter((m) => m.type === "snapshot")).toHaveLength(1),
    );
    expect(transport.snapshotStatus).not.toBeNull();
    // Three election timeouts of a transfer that keeps moving: no resend, still sending.
    for (let i = 0; i < 30; i++) {
      driver.tick();
      transport.snapshotStatus!(2, "progress");
      await settle();
    }
    expect(core.progressOf(2)?.state).toBe("snapshot");
    expect(transport.sent.filter((m) => m.type === "snapshot")).toHaveLength(1);
    const before = transport.sent.length;
    transport.snapshotStatus!(2, "failure");
    await eventually(() =>
      expect(transport.sent.slice(before)).toContainEqual(
        expect.objectContaining({ type: "append", to: 2, prevIndex: 10 }),
      ),
    );
    expect(core.progressOf(2)?.state).toBe("probe");
  });

  it("wakes a soft-state wait when the reported state satisfies it, and ends cancelled or stopped waits with false", async () => {
    const { driver } = follower();
    const knowsLeader = driver.whenSoftState((soft) => soft.leader === 1 && soft.term === 2);
    const cancelled = driver.whenSoftState((soft) => soft.role === "leader");
    const stopped = driver.whenSoftState((soft) => soft.role === "leader");
    const already = driver.whenSoftState((soft) => soft.role === "follower");
    expect(await already.held).toBe(true);
    cancelled.cancel();
    expect(await cancelled.held).toBe(false);
    let woke = false;
    void knowsLeader.held.then(() => (woke = true));
    await settle();
    expect(woke).toBe(false);
    driver.receive(append(0, [], 0));
    expect(await knowsLeader.held).toBe(true);
    expect(driver.core.softState()).toMatchObject({ role: "follower", leader: 1, term: 2 });
    driver.stop();
    expect(await stopped.held).toBe(false);
    expect(await driver.whenSoftState(() => false).held).toBe(false);
  });
});
