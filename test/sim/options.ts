// Swarm testing: each seed switches fault classes on or off and draws their intensity,
// so different seeds stress different mixes.
import { SeededRandom } from "../../node/util/rng.ts";

export interface SimOptions {
  seed: number;
  nodes: number;
  tickMs: number;
  electionTicks: number;
  heartbeatTicks: number;
  /** Virtual milliseconds with faults, then with the network healed. */
  faultMs: number;
  healMs: number;
  /** After healing, a leader must be elected and a new proposal applied everywhere within this many ms. */
  livenessBoundMs: number;
  delayMinMs: number;
  delayMaxMs: number;
  lossRate: number;
  duplicateRate: number;
  /** Mean ms between partition changes (0: none). */
  partitionEveryMs: number;
  /** Mean ms between crashes (0: none). */
  crashEveryMs: number;
  /** Mean ms between event-loop stalls (0: none), and their longest length. */
  stallEveryMs: number;
  stallMaxMs: number;
  /** Largest tick-rate drift per node, as a fraction. */
  driftMax: number;
  diskMaxMs: number;
  /** Mean ms between membership changes (0: none): add a learner, promote it, remove a voter. */
  membershipEveryMs: number;
  /** Snapshot and compact the log every this many applied entries (0: never). */
  snapshotEvery: number;
  /** Mean ms between client proposals. */
  proposeEveryMs: number;
  maxInflightMsgs: number;
  maxBytesPerAppend: number;
  /**
   * Lock runs: clients act as two tenants' identities (one also by a bearer token), an admin
   * applies a policy with quotas at some point, and clients now and then call on another
   * identity's session.
   */
  access: boolean;
}

/** A three-node cluster with no random faults: scripted tests inject their own. */
export const QUIET: Partial<SimOptions> = Object.freeze({
  nodes: 3,
  lossRate: 0,
  duplicateRate: 0,
  partitionEveryMs: 0,
  crashEveryMs: 0,
  stallEveryMs: 0,
  driftMax: 0,
  delayMinMs: 1,
  delayMaxMs: 5,
  diskMaxMs: 1,
  maxInflightMsgs: 8,
  maxBytesPerAppend: 1 << 20,
  access: false,
});

export function drawOptions(seed: number, overrides: Partial<SimOptions> = {}): SimOptions {
  const r = new SeededRandom(seed ^ 0x5eed);
  const on = (p: number): boolean => r.chance(p);
  const opts: SimOptions = {
    seed,
    nodes: on(0.2) ? 5 : 3,
    tickMs: 10,
    electionTicks: 10,
    heartbeatTicks: 2,
    faultMs: 6000,
    healMs: 4000,
    livenessBoundMs: 3000,
    delayMinMs: 1,
    delayMaxMs: r.pick([3, 10, 30, 80]),
    lossRate: on(0.5) ? r.pick([0.01, 0.05, 0.15]) : 0,
    duplicateRate: on(0.4) ? r.pick([0.02, 0.1]) : 0,
    partitionEveryMs: on(0.6) ? r.pick([300, 800, 2000]) : 0,
    crashEveryMs: on(0.5) ? r.pick([400, 1000, 2500]) : 0,
    stallEveryMs: on(0.4) ? r.pick([500, 1500]) : 0,
    stallMaxMs: r.pick([50, 200, 600]),
    driftMax: on(0.5) ? r.pick([0.01, 0.05]) : 0,
    diskMaxMs: r.pick([1, 5, 20]),
    proposeEveryMs: r.pick([5, 20, 60]),
    membershipEveryMs: on(0.35) ? r.pick([400, 1200]) : 0,
    snapshotEvery: on(0.5) ? r.pick([10, 40, 150]) : 0,
    maxInflightMsgs: r.pick([1, 4, 64]),
    maxBytesPerAppend: r.pick([128, 1024, 1 << 20]),
    // Drawn apart, so that every other option of a seed is what it was before identities.
    access: new SeededRandom(seed ^ 0xacc).chance(0.5),
  };
  return { ...opts, ...overrides };
}

export function describeOptions(o: SimOptions): string {
  const parts = [
    `nodes=${o.nodes}`,
    `delay=${o.delayMinMs}-${o.delayMaxMs}ms`,
    `loss=${o.lossRate}`,
    `dup=${o.duplicateRate}`,
    `partitions=${o.partitionEveryMs ? `every~${o.partitionEveryMs}ms` : "off"}`,
    `crashes=${o.crashEveryMs ? `every~${o.crashEveryMs}ms` : "off"}`,
    `stalls=${o.stallEveryMs ? `every~${o.stallEveryMs}ms(max ${o.stallMaxMs}ms)` : "off"}`,
    `drift=${o.driftMax}`,
    `membership=${o.membershipEveryMs ? `every~${o.membershipEveryMs}ms` : "off"}`,
    `disk<=${o.diskMaxMs}ms`,
    `snapshots=${o.snapshotEvery ? `every ${o.snapshotEvery} entries` : "off"}`,
    `inflight=${o.maxInflightMsgs}`,
    `appendBytes=${o.maxBytesPerAppend}`,
    `access=${o.access ? "policy" : "open"}`,
  ];
  return parts.join(" ");
}
