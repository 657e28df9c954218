// Observe on the simulated cluster: observers of each election follow one node's events
// through the node's own watch hub and election view (node/api/observe.ts), as a gRPC
// Observe call does, and move to another node when theirs crashes, installs a snapshot,
// answers OUT_OF_RANGE, or at random (a client's failover), resuming from the index after
// the last change they received. Checked after every event:
// - a stream is a gap-free run of the log's own sequence of changes, from its start: a
//   resumed stream's first change is the first change at or after its resume index, and
//   each next change the next one; a stream started "now" begins with the state at its
//   index, which must be the committed state there;
// - so never an older leader after a newer one, and no change skipped or invented.
// The log's sequence is derived here, independently of the view: per committed entry, the
// election's leader (token, value) before and after it, and whether it was a Proclaim that
// took effect (a retried one, answered again, changes nothing).
import type { Command } from "../../../node/lock/commands.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import type { LockReader } from "../../../node/host/node-host.ts";
import type { NodeId } from "../../../node/raft/types.ts";
import type { SeededRandom } from "../../../node/util/rng.ts";
import type { ElectionEvent } from "../../../proto/lock-values.ts";
import { currentElectionEvent, electionView } from "../../../node/api/observe.ts";
import { WatchHub, type WatchCall } from "../../../node/api/watch-hub.ts";
import type { StatusError } from "../../../node/api/status.ts";

/** One change of an election in the log: who leads after it (token 0: nobody), and its value. */
interface Change {
  readonly index: number;
  readonly kind: "leader" | "value" | "noLeader";
  readonly token: bigint;
  readonly value: string;
}

interface Lead {
  readonly token: bigint;
  readonly value: string;
}

const NO_LEAD: Lead = { token: 0n, value: "" };

export interface ObserverStats {
  observedChanges: number;
  observerResumes: number;
  observerRestarts: number;
}

/** A node's hub, for the instance (boot) of the node that feeds it. */
interface NodeFeed {
  readonly instance: number;
  readonly hub: WatchHub;
}

class Observer implements WatchCall<ElectionEvent> {
  node: NodeId | null = null;
  /** The next index this stream must report from (its start, then after each change). */
  nextIndex = 0;
  /** Whether it has a place in the log yet (a state event, or a change). */
  placed = false;
  broken: string | null = null;
  private readonly listeners = new Map<string, Array<() => void>>();

  constructor(
    readonly election: string,
    private readonly onEvent: (o: Observer, e: ElectionEvent) => void,
  ) {}

  /** Detaches from the hub: it calls "cancelled" listeners, as a cancelled gRPC call would. */
  detach(): void {
    for (const l of this.listeners.get("cancelled") ?? []) l();
    this.listeners.clear();
  }

  on(event: "cancelled" | "close" | "drain", listener: () => void): unknown {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  emit(_event: "error", status: StatusError): boolean {
    this.broken = `${status.code}: ${status.details}`;
    this.listeners.clear();
    return true;
  }

  write(event: ElectionEvent): boolean {
    if (this.broken === null) this.onEvent(this, event);
    return true;
  }
}

export class ElectionObservers {
  readonly stats: ObserverStats = { observedChanges: 0, observerResumes: 0, observerRestarts: 0 };
  private readonly changes = new Map<string, Change[]>();
  private readonly lead = new Map<string, Lead>();
  private readonly feeds = new Map<NodeId, NodeFeed>();
  private readonly observers: Observer[] = [];

  constructor(
    private readonly elections: readonly string[],
    private readonly rng: SeededRandom,
    private readonly fail: (msg: string) => void,
    /** Events a node's hub keeps: small, so resumes meet OUT_OF_RANGE too. */
    private readonly ringCapacity: number,
  ) {
    for (const e of elections) {
      this.changes.set(e, []);
      this.lead.set(e, NO_LEAD);
      for (let i = 0; i < 2; i++) this.observers.push(new Observer(e, (o, ev) => this.seen(o, ev)));
    }
  }

  /** A committed entry, at its first apply anywhere: the log's own changes, from the state after it. */
  committed(index: number, cmd: Command | null, o: ApplyOutcome, state: LockReader): void {
    for (const election of this.elections) {
      const holder = state.getLock(election).holder;
      const after: Lead = holder
        ? { token: holder.token, value: holder.holderData ?? "" }
        : NO_LEAD;
      const before = this.lead.get(election) ?? NO_LEAD;
      this.lead.set(election, after);
      const list = this.changes.get(election) as Change[];
      if (after.token !== before.token) {
        list.push({ index, kind: after.token === 0n ? "noLeader" : "leader", ...after });
      } else if (
        cmd?.type === "proclaim" &&
        cmd.lock === election &&
        // A retried Proclaim gets its first answer again but changes nothing.
        o.events.some((e) => e.type === "proclaimed" && e.lock === election)
      ) {
        list.push({ index, kind: "value", ...after });
      }
    }
  }

