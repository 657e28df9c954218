// Named scenarios beside the random seeds. Every scenario also runs the invariant checker
// after every step (election safety, log matching, leader completeness, state machine
// safety, durability of acknowledgements, monotonicity).
import { describe, expect, it } from "vitest";
import type { NodeId } from "../../node/raft/types.ts";
import { ReadIndexFailedError } from "../../node/host/driver.ts";
import type { SimCluster } from "./cluster.ts";
import { awaitLeader, others, propose, runFor, scripted, type Scripted } from "./scenario-kit.ts";

function expectConverged(s: Scripted, mustContain: string[]): void {
  const logs = [...s.logs.values()].map((l) => l.applied);
  const longest = logs.reduce((a, b) => (b.length > a.length ? b : a));
  for (const l of logs) expect(longest.slice(0, l.length)).toEqual(l);
  for (const name of mustContain) for (const l of logs) expect(l).toContain(name);
}

function expectSafe(c: SimCluster<string>): void {
  expect(c.checker.violations).toEqual([]);
}

async function restartAll(c: SimCluster<string>): Promise<void> {
  for (const n of c.nodes) if (!n.up) await c.restart(n.id);
}

describe("Figure 8 of the Raft paper", () => {
  it("the exact sequence: an old-term entry on a majority is not committed by counting", async () => {
    // One entry per append, one append in flight, so the script controls what reaches whom.
    const s = await scripted(80, { nodes: 5, maxBytesPerAppend: 1, maxInflightMsgs: 1 });
    const { c } = s;
    const first = await awaitLeader(c);
    propose(first, 1, "warm");
    await runFor(c, 300);
    const a = first.id;
    const [b, x, y, z] = others(c, a) as [NodeId, NodeId, NodeId, NodeId];
    // (a) a replicates X only to b, then crashes.
    c.dropFilter = (m) => m.type === "append" && m.from === a && m.to !== b && m.entries.length > 0;
    const X = propose(first, 1, "X");
    await runFor(c, 60);
    const i = first.core!.log.lastIndex();
    const termX = first.core!.term;
    expect(c.node(b).core!.log.term(i)).toBe(termX);
    c.crash(a);
    // (b) a leader among x, y, z appends its no-op at index i and sends it nowhere, then crashes.
    c.partition([[b], [x, y, z], [a]]);
    c.dropFilter = (m) => m.type === "append" && m.entries.length > 0 && [x, y, z].includes(m.from);
    const l2 = await awaitLeader(c, 3000, a);
    expect(l2.core!.log.term(i)).toBe(l2.core!.term);
    c.crash(l2.id);
    // (c) a returns, wins with the two others and copies X (term termX) to them: X is now on
    //     a majority, but a's own no-op (index i + 1) reaches nobody, so X must stay uncommitted.
    const rest = [x, y, z].filter((id) => id !== l2.id);
    await c.restart(a);
    c.partition([[a, ...rest], [b], [l2.id]]);
    // (A probe beyond i may pass to a node that lacks X: it is rejected and carries nothing.)
    c.dropFilter = (m) =>
      m.type === "append" &&
      m.from === a &&
      m.entries.some((e) => e.index > i) &&
      c.node(m.to).core?.log.term(i) === termX;
    const l3 = await awaitLeader(c, 3000);
    expect(l3.id).toBe(a);
    await runFor(c, 400);
    for (const id of rest) expect(c.node(id).core!.log.term(i)).toBe(termX);
    expect(l3.core!.log.committed).toBeLessThan(i);
    // (d) a crashes; l2 returns, wins (its last term is newer) and overwrites index i everywhere.
    c.crash(a);
    c.dropFilter = undefined;
    await c.restart(l2.id);
    // With only these three connected, only l2 can win: the others' logs are less up to date.
    const group = [l2.id, b, rest[0]!];
    c.partition([group, [rest[1]!], [a]]);
    const l4 = await awaitLeader(c, 5000, a);
    expect(l4.id).toBe(l2.id);
    const last = propose(l4, 1, "after");
    await runFor(c, 800);
    expect(last.results).toEqual(["ok"]);
    expectSafe(c);
    for (const id of group) expect(s.logs.get(id)!.applied).not.toContain(X.names[0]);
  });

  for (const variant of ["reliable", "unreliable"] as const) {
    it(`leaders crash after partial replication (${variant})`, async () => {
      const unreliable = variant === "unreliable";
      const s = await scripted(
        8,
        unreliable
          ? { nodes: 5, lossRate: 0.1, duplicateRate: 0.05, delayMaxMs: 120 }
          : { nodes: 5 },
      );
      const { c } = s;
      let crashes = 0;
      for (let i = 0; i < 60; i++) {
        const leader = await awaitLeader(c, 5000).catch(() => undefined);
        if (leader) propose(leader, 1, "f");
        await runFor(c, c.rng.int(1, unreliable ? 200 : 30));
        const l = c.leader();
        if (l && c.rng.chance(0.5)) {
          c.crash(l.id);
          crashes++;
        }
        const up = c.nodes.filter((n) => n.up).length;
        if (up < 3) {
          const down = c.nodes.filter((n) => !n.up);
          await c.restart(c.rng.pick(down).id);
        }
        expectSafe(c);
      }
      await restartAll(c);
      // Liveness needs message delays well below the election timeout.
      c.lossRate = 0;
      c.duplicateRate = 0;
      c.delayMaxMs = 5;
      const leader = await awaitLeader(c, 5000);
      const { names, results } = propose(leader, 3, "final");
      await runFor(c, 1500);
      expect(results).toEqual(["ok", "ok", "ok"]);
      expectSafe(c);
      expectConverged(s, names);
      expect(crashes).toBeGreaterThan(unreliable ? 5 : 10);
    });
  }
});

