// The driver owns one Raft core and runs its loop: step inputs, take a Ready, send its
// early messages, apply its committed entries, hand its write to storage, and take the next
// one without waiting for that write. Storage, transport and the state machine are
// injected, so the simulator and the real server run this very code.
//
// Ordering rules:
// - several batches' writes may be in flight (up to maxWrites); storage completes them in
//   the order they were given (RaftStorage.save), and each batch's completion is handled in
//   that order: its messages leave, its reads are confirmed, the core learns it is durable;
// - votes and append acknowledgements leave only after what they acknowledge is durable:
//   they are a batch's late messages, sent once that batch and every earlier one are durable;
// - a leader's appends may leave before its own write of the same entries completes (the
//   core counts the leader toward commit only in persisted(), once the write is durable),
//   so followers write batch k+1 while the leader writes batch k;
// - committed entries are durable on a quorum, so they are applied before this node's own
//   write of the same batch completes (not with a snapshot: that is stored, then restored);
// - a snapshot from the leader, and a local compaction, wait until every write in flight is
//   done, and nothing else is written meanwhile;
// - any storage error is fatal: the driver stops and reports it; a message the core
//   throws on is dropped and reported, and the node goes on.
import { NotLeaderError, ProposalDroppedError, type RaftCore } from "../raft/core.ts";
import type { MemberAddress, MembershipChange } from "../raft/membership.ts";
import type {
  Entry,
  InstallSnapshot,
  Message,
  NodeId,
  Ready,
  Snapshot,
  SoftState,
} from "../raft/types.ts";
import type { RaftStorage } from "../storage/log-store.ts";
import type { SnapshotStatus, Transport } from "../transport/transport.ts";
import type { Settler } from "./proposal-batcher.ts";

/** What the driver applies committed entries to. */
export interface Applier<R> {
  /** Apply one committed entry (every kind, in index order) and return its result. */
  apply(entry: Entry): R;
  /** Replace the whole state with a snapshot received from the leader. */
  restore(snapshot: Snapshot): void;
  /**
   * Throw if `restore` could not load this snapshot (a damaged body, another version's
   * format). Called before the snapshot is stored or reaches the core, so a node never makes
   * durable a snapshot it would then fail to start from.
   */
  validateSnapshot?(snapshot: Snapshot): void;
}

export interface DriverHooks {
  /** Role, leader or term changed. */
  onSoftState?(soft: SoftState): void;
  /** A message is about to leave (the simulator checks durability of acknowledgements here). */
  onSend?(message: Message): void;
  /** The driver stopped on a storage error; the process must exit and recover from disk. */
  onFatal?(error: unknown): void;
  /** The core threw while stepping this message: it was dropped (and counted), and the node goes on. */
  onStepError?(message: Message, error: unknown): void;
  /** A snapshot from the leader failed the applier's check: it was dropped (and counted), nothing was stored. */
  onSnapshotRejected?(message: InstallSnapshot, error: unknown): void;
}

/** The entry of a proposal was replaced by another leader's entry: it will never apply. */
export class ProposalLostError extends Error {
  constructor(readonly index: number) {
    super(`proposal at index ${index} was overwritten by a new leader`);
  }
}

export class DriverStoppedError extends Error {}

export interface DriverOptions {
  /** Batches whose writes may be in flight at once (default 64; 1 writes one at a time). */
  readonly maxWrites?: number;
}

const DEFAULT_MAX_WRITES = 64;

/** A read could not be confirmed (no leader, or leadership was lost while confirming). */
export class ReadIndexFailedError extends Error {
  constructor(readonly leader: NodeId) {
    super("no leader could confirm the read");
  }
}

type Input =
  | { kind: "tick" }
  | { kind: "message"; message: Message }
  | { kind: "peerDown"; peer: NodeId }
  | { kind: "snapshotStatus"; peer: NodeId; status: SnapshotStatus };

