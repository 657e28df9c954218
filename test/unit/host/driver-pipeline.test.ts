// The write path through the driver, with a store whose writes complete only when the test
// says so, oldest first: several batches' writes in flight, and what may go out, and what
// may apply, while they are.
import { afterEach, describe, expect, it } from "vitest";
import type { AppendRequest, Entry, Message, NodeId } from "../../../node/raft/types.ts";
import { Driver, type Applier, type DriverOptions } from "../../../node/host/driver.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../../node/storage/log-store.ts";
import type { Transport } from "../../../node/transport/transport.ts";
import { appendTo2, testCore, textEntry } from "../raft/test-core.ts";

const drivers: Driver<string>[] = [];
afterEach(() => {
  for (const d of drivers.splice(0)) d.stop();
});

/** Each write waits until `complete()` releases it (oldest first). */
class GatedStorage implements RaftStorage {
  readonly saves: SaveBatch[] = [];
  private gates: Array<() => void> = [];
  async load(): Promise<DurableState> {
    return { hardState: { term: 0, vote: 0, commit: 0 }, snapshot: null, entries: [] };
  }
  save(batch: SaveBatch): Promise<void> {
    this.saves.push(batch);
    return new Promise((resolve) => this.gates.push(resolve));
  }
  get pending(): number {
    return this.gates.length;
  }
  async complete(): Promise<void> {
    this.gates.shift()?.();
    await settle();
  }
  async close(): Promise<void> {}
}

class RecordingTransport implements Transport {
  readonly sent: Message[] = [];
  send(messages: readonly Message[]): void {
    this.sent.push(...messages);
  }
  onMessage(): void {}
  async close(): Promise<void> {}
}

