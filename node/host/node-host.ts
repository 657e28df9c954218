// One node's deterministic host: the Raft core and its driver, the lock state machine and
// the leader's lease timers, booted from durable state, and everything around them that
// decides something: apply dispatch, the proposal pipeline (batching, refusal while writes
// are refused, metrics), the snapshot policy, stall handling, the replicated limits, the
// member address book and the leadership hand-over before a stop. Time, randomness,
// storage and transport are injected (host-env.ts), so the server (node/server/node.ts)
// and the simulator (test/sim) run this very code.
import {
  encodeEntry,
  encodeNodeCommand,
  isNodeCommand,
  isSequenced,
  LeaseKeeper,
  LockStateMachine,
  sameLimits,
  sessionEnded,
  SnapshotError,
  validateCommand,
  type ApplyOutcome,
  type Command,
  type DecodedEntry,
  type KeepAliveResult,
  type LockLimits,
} from "../lock/index.ts";
import type { RaftCore, RaftStatus } from "../raft/core.ts";
import type { Entry, NodeId, Snapshot, SoftState } from "../raft/types.ts";
import { AcquireWaiters } from "./acquire-waiters.ts";
import { Driver, type Applier, type ProposalSettler } from "./driver.ts";
import { failureOf, notLeader, RequestFailure } from "./failures.ts";
import type { HostConfig, HostEnv, HostHooks, HostLogger } from "./host-env.ts";
import { ProposalBatcher } from "./proposal-batcher.ts";
import { recoverReplica } from "./recover.ts";
import { runSliced } from "./sliced.ts";

/** The apply result of one entry: the state machine's outcome, or null for a no-op or config entry. */
export type EntryResult = ApplyOutcome | null;

/** The reads a request may make of the applied state (after a ReadIndex). */
export type LockReader = Pick<
  LockStateMachine,
  | "getLock"
  | "lockPage"
  | "listLocks"
  | "listLockPages"
  | "getSession"
  | "listSessions"
  | "history"
  | "validateToken"
  | "hasSession"
  | "sessionTtl"
  | "epoch"
  | "appliedIndex"
  | "limits"
  | "stats"
  | "checkInvariants"
  | "accessState"
  | "sessionOwner"
  | "whoseSession"
  | "sessionLocks"
>;

/** Longest stretch of snapshot encoding between two turns of the event loop. */
const SNAPSHOT_SLICE_MS = 4;
/** Timer proposals of one check logged a line each; more are logged as one line with their counts. */
const TIMER_LINES_MAX = 10;

export class NodeHost {
  readonly id: NodeId;
  readonly clusterId: string;
  readonly driver: Driver<EntryResult>;
  readonly keeper: LeaseKeeper;
  readonly waiters = new AcquireWaiters();
  readonly logger: HostLogger;

  private sm: LockStateMachine;
  /**
   * A client write this leader proposed, by its entry's bytes: the command they decode to
   * (the request was decoded on arrival, the entry carries those very bytes), so applying
   * its own entries skips decoding them again. Entries read back from disk are decoded.
   */
  private readonly proposedCommands = new WeakMap<Uint8Array, DecodedEntry>();
  private readonly batcher: ProposalBatcher<{ index: number; result: EntryResult }>;
  private readonly peerAddresses = new Map<NodeId, string>();
  private readonly clientAddresses = new Map<NodeId, string>();
  private lastTickAt: number | null = null;
  /** Term in which this node's lease timers were started; 0 while not leader. */
  private leaderTerm = 0;
  private snapshotting = false;
  /** Term in which this node, as leader, appended its setLimits entry (0: none in this term). */
  private limitsTerm = 0;
  /** Whether the replicated limits differed from the file's at the last look (logged on change). */
  private limitsDiffer = false;
  /** The snapshot from the leader that validateSnapshot last decoded, until it is installed. */
  private checkedSnapshot: { readonly snapshot: Snapshot; readonly sm: LockStateMachine } | null =
    null;
  private stopped = false;

