// Keepalives on a leader that has not yet applied its own term's first entry: the applied
// state may still hold a session an earlier leader ended, or lack one it opened (apply is
// held, as while a snapshot is encoded). Real Raft, driver, NodeHost and LockRequests on
// the simulated cluster.
import { describe, expect, it, vi } from "vitest";
import { LockStateMachine } from "../../node/lock/state-machine.ts";
import { SeededRandom } from "../../node/util/rng.ts";
import type { NodeId } from "../../node/raft/types.ts";
import { LockSim } from "./lock-sim.ts";
import { SimLockClient } from "./lock-workload.ts";
import { quietSim, runFor, until } from "./lock-scripted.ts";

/** Moves leadership to `to` (a follower whose applying is held) and runs until it leads. */
async function transferTo(sim: LockSim, to: NodeId): Promise<void> {
  const leader = sim.c.leader()!;
  sim.hosts.get(leader.id)!.host.driver.transferLeadership(to);
  const end = sim.c.sched.now + 3_000;
  while (sim.c.leader()?.id !== to && sim.c.sched.now < end) await runFor(sim, 5);
  expect(sim.c.leader()?.id).toBe(to);
  // Its no-op is committed, not applied.
  const host = sim.hosts.get(to)!.host;
  expect(host.driver.applied).toBeLessThan(host.driver.core.leadershipIndex);
}

function keepAlive(sim: LockSim, to: NodeId, session: bigint): ReturnType<LockSim["call"]> {
  return sim.call(100, to, "KeepAlive", { sessionIds: [session] }, 5_000);
}

describe("keepalives on a new leader whose applying lags", () => {
  it("never acknowledges a keepalive of a session whose end an earlier leader committed", async () => {
    const sim = await quietSim(11);
    const c = new SimLockClient(sim, 100, new SeededRandom(1), 2_000, 0);
    expect(await until(sim, c.open())).toBe(true);
    const session = c.session!.id;
    const leader = sim.c.leader()!;
    const next = sim.c.nodes.find((n) => n.id !== leader.id)!.id;
    const release = sim.hosts.get(next)!.host.driver.holdApply();
    // The session's end commits (the held follower stores it) and applies on the leader only.
    await until(sim, c.close());
    expect(sim.hosts.get(leader.id)!.host.state.hasSession(session)).toBe(false);
    expect(sim.hosts.get(next)!.host.state.hasSession(session)).toBe(true);
    await transferTo(sim, next);
    const early = await until(sim, keepAlive(sim, next, session));
    // Not acknowledged while the end is unapplied: a retryable refusal.
    expect(early).toMatchObject({ failure: { reason: "ERROR_REASON_NODE_BUSY" } });
    release();
    expect(await until(sim, keepAlive(sim, next, session))).toEqual({
      answer: { sessions: [{ sessionId: session, ttlMs: null }] },
    });
  });

  it("does not answer NOT_FOUND for a live session an earlier leader opened: it waits for the apply", async () => {
    const sim = await quietSim(12);
    const leader = sim.c.leader()!;
    const next = sim.c.nodes.find((n) => n.id !== leader.id)!.id;
    const release = sim.hosts.get(next)!.host.driver.holdApply();
    const c = new SimLockClient(sim, 100, new SeededRandom(1), 5_000, 0);
    expect(await until(sim, c.open())).toBe(true);
    const session = c.session!.id;
    expect(sim.hosts.get(next)!.host.state.hasSession(session)).toBe(false);
    await transferTo(sim, next);
    const waiting = keepAlive(sim, next, session);
    // Applying resumes while the keepalive waits (within its bound): it is acknowledged.
    await runFor(sim, 100);
    release();
    expect(await until(sim, waiting)).toEqual({
      answer: { sessions: [{ sessionId: session, ttlMs: 5_000 }] },
    });
  });

  it("answers a keepalive that waited past its bound for the apply as retryable, not as NOT_FOUND", async () => {
    const sim = await quietSim(13);
    const leader = sim.c.leader()!;
    const next = sim.c.nodes.find((n) => n.id !== leader.id)!.id;
    const release = sim.hosts.get(next)!.host.driver.holdApply();
    const c = new SimLockClient(sim, 100, new SeededRandom(1), 5_000, 0);
    expect(await until(sim, c.open())).toBe(true);
    await transferTo(sim, next);
    const waiting = keepAlive(sim, next, c.session!.id);
    expect(await until(sim, waiting)).toMatchObject({
      failure: { reason: "ERROR_REASON_NODE_BUSY" },
    });
    release();
    await runFor(sim, 50);
    // The client's own keepalives went on meanwhile: its session is alive everywhere.
    expect(c.sessionLive()).toBe(true);
    expect(sim.hosts.get(next)!.host.state.hasSession(c.session!.id)).toBe(true);
  });
});

describe("keepalive cost", () => {
  it("a keepalive of sessions holding many locks reads each TTL without building any session's view", async () => {
    const sim = await quietSim(14);
    const c = new SimLockClient(sim, 100, new SeededRandom(1), 5_000, 0);
    expect(await until(sim, c.open())).toBe(true);
    for (let i = 0; i < 40; i++)
      expect((await until(sim, c.acquire(`held/${i}`, 0))).kind).toBe("granted");
    const leader = sim.c.leader()!;
    const state = sim.hosts.get(leader.id)!.host.state;
    expect(state.getSession(c.session!.id)?.held.length).toBe(40);
    const views = vi.spyOn(LockStateMachine.prototype, "getSession");
    try {
      const id = c.session!.id;
      const reply = await until(
        sim,
        sim.call(100, leader.id, "KeepAlive", { sessionIds: [id, id] }, 2_000),
      );
      expect(reply).toEqual({
        answer: {
          sessions: [
            { sessionId: id, ttlMs: 5_000 },
            { sessionId: id, ttlMs: 5_000 },
          ],
        },
      });
      expect(views).not.toHaveBeenCalled();
    } finally {
      views.mockRestore();
    }
  });
});