  /** An entry applied on a node: its hub streams the entry's events to the observers there. */
  applied(node: NodeId, instance: number, index: number, o: ApplyOutcome | null): void {
    let feed = this.feeds.get(node);
    if (!feed || feed.instance !== instance) {
      for (const ob of this.observers) if (ob.node === node) this.drop(ob, "the node restarted");
      feed = {
        instance,
        hub: new WatchHub({
          ringCapacity: this.ringCapacity,
          maxQueuedPerWatcher: 1_000_000,
          firstIndex: index,
        }),
      };
      this.feeds.set(node, feed);
    }
    if (o !== null) feed.hub.publish(o.events);
  }

  /** A node replaced its state with a snapshot at `index`: its watchers end (SNAPSHOT_INSTALLED). */
  installed(node: NodeId, index: number): void {
    this.feeds.get(node)?.hub.reset(index);
  }

  /**
   * Moves observers: broken ones, ones on a node that is down, and now and then one at
   * random; each attaches to a node that is up, resuming after its last change.
   */
  step(up: ReadonlyArray<{ id: NodeId; instance: number; state: LockReader }>): void {
    for (const ob of this.observers) {
      const where = up.find((n) => n.id === ob.node);
      const feedOk = where !== undefined && this.feeds.get(where.id)?.instance === where.instance;
      if (ob.broken === null && ob.node !== null && feedOk && !this.rng.chance(0.05)) continue;
      if (up.length === 0) continue;
      const target = this.rng.pick(up);
      const feed = this.feeds.get(target.id);
      if (!feed || feed.instance !== target.instance) continue;
      this.attach(ob, target.id, feed.hub, target.state);
    }
  }

  private attach(ob: Observer, node: NodeId, hub: WatchHub, state: LockReader): void {
    ob.detach();
    ob.broken = null;
    ob.node = node;
    const view = electionView(ob.election, () => "");
    if (ob.placed) {
      this.stats.observerResumes++;
      hub.subscribe(ob, view, ob.nextIndex, state.appliedIndex);
      // Resumed where this node no longer has the events (OUT_OF_RANGE at once): start again.
      if (ob.broken === null) return;
      ob.detach();
      ob.broken = null;
    }
    // A stream that starts now (or again, once its resume point is gone): the state first.
    this.stats.observerRestarts++;
    const now = currentElectionEvent(ob.election, state);
    ob.placed = false;
    ob.write(now.event);
    hub.subscribe(ob, view, 0, Number(now.event.index));
  }

  private drop(ob: Observer, why: string): void {
    ob.detach();
    ob.broken = why;
  }

  /** Every event an observer receives, against the log's sequence. */
  private seen(ob: Observer, e: ElectionEvent): void {
    const index = Number(e.index);
    const list = this.changes.get(ob.election) as Change[];
    const what = `observer of ${ob.election} on node ${ob.node}`;
    const got = describe(e);
    if (!ob.placed) {
      // The state at its start: the committed lead at that index.
      ob.placed = true;
      ob.nextIndex = index + 1;
      const at = leadAt(list, index);
      const want = at.token === 0n ? "none" : `lead ${at.token} "${at.value}"`;
      const have = e.kind === "noLeader" ? "none" : `lead ${e.leader.token} "${e.leader.value}"`;
      if (want !== have)
        this.fail(`Observe: ${what} starts at index ${index} with ${have}; the log has ${want}`);
      return;
    }
    this.stats.observedChanges++;
    const next = list.find((c) => c.index >= ob.nextIndex);
    const want = next === undefined ? "nothing" : describeChange(next);
    if (next === undefined || next.index !== index || want !== got) {
      this.fail(
        `Observe: ${what}, resumed from index ${ob.nextIndex}, got ${got}; the log's next change is ${want}`,
      );
    }
    ob.nextIndex = index + 1;
  }
}

/** The lead after the last change at or before `index`. */
function leadAt(list: readonly Change[], index: number): Lead {
  let lead = NO_LEAD;
  for (const c of list) {
    if (c.index > index) break;
    lead = { token: c.token, value: c.value };
  }
  return lead;
}

function describe(e: ElectionEvent): string {
  if (e.kind === "noLeader") return `no leader at ${e.index}`;
  return `${e.kind} ${e.leader.token} "${e.leader.value}" at ${e.index}`;
}

function describeChange(c: Change): string {
  if (c.kind === "noLeader") return `no leader at ${c.index}`;
  return `${c.kind} ${c.token} "${c.value}" at ${c.index}`;
}