  private constructor(
    readonly cfg: HostConfig,
    private readonly env: HostEnv,
    private readonly hooks: HostHooks,
    core: RaftCore,
    sm: LockStateMachine,
  ) {
    this.id = cfg.id;
    this.clusterId = cfg.clusterId;
    this.logger = env.logger;
    this.sm = sm;
    this.keeper = new LeaseKeeper(
      cfg.reproposeAfterMs !== undefined ? { reproposeAfterMs: cfg.reproposeAfterMs } : {},
    );
    for (const m of cfg.members) {
      this.peerAddresses.set(m.id, m.peerAddress);
      this.clientAddresses.set(m.id, m.clientAddress);
    }
    const log = env.logger;
    this.driver = new Driver<EntryResult>(core, env.storage, env.transport, this.applier(), {
      onSoftState: (soft) => this.softStateChanged(soft),
      onFatal: (error) => this.fatal(error),
      onSnapshotRejected: (message, error) =>
        log.error(
          { err: error, from: message.from, index: message.snapshot.meta.index },
          `dropped a snapshot at index ${message.snapshot.meta.index} from node ${message.from} that this node cannot load; nothing was stored`,
        ),
      onStepError: (message, error) =>
        log.warn(
          { err: error, from: message.from, messageType: message.type },
          `dropped a ${message.type} message from node ${message.from} that the Raft core could not take`,
        ),
      ...(hooks.onSend ? { onSend: hooks.onSend } : {}),
    });
    this.batcher = new ProposalBatcher(
      (data, settlers) => this.proposeNow(data, settlers),
      env.defer,
    );
  }

  /** Recovers durable state and builds the core, the driver and the state machine. */
  static async boot(cfg: HostConfig, env: HostEnv, hooks: HostHooks = {}): Promise<NodeHost> {
    const { core, sm } = recoverReplica(cfg, await env.storage.load(), env.random);
    env.logger.info(
      {
        commit: core.log.committed,
        lastIndex: core.log.lastIndex(),
        snapshotIndex: core.log.offset,
      },
      `recovered durable state: term ${core.term}, commit ${core.log.committed}, last index ${core.log.lastIndex()}`,
    );
    const host = new NodeHost(cfg, env, hooks, core, sm);
    host.membershipChanged();
    return host;
  }

  // ---------------------------------------------------------------- views

  /** The applied state, for reads (replaced when a snapshot is installed: read it anew each time). */
  get state(): LockReader {
    return this.sm;
  }

  // The core's own role and term, not the driver's reported soft state: a request may reach
  // a new leader before its first ready batch has been made durable and reported.
  get isLeader(): boolean {
    return this.driver.core.role === "leader";
  }

  get term(): number {
    return this.driver.core.term;
  }

  /** The leader this node knows of (0: none). */
  get leaderId(): NodeId {
    return this.driver.core.leader;
  }

  /** The Raft core's state, copied (membership, progress): for status views and admin checks. */
  raftStatus(): RaftStatus {
    return this.driver.core.status();
  }

  /**
   * Waits up to `timeoutMs` for the reported soft state to satisfy `holds`; true if it did.
   * False too when the node stops meanwhile.
   */
  async whenSoftState(holds: (soft: SoftState) => boolean, timeoutMs: number): Promise<boolean> {
    const wait = this.driver.whenSoftState(holds);
    const timer = this.env.sleep(Math.max(0, timeoutMs)).then(() => false);
    try {
      return await Promise.race([wait.held, timer]);
    } finally {
      wait.cancel();
    }
  }

  get isStopped(): boolean {
    return this.stopped || this.driver.isStopped;
  }

  get electionTimeoutMs(): number {
    return this.cfg.electionTicks * this.cfg.tickMs;
  }

  /** The leader's client address, when a leader is known and is not this node. */
  leaderHint(): string | null {
    const leader = this.driver.core.leader;
    if (leader === 0 || leader === this.id) return null;
    return this.clientAddresses.get(leader) ?? null;
  }

