// What a lock user wants to see in Prometheus: how long locks are held and waited for,
// how long the queues get, grants by kind and how grants end. Computed from the outcomes
// the host reports as entries apply (their events and timer changes).
//
// Durations are the time between two applies, on this node's monotonic clock (wall times
// in the log are display data of whichever node proposed: two leaders' clocks need not
// agree, and a clock jump would show as a long or negative hold). Starts are recorded on
// every node, so a new leader measures holds and waits begun under the old one; the
// counters and histograms move only on the node that leads when the end applies. The
// leader applies each entry right after it commits, so its apply times follow real time,
// whereas a follower catching up or replaying its log at start applies in bursts; and one
// count per event in the cluster lets dashboards `sum by (cluster)` across leader changes.
// A grant or wait whose start this process did not apply (before a restart, or inside a
// snapshot from the leader) is counted when it ends but not timed.
//
// Nothing is kept per grant: a grant's token carries the index that granted it, whose apply
// time the apply clock (apply-clock.ts) knows, and the state machine reports the mode of
// each grant an entry ended (ApplyOutcome.endedModes). Only a multi-lock set, which the
// state does not mark, is remembered while any of its locks is held: one count per set.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import {
  tokenIndex,
  type ApplyOutcome,
  type GrantMode,
  type LockEvent,
  type LockEventType,
  type LockInfo,
} from "../lock/index.ts";
import { ApplyClock } from "./apply-clock.ts";

/**
 * Every kind a grant may have, the `kind` label's fixed set: an exclusive, shared or
 * upgradeable grant of a lock, a semaphore permit, any lock of a multi-lock set, or an
 * election's lead.
 */
export const LOCK_KINDS = [
  "exclusive",
  "shared",
  "upgradeable",
  "semaphore",
  "multi",
  "election",
] as const;
export type LockKind = (typeof LOCK_KINDS)[number];

/** How a grant ended, as the `reason` label says it. */
export const END_REASONS = [
  "released",
  "session_closed",
  "session_expired",
  "revoked",
  "hold_limit",
  "handed_off",
  "upgraded",
  "downgraded",
] as const;
export type EndReasonLabel = (typeof END_REASONS)[number];

const REASON_OF: Readonly<
  Record<Exclude<LockEventType, "acquired" | "proclaimed">, EndReasonLabel>
> = {
  released: "released",
  sessionClosed: "session_closed",
  sessionExpired: "session_expired",
  revoked: "revoked",
};

/** A release another grant of the same entry completes, by what completes it. */
const ENDED_AS: Readonly<Record<NonNullable<LockEvent["ended"]>, EndReasonLabel>> = {
  handedOff: "handed_off",
  upgraded: "upgraded",
  downgraded: "downgraded",
};

const HOLD_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** The kind of a grant: a lock of a multi-lock set (`inSet`), a permit, or a lock's mode. */
function kindOf(mode: GrantMode | undefined, inSet: boolean): LockKind {
  if (inSet) return "multi";
  if (mode === "leader") return "election";
  if (mode === "permit") return "semaphore";
  return mode === "shared" || mode === "upgradeable" ? mode : "exclusive";
}

/** The grants an entry made as multi-lock sets (its own Acquire's answer, and the waits it granted), by session and token. */
function setGrantsOf(outcome: ApplyOutcome): Set<string> | null {
  let sets: Set<string> | null = null;
  const add = (sessionId: bigint | null, answer: ApplyOutcome["result"]): void => {
    // Every grant answer lists its locks; a set is one that lists more than one.
    if (answer.kind !== "granted" || answer.grants === undefined || answer.grants.length < 2)
      return;
    sets ??= new Set();
    for (const g of answer.grants)
      sets.add(sessionId === null ? `*:${g.token}:${g.lock}` : `${sessionId}:${g.token}:${g.lock}`);
  };
  add(null, outcome.result);
  for (const c of outcome.completions) add(c.sessionId, c.answer);
  return sets;
}