describe("a leader whose own write is slow", () => {
  it("does not count itself toward commit before its write is durable", async () => {
    const s = await scripted(77);
    const { c } = s;
    const l = await awaitLeader(c);
    await runFor(c, 100);
    const [f1, f2] = others(c, l.id) as [NodeId, NodeId];
    // The leader's disk is slow, the followers' fast; only f1 hears the new entry.
    c.diskDelay = (id) => (id === l.id ? 200 : 0.1);
    c.dropFilter = (m) =>
      m.type === "append" && m.from === l.id && m.to === f2 && m.entries.length > 0;
    const x = propose(l, 1, "slow");
    const index = l.core!.log.lastIndex();
    await runFor(c, 30);
    expect(c.node(f1).core!.log.term(index)).toBe(l.core!.term); // f1 has it durably
    // Only the leader (not yet durable) and f1 hold it: it must not be committed yet.
    expect(l.core!.log.committed).toBeLessThan(index);
    // The leader crashes before its write lands; f2 and the restarted leader, neither of
    // which has the entry, elect a leader that overwrites that index.
    c.crash(l.id);
    c.diskDelay = undefined;
    c.dropFilter = undefined;
    c.partition([[f1], [l.id, f2]]);
    await c.restart(l.id);
    const next = await awaitLeader(c, 5000, f1);
    const after = propose(next, 1, "after");
    await runFor(c, 500);
    expect(after.results).toEqual(["ok"]);
    expect(x.results).not.toEqual(["ok"]);
    expectSafe(c);
  });
});

describe("an isolated old leader", () => {
  it("keeps accepting proposals but commits none of them, then rejoins without disruption", async () => {
    const s = await scripted(21);
    const { c } = s;
    const old = await awaitLeader(c);
    const before = propose(old, 5, "a");
    await runFor(c, 200);
    expect(before.results).toEqual(Array(5).fill("ok"));

    c.partition([[old.id], others(c, old.id)]);
    const commitBefore = old.core!.log.committed;
    const isolated = propose(old, 10, "iso");
    const fresh = await awaitLeader(c, 3000, old.id);
    const accepted = propose(fresh, 5, "b");
    await runFor(c, 1500);
    expect(old.core!.log.committed).toBe(commitBefore);
    expect(old.core!.role).not.toBe("leader"); // CheckQuorum stepped it down
    expect(accepted.results).toEqual(Array(5).fill("ok"));

    const term = fresh.core!.term;
    c.healNetwork();
    await runFor(c, 1500);
    // PreVote: the old leader's return does not raise the term or move leadership.
    expect(c.leader()?.id).toBe(fresh.id);
    expect(fresh.core!.term).toBe(term);
    expect(isolated.results).toEqual(Array(10).fill("failed"));
    for (const l of s.logs.values())
      for (const name of isolated.names) expect(l.applied).not.toContain(name);
    expectSafe(c);
    expectConverged(s, [...before.names, ...accepted.names]);
  });
});