  peerAddressOf(id: NodeId): string | undefined {
    return this.peerAddresses.get(id);
  }

  clientAddressOf(id: NodeId): string | undefined {
    return this.clientAddresses.get(id);
  }

  now(): number {
    return this.env.now();
  }

  wallMs(): number {
    return this.env.wallMs();
  }

  sleep(ms: number): Promise<void> {
    return this.env.sleep(ms);
  }

  /**
   * The limits a request is checked with before it is proposed: on a leader whose setLimits
   * entry of this term is in its log, its file's (every later entry applies after it);
   * elsewhere the replicated ones. The check at apply time decides.
   */
  limitsForRequests(): LockLimits {
    const core = this.driver.core;
    if (core.role !== "leader") return this.sm.limits;
    // A request may reach a new leader before its soft state is reported (its first write is
    // still being made durable): its setLimits entry goes first all the same.
    this.proposeFileLimits();
    return this.limitsTerm === core.term ? this.cfg.limits : this.sm.limits;
  }

  // ---------------------------------------------------------------- requests

  /**
   * Whether a numbered write may retry one the log already holds under other limits: its
   * seq has an answer here, or this leadership has not applied its first entry yet, so an
   * earlier leader's entries (one may be the first attempt, checked against the limits of
   * its time) may still be unapplied. The limits of this leadership must not refuse it then:
   * the log's answer stands. (A first attempt made in this leadership met the same limits.)
   */
  mayRetryLogged(write: { sessionId: bigint; seq: number }): boolean {
    return (
      this.sm.answerFor(write.sessionId, write.seq) !== null ||
      this.driver.applied < this.driver.core.leadershipIndex
    );
  }

  /** A keepalive arrived: restart the session's TTL (the answer waits for a quorum round). */
  keepAliveArrived(sessionId: bigint): KeepAliveResult {
    const result = this.keeper.keepAlive(sessionId, this.now());
    if (result === "ok") this.hooks.onKeepAlive?.(sessionId);
    return result;
  }

  /** Writes go to the leader only; elsewhere the failure names the leader when known. */
  requireLeader(): void {
    if (!this.isLeader) throw notLeader(this.leaderHint());
  }

  /**
   * Proposes one command (with the others of this turn, as one batch) and resolves once it
   * is committed and applied here. A client's write passes `sent`, the request bytes the
   * command was decoded from: the entry carries them as they came. Failures are RequestFailures.
   */
  async propose(
    cmd: Command,
    sent?: Uint8Array,
    caller: string | null = null,
  ): Promise<{ index: number; outcome: ApplyOutcome }> {
    this.requireLeader();
    // Checked as it will be applied, so a request apply would refuse is refused now, with
    // its message, and takes no log entry (apply checks again and decides).
    const bad = validateCommand(cmd, this.limitsForRequests());
    if (bad !== null && !(isSequenced(cmd) && this.mayRetryLogged(cmd)))
      throw new RequestFailure("ERROR_REASON_INVALID_ARGUMENT", bad);
    const entry = encodeEntry(cmd, sent, caller);
    if (sent !== undefined && !isNodeCommand(cmd))
      this.proposedCommands.set(entry, { command: cmd, identity: caller ?? "" });
    this.hooks.onCommandProposed?.(cmd, entry);
    let done: { index: number; result: EntryResult };
    try {
      done = await this.batcher.submit(entry);
    } catch (error) {
      throw failureOf(error, this.leaderHint());
    }
    if (!done.result)
      throw new RequestFailure("ERROR_REASON_INTERNAL", `entry ${done.index} carried no command`);
    return { index: done.index, outcome: done.result };
  }

  /**
   * A linearizable read point: resolves, with the confirmed read index, once this node
   * applied everything committed when the read began.
   */
  linearizable(): Promise<number> {
    return this.asRequestFailure(this.driver.readIndex());
  }

