// Random faults drawn from the seed: partitions of every shape, crashes with restarts,
// event-loop stalls. healAll() ends them all for the liveness phase.
import type { MembershipChange } from "../../node/raft/membership.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { SimCluster } from "./cluster.ts";

export class FaultInjector<R> {
  private until = 0;
  private healed = false;

  constructor(private readonly c: SimCluster<R>) {}

  start(until: number): void {
    this.until = until;
    const o = this.c.opts;
    if (o.partitionEveryMs > 0) this.every(o.partitionEveryMs, () => this.partition());
    if (o.crashEveryMs > 0) this.every(o.crashEveryMs, () => this.crash());
    if (o.stallEveryMs > 0) this.every(o.stallEveryMs, () => this.stall());
    if (o.membershipEveryMs > 0)
      this.every(o.membershipEveryMs, () => void this.membershipChange());
  }

  /**
   * One membership change through the current leader: promote a caught-up learner, else
   * add a new node as a learner while there are three voters or fewer, else remove a
   * voter (the leader itself at times). A removed node is stopped for good.
   */
  private async membershipChange(): Promise<void> {
    const c = this.c;
    const leader = c.leader();
    if (!leader?.core || !leader.driver) return;
    const core = leader.core;
    const m = core.membership;
    let change: MembershipChange;
    const learner = m.learners[0];
    if (learner !== undefined) {
      const pr = core.progressOf(learner);
      if (!pr || pr.match < core.log.committed) return;
      change = { type: "promote", node: learner };
    } else if (m.voters.length <= 3) {
      if (c.nodes.length >= 9) return;
      const n = await c.addNode();
      change = { type: "addLearner", node: n.id };
    } else {
      const victim = c.rng.chance(0.3)
        ? leader.id
        : c.rng.pick(m.voters.filter((v) => v !== leader.id));
      change = { type: "remove", node: victim };
    }
    this.membershipChanges++;
    c.trace(`membership ${change.type} ${change.node} via ${leader.id}`);
    // A new member comes with its addresses, as `member add` gives them, so the membership a
    // node keeps (and restarts with) is checked whole.
    const address =
      change.type === "addLearner"
        ? { peer: `sim-peer-${change.node}`, client: `sim-node-${change.node}` }
        : undefined;
    leader.driver.proposeMembershipChange(change, address).then(
      () => {
        if (change.type === "remove") {
          c.removed.add(change.node);
          c.crash(change.node);
        }
      },
      () => undefined,
    );
  }

  membershipChanges = 0;

  private every(mean: number, fn: () => void): void {
    const loop = (): void => {
      if (this.healed || this.c.sched.now >= this.until) return;
      fn();
      this.c.sched.after(this.c.rng.int(1, mean * 2), "fault", loop);
    };
    this.c.sched.after(this.c.rng.int(1, mean * 2), "fault", loop);
  }

  private ids(): NodeId[] {
    return this.c.nodes.map((n) => n.id);
  }

  private shuffled(): NodeId[] {
    const ids = this.ids();
    for (let i = ids.length - 1; i > 0; i--) {
      const j = this.c.rng.int(0, i);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    return ids;
  }

  private partition(): void {
    const c = this.c;
    const ids = this.shuffled();
    const leader = c.leader()?.id;
    switch (c.rng.int(0, 5)) {
      case 0: // heal
        c.healNetwork();
        break;
      case 1: {
        // isolate the leader (or anyone)
        const victim = leader ?? ids[0]!;
        const rest = ids.filter((i) => i !== victim);
        c.partition([[victim], rest]);
        // A partition that refuses connections (not drops) reports a live leader down: a false alarm.
        if (c.rng.chance(0.3)) this.reportDown(victim, rest);
        break;
      }
      case 2: {
        // majority / minority
        const k = Math.floor(ids.length / 2);
        c.partition([ids.slice(0, k), ids.slice(k)]);
        break;
      }
      case 3: // one-way cuts
        c.cutOneWay(ids[0]!, ids[1]!);
        if (c.rng.chance(0.5)) c.cutOneWay(ids[1]!, ids[2]!);
        break;
      case 4: {
        // a bridge: ids[0] talks to both sides, the sides not to each other
        c.healNetwork();
        const rest = ids.slice(1);
        const half = Math.floor(rest.length / 2);
        for (const a of rest.slice(0, half))
          for (const b of rest.slice(half)) {
            c.cutOneWay(a, b);
            c.cutOneWay(b, a);
          }
        break;
      }
      case 5: // no majority anywhere
        c.partition(ids.map((i) => [i]));
        break;
    }
  }

  private crash(): void {
    const c = this.c;
    const up = c.nodes.filter((n) => n.up);
    if (up.length === 0) return;
    const leader = c.leader();
    const victim = leader && c.rng.chance(0.5) ? leader : c.rng.pick(up);
    if (c.rng.chance(0.5)) {
      // Half the crashes come while the node has several writes in flight (or, failing
      // that, a little later): the ones issued and not yet complete are lost.
      const instance = victim.instance;
      let done = false;
      const crashNow = (): void => {
        if (done || this.healed || !victim.up || victim.instance !== instance) return;
        done = true;
        this.crashNode(victim);
      };
      victim.crashWhenWriting = crashNow;
      c.sched.after(300, "crash fallback", () => {
        if (victim.crashWhenWriting === crashNow) victim.crashWhenWriting = undefined;
        crashNow();
      });
      return;
    }
    this.crashNode(victim);
  }

  private crashNode(victim: { readonly id: NodeId }): void {
    const c = this.c;
    c.crash(victim.id);
    // Most crashes reset the peers' connections, and the transport reports the peer down.
    if (c.rng.chance(0.7))
      this.reportDown(
        victim.id,
        c.nodes.filter((n) => n.up).map((n) => n.id),
      );
    const downFor = c.rng.int(20, 1500);
    c.sched.after(downFor, "restart", () => {
      if (!this.healed) void c.restart(victim.id);
    });
  }

  /** Each of `to` hears, a few ms apart, that its connection to `down` was reset. */
  private reportDown(down: NodeId, to: NodeId[]): void {
    const c = this.c;
    for (const id of to) {
      if (id === down) continue;
      c.sched.after(c.rng.int(0, 5), "peer down", () => c.reportPeerDown(id, down));
    }
  }

  private stall(): void {
    const c = this.c;
    const n = c.rng.pick(c.nodes);
    c.stall(n.id, c.rng.int(5, c.opts.stallMaxMs));
  }

  /** End every fault: restart crashed nodes, heal the network, no more loss or duplication. */
  async healAll(): Promise<void> {
    this.healed = true;
    const c = this.c;
    c.healNetwork();
    c.lossRate = 0;
    c.duplicateRate = 0;
    for (const n of c.nodes) if (!n.up) await c.restart(n.id);
  }
}