class TextApplier implements Applier<string> {
  readonly applied: string[] = [];
  apply(entry: Entry): string {
    const text = new TextDecoder().decode(entry.data);
    if (entry.kind === "normal" && text !== "") this.applied.push(text); // not the leader's no-op
    return text;
  }
  restore(): void {}
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const appendsTo = (transport: RecordingTransport, to: NodeId): AppendRequest[] =>
  transport.sent.filter((m): m is AppendRequest => m.type === "append" && m.to === to);
const carried = (appends: readonly AppendRequest[]): string[] =>
  appends.flatMap((a) =>
    a.entries.filter((e) => e.kind === "normal").map((e) => new TextDecoder().decode(e.data)),
  );

/** Node 1 of {1, 2, 3}, made leader of term 2 with both followers caught up to its no-op. */
async function leader(options: DriverOptions = {}) {
  const core = testCore({ id: 1, seed: 5 });
  const storage = new GatedStorage();
  const transport = new RecordingTransport();
  const applier = new TextApplier();
  const driver = new Driver<string>(core, storage, transport, applier, {}, options);
  drivers.push(driver);
  for (let i = 0; i < 30 && core.role !== "candidate"; i++) driver.tick();
  await settle();
  while (storage.pending > 0) await storage.complete();
  driver.receive({ type: "voteResp", from: 2, to: 1, term: 2, pre: false, granted: true });
  await settle();
  expect(core.role).toBe("leader");
  while (storage.pending > 0) await storage.complete();
  const noop = core.log.lastIndex();
  for (const from of [2, 3]) ack(driver, from, noop);
  await settle();
  while (storage.pending > 0) await storage.complete();
  expect(core.log.committed).toBe(noop);
  transport.sent.length = 0;
  return { core, storage, transport, applier, driver };
}

/** Proposes one text command; the test awaits the result or not (a stopped driver rejects it). */
function propose(driver: Driver<string>, s: string): Promise<{ index: number; result: string }> {
  const p = driver.propose([text(s)])[0]!;
  p.catch(() => undefined);
  return p;
}

function ack(driver: Driver<string>, from: NodeId, index: number): void {
  driver.receive({
    type: "appendResp",
    from,
    to: 1,
    term: 2,
    success: true,
    index,
    hintIndex: 0,
    hintTerm: 0,
  });
}

describe("the driver's write path on a leader", () => {
  it("writes a proposal's batch while its write of the previous batch is in flight, and sends the appends of both", async () => {
    const { storage, transport, driver } = await leader();
    void propose(driver, "a");
    await settle();
    expect(storage.pending).toBe(1); // the leader's write of "a" is in flight
    expect(carried(appendsTo(transport, 2))).toEqual(["a"]);

    void propose(driver, "b");
    await settle();
    // "b" is being written too, and reached the followers, before the write of "a" completed.
    expect(storage.pending).toBe(2);
    expect(storage.saves.slice(-2).map((b) => b.entries?.length)).toEqual([1, 1]);
    expect(carried(appendsTo(transport, 2))).toEqual(["a", "b"]);
    expect(carried(appendsTo(transport, 3))).toEqual(["a", "b"]);
  });

  it("with maxWrites 1 waits for each write before it writes the next, and still sends new appends", async () => {
    const { storage, transport, driver } = await leader({ maxWrites: 1 });
    void propose(driver, "a");
    await settle();
    void propose(driver, "b");
    await settle();
    expect(storage.pending).toBe(1);
    expect(carried(appendsTo(transport, 2))).toEqual(["a", "b"]);
    await storage.complete();
    expect(storage.pending).toBe(1); // now "b"
    expect(storage.saves.at(-1)?.entries?.map((e) => new TextDecoder().decode(e.data))).toEqual([
      "b",
    ]);
  });

  it("commits and applies what both followers made durable while its own writes are in flight", async () => {
    const { core, applier, driver } = await leader();
    const first = propose(driver, "a");
    await settle();
    const a = core.log.lastIndex();
    void propose(driver, "b");
    await settle();
    const b = core.log.lastIndex();
    // Both followers acknowledge "a" and "b": a quorum without the leader.
    for (const from of [2, 3]) ack(driver, from, b);
    await settle();
    expect(core.log.committed).toBe(b);
    expect(await first).toMatchObject({ result: "a" });
    expect(core.log.stableIndex).toBe(a - 1); // the leader's own writes of "a" and "b" are still in flight
    expect(applier.applied).toEqual(["a", "b"]);
  });

  it("does not count its own unfinished writes toward commit, and counts each as it completes", async () => {
    const { core, storage, applier, driver } = await leader();
    void propose(driver, "a");
    await settle();
    const a = core.log.lastIndex();
    void propose(driver, "b");
    await settle();
    const b = core.log.lastIndex();
    ack(driver, 2, b); // one follower: with the leader's writes unfinished, no quorum
    await settle();
    expect(core.log.committed).toBe(a - 1);
    expect(applier.applied).toEqual([]);
    await storage.complete(); // "a" is durable here
    expect(core.log.committed).toBe(a);
    expect(applier.applied).toEqual(["a"]);
    await storage.complete(); // "b" too
    expect(core.log.committed).toBe(b);
    expect(applier.applied).toEqual(["a", "b"]);
  });
});

describe("the driver's write path on a follower", () => {
  it("acknowledges each append only once its write and every earlier one completed, in order", async () => {
    const f = await follower();
    f.driver.receive(appendFrom1(0, [entry(1), entry(2)], 0));
    await settle();
    f.driver.receive(appendFrom1(2, [entry(3)], 0));
    await settle();
    expect(f.storage.pending).toBe(2); // both writes in flight
    expect(acks(f.transport)).toEqual([]);
    await f.storage.complete();
    expect(acks(f.transport)).toEqual([2]);
    await f.storage.complete();
    expect(acks(f.transport)).toEqual([2, 3]);
  });

  it("a duplicate of entries still being written is acknowledged after their write", async () => {
    const f = await follower();
    f.driver.receive(appendFrom1(0, [entry(1), entry(2)], 0));
    await settle();
    f.driver.receive(appendFrom1(0, [entry(1), entry(2)], 0)); // resent: nothing new to write
    await settle();
    expect(acks(f.transport)).toEqual([]);
    await f.storage.complete();
    expect(acks(f.transport)).toEqual([2, 2]);
  });

  it("entries replaced by a new leader while their write was in flight are not counted durable by it", async () => {
    const f = await follower();
    f.driver.receive(appendFrom1(0, [entry(1), entry(2)], 0));
    await settle();
    // Leader 3 of term 3 replaces index 2 before the first write completes.
    f.driver.receive({ ...appendFrom1(1, [{ ...entry(2), term: 3 }], 0), from: 3, term: 3 });
    await settle();
    expect(f.storage.pending).toBe(2);
    await f.storage.complete();
    // The first write's last entry (index 2 of term 2) is gone: that write marks nothing.
    expect(f.core.log.stableIndex).toBe(0);
    await f.storage.complete();
    expect(f.core.log.stableIndex).toBe(2);
    expect(f.transport.sent.filter((m) => m.type === "appendResp").map((m) => m.to)).toEqual([
      1, 3,
    ]);
  });
});

const entry = (index: number, term = 2): Entry => textEntry(index, term);
const appendFrom1 = (prevIndex: number, entries: Entry[], commit: number): AppendRequest =>
  appendTo2(prevIndex, entries, commit);

const acks = (transport: RecordingTransport): number[] =>
  transport.sent.flatMap((m) => (m.type === "appendResp" && m.success ? [m.index] : []));

/** Node 2 of {1, 2, 3}, a follower of term 2 with an empty log. */
async function follower() {
  const core = testCore({ id: 2, seed: 3, hardState: { term: 2, vote: 0, commit: 0 } });
  const storage = new GatedStorage();
  const transport = new RecordingTransport();
  const driver = new Driver<string>(core, storage, transport, new TextApplier());
  drivers.push(driver);
  return { core, storage, transport, driver };
}
