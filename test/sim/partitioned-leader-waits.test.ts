// A waiting Acquire held by a leader that is then cut off from its quorum: the new leader
// grants the lock to the waiting session from the log, and the call must reach the client
// while the partition lasts, or every other waiter waits behind a grant nobody knows of.
// Real Raft, driver, NodeHost, LockRequests and client library on the simulated cluster.
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../../node/util/rng.ts";
import { SimLockClient, type AcquireResult } from "./lock-workload.ts";
import { quietSim, runFor, settleWithin } from "./lock-scripted.ts";

describe("a waiting Acquire on a leader cut off from its quorum", () => {
  for (const seed of [21, 22, 23]) {
    it(`is granted by the new leader while the partition lasts (seed ${seed})`, async () => {
      const sim = await quietSim(seed);
      const holder = new SimLockClient(sim, 100, new SeededRandom(1), 3_000, 0);
      const waiter = new SimLockClient(sim, 101, new SeededRandom(2), 3_000, 0);
      expect((await settleWithin(sim, holder.open(), 3_000)).value).toBe(true);
      expect((await settleWithin(sim, waiter.open(), 3_000)).value).toBe(true);
      expect((await settleWithin(sim, holder.acquire("x", 0), 3_000)).value?.kind).toBe("granted");
      const old = sim.c.leader()!;
      // A wait far longer than the test: only a grant ends it.
      const waiting = waiter.acquire("x", 60_000);
      await runFor(sim, 200);
      expect(sim.hosts.get(old.id)!.host.state.getLock("x").waiters.length).toBe(1);
      // The clients still reach the old leader; it no longer reaches the other nodes.
      const others = sim.c.nodes.filter((n) => n.id !== old.id).map((n) => n.id);
      sim.c.partition([[old.id], others]);
      let next = sim.c.leader();
      for (let t = 0; t < 5_000 && (next === undefined || next.id === old.id); t += 5) {
        await runFor(sim, 5);
        next = sim.c.nodes.find((n) => n.id !== old.id && n.core?.role === "leader");
      }
      expect(next?.id).not.toBe(old.id);
      // The holder lets go through the new leader: the log grants x to the waiting session.
      const released = await settleWithin(
        sim,
        holder.release(
          "x",
          await Promise.resolve(sim.hosts.get(next!.id)!.host.state.getLock("x").holder!.token),
        ),
        10_000,
      );
      expect(released.value).toEqual({ kind: "ok" });
      const granted = await settleWithin<AcquireResult>(sim, waiting, 10_000);
      // Still partitioned: the answer came from the new leader's log.
      expect(sim.c.blocked.size).toBeGreaterThan(0);
      expect(granted.done).toBe(true);
      expect(granted.value?.kind).toBe("granted");
      expect(waiter.sessionLive()).toBe(true);
    });
  }

  it("is failed as retryable by the node once it stops leading, so the client re-sends it", async () => {
    const sim = await quietSim(24);
    const holder = new SimLockClient(sim, 100, new SeededRandom(1), 3_000, 0);
    expect((await settleWithin(sim, holder.open(), 3_000)).value).toBe(true);
    expect((await settleWithin(sim, holder.acquire("x", 0), 3_000)).value?.kind).toBe("granted");
    const opened = (
      await settleWithin(
        sim,
        sim.call(
          101,
          sim.c.leader()!.id,
          "OpenSession",
          { ttlMs: 60_000, clientName: "w", requestId: "w1" },
          2_000,
        ),
        3_000,
      )
    ).value;
    expect(opened).toMatchObject({ answer: { ttlMs: 60_000 } });
    const sessionId =
      opened !== null && opened !== undefined && "answer" in opened ? opened.answer.sessionId : 0n;
    const old = sim.c.leader()!;
    const reply = sim.call(
      101,
      old.id,
      "Acquire",
      { sessionId, lock: "x", waitMs: 60_000, seq: 1, ackedUpTo: 0, held: [] },
      60_000,
    );
    await runFor(sim, 200);
    expect(sim.hosts.get(old.id)!.host.state.getLock("x").waiters.length).toBe(1);
    sim.c.partition([[old.id], sim.c.nodes.filter((n) => n.id !== old.id).map((n) => n.id)]);
    const answer = await settleWithin(sim, reply, 10_000);
    expect(answer.done).toBe(true);
    expect(answer.value).toMatchObject({ failure: { reason: "ERROR_REASON_WAIT_DETACHED" } });
    expect(old.core?.role).not.toBe("leader");
  });
});