/**
 * The `lock_prefix` label of a lock: the longest allow-listed prefix its name starts with,
 * or "" (Prometheus drops an empty label, so without an allow-list no lock name shows).
 */
export class LockPrefixLabel {
  private readonly prefixes: readonly string[];

  constructor(prefixes: readonly string[]) {
    this.prefixes = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
  }

  /** Every value the label can take. */
  get values(): readonly string[] {
    return ["", ...this.prefixes];
  }

  of(lock: string): string {
    for (const p of this.prefixes) if (lock.startsWith(p)) return p;
    return "";
  }
}

export interface LockMetricsSource {
  /** Monotonic milliseconds. */
  now(): number;
  /** Whether this node leads now: only the leader counts and times lock activity. */
  isLeader(): boolean;
}

interface WaitStart {
  readonly key: string;
  readonly lock: string;
  /** Apply time of the Acquire that queued; null when this process did not apply it. */
  readonly at: number | null;
}

/** How an election got its leader: after a time without one, from the queue as the lead ended, or named. */
export const LEADER_CHANGES = ["elected", "succeeded", "handed_off"] as const;
/** Elections whose lead ended without a successor, remembered for the time until the next leader. */
const MAX_LEADERLESS_TRACKED = 10_000;

export class LockMetrics {
  private readonly leaderChanges: Counter<"how">;
  private readonly leaderless: Counter<"reason">;
  /** Elections without a leader since a lead ended: when (null: not applied here) and how it ended. */
  private readonly leaderlessSince = new Map<string, { at: number; reason: EndReasonLabel }>();
  private readonly grants: Counter<"kind" | "lock_prefix">;
  private readonly ends: Counter<"kind" | "reason" | "lock_prefix">;
  private readonly hold: Histogram<"kind" | "reason" | "lock_prefix">;
  private readonly wait: Histogram<"kind" | "lock_prefix">;
  /** When each index was applied here: a hold is timed from its token's index. */
  private readonly clock = new ApplyClock();
  /** Multi-lock sets begun here, by session and token: their locks still held. */
  private readonly heldSets = new Map<string, number>();
  /** Pending waits by session and lock (a session waits at most once per lock). */
  private readonly waits = new Map<string, WaitStart>();
  /** The same waits by session and first Acquire seq, as the timers name them when they end. */
  private readonly waitBySeq = new Map<string, string>();
  /** Waiters queued per lock. */
  private readonly queued = new Map<string, number>();

  constructor(
    registry: Registry,
    private readonly label: LockPrefixLabel,
    private readonly source: LockMetricsSource,
  ) {
    const registers = [registry];
    this.grants = new Counter({
      name: "palisade_lock_grants_total",
      help: "locks granted, by kind (counted by the leader when the grant applies)",
      labelNames: ["kind", "lock_prefix"],
      registers,
    });
    this.ends = new Counter({
      name: "palisade_lock_grants_ended_total",
      help: `grants that ended, by kind and reason: ${END_REASONS.join(", ")} (counted by the leader)`,
      labelNames: ["kind", "reason", "lock_prefix"],
      registers,
    });
    this.hold = new Histogram({
      name: "palisade_lock_hold_seconds",
      help: "time from a grant to its end, by kind and end reason (measured by the leader between the two applies)",
      labelNames: ["kind", "reason", "lock_prefix"],
      buckets: HOLD_BUCKETS,
      registers,
    });
    this.wait = new Histogram({
      name: "palisade_lock_wait_seconds",
      help: "time a queued Acquire waited until it was granted (measured by the leader between the two applies)",
      labelNames: ["kind", "lock_prefix"],
      buckets: WAIT_BUCKETS,
      registers,
    });
    // No label per election name: the counts of all elections together.
    this.leaderChanges = new Counter({
      name: "palisade_election_leader_changes_total",
      help: "new leaders of elections, by how: elected (after a time without a leader), succeeded (a candidate took over in the entry that ended the lead), handed_off (a named successor) (counted by the leader)",
      labelNames: ["how"],
      registers,
    });
    this.leaderless = new Counter({
      name: "palisade_election_leaderless_seconds_total",
      help: "time elections spent without a leader until the next one was elected, by how the last lead ended (measured by the leader between the applies)",
      labelNames: ["reason"],
      registers,
    });
    for (const how of LEADER_CHANGES) this.leaderChanges.inc({ how }, 0);
    for (const reason of END_REASONS) this.leaderless.inc({ reason }, 0);
    const queued = this.queued;
    const labelOf = (lock: string): string => label.of(lock);
    const values = label.values;
    new Gauge({
      name: "palisade_lock_queue_length_max",
      help: "waiters queued on the lock with the longest queue (in the applied state of this node)",
      labelNames: ["lock_prefix"],
      registers,
      collect() {
        const longest = new Map<string, number>(values.map((v) => [v, 0]));
        for (const [lock, n] of queued) {
          const p = labelOf(lock);
          if (n > (longest.get(p) ?? 0)) longest.set(p, n);
        }
        for (const [p, n] of longest) this.set({ lock_prefix: p }, n);
      },
    });
    // Series that exist from the start, so rate() and dashboards see zeros, not gaps.
    for (const p of values) {
      for (const kind of LOCK_KINDS) {
        this.grants.inc({ kind, lock_prefix: p }, 0);
        for (const reason of END_REASONS) this.ends.inc({ kind, reason, lock_prefix: p }, 0);
      }
    }
  }

