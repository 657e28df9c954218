// A simulated cluster: N nodes, each the real RaftCore + Driver, on a simulated disk and
// network with virtual time. Faults: message loss, delay, reordering, duplication,
// partitions (symmetric and one-way), crashes that lose what is not durable, restarts from
// durable state, event-loop stalls and tick-rate drift.
import { RaftCore } from "../../node/raft/core.ts";
import type { Entry, Membership, Message, NodeId, Snapshot } from "../../node/raft/types.ts";
import { Driver, type Applier } from "../../node/host/driver.ts";
import type { HostConfig, HostEnv, HostHooks, HostLogger } from "../../node/host/host-env.ts";
import { NodeHost, type EntryResult } from "../../node/host/node-host.ts";
import type { RaftStorage } from "../../node/storage/log-store.ts";
import type { Transport } from "../../node/transport/transport.ts";
import { SeededRandom } from "../../node/util/rng.ts";
import { RaftChecker, type CheckedNode } from "./checkers/raft.ts";
import type { SimOptions } from "./options.ts";
import { Scheduler, settle } from "./scheduler.ts";
import { Disk, SimStorage } from "./sim-storage.ts";

/** The store a simulated node's driver uses (the simulated disk, checked on every save). */
type RaftStorageLike = RaftStorage;

/** A node's state machine; one that can snapshot itself lets the node compact its log. */
export type SimApp<R> = Applier<R> & { snapshot?(): Uint8Array };

export interface AppFactory<R> {
  /** A fresh state machine for a node (empty, or restored from the node's durable snapshot). */
  create(node: NodeId, snapshot: Snapshot | null): SimApp<R>;
}

/**
 * Nodes that run the real node host (node/host/node-host.ts) on the simulated disk,
 * network and clock, instead of a bare driver and a test state machine.
 */
export interface HostFactory {
  /** The node's own configuration (timings, limits: nodes may differ, as misconfigured ones do). */
  config(node: SimNode<EntryResult>): HostConfig;
  /** Observers of the run beside the cluster's own checks. */
  hooks?(node: SimNode<EntryResult>): HostHooks;
  /** The host of a node's new instance is running. */
  booted?(node: SimNode<EntryResult>, host: NodeHost): void;
}

/** What runs on the nodes: a test state machine behind the driver, or the node host. */
export type Runtime<R> = { readonly app: AppFactory<R> } | { readonly host: HostFactory };

const SILENT: HostLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  fatal: () => {},
};

export class SimNode<R> implements CheckedNode {
  up = false;
  instance = 0;
  core: RaftCore | undefined;
  driver: Driver<R> | undefined;
  app: SimApp<R> | undefined;
  /** The node host, when the cluster runs hosts. */
  host: NodeHost | undefined;
  /** A snapshot is being written: take no other until it is done. */
  compacting = false;
  readonly disk = new Disk();
  stalledUntil = 0;
  /** Writes issued by this instance and not yet durable. */
  writesInFlight = 0;
  /** A crash waiting for this node to have several writes in flight (see FaultInjector). */
  crashWhenWriting: (() => void) | undefined;
  readonly drift: number;
  private handler: ((m: Message) => void) | undefined;

  constructor(
    readonly id: NodeId,
    drift: number,
  ) {
    this.drift = drift;
  }

  deliver(m: Message): void {
    this.handler?.(m);
  }

  transport(send: (msgs: readonly Message[]) => void): Transport {
    return {
      send,
      onMessage: (h) => {
        this.handler = h;
      },
      close: async () => {},
    };
  }
}

export interface FaultCounts {
  crashes: number;
  restarts: number;
  snapshotsTaken: number;
  snapshotsInstalled: number;
  partitions: number;
  stalls: number;
  dropped: number;
  duplicated: number;
  delivered: number;
  /** The most writes one node had in flight at once. */
  maxWritesInFlight: number;
  /** Writes issued and lost to a crash before they completed. */
  writesLostInFlight: number;
}