describe("long divergent uncommitted suffixes", () => {
  it("are overwritten with few rejections (conflict term hints)", async () => {
    const s = await scripted(33, { nodes: 5 });
    const { c } = s;
    const l1 = await awaitLeader(c);
    const [f1, ...rest] = others(c, l1.id) as [NodeId, ...NodeId[]];
    c.partition([[l1.id, f1], rest]);
    propose(l1, 60, "div1-");
    await runFor(c, 300);
    const l2 = await awaitLeader(c, 3000, l1.id);
    const second = propose(l2, 60, "maj2-");
    await runFor(c, 500);
    // Now a different majority, including the first minority, with one node of l2's side.
    const l2side = rest.filter((id) => id !== l2.id);
    c.partition([
      [l2.id, l2side[0]!],
      [l1.id, f1, ...l2side.slice(1)],
    ]);
    propose(l2, 60, "div2-");
    const l3 = await awaitLeader(c, 5000, l2.id);
    const third = propose(l3, 60, "maj3-");
    await runFor(c, 800);
    c.healNetwork();
    await runFor(c, 2000);
    expectSafe(c);
    expectConverged(s, [...second.names, ...third.names]);
    // Naive backtracking would need one round trip per divergent entry (hundreds here).
    expect(c.appendRejections).toBeLessThan(40);
  });
});

describe("repeated elections on an unreliable network", () => {
  it("stays safe and ends with a working leader", async () => {
    const s = await scripted(44, { lossRate: 0.1, duplicateRate: 0.05, delayMaxMs: 50 });
    const { c } = s;
    for (let i = 0; i < 30; i++) {
      const l = c.leader();
      const victim = l && c.rng.chance(0.7) ? l.id : c.rng.int(1, 3);
      c.partition([[victim], others(c, victim)]);
      if (l) propose(l, 2, "r");
      await runFor(c, c.rng.int(100, 400));
      c.healNetwork();
      await runFor(c, c.rng.int(50, 300));
      expectSafe(c);
    }
    expect(c.checker.leaderTerms).toBeGreaterThan(5);
    c.lossRate = 0;
    const leader = await awaitLeader(c);
    const last = propose(leader, 5, "end");
    await runFor(c, 1000);
    expect(last.results).toEqual(Array(5).fill("ok"));
    expectSafe(c);
    expectConverged(s, last.names);
  });
});

describe("a crash of every node", () => {
  it("recovers the log from durable state alone", async () => {
    const s = await scripted(55);
    const { c } = s;
    const l = await awaitLeader(c);
    const first = propose(l, 20, "d");
    await runFor(c, 300);
    expect(first.results).toEqual(Array(20).fill("ok"));
    for (const n of c.nodes) c.crash(n.id);
    await runFor(c, 100);
    await restartAll(c);
    const l2 = await awaitLeader(c);
    const second = propose(l2, 5, "e");
    await runFor(c, 500);
    expect(second.results).toEqual(Array(5).fill("ok"));
    expectSafe(c);
    expectConverged(s, [...first.names, ...second.names]);
  });
});

