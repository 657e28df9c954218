// One seeded run of the Raft simulation: random faults for a while, then a healed network
// in which a leader must emerge and new proposals must commit everywhere.
import type { NodeId } from "../../node/raft/types.ts";
import { SimCluster, type SimNode } from "./cluster.ts";
import { FaultInjector } from "./faults.ts";
import { drawOptions, type SimOptions } from "./options.ts";
import { PayloadLog } from "./payload-log.ts";

export interface SeedResult {
  seed: number;
  ok: boolean;
  violations: string[];
  hash: string;
  options: SimOptions;
  stats: Record<string, number>;
  trace?: string[];
}

export async function runRaftSeed(
  seed: number,
  overrides: Partial<SimOptions> = {},
  verbose = false,
): Promise<SeedResult> {
  const opts = drawOptions(seed, overrides);
  const cluster = new SimCluster<string>(
    opts,
    { app: { create: (_id, snap) => new PayloadLog(snap) } },
    verbose,
  );
  const appliedBy = new Map<string, Set<NodeId>>();
  const proposedAt = new Map<string, number>();
  cluster.onApplied = (node: SimNode<string>, entry, payload) => {
    if (entry.kind !== "normal") return;
    let s = appliedBy.get(payload);
    if (!s) appliedBy.set(payload, (s = new Set()));
    s.add(node.id);
  };
  // A snapshot installed from the leader holds exactly the entries applied elsewhere.
  cluster.onRestored = (node, snap) => {
    for (const e of PayloadLog.decode(snap)) {
      cluster.checker.appliedEntry(node, {
        index: e.index,
        term: e.term,
        kind: "normal",
        data: new TextEncoder().encode(e.payload),
      });
      let s = appliedBy.get(e.payload);
      if (!s) appliedBy.set(e.payload, (s = new Set()));
      s.add(node.id);
    }
  };
  const stats = { proposals: 0, acknowledged: 0, lost: 0 };
  let counter = 0;
  // Clients wait for answers: at most this many proposals are outstanding at once.
  const maxOutstanding = 16;
  let outstanding = 0;
  const propose = (): void => {
    const up = cluster.nodes.filter((n) => n.up);
    if (up.length > 0 && outstanding < maxOutstanding) {
      const n = cluster.rng.pick(up);
      if (n.core?.role === "leader") {
        const batch = cluster.rng.int(1, 4);
        const payloads = Array.from({ length: batch }, () => `p${++counter}`);
        for (const p of payloads) proposedAt.set(p, cluster.sched.now);
        stats.proposals += batch;
        for (const pr of n.driver!.propose(payloads.map((p) => new TextEncoder().encode(p)))) {
          // A client gives up after a timeout (the outcome is then unknown) and frees its slot.
          let done = false;
          const finish = (): void => {
            if (!done) outstanding--;
            done = true;
          };
          outstanding++;
          cluster.sched.after(1000, "client-timeout", finish);
          pr.then(
            () => {
              stats.acknowledged++;
              finish();
            },
            () => {
              stats.lost++;
              finish();
            },
          );
        }
      }
    }
    cluster.sched.after(cluster.rng.int(1, opts.proposeEveryMs * 2), "propose", propose);
  };

  await cluster.start();
  cluster.sched.after(1, "propose", propose);
  const faults = new FaultInjector(cluster);
  faults.start(opts.faultMs);
  await cluster.runUntil(opts.faultMs);
  const healAt = cluster.sched.now;
  await faults.healAll();
  await cluster.runUntil(healAt + opts.livenessBoundMs);
  const violations = [...cluster.checker.violations];
  if (violations.length === 0) {
    if (!cluster.leader())
      violations.push(`liveness: no leader ${opts.livenessBoundMs}ms after the network healed`);
    const members = cluster.members();
    const everywhere = [...proposedAt].some(
      ([p, t]) => t >= healAt && members.every((id) => appliedBy.get(p)?.has(id)),
    );
    if (!everywhere)
      violations.push(
        `liveness: no proposal made after healing was applied on all members (${members.join(",")}) within ${opts.livenessBoundMs}ms`,
      );
  }
  if (violations.length === 0) await cluster.runUntil(opts.faultMs + opts.healMs);
  violations.push(...cluster.checker.violations.filter((v) => !violations.includes(v)));
  return {
    seed,
    ok: violations.length === 0,
    violations,
    hash: cluster.hash,
    options: opts,
    stats: {
      ...stats,
      committed: cluster.checker.committedCount,
      terms: cluster.checker.leaderTerms,
      steps: cluster.sched.steps,
      checks: cluster.checker.checks,
      ...cluster.faults,
      membershipChanges: faults.membershipChanges,
    },
    trace: cluster.traceLines ?? undefined,
  };
}
