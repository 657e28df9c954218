// One seeded run of the lock service on the simulated cluster (lock-sim.ts): random
// faults with a client workload, then a healed network in which lock operations must
// complete again; then every history check, reads against the committed log included.
import { SeededRandom } from "../../node/util/rng.ts";
import { checkLockHistory, type LockHistoryEvent } from "../../verify/lock-history.ts";
import { FaultInjector } from "./faults.ts";
import { LockSim } from "./lock-sim.ts";
import { SimAccess } from "./lock-access.ts";
import { ELECTIONS, inHistory, LockWorkload, RHO } from "./lock-workload.ts";
import { ElectionObservers } from "./checkers/elections.ts";
import { drawOptions, type SimOptions } from "./options.ts";
import type { SeedResult } from "./raft-run.ts";

/** Stats of the lock run that `npm run sim` sums up on its own line. */
export const LOCK_SUMMARY_KEYS = [
  "lockOps",
  "grants",
  "expiries",
  "closes",
  "pauses",
  "clientCrashes",
  "fencedRefusals",
  "acknowledgedIncrements",
  "unknownOutcomes",
  "linChecks",
  "reads",
  "crossLockReadsChecked",
  "retriedWrites",
  "unknownWrites",
  "lateGrantsReleased",
  "clientDeadlinesPassed",
  "expiriesTimed",
  "sharedAcquires",
  "exclusiveKindAcquires",
  "permitAcquires",
  "setAcquires",
  "dataAcquires",
  "holdLimitAcquires",
  "sharedGrants",
  "permitGrants",
  "setGrants",
  "holdLimitEnds",
  "sharedFencedReads",
  "sharedFencedRefusals",
  "campaigns",
  "leads",
  "proclaims",
  "handoffs",
  "upgradeableAcquires",
  "upgradeableGrants",
  "upgradesAsked",
  "upgradesGivenUp",
  "upgrades",
  "upgradesWaited",
  "upgradeWaitsEnded",
  "downgradesAsked",
  "downgrades",
  "observedChanges",
  "observerResumes",
  "observerRestarts",
  "accessRuns",
  "policiesApplied",
  "adminProposals",
  "intrusions",
  "intrusionsRefused",
  "foreignEntries",
  "tokenEntries",
  "permissionDenied",
  "quotaRefusals",
  "quotaRecounts",
] as const;

/** Seeds of the lock run differ from the Raft run's, so the two explore different schedules. */
export function lockSeedOf(seed: number): number {
  return (Math.imul(seed, 0x9e3779b1) ^ 0x10c4) >>> 0;
}