describe("a partition that leaves no majority", () => {
  it("commits nothing and elects no second leader", async () => {
    const s = await scripted(66, { nodes: 5 });
    const { c } = s;
    const l = await awaitLeader(c);
    const first = propose(l, 5, "m");
    await runFor(c, 300);
    expect(first.results).toEqual(Array(5).fill("ok"));
    c.partition([[1, 2], [3, 4], [5]]);
    const maxCommit = (): number => Math.max(...c.nodes.map((n) => n.core!.log.committed));
    const before = maxCommit();
    for (let i = 0; i < 20; i++) {
      for (const n of c.nodes) if (n.core!.role === "leader") propose(n, 1, "nm");
      await runFor(c, 150);
      expect(maxCommit()).toBe(before);
    }
    expect(c.leader()).toBeUndefined(); // CheckQuorum removed the old leader
    c.healNetwork();
    const l2 = await awaitLeader(c);
    const after = propose(l2, 3, "heal");
    await runFor(c, 500);
    expect(after.results).toEqual(Array(3).fill("ok"));
    expectSafe(c);
  });
});

describe("a crash at every await point of the driver", () => {
  for (const point of ["issued", "durable"] as const) {
    it(`crashes a node with a write ${point}, at each of its first 25 writes`, async () => {
      for (let k = 1; k <= 25; k++) {
        const s = await scripted(100 + k);
        const { c } = s;
        const target = (k % 3) + 1;
        let writes = 0;
        c.onWrite = (n, p) => {
          if (n.id === target && p === point && ++writes === k) {
            c.crash(n.id);
            c.sched.after(30, "restart", () => void c.restart(n.id));
          }
        };
        const names: string[] = [];
        for (let i = 0; i < 40; i++) {
          const l = c.leader();
          if (l) names.push(...propose(l, 1, `k${k}-`).names);
          await runFor(c, 15);
        }
        c.onWrite = undefined;
        const l = await awaitLeader(c);
        const last = propose(l, 2, "last");
        await runFor(c, 800);
        expect(last.results).toEqual(["ok", "ok"]);
        expect(c.faults.crashes).toBe(1);
        expectSafe(c);
        expectConverged(s, last.names);
      }
    });
  }
});

describe("membership changes", () => {
  it("adds a learner, lets it catch up, promotes it, then removes the leader", async () => {
    const s = await scripted(91);
    const { c } = s;
    const l = await awaitLeader(c);
    const before = propose(l, 20, "m");
    await runFor(c, 300);
    const n4 = await c.addNode();
    const added = l.driver!.proposeMembershipChange({ type: "addLearner", node: n4.id });
    await runFor(c, 500);
    await added;
    // The learner has the whole log but neither votes nor counts toward commit.
    expect(s.logs.get(n4.id)!.applied).toEqual(s.logs.get(l.id)!.applied);
    expect(n4.core!.membership.learners).toContain(n4.id);
    expect(n4.core!.role).toBe("follower");
    const promoted = l.driver!.proposeMembershipChange({ type: "promote", node: n4.id });
    await runFor(c, 300);
    await promoted;
    for (const n of c.nodes) expect(n.core!.membership.voters).toEqual([1, 2, 3, 4]);
    // Removing the leader: it steps down once the change is applied, and the rest elect one.
    const removed = l.driver!.proposeMembershipChange({ type: "remove", node: l.id });
    await runFor(c, 50);
    await removed;
    expect(l.core!.role).not.toBe("leader");
    c.removed.add(l.id);
    c.crash(l.id);
    const l2 = await awaitLeader(c, 3000, l.id);
    expect(l2.core!.membership.voters).not.toContain(l.id);
    const after = propose(l2, 5, "n");
    await runFor(c, 500);
    expect(after.results).toEqual(Array(5).fill("ok"));
    expectSafe(c);
    expect(s.logs.get(n4.id)!.applied).toEqual(
      expect.arrayContaining([...before.names, ...after.names]),
    );
  });

  it("refuses a second change while the first is not applied", async () => {
    const s = await scripted(92);
    const { c } = s;
    const l = await awaitLeader(c);
    await runFor(c, 200);
    const n4 = await c.addNode();
    const first = l.driver!.proposeMembershipChange({ type: "addLearner", node: n4.id });
    await expect(
      l.driver!.proposeMembershipChange({ type: "remove", node: others(c, l.id)[0]! }),
    ).rejects.toThrow(/not applied yet/);
    await runFor(c, 300);
    await first;
    expectSafe(c);
  });

  it("refuses a change on a new leader until its own no-op is applied", async () => {
    const s = await scripted(93);
    const { c } = s;
    // Step the core by hand: the moment it becomes leader, nothing of its term is applied yet.
    let refused: unknown = null;
    c.onWrite = (n) => {
      if (refused === null && n.core?.role === "leader") {
        try {
          n.core.proposeMembershipChange({ type: "remove", node: others(c, n.id)[0]! });
          refused = false;
        } catch (e) {
          refused = e;
        }
      }
    };
    await awaitLeader(c);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/not applied yet/);
    expectSafe(c);
  });

  it("refuses changes that are not a single valid step", async () => {
    const s = await scripted(94);
    const l = await awaitLeader(s.c);
    await runFor(s.c, 200);
    expect(() => l.core!.proposeMembershipChange({ type: "addLearner", node: 2 })).toThrow(
      /already a member/,
    );
    expect(() => l.core!.proposeMembershipChange({ type: "promote", node: 9 })).toThrow(
      /not a learner/,
    );
    expect(() => l.core!.proposeMembershipChange({ type: "remove", node: 9 })).toThrow(
      /not a member/,
    );
  });
});