  /** One applied entry's outcome. */
  applied(outcome: ApplyOutcome): void {
    const now = this.source.now();
    this.clock.record(outcome.index, now);
    const leading = this.source.isLeader();
    this.elections(outcome.events, now, leading);
    const sets = setGrantsOf(outcome);
    let ended = 0;
    for (const e of outcome.events) {
      if (e.type === "acquired") {
        const inSet =
          sets !== null &&
          (sets.has(`${e.sessionId}:${e.token}:${e.lock}`) || sets.has(`*:${e.token}:${e.lock}`));
        if (inSet) {
          const set = setKey(e.sessionId, e.token);
          this.heldSets.set(set, (this.heldSets.get(set) ?? 0) + 1);
        }
        if (!leading) continue;
        const lock_prefix = this.label.of(e.lock);
        const kind = kindOf(e.mode, inSet);
        this.grants.inc({ kind, lock_prefix });
        const queuedWait = this.waits.get(waitKey(e.sessionId, e.lock));
        if (queuedWait?.at != null)
          this.wait.observe({ kind, lock_prefix }, Math.max(0, now - queuedWait.at) / 1000);
        continue;
      }
      // A new value of an election's leader: its grant goes on.
      if (e.type === "proclaimed") continue;
      const mode = outcome.endedModes?.[ended++] ?? e.mode;
      const inSet = this.setEnded(e.sessionId, e.token);
      if (!leading) continue;
      const lock_prefix = this.label.of(e.lock);
      const kind = kindOf(mode, inSet);
      const at = this.clock.timeOf(tokenIndex(e.token));
      const reason =
        e.revokedFor === "holdLimit"
          ? "hold_limit"
          : e.ended !== undefined
            ? ENDED_AS[e.ended]
            : REASON_OF[e.type];
      this.ends.inc({ kind, reason, lock_prefix });
      if (at !== null)
        this.hold.observe({ kind, reason, lock_prefix }, Math.max(0, now - at) / 1000);
    }
    for (const w of outcome.timers.waitsStarted)
      this.waitStarted(w.sessionId, w.lock, w.acquireSeq, now);
    for (const w of outcome.timers.waitsEnded) this.waitEnded(w.sessionId, w.acquireSeq);
  }

  /** One lock of a set ended: was it of a set begun here? */
  private setEnded(sessionId: bigint, token: bigint): boolean {
    if (this.heldSets.size === 0) return false;
    const set = setKey(sessionId, token);
    const held = this.heldSets.get(set);
    if (held === undefined) return false;
    if (held > 1) this.heldSets.set(set, held - 1);
    else this.heldSets.delete(set);
    return true;
  }