export class SimCluster<R> {
  readonly sched = new Scheduler();
  readonly rng: SeededRandom;
  readonly nodes: SimNode<R>[] = [];
  readonly checker = new RaftChecker();
  readonly faults: FaultCounts = {
    crashes: 0,
    restarts: 0,
    snapshotsTaken: 0,
    snapshotsInstalled: 0,
    partitions: 0,
    stalls: 0,
    dropped: 0,
    duplicated: 0,
    delivered: 0,
    maxWritesInFlight: 0,
    writesLostInFlight: 0,
  };
  /** Directed links that carry nothing: "a>b". */
  blocked = new Set<string>();
  lossRate: number;
  duplicateRate: number;
  delayMaxMs: number;
  private traceHash = 0x811c9dc5;
  readonly traceLines: string[] | null;
  /** Called at each await point of a node's driver: a write issued, a write durable. */
  onWrite: ((node: SimNode<R>, point: "issued" | "durable") => void) | undefined;
  /** Scripted scenarios set a node's write latency with this (undefined: the seed's random latency). */
  diskDelay: ((node: NodeId) => number | undefined) | undefined;
  /** Scripted scenarios drop chosen messages with this. */
  dropFilter: ((m: Message) => boolean) | undefined;
  /** Append rejections sent, to see that conflict backtracking takes few round trips. */
  appendRejections = 0;
  /** Called after a node installed a snapshot from the leader. */
  onRestored: ((node: SimNode<R>, snapshot: Snapshot) => void) | undefined;
  /** Called after an entry is applied on a node, with the apply result. */
  onApplied: ((node: SimNode<R>, entry: Entry, result: R) => void) | undefined;

  constructor(
    readonly opts: SimOptions,
    private readonly runtime: Runtime<R>,
    verbose = false,
  ) {
    this.rng = new SeededRandom(opts.seed);
    this.lossRate = opts.lossRate;
    this.duplicateRate = opts.duplicateRate;
    this.delayMaxMs = opts.delayMaxMs;
    this.traceLines = verbose ? [] : null;
    for (let i = 1; i <= opts.nodes; i++) {
      const drift = opts.driftMax > 0 ? (this.rng.next() * 2 - 1) * opts.driftMax : 0;
      this.nodes.push(new SimNode<R>(i, drift));
    }
  }

  /** The membership of the cluster file: the first opts.nodes nodes. Nodes added later start with none. */
  get initialMembership(): Membership {
    return {
      voters: this.nodes.filter((n) => n.id <= this.opts.nodes).map((n) => n.id),
      learners: [],
    };
  }

  /**
   * The membership in effect after each applied config entry (first seen anywhere), in
   * index order: what a node that restarts from its durable state must come back with.
   */
  private readonly memberships: Array<{ readonly index: number; readonly json: string }> = [];

  private noteMembership(entry: Entry, membership: Membership): void {
    if (entry.kind !== "config") return;
    const last = this.memberships[this.memberships.length - 1];
    if (last && last.index >= entry.index) return;
    this.memberships.push({ index: entry.index, json: membershipJson(membership) });
  }

  /** A node just built from its durable state has the membership of the last config entry it knows to be committed. */
  private checkRestartMembership(
    n: SimNode<R>,
    durable: {
      snapshot: Snapshot | null;
      entries: readonly Entry[];
      hardState: { commit: number };
    },
  ): void {
    if (this.memberships.length === 0 || !n.core) return;
    let effective = durable.snapshot?.meta.index ?? 0;
    for (const e of durable.entries)
      if (e.kind === "config" && e.index <= durable.hardState.commit)
        effective = Math.max(effective, e.index);
    let expected: string | undefined;
    for (const m of this.memberships) if (m.index <= effective) expected = m.json;
    if (expected === undefined) return;
    const actual = membershipJson(n.core.membership);
    if (actual !== expected)
      this.checker.fail(
        `node ${n.id} restarted with membership ${actual}, but the committed one at index ${effective} is ${expected}`,
      );
  }

  /** Nodes removed from the membership: stopped for good. */
  readonly removed = new Set<NodeId>();

  /** Start a new, empty node that will join as a learner (its id is never reused). */
  async addNode(): Promise<SimNode<R>> {
    const n = new SimNode<R>(this.nodes.length + 1, 0);
    this.nodes.push(n);
    this.trace(`add node ${n.id}`);
    await this.boot(n);
    return n;
  }

  /** The current members as the newest leader sees them (all initial nodes before any leader). */
  members(): NodeId[] {
    const m = this.leader()?.core?.membership ?? this.initialMembership;
    return [...m.voters, ...m.learners];
  }

  node(id: NodeId): SimNode<R> {
    return this.nodes[id - 1]!;
  }