export async function runLockSeed(
  seed: number,
  overrides: Partial<SimOptions> = {},
  verbose = false,
): Promise<SeedResult> {
  // Membership changes run in the Raft-level runs; the lock runs keep the initial three or five nodes.
  const base = drawOptions(seed, {
    faultMs: 3000,
    healMs: 2500,
    livenessBoundMs: 2000,
    membershipEveryMs: 0,
    ...overrides,
  });
  const opts: SimOptions = { ...base, seed: lockSeedOf(seed) };
  const sim = new LockSim(opts, verbose);
  const c = sim.c;
  const rng = new SeededRandom(opts.seed ^ 0x51ed);
  const workload = new LockWorkload(sim, rng, rng.int(3, 6));
  if (opts.access) {
    // Its own stream: the rest of the run draws what it drew before identities.
    const accessRng = new SeededRandom(opts.seed ^ 0xacce55);
    const policyAt = accessRng.int(100, opts.faultMs);
    sim.access = new SimAccess(sim, accessRng, policyAt, opts.faultMs + opts.healMs);
    workload.access = sim.access;
  }
  const observerRng = new SeededRandom(opts.seed ^ 0x0b5e);
  const observers = new ElectionObservers(
    ELECTIONS,
    observerRng,
    (msg) => c.checker.fail(`t=${c.sched.now.toFixed(1)} ${msg}`),
    observerRng.int(4, 64),
  );
  sim.observers = observers;
  await c.start();
  sim.access?.start();
  workload.start();
  // Observers move between nodes (crashes, snapshots, failovers) now and then.
  const moveObservers = (): void => {
    const up = c.nodes.flatMap((n) => {
      const host = sim.hosts.get(n.id);
      return n.up && host ? [{ id: n.id, instance: n.instance, state: host.sm }] : [];
    });
    observers.step(up);
    if (c.sched.now < opts.faultMs + opts.healMs) c.sched.after(50, "observers", moveObservers);
  };
  c.sched.after(10, "observers", moveObservers);
  // Every grant is one its client holds or is still settling (none is orphaned), looked at
  // in the committed state now and then.
  const lookForOrphans = (): void => {
    for (const v of workload.orphanedGrants(sim.committedState))
      c.checker.fail(`t=${c.sched.now.toFixed(1)} ${v}`);
    if (c.sched.now < opts.faultMs + opts.healMs)
      c.sched.after(250, "orphan-check", lookForOrphans);
  };
  c.sched.after(250, "orphan-check", lookForOrphans);
  const faults = new FaultInjector(c);
  faults.start(opts.faultMs);
  if (opts.partitionEveryMs > 0) workload.cutClientsEvery(opts.partitionEveryMs, opts.faultMs);
  await c.runUntil(opts.faultMs);
  const healAt = c.sched.now;
  await faults.healAll();
  await c.runUntil(healAt + opts.livenessBoundMs);
  const violations = [...c.checker.violations];
  if (violations.length === 0 && workload.completedSince(healAt) === 0) {
    violations.push(
      `liveness: no lock operation completed within ${opts.livenessBoundMs}ms after the network healed`,
    );
  }
  if (violations.length === 0) await c.runUntil(opts.faultMs + opts.healMs);
  workload.stop();
  for (const v of c.checker.violations) if (!violations.includes(v)) violations.push(v);
  let linChecks = 0;
  let readsChecked = 0;
  let crossLockReadsChecked = 0;
  if (violations.length === 0) {
    violations.push(...sim.resource.finalCheck(workload.acknowledged));
    const reads = sim.reads.check();
    readsChecked = reads.checked;
    crossLockReadsChecked = reads.crossLockChecked;
    violations.push(...reads.violations);
    if (opts.driftMax <= RHO) violations.push(...sim.checker.checkDeadlines());
    violations.push(...sim.expiries.check());
    // Revokes of the upgradeable locks' grants stay out, as those locks' operations do.
    const ends = sim.sessionEndEvents().flatMap((e): LockHistoryEvent[] => {
      if (e.kind !== "revoke") return [e];
      const grants = e.grants.filter((g) => inHistory(g.lock));
      return grants.length === 0 ? [] : [{ ...e, grants }];
    });
    const events = [...sim.history.filter((e) => !sim.omitted.has(e.id)), ...ends];
    const lin = checkLockHistory(events);
    linChecks = lin.perLock.size;
    if (!lin.ok) violations.push(`linearizability: ${lin.detail}`);
    sim.accessChecker?.recount(sim.committedState, "the end of the run");
    for (const v of c.checker.violations) if (!violations.includes(v)) violations.push(v);
  }
  const w = workload.stats;
  return {
    seed,
    ok: violations.length === 0,
    violations,
    hash: c.hash,
    options: opts,
    stats: {
      lockOps: w.ops,
      grants: sim.checker.stats.grants,
      expiries: sim.checker.stats.expiries,
      closes: sim.checker.stats.closes,
      pauses: w.pauses,
      clientCrashes: w.crashes,
      fencedRefusals: sim.resource.refusals,
      acknowledgedIncrements: [...workload.acknowledged.values()].reduce((a, b) => a + b, 0),
      unknownOutcomes: w.unknown,
      linChecks,
      reads: w.reads,
      readsChecked,
      crossLockReadsChecked,
      linOps: sim.history.length,
      retriedWrites: sim.clientEvents.retriedWrites,
      unknownWrites: sim.clientEvents.unknownWrites,
      lateGrantsReleased: sim.clientEvents.lateGrantsReleased,
      clientDeadlinesPassed: sim.clientEvents.deadlinesPassed,
      expiriesTimed: sim.expiries.checked,
      sharedAcquires: w.sharedAcquires,
      exclusiveKindAcquires: w.exclusiveKindAcquires,
      permitAcquires: w.permitAcquires,
      setAcquires: w.setAcquires,
      dataAcquires: w.dataAcquires,
      holdLimitAcquires: w.holdLimitAcquires,
      sharedGrants: sim.checker.stats.sharedGrants,
      permitGrants: sim.checker.stats.permitGrants,
      setGrants: sim.checker.stats.setGrants,
      holdLimitEnds: sim.checker.stats.holdLimitEnds,
      sharedFencedReads: sim.resource.sharedReads,
      sharedFencedRefusals: sim.resource.sharedRefusals,
      campaigns: w.campaigns,
      leads: w.leads,
      proclaims: w.proclaims,
      handoffs: sim.checker.stats.handoffs,
      upgradeableAcquires: w.upgradeableAcquires,
      upgradeableGrants: sim.checker.stats.upgradeableGrants,
      upgradesAsked: w.upgradesAsked,
      upgradesGivenUp: w.upgradesGivenUp,
      upgradesLearnt: w.upgradesLearnt,
      upgrades: sim.checker.stats.upgrades,
      upgradesWaited: sim.checker.stats.upgradesWaited,
      upgradeWaitsEnded: sim.checker.stats.upgradeWaitsEnded,
      downgradesAsked: w.downgradesAsked,
      downgrades: sim.checker.stats.downgrades,
      observedChanges: observers.stats.observedChanges,
      observerResumes: observers.stats.observerResumes,
      observerRestarts: observers.stats.observerRestarts,
      accessRuns: opts.access ? 1 : 0,
      policiesApplied: sim.access?.stats.policiesApplied ?? 0,
      adminProposals: sim.access?.stats.adminProposals ?? 0,
      intrusions: sim.access?.stats.intrusions ?? 0,
      intrusionsRefused: sim.access?.stats.intrusionsRefused ?? 0,
      foreignEntries: sim.accessChecker?.stats.foreignEntries ?? 0,
      tokenEntries: sim.accessChecker?.stats.tokenEntries ?? 0,
      permissionDenied: sim.accessChecker?.stats.permissionDenied ?? 0,
      quotaRefusals: sim.accessChecker?.stats.quotaRefusals ?? 0,
      quotaRecounts: sim.accessChecker?.stats.recounts ?? 0,
    },
    trace: c.traceLines ?? undefined,
  };
}