describe("a leader that removes itself", () => {
  it("lets the remaining voters elect the next leader well within an election timeout of its step-down", async () => {
    const gaps: number[] = [];
    let electionMs = 0;
    for (const seed of [95, 96, 97, 98, 99]) {
      const s = await scripted(seed);
      const { c } = s;
      electionMs = c.opts.tickMs * c.opts.electionTicks;
      const l = await awaitLeader(c);
      propose(l, 5, "before");
      await runFor(c, 300);
      const removal = l.driver!.proposeMembershipChange({ type: "remove", node: l.id });
      const end = c.sched.now + 1000;
      while (l.core!.role === "leader" && c.sched.now < end) await runFor(c, 1);
      await removal;
      expect(l.core!.role).not.toBe("leader");
      const steppedDownAt = c.sched.now;
      // It stays up (an operator stops it later), so only the timing of the others is measured.
      while (!c.leader() && c.sched.now < steppedDownAt + 3000) await runFor(c, 1);
      const next = c.leader();
      expect(next, `seed ${seed}: no leader after the removal`).toBeDefined();
      gaps.push(c.sched.now - steppedDownAt);
      const after = propose(next!, 3, "after");
      await runFor(c, 300);
      expect(after.results).toEqual(["ok", "ok", "ok"]);
      for (const id of others(c, l.id))
        expect(c.node(id).core!.membership.voters).not.toContain(l.id);
      expectSafe(c);
    }
    // Virtual time: the remaining voters learnt the commit of the removal and one of them was
    // asked to campaign at once, instead of waiting out the departed leader's lease.
    expect(
      gaps.every((ms) => ms < electionMs / 2),
      `time to the next leader per seed: ${gaps.join(", ")} ms; election timeout ${electionMs} ms`,
    ).toBe(true);
  });
});

