// The leader's write path through the driver, with a store whose writes complete only when
// the test says so: what may go out, and what may apply, while the leader's own write of a
// batch is still in flight.
import { afterEach, describe, expect, it } from "vitest";
import { RaftCore } from "../../../node/raft/core.ts";
import type { AppendRequest, Entry, Message, NodeId } from "../../../node/raft/types.ts";
import { Driver, type Applier } from "../../../node/host/driver.ts";
import type { DurableState, RaftStorage, SaveBatch } from "../../../node/storage/log-store.ts";
import type { Transport } from "../../../node/transport/transport.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

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
async function leader() {
  const core = new RaftCore(
    {
      id: 1,
      electionTicks: 10,
      heartbeatTicks: 2,
      maxInflightMsgs: 8,
      maxBytesPerAppend: 1 << 20,
      preVote: false,
      checkQuorum: false,
      random: new SeededRandom(5),
    },
    {
      hardState: { term: 1, vote: 0, commit: 0 },
      membership: { voters: [1, 2, 3], learners: [] },
      snapshotIndex: 0,
      snapshotTerm: 0,
      entries: [],
    },
  );
  const storage = new GatedStorage();
  const transport = new RecordingTransport();
  const applier = new TextApplier();
  const driver = new Driver<string>(core, storage, transport, applier);
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
  it("sends the appends of a proposal made while its own write of the previous batch is in flight", async () => {
    const { storage, transport, driver } = await leader();
    void propose(driver, "a");
    await settle();
    expect(storage.pending).toBe(1); // the leader's write of "a" is in flight
    expect(carried(appendsTo(transport, 2))).toEqual(["a"]);

    void propose(driver, "b");
    await settle();
    // "b" reached the followers before the write of "a" completed.
    expect(storage.pending).toBe(1);
    expect(carried(appendsTo(transport, 2))).toEqual(["a", "b"]);
    expect(carried(appendsTo(transport, 3))).toEqual(["a", "b"]);
  });

  it("answers a proposal the followers made durable before the leader's own write of it completed", async () => {
    const { core, storage, applier, driver } = await leader();
    const first = propose(driver, "a");
    await settle();
    void propose(driver, "b");
    await settle();
    const b = core.log.lastIndex();
    // Both followers acknowledge "a" and "b"; the leader's write of "a" is still in flight.
    for (const from of [2, 3]) ack(driver, from, b);
    await settle();
    expect(applier.applied).toEqual([]);
    await storage.complete(); // "a" is durable here; the acknowledgements are stepped
    expect(core.log.committed).toBe(b);
    expect(await first).toMatchObject({ result: "a" });
    // "b" is committed by the followers and applied while the leader still writes it.
    expect(storage.pending).toBe(1);
    expect(storage.saves.at(-1)?.entries?.map((e) => e.index)).toEqual([b]);
    expect(applier.applied).toEqual(["a", "b"]);
  });

  it("does not count its own unfinished write toward commit", async () => {
    const { core, storage, applier, driver } = await leader();
    void propose(driver, "a");
    await settle();
    const a = core.log.lastIndex();
    ack(driver, 2, a); // one follower: with the leader's write unfinished, no quorum
    await settle();
    expect(core.log.committed).toBe(a - 1);
    expect(applier.applied).toEqual([]);
    await storage.complete();
    expect(core.log.committed).toBe(a);
    expect(applier.applied).toEqual(["a"]);
  });
});
