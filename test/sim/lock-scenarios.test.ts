// Scripted lock scenarios on the simulated cluster (real Raft, driver and lock state
// machine); every applied entry on every replica also goes through the lock checker.
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../../node/util/rng.ts";
import { LockSim } from "./lock-sim.ts";
import { SimLockClient } from "./lock-workload.ts";
import { quietSim, runFor, until } from "./lock-scripted.ts";

function client(sim: LockSim, endpoint: number, ttlMs: number): SimLockClient {
  return new SimLockClient(sim, endpoint, new SeededRandom(endpoint), ttlMs, 0);
}

describe("lock service on the simulated cluster", () => {
  it("refuses a paused former holder's write with its older token (the article's scenario)", async () => {
    const sim = await quietSim(1);
    const c1 = client(sim, 100, 300);
    const c2 = client(sim, 101, 1000);
    expect(await until(sim, c1.open())).toBe(true);
    const g1 = await until(sim, c1.acquire("res", 0));
    expect(g1.kind).toBe("granted");
    const t1 = g1.kind === "granted" ? g1.token : 0n;
    const a1 = { key: "res", token: t1, session: c1.session!.id };
    const read1 = sim.resource.read(a1);
    expect(read1).toBe(0);

    // Client 1 pauses past its TTL: no keepalives, its session expires.
    const paused = c1.pause(900);
    expect(await until(sim, c2.open())).toBe(true);
    const g2 = await until(sim, c2.acquire("res", 2000));
    expect(g2.kind).toBe("granted");
    const t2 = g2.kind === "granted" ? g2.token : 0n;
    expect(t2).toBeGreaterThan(t1);
    const a2 = { key: "res", token: t2, session: c2.session!.id };
    const read2 = sim.resource.read(a2);
    expect(read2).toBe(0);
    expect(sim.resource.increment(a2, read2!)).toBe(true);

    await until(sim, paused);
    // Client 1 knows its deadline has passed, but a paused process may still act:
    expect(c1.sessionLive()).toBe(false);
    expect(sim.resource.increment(a1, read1!)).toBe(false);
    expect(sim.resource.refusals).toBe(1);
    expect(sim.resource.value("res")).toBe(1);
    expect(sim.checker.stats.expiries).toBe(1);
    expect(sim.resource.finalCheck(new Map([["res", 1]]))).toEqual([]);
    expect(sim.checker.checkDeadlines()).toEqual([]);
  });

  it("does not grant a lock to a waiter whose session expired while it was queued", async () => {
    const sim = await quietSim(2);
    const holder = client(sim, 100, 1000);
    const waiter = client(sim, 101, 300);
    expect(await until(sim, holder.open())).toBe(true);
    const g = await until(sim, holder.acquire("L", 0));
    expect(g.kind).toBe("granted");
    const token = g.kind === "granted" ? g.token : 0n;

    // The waiter's process stops once its Acquire is sent (no keepalives): its session expires while it waits.
    expect(await until(sim, waiter.open())).toBe(true);
    const waiting = waiter.acquire("L", 3000);
    waiter.proc.pause(800);
    await runFor(sim, 800);
    expect(sim.checker.stats.expiries).toBe(1);
    // Its wait ends with NOT_FOUND when the expiry is applied.
    expect(await until(sim, waiting)).toEqual({ kind: "notGranted" });

    expect(await until(sim, holder.release("L", token))).toEqual({ kind: "ok" });
    await runFor(sim, 100);
    for (const host of sim.hosts.values()) {
      expect(host.sm.getLock("L").holder).toBeNull();
      expect(host.sm.history("L").map((h) => h.sessionId)).toEqual([holder.session!.id]);
    }
    expect(sim.checker.stats.grants).toBe(1);
  });

  it("answers an Acquire retried on a new leader after a lost reply with the same token and no second grant", async () => {
    const sim = await quietSim(3);
    const c = client(sim, 100, 2000);
    expect(await until(sim, c.open())).toBe(true);
    const leader = sim.c.leader()!;
    // Replies from the leader to this client are lost.
    sim.c.blocked.add(`${leader.id}>100`);
    const acquiring = c.acquire("L", 0);
    await runFor(sim, 100);
    const granted = sim.hosts.get(leader.id)!.sm.getLock("L").holder;
    expect(granted?.sessionId).toBe(c.session!.id);
    sim.c.crash(leader.id);
    sim.c.blocked.delete(`${leader.id}>100`);

    const result = await until(sim, acquiring, 5000);
    expect(result).toEqual({
      kind: "granted",
      token: granted!.token,
      grants: [{ lock: "L", token: granted!.token, mode: "exclusive" }],
    });
    expect(sim.c.leader()?.id).not.toBe(leader.id);
    expect(sim.checker.stats.grants).toBe(1);
    // The retry reached a replica other than the first leader, which answered from its dedup table.
    expect(sim.checker.stats.answersCompared).toBeGreaterThanOrEqual(1);
  });

  it("a hold limit is enforced by the leader elected after the one that made the grant", async () => {
    const sim = await quietSim(6);
    const c = client(sim, 100, 5000);
    expect(await until(sim, c.open())).toBe(true);
    const session = c.session!.id;
    const first = sim.c.leader()!;
    // A grant with a hold limit of 1 s, made by the first leader (the library's keepalives go on meanwhile).
    const request = {
      sessionId: session,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "held",
      waitMs: 0,
      holdMs: 1_000,
    };
    const reply = await until(sim, sim.call(100, first.id, "Acquire", request, 1_000));
    expect(reply).toMatchObject({ answer: { kind: "granted" } });
    // That leader crashes at once: only the next one can end the grant when its limit passes.
    sim.c.crash(first.id);
    await runFor(sim, 4_000);
    const next = sim.c.leader()!;
    expect(next.id).not.toBe(first.id);
    const state = sim.hosts.get(next.id)!.sm;
    expect(state.getLock("held").holder).toBeNull();
    expect(state.history("held")).toMatchObject([
      { sessionId: session, reason: "revoked", revokedFor: "holdLimit" },
    ]);
    // The session itself lived on: only the grant ended.
    expect(state.hasSession(session)).toBe(true);
  });

  it("a leader cut off from its quorum does not acknowledge a keepalive, though it still believes it leads", async () => {
    const sim = await quietSim(4);
    const c = client(sim, 100, 1000);
    expect(await until(sim, c.open())).toBe(true);
    const leader = sim.c.leader()!;
    const others = sim.c.nodes.filter((n) => n.id !== leader.id).map((n) => n.id);
    // The client still reaches the old leader; the old leader no longer reaches anyone.
    sim.c.partition([[leader.id], others]);
    const reply = sim.call(100, leader.id, "KeepAlive", { sessionIds: [c.session!.id] }, 300);
    await runFor(sim, 5);
    // It has not stepped down yet (CheckQuorum waits an election timeout)...
    expect(leader.core?.role).toBe("leader");
    // ...but it cannot confirm its leadership with a quorum, so the keepalive is not acknowledged.
    const answer = await until(sim, reply, 1000);
    expect(answer === null || "failure" in answer).toBe(true);
  });

  it("a stopping leader hands over to a voter it can reach, not to one whose log looks as caught up but that it no longer hears from", async () => {
    const sim = await quietSim(5);
    const leader = sim.c.leader()!;
    const [cutOff, reachable] = sim.c.nodes
      .filter((n) => n.id !== leader.id)
      .map((n) => n.id)
      .sort((a, b) => a - b);
    // The lower id (first among equals by log position) is cut off from the leader, both ways.
    sim.c.blocked.add(`${leader.id}>${cutOff}`);
    sim.c.blocked.add(`${cutOff}>${leader.id}`);
    await runFor(sim, 3 * sim.c.opts.electionTicks * sim.c.opts.tickMs);
    expect(sim.c.leader()?.id).toBe(leader.id);
    await until(sim, leader.host!.handOverLeadership(), 10_000);
    await runFor(sim, 50);
    expect(sim.c.leader()?.id).toBe(reachable);
  });
});