  trace(line: string): void {
    const s = `${this.sched.now} ${line}`;
    let h = this.traceHash;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    this.traceHash = h;
    this.traceLines?.push(s);
  }

  get hash(): string {
    return this.traceHash.toString(16).padStart(8, "0");
  }

  // ------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    for (const n of this.nodes) await this.boot(n);
  }

  private async boot(n: SimNode<R>): Promise<void> {
    n.instance++;
    const inst = n.instance;
    n.up = true;
    n.writesInFlight = 0;
    n.compacting = false;
    n.stalledUntil = 0;
    const storage = new SimStorage(n.disk, this.sched, {
      writeDelay: () => this.diskDelay?.(n.id) ?? this.rng.int(0, this.opts.diskMaxMs * 10) / 10,
      alive: () => n.up && n.instance === inst,
      resumeAt: () => n.stalledUntil,
      onIssued: () => {
        n.writesInFlight++;
        this.faults.maxWritesInFlight = Math.max(this.faults.maxWritesInFlight, n.writesInFlight);
        const crash = n.crashWhenWriting;
        if (crash && n.writesInFlight >= 2) {
          n.crashWhenWriting = undefined;
          // Not inside the driver's call: right after it, before the writes complete.
          this.sched.after(0, "crash at write", crash);
        }
        this.onWrite?.(n, "issued");
      },
      onDurable: () => {
        n.writesInFlight--;
        this.onWrite?.(n, "durable");
      },
    });
    const storageChecked = {
      load: () => storage.load(),
      save: (batch: Parameters<SimStorage["save"]>[0], sync: boolean) => {
        if (batch.entries && batch.entries.length > 0) this.checker.persisted(n, batch.entries);
        return storage.save(batch, sync);
      },
      compact: (snapshot: Snapshot, upTo: number) => storage.compact(snapshot, upTo),
      close: () => storage.close(),
    };
    const transport = n.transport((msgs) => this.send(n, inst, msgs));
    if ("host" in this.runtime)
      await this.bootHost(n, inst, this.runtime.host, storageChecked, transport);
    else await this.bootApp(n, inst, this.runtime.app, storageChecked, transport);
    this.trace(
      `boot ${n.id}#${inst} term=${n.core!.term} last=${n.core!.log.lastIndex()} commit=${n.core!.log.committed}`,
    );
    this.scheduleTick(n, inst);
  }

  /** A bare core and driver with a test state machine (the Raft-level runs). */
  private async bootApp(
    n: SimNode<R>,
    inst: number,
    factory: AppFactory<R>,
    storage: RaftStorageLike,
    transport: Transport,
  ): Promise<void> {
    const durable = await storage.load();
    const snap = durable.snapshot;
    const core = new RaftCore(
      {
        id: n.id,
        electionTicks: this.opts.electionTicks,
        heartbeatTicks: this.opts.heartbeatTicks,
        maxInflightMsgs: this.opts.maxInflightMsgs,
        maxBytesPerAppend: this.opts.maxBytesPerAppend,
        preVote: true,
        checkQuorum: true,
        random: new SeededRandom(this.rng.int(1, 2 ** 31)),
      },
      {
        hardState: durable.hardState,
        membership:
          snap?.meta.membership ??
          (n.id <= this.opts.nodes ? this.initialMembership : { voters: [], learners: [] }),
        snapshotIndex: snap?.meta.index ?? 0,
        snapshotTerm: snap?.meta.term ?? 0,
        entries: durable.entries,
      },
    );
    if (snap) core.compact(snap);
    const inner = factory.create(n.id, snap);
    const app: Applier<R> = {
      apply: (entry) => {
        this.checker.appliedEntry(n, entry);
        this.noteMembership(entry, core.membership);
        const r = inner.apply(entry);
        this.onApplied?.(n, entry, r);
        this.maybeSnapshot(n, inst, inner, entry);
        return r;
      },
      restore: (s) => {
        inner.restore(s);
        this.faults.snapshotsInstalled++;
        this.onRestored?.(n, s);
      },
    };
    const driver = new Driver<R>(core, storage, transport, app, {
      onSend: (m) => this.checker.sending(n, m),
      onFatal: (e) => this.checker.fail(`node ${n.id} stopped on a storage error: ${String(e)}`),
    });
    n.core = core;
    n.driver = driver;
    n.app = inner;
    this.checkRestartMembership(n, durable);
  }

  /** The real node host, on this node's drifting clock (the lock runs). */
  private async bootHost(
    n: SimNode<R>,
    inst: number,
    factory: HostFactory,
    storage: RaftStorageLike,
    transport: Transport,
  ): Promise<void> {
    const node = n as unknown as SimNode<EntryResult>;
    const alive = (): boolean => n.up && n.instance === inst;
    // Work the host defers or sleeps on runs on this instance's event loop: not after a
    // crash, and not while the loop is stalled.
    const onLoop = (fn: () => void): (() => void) => {
      const run = (): void => {
        if (!alive()) return;
        if (this.sched.now < n.stalledUntil) this.sched.at(n.stalledUntil, "loop-late", run);
        else fn();
      };
      return run;
    };
    const env: HostEnv = {
      now: () => this.sched.now / (1 + n.drift),
      wallMs: () => 0,
      random: new SeededRandom(this.rng.int(1, 2 ** 31)),
      defer: (fn) => this.sched.after(0, "defer", onLoop(fn)),
      sleep: (ms) =>
        new Promise<void>((resolve) =>
          this.sched.after(ms * (1 + n.drift), "sleep", onLoop(resolve)),
        ),
      logger: SILENT,
      storage,
      transport,
    };
    const extra = factory.hooks?.(node) ?? {};
    const hooks: HostHooks = {
      ...extra,
      onSend: (m) => {
        this.checker.sending(n, m);
        extra.onSend?.(m);
      },
      onFatal: (e) => this.checker.fail(`node ${n.id} stopped on a storage error: ${String(e)}`),
      onEntryApplied: (entry, result) => {
        this.checker.appliedEntry(n, entry);
        this.onApplied?.(n, entry, result as R);
        extra.onEntryApplied?.(entry, result);
      },
      onSnapshotInstalled: (index) => {
        this.faults.snapshotsInstalled++;
        extra.onSnapshotInstalled?.(index);
      },
      onSnapshotTaken: (index, bytes, seconds) => {
        this.faults.snapshotsTaken++;
        extra.onSnapshotTaken?.(index, bytes, seconds);
      },
    };
    const host = await NodeHost.boot(factory.config(node), env, hooks);
    n.host = host;
    n.core = host.driver.core;
    n.driver = host.driver as unknown as Driver<R>;
    factory.booted?.(node, host);
  }

  private scheduleTick(n: SimNode<R>, inst: number): void {
    const interval = this.opts.tickMs * (1 + n.drift);
    this.sched.after(interval, "tick", () => {
      if (!n.up || n.instance !== inst) return;
      // During a stall the event loop runs nothing; missed ticks are not caught up.
      if (this.sched.now >= n.stalledUntil) {
        if (n.host) n.host.tick();
        else n.driver!.tick();
      }
      this.scheduleTick(n, inst);
    });
  }

  /** Every opts.snapshotEvery applied entries, snapshot the state machine and compact the log. */
  private maybeSnapshot(n: SimNode<R>, inst: number, app: SimApp<R>, entry: Entry): void {
    const every = this.opts.snapshotEvery;
    const core = n.core;
    if (
      every <= 0 ||
      !app.snapshot ||
      !core ||
      n.compacting ||
      entry.index - core.log.offset < every
    )
      return;
    const snapshot: Snapshot = {
      meta: { index: entry.index, term: entry.term, membership: core.membership },
      data: app.snapshot(),
    };
    n.compacting = true;
    this.faults.snapshotsTaken++;
    n.driver!.compact(snapshot).then(
      () => {
        if (n.instance === inst) n.compacting = false;
      },
      () => {
        if (n.instance === inst) n.compacting = false;
      },
    );
  }

  crash(id: NodeId): void {
    const n = this.node(id);
    if (!n.up) return;
    n.up = false;
    n.crashWhenWriting = undefined;
    n.disk.crash(); // what was not synced is lost
    this.faults.writesLostInFlight += n.writesInFlight;
    n.writesInFlight = 0;
    if (n.host) n.host.stop();
    else n.driver?.stop();
    n.core = undefined;
    n.driver = undefined;
    n.host = undefined;
    this.faults.crashes++;
    this.trace(`crash ${id}`);
  }

  async restart(id: NodeId): Promise<void> {
    const n = this.node(id);
    if (n.up || this.removed.has(id)) return;
    this.faults.restarts++;
    await this.boot(n);
  }

  /** Node `at` is told its connection to `peer` was closed or refused (a no-op if `at` is down). */
  reportPeerDown(at: NodeId, peer: NodeId): void {
    const n = this.node(at);
    if (!n.up || this.sched.now < n.stalledUntil) return;
    this.trace(`peer down ${peer} reported to ${at}`);
    n.driver?.peerDown(peer);
  }

  /** Called for every stall a node begins (virtual ms from, to). */
  onStall: ((node: NodeId, from: number, to: number) => void) | undefined;

  stall(id: NodeId, ms: number): void {
    const n = this.node(id);
    this.onStall?.(id, this.sched.now, this.sched.now + ms);
    n.stalledUntil = Math.max(n.stalledUntil, this.sched.now + ms);
    this.faults.stalls++;
    this.trace(`stall ${id} ${ms}`);
  }

  /** Cut every link between the groups (both directions). */
  partition(groups: NodeId[][]): void {
    this.blocked.clear();
    for (const a of groups)
      for (const b of groups) {
        if (a === b) continue;
        for (const x of a) for (const y of b) this.blocked.add(`${x}>${y}`);
      }
    this.faults.partitions++;
    this.trace(`partition ${groups.map((g) => g.join(",")).join("|")}`);
  }

  cutOneWay(from: NodeId, to: NodeId): void {
    this.blocked.add(`${from}>${to}`);
    this.faults.partitions++;
    this.trace(`cut ${from}>${to}`);
  }

  healNetwork(): void {
    this.blocked.clear();
    this.trace("heal");
  }

  // ------------------------------------------------------------ network

  private send(from: SimNode<R>, inst: number, msgs: readonly Message[]): void {
    if (!from.up || from.instance !== inst) return;
    for (const m of msgs) {
      this.transmit(m);
      if (this.duplicateRate > 0 && this.rng.chance(this.duplicateRate)) {
        this.faults.duplicated++;
        this.transmit(m);
      }
    }
  }

  private transmit(m: Message): void {
    if (m.type === "appendResp" && !m.success && m.index > 0) this.appendRejections++;
    if (
      this.blocked.has(`${m.from}>${m.to}`) ||
      this.dropFilter?.(m) ||
      (this.lossRate > 0 && this.rng.chance(this.lossRate))
    ) {
      this.faults.dropped++;
      return;
    }
    const delay = this.rng.int(this.opts.delayMinMs * 10, this.delayMaxMs * 10) / 10;
    this.sched.after(delay, "msg", () => this.arrive(m));
  }

  private arrive(m: Message): void {
    const to = this.node(m.to);
    if (!to.up) return;
    if (this.sched.now < to.stalledUntil) {
      this.sched.at(to.stalledUntil, "msg-late", () => this.arrive(m));
      return;
    }
    this.faults.delivered++;
    this.trace(`deliver ${m.type} ${m.from}>${m.to} t${m.term}`);
    to.deliver(m);
  }

  // ------------------------------------------------------------ running

  /** The leader with the highest term among nodes that are up, if any. */
  leader(): SimNode<R> | undefined {
    let best: SimNode<R> | undefined;
    for (const n of this.nodes) {
      if (n.up && n.core?.role === "leader" && (!best || n.core.term > best.core!.term)) best = n;
    }
    return best;
  }

  /** Run events until virtual time `until`, checking invariants after every step. */
  async runUntil(until: number): Promise<void> {
    await settle();
    while (this.checker.violations.length === 0) {
      // An event past `until` stays queued for a later phase, in its place among events of
      // its time (a disk's writes complete in the order they were issued).
      const ev = this.sched.nextUntil(until);
      if (!ev) {
        if (this.sched.size > 0) this.sched.now = until;
        break;
      }
      ev.fn();
      await settle();
      this.checker.step(this.nodes, this.sched.now);
    }
  }
}

/** A membership as text with its keys in a fixed order, to compare two for equality. */
function membershipJson(m: Membership): string {
  const addresses = Object.entries(m.addresses ?? {}).sort(([a], [b]) => Number(a) - Number(b));
  return JSON.stringify({
    voters: m.voters,
    learners: m.learners,
    addresses,
    retired: m.retired ?? [],
  });
}