/** Told once its entry applied here (with the apply result) or never will. */
export type ProposalSettler<R> = Settler<{ index: number; result: R }>;

interface ProposalWaiter<R> {
  readonly term: number;
  readonly settler: ProposalSettler<R>;
}

interface ReadWaiter {
  index: number;
  /** Resolve at confirmation, without waiting for apply to reach the index (see confirmLeadership). */
  readonly confirmOnly: boolean;
  resolve(index: number): void;
  reject(error: unknown): void;
}

export class Driver<R> {
  readonly core: RaftCore;
  private readonly storage: RaftStorage;
  private readonly transport: Transport;
  private readonly applier: Applier<R>;
  private readonly hooks: DriverHooks;

  private inbox: Input[] = [];
  private compactions: Array<{
    snapshot: Snapshot;
    resolve: () => void;
    reject: (e: unknown) => void;
  }> = [];
  private running = false;
  /** Batches taken from the core whose completion is not handled yet. */
  private writing = 0;
  /** Settles once the completion of every batch taken so far is handled. */
  private writesDone: Promise<void> = Promise.resolve();
  private readonly maxWrites: number;
  private stopped = false;
  private proposals = new Map<number, ProposalWaiter<R>>();
  private reads = new Map<number, ReadWaiter>();
  /** Confirmed reads waiting for apply to reach their index, by request id. */
  private readsAwaitingApply: ReadWaiter[] = [];
  /** Calls waiting for apply to reach an index (see untilApplied). */
  private applyWaiters: Array<{
    readonly index: number;
    resolve(): void;
    reject(error: unknown): void;
  }> = [];
  private nextReadId = 1;
  /** While above 0, committed entries wait in `toApply` (see holdApply). */
  private applyHolds = 0;
  private toApply: Entry[] = [];
  private soft: SoftState;
  /** Calls waiting for the soft state to satisfy a condition (see whenSoftState). */
  private softWaiters = new Set<{
    readonly holds: (soft: SoftState) => boolean;
    resolve(held: boolean): void;
  }>();
  /** Index of the last entry applied to the state machine. */
  applied: number;
  /** Messages dropped because the core threw while stepping them. */
  droppedMessages = 0;
  /** Snapshots from the leader dropped because the applier could not load them. */
  rejectedSnapshots = 0;

