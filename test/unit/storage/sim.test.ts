// What only the simulator's store does (its rules are MemoryStorage's, in the contract
// suite): write latency from the scheduler, completions held while the node's loop is
// stalled, and at a crash the loss of what was not synced.
import { describe, expect, it } from "vitest";
import type { Entry } from "../../../node/raft/types.ts";
import { Scheduler } from "../../sim/scheduler.ts";
import { Disk, SimStorage } from "../../sim/sim-storage.ts";

function entry(index: number, term: number): Entry {
  return { index, term, kind: "normal", data: new TextEncoder().encode(`cmd-${index}`) };
}

/** One simulated node's disk and the store of its current process. */
function node(delay = 5) {
  const sched = new Scheduler();
  const disk = new Disk();
  let instance = 0;
  let stalledUntil = 0;
  const events: string[] = [];
  const open = (): SimStorage => {
    const mine = ++instance;
    return new SimStorage(disk, sched, {
      writeDelay: () => delay,
      alive: () => instance === mine,
      resumeAt: () => stalledUntil,
      onIssued: () => events.push(`issued@${sched.now}`),
      onDurable: () => events.push(`durable@${sched.now}`),
    });
  };
  return {
    sched,
    disk,
    events,
    open,
    stall: (until: number) => {
      stalledUntil = until;
    },
    /** The machine crashes, as SimCluster.crash does: the process is gone and the disk loses what was not synced. */
    crash: () => {
      instance++;
      disk.crash();
    },
    /** Runs every scheduled event up to `time`. */
    runUntil: (time: number) => {
      for (let ev = sched.nextUntil(time); ev; ev = sched.nextUntil(time)) ev.fn();
      sched.now = Math.max(sched.now, time);
    },
  };
}

/** Whether `p` has settled, after letting pending continuations run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("SimStorage", () => {
  it("a write is durable after its latency, and the node learns it only once its event loop is no longer stalled", async () => {
    const n = node(5);
    const store = n.open();
    n.stall(20);
    const write = store.save(
      { hardState: { term: 1, vote: 1, commit: 0 }, entries: [entry(1, 1)] },
      true,
    );
    n.runUntil(4);
    expect(n.disk.lastIndex()).toBe(0);
    n.runUntil(5);
    expect(n.disk.lastIndex()).toBe(1);
    expect(n.disk.term(1)).toBe(1);
    expect(await settled(write)).toBe(false);
    n.runUntil(19);
    expect(await settled(write)).toBe(false);
    n.runUntil(20);
    expect(await settled(write)).toBe(true);
    expect(n.events).toEqual(["issued@0", "durable@5"]);
  });

  it("a write still in flight when its node crashes never happens", async () => {
    const n = node(5);
    const store = n.open();
    await (async () => {
      const first = store.save(
        { hardState: { term: 1, vote: 1, commit: 0 }, entries: [entry(1, 1)] },
        true,
      );
      n.runUntil(5);
      await first;
    })();
    const lost = store.save({ entries: [entry(2, 1)] }, true);
    n.runUntil(3);
    n.crash();
    n.runUntil(100);
    expect(await settled(lost)).toBe(false);
    expect(n.disk.lastIndex()).toBe(1);
    expect((await n.open().load()).entries.map((e) => e.index)).toEqual([1]);
  });

  it("a completed write made without sync is lost when its node crashes, and a synced one never is", async () => {
    const n = node(1);
    const store = n.open();
    const writes = [
      store.save(
        { hardState: { term: 2, vote: 1, commit: 0 }, entries: [entry(1, 2), entry(2, 2)] },
        true,
      ),
      store.save({ hardState: { term: 2, vote: 1, commit: 2 } }, false),
    ];
    n.runUntil(10);
    await Promise.all(writes);
    // The running process reads its own unsynced write; the disk has not made it durable.
    expect((await store.load()).hardState.commit).toBe(2);
    expect(n.disk.hardState).toEqual({ term: 2, vote: 1, commit: 0 });
    n.crash();
    const after = await n.open().load();
    expect(after.hardState).toEqual({ term: 2, vote: 1, commit: 0 });
    expect(after.entries.map((e) => e.index)).toEqual([1, 2]);
  });

  it("a durable term that goes back is refused, and the node stops on it", async () => {
    const n = node(1);
    const store = n.open();
    const first = store.save({ hardState: { term: 3, vote: 1, commit: 0 } }, true);
    n.runUntil(10);
    await first;
    const back = store.save({ hardState: { term: 2, vote: 1, commit: 0 } }, true);
    n.runUntil(20);
    await expect(back).rejects.toThrow(/durable term went back from 3 to 2/);
    expect(n.disk.hardState.term).toBe(3);
  });
});