describe("a peer reported down by the transport", () => {
  /** Time from a leader crash to the next leader, with or without the followers told at once. */
  async function failoverMs(seed: number, reported: boolean): Promise<number> {
    const { c } = await scripted(seed);
    const first = await awaitLeader(c);
    propose(first, 1, "warm");
    await runFor(c, 200);
    const crashedAt = c.sched.now;
    c.crash(first.id);
    if (reported) for (const id of others(c, first.id)) c.reportPeerDown(id, first.id);
    const next = await awaitLeader(c, 3000, first.id);
    expect(next.id).not.toBe(first.id);
    expectSafe(c);
    return c.sched.now - crashedAt;
  }

  it("replaces a crashed leader within the random part of the election timeout", async () => {
    const { c } = await scripted(1);
    const electionMs = c.opts.tickMs * c.opts.electionTicks;
    const seeds = Array.from({ length: 15 }, (_, i) => 300 + i);
    const told: number[] = [];
    const untold: number[] = [];
    for (const seed of seeds) {
      told.push(await failoverMs(seed, true));
      untold.push(await failoverMs(seed, false));
    }
    // Untold, a follower waits out the whole lease of its leader first.
    for (const ms of untold) expect(ms).toBeGreaterThanOrEqual(electionMs);
    told.sort((a, b) => a - b);
    expect(told[Math.floor(told.length / 2)]!).toBeLessThan(electionMs);
    expect(told.reduce((a, b) => a + b, 0)).toBeLessThan(untold.reduce((a, b) => a + b, 0));
  });

  it("a false report of a live leader to one follower does not depose it", async () => {
    const { c, logs } = await scripted(11);
    const leader = await awaitLeader(c);
    await runFor(c, 200);
    const term = leader.core!.term;
    const [f] = others(c, leader.id) as [NodeId];
    c.reportPeerDown(f, leader.id);
    const after = propose(leader, 3, "after-false-alarm");
    await runFor(c, 1000);
    expect(c.leader()?.id).toBe(leader.id);
    expect(leader.core!.term).toBe(term);
    expect(after.results).toEqual(["ok", "ok", "ok"]);
    expect(c.node(f).core!.leader).toBe(leader.id);
    for (const name of after.names) expect(logs.get(f)!.applied).toContain(name);
    expectSafe(c);
  });
});

describe("a read forwarded by a follower", () => {
  type ReadOutcome =
    { state: "pending" } | { state: "ok"; index: number } | { state: "failed"; error: unknown };

  function read(c: SimCluster<string>, id: NodeId): ReadOutcome[] {
    const out: ReadOutcome[] = [{ state: "pending" }];
    c.node(id)
      .driver!.readIndex()
      .then(
        (index) => (out[0] = { state: "ok", index }),
        (error: unknown) => (out[0] = { state: "failed", error }),
      );
    return out;
  }

  it("whose request is lost fails after an election timeout (UNAVAILABLE, so the client retries) while the leader stays, leaving no waiter", async () => {
    const { c } = await scripted(71);
    const electionMs = c.opts.tickMs * c.opts.electionTicks;
    const leader = await awaitLeader(c);
    propose(leader, 1, "warm");
    await runFor(c, 300);
    const term = leader.core!.term;
    const [f] = others(c, leader.id) as [NodeId];
    let dropped = 0;
    c.dropFilter = (m) => m.type === "readIndex" && m.from === f && ++dropped === 1;
    const lost = read(c, f);
    await runFor(c, 3 * electionMs);
    expect(dropped).toBe(1);
    expect(c.leader()?.id).toBe(leader.id);
    expect(leader.core!.term).toBe(term);
    expect(lost[0]!.state).toBe("failed");
    if (lost[0]!.state === "failed") expect(lost[0]!.error).toBeInstanceOf(ReadIndexFailedError);
    // The client's retry goes through.
    const retry = read(c, f);
    await runFor(c, electionMs);
    expect(retry[0]).toEqual({ state: "ok", index: expect.any(Number) });
    expectSafe(c);
  });

  it("fails when the term changes, even if the same node leads again", async () => {
    const { c } = await scripted(72);
    const leader = await awaitLeader(c);
    propose(leader, 1, "warm");
    await runFor(c, 300);
    const [f] = others(c, leader.id) as [NodeId];
    // The request reaches no one. Then the follower hears of a newer term from the same node,
    // as when that node is elected again: an answer for the old term can no longer come.
    c.dropFilter = (m) => m.type === "readIndex" && m.from === f;
    const pending = read(c, f);
    await runFor(c, 20);
    expect(pending[0]!.state).toBe("pending");
    const core = c.node(f).core!;
    const newTerm = core.term + 1;
    c.node(f).driver!.receive({
      type: "heartbeat",
      from: leader.id,
      to: f,
      term: newTerm,
      commit: 0,
      round: 0,
    });
    await runFor(c, 1);
    expect(core.term).toBe(newTerm);
    expect(core.leader).toBe(leader.id);
    expect(pending[0]!.state).toBe("failed");
  });
});