  constructor(
    core: RaftCore,
    storage: RaftStorage,
    transport: Transport,
    applier: Applier<R>,
    hooks: DriverHooks = {},
    options: DriverOptions = {},
  ) {
    this.maxWrites = Math.max(1, options.maxWrites ?? DEFAULT_MAX_WRITES);
    this.core = core;
    this.storage = storage;
    this.transport = transport;
    this.applier = applier;
    this.hooks = hooks;
    this.soft = core.softState();
    this.applied = core.log.applied;
    transport.onMessage((m) => this.receive(m));
    transport.onPeerDown?.((peer) => this.peerDown(peer));
    transport.onSnapshotStatus?.((peer, status) =>
      this.enqueue({ kind: "snapshotStatus", peer, status }),
    );
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Waits until `holds` is true of the reported soft state: resolves true then, or false when
   * the driver stops first. `cancel` resolves it false and forgets it (the caller's deadline).
   */
  whenSoftState(holds: (soft: SoftState) => boolean): {
    readonly held: Promise<boolean>;
    cancel(): void;
  } {
    if (holds(this.soft)) return { held: Promise.resolve(true), cancel: () => undefined };
    if (this.stopped) return { held: Promise.resolve(false), cancel: () => undefined };
    let waiter!: { holds: (soft: SoftState) => boolean; resolve(held: boolean): void };
    const held = new Promise<boolean>((resolve) => {
      waiter = { holds, resolve };
    });
    this.softWaiters.add(waiter);
    return {
      held,
      cancel: () => {
        if (this.softWaiters.delete(waiter)) waiter.resolve(false);
      },
    };
  }

  tick(): void {
    this.enqueue({ kind: "tick" });
  }

  receive(message: Message): void {
    this.enqueue({ kind: "message", message });
  }

  /** The transport saw the connection to `peer` closed or refused (see RaftCore.reportPeerDown). */
  peerDown(peer: NodeId): void {
    this.enqueue({ kind: "peerDown", peer });
  }

  /**
   * Propose commands; each promise resolves with the command's apply result once it is
   * committed and applied here, or rejects with NotLeaderError / ProposalDroppedError
   * (not appended: safe to retry) or ProposalLostError (appended, then overwritten).
   */
  propose(data: readonly Uint8Array[]): Array<Promise<{ index: number; result: R }>> {
    const settlers: Array<ProposalSettler<R>> = [];
    const out = data.map(
      () =>
        new Promise<{ index: number; result: R }>((resolve, reject) =>
          settlers.push({ resolve, reject }),
        ),
    );
    this.proposeTo(data, settlers);
    return out;
  }

  /**
   * As propose, telling `settlers[i]` how `data[i]` ends instead of making a promise per
   * command (the node's batches already hold a waiter per request).
   */
  proposeTo(data: readonly Uint8Array[], settlers: ReadonlyArray<ProposalSettler<R>>): void {
    if (this.stopped) {
      for (const s of settlers) s.reject(new DriverStoppedError("driver stopped"));
      return;
    }
    let first: { index: number; term: number };
    try {
      first = this.core.propose(data);
    } catch (e) {
      for (const s of settlers) s.reject(e);
      return;
    }
    for (let i = 0; i < data.length; i++)
      this.proposals.set(first.index + i, { term: first.term, settler: settlers[i]! });
    this.kick();
  }

  /** A linearizable read point: resolves once this node has applied up to a confirmed read index. */
  readIndex(): Promise<number> {
    return this.startRead(false);
  }

  /**
   * Resolves once a quorum round that started after this call confirmed this node's
   * leadership (a ReadIndex confirmation), without waiting for apply to reach the read
   * index: for what needs only to know the node still leads (a keepalive), so it is
   * answered also while applying is held (a snapshot being encoded).
   */
  confirmLeadership(): Promise<number> {
    return this.startRead(true);
  }

  /** Resolves once this node has applied up to `index` (at once if it has); rejects if the driver stops. */
  untilApplied(index: number): Promise<void> {
    if (this.stopped) return Promise.reject(new DriverStoppedError("driver stopped"));
    if (this.applied >= index) return Promise.resolve();
    return new Promise((resolve, reject) => this.applyWaiters.push({ index, resolve, reject }));
  }

  /** Asks the core for a read index; `confirmOnly`: resolve at confirmation, not once applied up to it. */
  private startRead(confirmOnly: boolean): Promise<number> {
    if (this.stopped) return Promise.reject(new DriverStoppedError("driver stopped"));
    const id = this.nextReadId++;
    const p = new Promise<number>((resolve, reject) =>
      this.reads.set(id, { index: 0, confirmOnly, resolve, reject }),
    );
    this.core.readIndex(id);
    this.kick();
    return p;
  }

  /** Propose one membership change; resolves once it is applied here (it then is in effect on this node). */
  proposeMembershipChange(
    change: MembershipChange,
    address?: MemberAddress,
  ): Promise<{ index: number; result: R }> {
    if (this.stopped) return Promise.reject(new DriverStoppedError("driver stopped"));
    let at: { index: number; term: number };
    try {
      at = this.core.proposeMembershipChange(change, address);
    } catch (e) {
      return Promise.reject(e);
    }
    const p = new Promise<{ index: number; result: R }>((resolve, reject) => {
      this.proposals.set(at.index, { term: at.term, settler: { resolve, reject } });
    });
    this.kick();
    return p;
  }

  /**
   * Holds applying committed entries until the returned function is called; persisting,
   * sending, committing and reads waiting for their index go on. The state machine then
   * does not change, so a host can encode a snapshot of it a slice at a time without
   * blocking the event loop. A membership change still takes effect in the core at commit,
   * as without a hold; the applier sees it, in order, once the hold ends.
   */
  holdApply(): () => void {
    this.applyHolds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.applyHolds--;
      if (this.applyHolds === 0 && this.toApply.length > 0) this.kickApply();
    };
  }

  /** Committed entries waiting for a hold to end. */
  get applyBacklog(): number {
    return this.toApply.length;
  }

  transferLeadership(to: NodeId): void {
    this.core.transferLeadership(to);
    this.kick();
  }

  /** Stop: reject every waiter. The storage and transport are closed by their owner. */
  stop(error: unknown = new DriverStoppedError("driver stopped")): void {
    if (this.stopped) return;
    this.stopped = true;
    this.inbox = [];
    for (const w of this.proposals.values()) w.settler.reject(error);
    for (const w of this.reads.values()) w.reject(error);
    for (const w of this.readsAwaitingApply) w.reject(error);
    for (const w of this.applyWaiters) w.reject(error);
    this.applyWaiters = [];
    for (const w of this.softWaiters) w.resolve(false);
    this.softWaiters.clear();
    for (const c of this.compactions) c.reject(error);
    this.compactions = [];
    this.proposals.clear();
    this.reads.clear();
    this.readsAwaitingApply = [];
    this.toApply = [];
  }

  private enqueue(input: Input): void {
    if (this.stopped) return;
    this.inbox.push(input);
    this.kick();
  }

  /** Start the loop unless it is already running (then the input waits in the inbox). */
  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      // New appends (a proposal) need not wait for a snapshot or compaction being written.
      if (this.writing > 0) this.send(this.core.takeEarlyMessages());
      return;
    }
    this.running = true;
    void this.loop();
  }

  /** Applies what waited for a hold, unless the loop runs (it does so itself between batches). */
  private kickApply(): void {
    if (this.running || this.stopped) return;
    this.kick();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped) {
        this.applyHeld();
        if (this.compactions.length > 0) {
          await this.settleWrites();
          if (this.stopped) break;
          await this.compactNow(this.compactions.shift()!);
        }
        if (this.stopped) break;
        this.drainInbox();
        if (!this.core.hasReady()) break;
        if (this.writing >= this.maxWrites) {
          // Full: new appends still leave; the next completion starts the loop again.
          this.send(this.core.takeEarlyMessages());
          break;
        }
        const rd = this.core.ready();
        if (rd.snapshot) {
          await this.settleWrites();
          if (this.stopped) break;
          await this.installSnapshot(rd);
        } else this.startBatch(rd);
      }
    } catch (e) {
      this.fail(e);
    } finally {
      this.running = false;
    }
  }

  /** A storage error: the driver stops and the host must restart the node from disk. */
  private fail(error: unknown): void {
    if (this.stopped) return;
    this.hooks.onFatal?.(error);
    this.stop(error);
  }

  /** Resolves once the completion of every batch taken so far is handled (or failed). */
  private async settleWrites(): Promise<void> {
    await this.writesDone.catch(() => undefined);
  }

  /**
   * Record a snapshot of the state machine taken at `snapshot.meta.index` (≤ applied) and
   * drop the log up to it, on disk and then in the core. Runs once every write in flight is
   * done, and nothing else is written meanwhile; resolves when done (or when a newer
   * snapshot made it moot).
   */
  compact(snapshot: Snapshot): Promise<void> {
    if (this.stopped) return Promise.reject(new DriverStoppedError("driver stopped"));
    return new Promise((resolve, reject) => {
      this.compactions.push({ snapshot, resolve, reject });
      this.kick();
    });
  }

  private async compactNow(c: {
    snapshot: Snapshot;
    resolve: () => void;
    reject: (e: unknown) => void;
  }): Promise<void> {
    const { index } = c.snapshot.meta;
    if (index <= this.core.log.offset || index > this.applied || !this.storage.compact) {
      c.resolve();
      return;
    }
    try {
      await this.storage.compact(c.snapshot, index);
    } catch (e) {
      c.reject(e);
      throw e;
    }
    if (!this.stopped && index > this.core.log.offset) this.core.compact(c.snapshot);
    c.resolve();
  }

  private drainInbox(): void {
    const inputs = this.inbox;
    this.inbox = [];
    for (const input of inputs) {
      if (input.kind === "tick") this.core.tick();
      else if (input.kind === "peerDown") this.core.reportPeerDown(input.peer);
      else if (input.kind === "snapshotStatus") this.reportSnapshot(input.peer, input.status);
      else this.stepMessage(input.message);
    }
  }

  private reportSnapshot(peer: NodeId, status: SnapshotStatus): void {
    if (status === "progress") this.core.reportSnapshotProgress(peer);
    else this.core.reportSnapshotFailure(peer);
  }

  /**
   * Only storage errors are fatal: a message the core throws on (a peer's bug that the codec
   * did not recognise) is dropped, so one bad peer cannot stop the node.
   */
  private stepMessage(message: Message): void {
    if (message.type === "snapshot" && !this.snapshotLoads(message)) return;
    try {
      this.core.step(message);
    } catch (error) {
      this.droppedMessages++;
      this.hooks.onStepError?.(message, error);
    }
  }

  /** Whether a snapshot the core would install passes the applier's check (see Applier.validateSnapshot). */
  private snapshotLoads(message: InstallSnapshot): boolean {
    if (!this.applier.validateSnapshot || !this.core.wouldInstallSnapshot(message)) return true;
    try {
      this.applier.validateSnapshot(message.snapshot);
      return true;
    } catch (error) {
      // The leader's snapshot state times out and it sends the snapshot again; meanwhile this
      // node keeps its log and its state, both intact.
      this.rejectedSnapshots++;
      this.hooks.onSnapshotRejected?.(message, error);
      return false;
    }
  }

  /**
   * Sends the batch's early messages, applies its committed entries and hands its write to
   * storage; its completion is handled after every earlier batch's (see finishBatch).
   */
  private startBatch(rd: Ready): void {
    if (rd.earlyMessages.length > 0) this.send(rd.earlyMessages);
    this.applyCommitted(rd.committed);
    const write =
      rd.hardState || rd.entries.length > 0
        ? this.storage.save({ hardState: rd.hardState, entries: rd.entries }, rd.mustSync)
        : null;
    this.writing++;
    const done = Promise.all([this.writesDone, write]).then(() => this.finishBatch(rd));
    this.writesDone = done;
    done.catch((e: unknown) => this.fail(e));
  }

  /** The batch's write, and every earlier one, is durable. */
  private finishBatch(rd: Ready): void {
    if (this.stopped) return;
    this.writing--;
    this.send(rd.messages);
    this.completed(rd);
    if (this.core.hasReady()) this.kick();
  }

  /** A snapshot from the leader: stored, restored, then the rest of its batch, with no other write in flight. */
  private async installSnapshot(rd: Ready): Promise<void> {
    if (rd.earlyMessages.length > 0) this.send(rd.earlyMessages);
    this.writing++;
    try {
      await this.storage.save(
        { hardState: rd.hardState, entries: rd.entries, snapshot: rd.snapshot },
        rd.mustSync,
      );
    } finally {
      this.writing--;
    }
    if (this.stopped || !rd.snapshot) return;
    this.applier.restore(rd.snapshot);
    this.applied = rd.snapshot.meta.index;
    this.failProposalsUpTo(this.applied);
    this.send(rd.messages);
    this.toApply = this.toApply.filter((e) => e.index > this.applied);
    this.applyCommitted(rd.committed);
    this.completed(rd);
  }

  /** What follows a batch's durability: reads confirmed, the core told, the soft state reported. */
  private completed(rd: Ready): void {
    for (const rs of rd.readStates) this.confirmRead(rs.requestId, rs.index);
    this.releaseReads();
    this.core.persisted(rd);
    if (rd.soft.role !== "leader" && this.proposals.size > 0) this.failOverwrittenProposals();
    if (
      rd.soft.role !== this.soft.role ||
      rd.soft.leader !== this.soft.leader ||
      rd.soft.term !== this.soft.term
    ) {
      this.soft = rd.soft;
      this.hooks.onSoftState?.(rd.soft);
      for (const w of this.softWaiters) {
        if (!w.holds(rd.soft)) continue;
        this.softWaiters.delete(w);
        w.resolve(true);
      }
    }
  }

  private send(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    if (this.hooks.onSend) for (const m of messages) this.hooks.onSend(m);
    this.transport.send(messages);
  }

  /** Applies a batch's committed entries in order, or queues them behind a hold. */
  private applyCommitted(committed: readonly Entry[]): void {
    for (const entry of committed) {
      if (this.applyHolds === 0 && this.toApply.length === 0) {
        this.applyEntry(entry);
        continue;
      }
      if (entry.kind === "config") this.core.applyConfigEntry(entry);
      this.toApply.push(entry);
    }
    this.applyHeld();
  }

  /** Applies, in order, the committed entries that waited for a hold that has ended. */
  private applyHeld(): void {
    if (this.applyHolds > 0 || this.toApply.length === 0) return;
    const entries = this.toApply;
    this.toApply = [];
    for (const entry of entries) this.applyEntry(entry, false);
    this.releaseReads();
  }

  private applyEntry(entry: Entry, configInCore = true): void {
    if (configInCore && entry.kind === "config") this.core.applyConfigEntry(entry);
    const result = this.applier.apply(entry);
    this.applied = entry.index;
    const waiter = this.proposals.get(entry.index);
    if (!waiter) return;
    this.proposals.delete(entry.index);
    if (waiter.term === entry.term) waiter.settler.resolve({ index: entry.index, result });
    else waiter.settler.reject(new ProposalLostError(entry.index));
  }

  private failProposalsUpTo(index: number): void {
    for (const [i, w] of this.proposals) {
      if (i <= index) {
        this.proposals.delete(i);
        w.settler.reject(new ProposalLostError(i));
      }
    }
  }

  /**
   * A leader that stepped down keeps its proposal waiters: the entries may still commit
   * under the next leader. Those whose entries are gone from the log will never apply.
   */
  private failOverwrittenProposals(): void {
    for (const [i, w] of this.proposals) {
      if (this.core.log.term(i) !== w.term) {
        this.proposals.delete(i);
        w.settler.reject(new ProposalLostError(i));
      }
    }
  }

  private confirmRead(requestId: number, index: number): void {
    const w = this.reads.get(requestId);
    if (!w) return;
    this.reads.delete(requestId);
    if (index === 0) {
      w.reject(new ReadIndexFailedError(this.core.leader));
      return;
    }
    w.index = index;
    if (w.confirmOnly) w.resolve(index);
    else this.readsAwaitingApply.push(w);
  }

  private releaseReads(): void {
    if (this.applyWaiters.length > 0) {
      const waiting = this.applyWaiters;
      this.applyWaiters = waiting.filter((w) => w.index > this.applied);
      for (const w of waiting) if (w.index <= this.applied) w.resolve();
    }
    if (this.readsAwaitingApply.length === 0) return;
    const still: ReadWaiter[] = [];
    for (const w of this.readsAwaitingApply) {
      if (w.index <= this.applied) w.resolve(w.index);
      else still.push(w);
    }
    this.readsAwaitingApply = still;
  }
}

export { NotLeaderError, ProposalDroppedError };