  /**
   * Resolves once this leadership's first entry (its no-op) is applied here. Until then the
   * applied state may lack what earlier leaders committed (a session opened, a session
   * ended), so an answer read from it may be stale. Fails as not leader once leadership in
   * `term` is over, and as NODE_BUSY (retryable) if applying does not get there within
   * `maxWaitMs` (it is held, say, while a snapshot is encoded).
   */
  async leadershipApplied(term: number, maxWaitMs: number): Promise<void> {
    const core = this.driver.core;
    const index = core.leadershipIndex;
    const leading = (): boolean => core.role === "leader" && core.term === term;
    if (index === 0 || !leading()) throw notLeader(this.leaderHint());
    if (this.driver.applied < index) {
      await Promise.race([
        this.asRequestFailure(this.driver.untilApplied(index)),
        this.env.sleep(maxWaitMs),
      ]);
    }
    if (!leading()) throw notLeader(this.leaderHint());
    if (this.driver.applied < index) {
      throw new RequestFailure(
        "ERROR_REASON_NODE_BUSY",
        `this leader has not applied its first entry (index ${index}) yet; retry`,
      );
    }
  }

  /** Resolves once a quorum round started after this call confirmed this node leads (no wait for apply); failures are RequestFailures. */
  confirmLeadership(): Promise<number> {
    return this.asRequestFailure(this.driver.confirmLeadership());
  }