  /** Leader changes of the elections an entry touched, and the time each was without a leader. */
  private elections(events: readonly LockEvent[], now: number, leading: boolean): void {
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as LockEvent;
      if (e.mode !== "leader" || e.type === "proclaimed") continue;
      if (e.type === "acquired") {
        const since = this.leaderlessSince.get(e.lock);
        this.leaderlessSince.delete(e.lock);
        const ended = events.find((x, j) => j < i && x.lock === e.lock && x.type !== "acquired");
        const how = ended?.ended === "handedOff" ? "handed_off" : ended ? "succeeded" : "elected";
        if (!leading) continue;
        this.leaderChanges.inc({ how });
        if (since)
          this.leaderless.inc({ reason: since.reason }, Math.max(0, now - since.at) / 1000);
        continue;
      }
      // A lead that ended: without a leader unless a candidate takes over in this entry.
      if (events.some((x, j) => j > i && x.lock === e.lock && x.type === "acquired")) continue;
      const reason =
        e.revokedFor === "holdLimit"
          ? "hold_limit"
          : REASON_OF[e.type as Exclude<LockEventType, "acquired" | "proclaimed">];
      this.leaderlessSince.set(e.lock, { at: now, reason });
      if (this.leaderlessSince.size > MAX_LEADERLESS_TRACKED)
        this.leaderlessSince.delete(this.leaderlessSince.keys().next().value as string);
    }
  }

  /**
   * The applied state was replaced (at start, or by a snapshot from the leader): what was
   * tracked is forgotten and the queues are taken from the new state, untimed.
   */
  stateReplaced(locks: Iterable<LockInfo>): void {
    // Whether a grant was part of a set is not in the state: it counts by its mode.
    this.heldSets.clear();
    this.leaderlessSince.clear();
    this.waits.clear();
    this.waitBySeq.clear();
    this.queued.clear();
    let granted = 0;
    for (const lock of locks) {
      // Its grants are not timed when they end: none began at an index applied here.
      for (const h of lock.holders ?? (lock.holder ? [lock.holder] : []))
        granted = Math.max(granted, tokenIndex(h.token));
      for (const w of lock.waiters) {
        const first = w.seqs[0];
        if (first !== undefined) this.waitStarted(w.sessionId, lock.name, first, null);
      }
    }
    this.clock.reset(granted);
  }

  private waitStarted(
    sessionId: bigint,
    lock: string,
    acquireSeq: number,
    at: number | null,
  ): void {
    const key = waitKey(sessionId, lock);
    if (this.waits.has(key)) return;
    this.waits.set(key, { key, lock, at });
    this.waitBySeq.set(seqKey(sessionId, acquireSeq), key);
    this.queued.set(lock, (this.queued.get(lock) ?? 0) + 1);
  }

  private waitEnded(sessionId: bigint, acquireSeq: number): void {
    const bySeq = seqKey(sessionId, acquireSeq);
    const key = this.waitBySeq.get(bySeq);
    if (key === undefined) return;
    this.waitBySeq.delete(bySeq);
    const wait = this.waits.get(key);
    this.waits.delete(key);
    if (!wait) return;
    const left = (this.queued.get(wait.lock) ?? 1) - 1;
    if (left > 0) this.queued.set(wait.lock, left);
    else this.queued.delete(wait.lock);
  }
}

function waitKey(sessionId: bigint, lock: string): string {
  return `${sessionId}\u0000${lock}`;
}

function setKey(sessionId: bigint, token: bigint): string {
  return `${sessionId}:${token}`;
}

function seqKey(sessionId: bigint, acquireSeq: number): string {
  return `${sessionId}:${acquireSeq}`;
}

/** Every held or waited-for lock of a state, page by page. */
export function* everyLock(state: {
  listLocks(options: { after?: string; limit?: number }): {
    locks: LockInfo[];
    nextAfter: string | null;
  };
}): IterableIterator<LockInfo> {
  let after: string | undefined;
  for (;;) {
    const page = state.listLocks({ ...(after !== undefined ? { after } : {}), limit: 1_000 });
    yield* page.locks;
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}