  private async asRequestFailure<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      throw failureOf(error, this.leaderHint());
    }
  }

  /** The batch the batcher gathered, through the disk check and the metrics hook. */
  private proposeNow(
    data: readonly Uint8Array[],
    settlers: ReadonlyArray<ProposalSettler<EntryResult>>,
  ): void {
    const refused = this.env.writesRefused?.() ?? null;
    if (refused !== null) {
      for (const s of settlers) s.reject(new RequestFailure("ERROR_REASON_DISK_RESERVE", refused));
      return;
    }
    const settled = this.hooks.onProposalSettled;
    if (!settled) {
      this.driver.proposeTo(data, settlers);
      return;
    }
    const started = this.now();
    this.driver.proposeTo(
      data,
      settlers.map((s) => new TimedProposal(s, started, () => this.now(), settled)),
    );
  }

  // ---------------------------------------------------------------- ticks and timers

  /** One tick of the host's timer (every tickMs). */
  tick(): void {
    if (this.isStopped) return;
    const now = this.now();
    const gap = this.lastTickAt === null ? this.cfg.tickMs : now - this.lastTickAt;
    this.lastTickAt = now;
    // How much later than its interval this tick ran: the event loop was blocked that long.
    const stallMs = gap - this.cfg.tickMs;
    const heartbeatMs = this.cfg.heartbeatTicks * this.cfg.tickMs;
    this.driver.tick();
    this.maybeSnapshot();
    this.followFileLimits();
    // Let this turn's pending I/O (keepalives, peer messages) run first, then decide expiries.
    this.env.defer(() => this.checkTimers(stallMs > heartbeatMs ? stallMs : 0));
  }

  /** `stallMs` > 0: the loop was blocked that long before this tick (see LeaseKeeper.stalled). */
  private checkTimers(stallMs: number): void {
    if (!this.keeper.isLeader || this.isStopped) return;
    if (stallMs > 0) {
      this.logger.warn(
        { stallMs: Math.round(stallMs) },
        "event loop stalled longer than a heartbeat; every session's deadline moves later by the stall, none expires now",
      );
      this.keeper.stalled(stallMs);
      return;
    }
    const due = this.keeper.due(this.now(), this.wallMs());
    if (due.length === 0) return;
    const entries = due.map((cmd) => encodeEntry(cmd));
    due.forEach((cmd, i) => this.hooks.onCommandProposed?.(cmd, entries[i]!));
    if (due.length <= TIMER_LINES_MAX) for (const cmd of due) this.logTimerProposal(cmd);
    else this.logTimerProposals(due);
    // Failures are harmless: the keeper proposes again if the command does not apply.
    for (const p of this.driver.propose(entries)) p.catch(() => undefined);
  }

  /** Many proposals of one check in one line: how many of each kind, and the first sessions. */
  private logTimerProposals(due: readonly Command[]): void {
    const counts: Record<string, number> = {};
    for (const cmd of due) counts[cmd.type] = (counts[cmd.type] ?? 0) + 1;
    const sessions = due
      .slice(0, TIMER_LINES_MAX)
      .map((cmd) => ("sessionId" in cmd ? String(cmd.sessionId) : cmd.type));
    this.logger.info(
      { counts, firstSessions: sessions },
      `${due.length} timers ran out: proposing their expiries, timeouts and revokes`,
    );
  }

  /** One line per command a timer proposes: what ran out, and for whom. */
  private logTimerProposal(cmd: Command): void {
    switch (cmd.type) {
      case "expireSession":
        this.logger.info(
          { command: cmd.type, sessionId: cmd.sessionId },
          "session TTL ran out: proposing expiry",
        );
        return;
      case "cancelWait":
        this.logger.info(
          { command: cmd.type, sessionId: cmd.sessionId, lock: cmd.lock },
          "wait ran out: proposing its end",
        );
        return;
      case "holdLimit":
        this.logger.info(
          {
            command: cmd.type,
            sessionId: cmd.sessionId,
            token: String(cmd.token),
            holdMs: cmd.holdMs,
          },
          "hold limit ran out: proposing the revoke of the grant",
        );
        return;
      default:
        this.logger.info({ command: cmd.type }, `proposing ${cmd.type}`);
    }
  }

  // ---------------------------------------------------------------- replicated limits

  /**
   * A leader's first command of its term sets the replicated limits to its cluster file's
   * (and again on a later tick if that proposal was refused). Any node logs when its file
   * and the replicated limits part or meet again.
   */
  private followFileLimits(): void {
    const differ = !sameLimits(this.sm.limits, this.cfg.limits);
    if (differ !== this.limitsDiffer) {
      this.limitsDiffer = differ;
      if (differ)
        this.logger.warn(
          { replicated: this.sm.limits, file: this.cfg.limits },
          "the cluster's replicated lock limits differ from this node's cluster file; the replicated ones apply (a leader with this file proposes its own)",
        );
      else
        this.logger.info(
          { limits: this.sm.limits },
          "the cluster's replicated lock limits match this node's cluster file",
        );
    }
    this.proposeFileLimits();
  }

  private proposeFileLimits(): void {
    const core = this.driver.core;
    if (core.role !== "leader" || this.limitsTerm === core.term || this.isStopped) return;
    const term = core.term;
    this.limitsTerm = term;
    const [done] = this.driver.propose([
      encodeNodeCommand({ type: "setLimits", limits: this.cfg.limits, wallMs: this.wallMs() }),
    ]);
    done?.catch(() => {
      // Not appended (a transfer in progress) or overwritten: a later tick asks again.
      if (this.limitsTerm === term) this.limitsTerm = 0;
    });
  }

  // ---------------------------------------------------------------- snapshots

  /** SnapshotSave: a snapshot at the applied index now, the log dropped up to it; null while one cannot start. */
  snapshotNow(): Promise<Snapshot> | null {
    return this.takeSnapshot();
  }

  /** Every snapshotEntries applied entries: a snapshot, then the log dropped up to it. */
  private maybeSnapshot(): void {
    if (this.sm.appliedIndex - this.driver.core.log.offset < this.cfg.snapshotEntries) return;
    this.takeSnapshot()?.catch(() => undefined);
  }

  /**
   * Writes the state at the applied index as a snapshot and drops the log up to it, on
   * disk and in memory; null when that cannot start now (another snapshot, an apply or
   * entries held back by one in progress). Applying is held while the state is encoded, a
   * slice of a few milliseconds at a time, so the event loop stays free (ticks, keepalives,
   * replication) however large the state; entries committed meanwhile are applied after.
   * A failure to write it is fatal.
   */
  private takeSnapshot(): Promise<Snapshot> | null {
    const driver = this.driver;
    const core = driver.core;
    const sm = this.sm;
    const index = sm.appliedIndex;
    const term = core.log.term(index);
    if (this.snapshotting || this.isStopped || term === undefined) return null;
    if (driver.applied !== index || core.log.applied !== index || driver.applyBacklog > 0)
      return null;
    this.snapshotting = true;
    const membership = core.membership;
    const release = driver.holdApply();
    const started = this.now();
    const taking = runSliced(
      sm.snapshotSteps(),
      SNAPSHOT_SLICE_MS,
      () => this.now(),
      this.env.defer,
    )
      .finally(release)
      .then(async (data) => {
        const encodeSeconds = (this.now() - started) / 1000;
        const snapshot: Snapshot = { meta: { index, term, membership }, data };
        // The driver writes it between batches (never beside an in-flight write or a snapshot
        // being installed from the leader, which would supersede it), then compacts the core.
        await driver.compact(snapshot);
        if (driver.core.log.offset === index) {
          this.logger.info(
            { index, bytes: data.byteLength },
            `snapshot taken at index ${index}; log compacted`,
          );
          this.hooks.onSnapshotTaken?.(index, data.byteLength, encodeSeconds);
        }
        return snapshot;
      })
      .finally(() => {
        this.snapshotting = false;
      });
    taking.catch((error: unknown) => {
      if (this.stopped) return;
      driver.stop(error);
      this.fatal(error);
    });
    return taking;
  }

  /**
   * The state at a linearizable point, for a backup: after a ReadIndex, encoded while
   * applying is held (so it is the state at one committed, applied index), in slices.
   */
  async consistentState(): Promise<{
    index: number;
    term: number;
    epoch: number;
    data: Uint8Array;
  }> {
    await this.linearizable();
    const release = this.driver.holdApply();
    try {
      const sm = this.sm;
      const index = sm.appliedIndex;
      const term = this.driver.core.log.term(index);
      if (term === undefined)
        throw new RequestFailure(
          "ERROR_REASON_NODE_BUSY",
          `the term of applied entry ${index} is not known here; retry`,
        );
      const data = await runSliced(
        sm.snapshotSteps(),
        SNAPSHOT_SLICE_MS,
        () => this.now(),
        this.env.defer,
      );
      return { index, term, epoch: sm.epoch, data };
    } finally {
      release();
    }
  }

  // ---------------------------------------------------------------- leadership and stop

  /**
   * A leader that stops first hands leadership to the most caught-up voter (TimeoutNow), so
   * a planned restart costs the cluster no election timeout. The core drops a transfer that
   * has not completed within an election timeout (a lost TimeoutNow, a slow disk on the
   * target), so it is asked again, for at most three election timeouts and at least 2 s.
   */
  async handOverLeadership(): Promise<void> {
    const driver = this.driver;
    const core = driver.core;
    if (core.role !== "leader" || this.isStopped) return;
    const term = core.term;
    const electionMs = this.electionTimeoutMs;
    const deadline = this.now() + Math.max(2_000, 3 * electionMs);
    const tried: NodeId[] = [];
    const leading = (): boolean =>
      core.role === "leader" && core.term === term && !driver.isStopped;
    const handedOver = (soft: SoftState): boolean =>
      !(soft.role === "leader" && soft.term === term);
    while (leading() && this.now() < deadline) {
      // The best target not tried yet (a member that just restarted may not be reachable
      // yet, though its log looks caught up); after every one was tried, the best again.
      const candidates = this.transferCandidates();
      const to = candidates.find((id) => !tried.includes(id)) ?? candidates[0];
      if (to === undefined) return;
      try {
        driver.transferLeadership(to);
      } catch {
        return;
      }
      tried.push(to);
      const retryAt = Math.min(deadline, this.now() + electionMs);
      await this.whenSoftState(handedOver, retryAt - this.now());
    }
    if (core.role === "leader") {
      this.logger.warn(
        `leadership transfer did not complete before stopping (${tried.length} attempts, to nodes ${tried.join(", ")})`,
      );
    } else
      this.logger.info(
        `handed leadership to node ${core.leader === 0 ? tried[tried.length - 1] : core.leader} before stopping`,
      );
  }

  /** The voter other than this node best placed to take over (0: none): see transferCandidates. */
  mostCaughtUpVoter(): NodeId {
    return this.transferCandidates()[0] ?? 0;
  }

  /**
   * The voters other than this node, best hand-over target first: one the leader heard from
   * in the current CheckQuorum round and the transport can reach, then one it can reach,
   * then the rest; within each, the most caught up.
   */
  transferCandidates(): NodeId[] {
    const status = this.driver.core.status();
    const unreachable = new Set(this.env.transport.unreachable?.() ?? []);
    const rank = (id: NodeId): number => {
      const pr = status.progress.find((p) => p.id === id);
      const reachable = !unreachable.has(id);
      return (reachable ? 2 : 0) + (pr?.recentActive ? 1 : 0);
    };
    const match = (id: NodeId): number => status.progress.find((p) => p.id === id)?.match ?? 0;
    return status.membership.voters
      .filter((id) => id !== this.id)
      .sort((a, b) => rank(b) - rank(a) || match(b) - match(a) || a - b);
  }

  /** Stops Raft and the timers; calls waiting on answers end with "retry elsewhere". */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.waiters.failAll("this node is shutting down");
    this.driver.stop();
    this.keeper.stepDown();
  }

  private fatal(error: unknown): void {
    this.logger.fatal(
      { err: error },
      "durable write failed; stopping (restart recovers from disk)",
    );
    this.hooks.onFatal?.(error);
  }

  private softStateChanged(soft: SoftState): void {
    const leaderText =
      soft.leader === 0
        ? "no leader known"
        : soft.leader === this.id
          ? "this node leads"
          : `leader is node ${soft.leader}`;
    this.logger.info(
      { role: soft.role, leader: soft.leader },
      `now ${soft.role} in term ${soft.term}; ${leaderText}`,
    );
    if (soft.role === "leader") {
      if (this.leaderTerm !== soft.term) {
        this.leaderTerm = soft.term;
        // A new leader starts every session's TTL, every pending wait and every grant's hold limit afresh.
        this.keeper.becomeLeader(
          this.now(),
          this.sm.sessionLeases(),
          this.sm.pendingWaits(),
          this.sm.holdLimits(),
        );
        this.proposeFileLimits();
      }
    } else if (this.leaderTerm !== 0) {
      this.leaderTerm = 0;
      this.keeper.stepDown();
      // Waits are answered from this node's log, which may not move again (a leader cut off
      // from its quorum): the clients re-send them, with their seqs, to the leader.
      this.waiters.failAll("this node no longer leads");
    }
    this.hooks.onSoftState?.(soft);
  }

  // ---------------------------------------------------------------- apply

  private applier(): Applier<EntryResult> {
    return {
      apply: (entry) => this.applyEntry(entry),
      restore: (snapshot) => this.restoreSnapshot(snapshot),
      validateSnapshot: (snapshot) => this.validateSnapshot(snapshot),
    };
  }

  /**
   * A snapshot from the leader must load before it is stored: decoded and verified here
   * (LockStateMachine.restore throws SnapshotError), and kept, so installing it right after
   * does not decode it a second time.
   */
  private validateSnapshot(snapshot: Snapshot): void {
    this.checkedSnapshot = null;
    const sm = LockStateMachine.restore(snapshot.data);
    if (sm.appliedIndex !== snapshot.meta.index) {
      throw new SnapshotError(
        `snapshot state is at index ${sm.appliedIndex} but the snapshot is named for index ${snapshot.meta.index}`,
      );
    }
    this.checkedSnapshot = { snapshot, sm };
  }

  private applyEntry(entry: Entry): EntryResult {
    if (entry.kind !== "normal") {
      this.sm.skip(entry.index);
      if (entry.kind === "config") this.membershipChanged();
      this.hooks.onEntryApplied?.(entry, null);
      return null;
    }
    const proposed = this.proposedCommands.get(entry.data);
    const outcome =
      proposed !== undefined
        ? this.sm.applyDecoded(entry.index, proposed)
        : this.sm.applyBytes(entry.index, entry.data);
    this.dispatch(outcome);
    this.hooks.onEntryApplied?.(entry, outcome);
    return outcome;
  }

  /** Hands what an applied entry produced to waiting calls, watchers, metrics and the lease timers. */
  private dispatch(outcome: ApplyOutcome): void {
    for (const c of outcome.completions) this.waiters.complete(c.sessionId, c.seq, c.answer);
    if (outcome.events.length > 0) this.hooks.onEvents?.(outcome.events);
    this.hooks.onApplied?.(outcome);
    if (this.keeper.isLeader) this.keeper.onApplied(outcome.timers, this.now());
  }

  private restoreSnapshot(snapshot: Snapshot): void {
    const checked = this.checkedSnapshot;
    this.checkedSnapshot = null;
    this.sm = checked?.snapshot === snapshot ? checked.sm : LockStateMachine.restore(snapshot.data);
    this.logger.info(
      { index: snapshot.meta.index, term: snapshot.meta.term },
      "installed a snapshot from the leader",
    );
    this.hooks.onSnapshotInstalled?.(snapshot.meta.index);
    this.waiters.recheck(
      (sessionId, seq) => {
        const answer = this.sm.answerFor(sessionId, seq);
        return answer?.kind === "waiting" ? "waiting" : answer;
      },
      (sessionId) => sessionEnded(sessionId),
    );
    // The core took the snapshot's membership: the transport must learn its members too.
    this.membershipChanged();
  }

  // ---------------------------------------------------------------- members

  /**
   * The membership in effect changed (a config entry was applied, a snapshot installed, or
   * state was recovered): learn the addresses of new members and stop sending to removed ones.
   */
  private membershipChanged(): void {
    const m = this.driver.core.membership;
    const transport = this.env.transport;
    for (const [key, a] of Object.entries(m.addresses ?? {})) {
      const id = Number(key);
      if (id === this.id) continue;
      if (this.peerAddresses.get(id) !== a.peer) transport.addPeer?.(id, a.peer);
      this.peerAddresses.set(id, a.peer);
      this.clientAddresses.set(id, a.client);
    }
    const members = new Set([...m.voters, ...m.learners]);
    for (const id of [...this.peerAddresses.keys()]) {
      if (id !== this.id && !members.has(id) && members.size > 0) transport.removePeer?.(id);
    }
    this.logger.info(
      { voters: m.voters, learners: m.learners },
      `membership: voters ${m.voters.join(",")}${m.learners.length ? `, learners ${m.learners.join(",")}` : ""}`,
    );
  }
}

/** Tells the metrics hook how long a proposal took to commit (or that it failed) as it settles. */
class TimedProposal<R> implements ProposalSettler<R> {
  constructor(
    private readonly inner: ProposalSettler<R>,
    private readonly started: number,
    private readonly now: () => number,
    private readonly settled: (committed: boolean, seconds: number) => void,
  ) {}

  resolve(applied: { index: number; result: R }): void {
    this.settled(true, (this.now() - this.started) / 1000);
    this.inner.resolve(applied);
  }

  reject(error: unknown): void {
    this.settled(false, (this.now() - this.started) / 1000);
    this.inner.reject(error);
  }
}
