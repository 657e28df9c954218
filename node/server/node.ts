// One Palisade node: durable Raft state in LevelDB, the Raft driver, the lock state
// machine and its leader-side timers, the peer transport, and the client and admin gRPC
// servers. Time enters here only: ticks, the monotonic clock for session and wait
// timers, and wall-clock display data.
import { randomInt, randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { adminServiceDefinition, lockServiceDefinition } from "../../proto/grpc.ts";
import type { NodeConfig } from "../config/index.ts";
import {
  encodeCommand, LeaseKeeper, LockStateMachine, resolveLimits, sameLimits, sessionEnded, SnapshotError, type ApplyOutcome, type LockLimits,
} from "../lock/index.ts";
import { RaftCore } from "../raft/core.ts";
import type { Entry, Membership, Snapshot, SoftState } from "../raft/types.ts";
import { LevelStorage } from "../storage/level-storage.ts";
import { addRaftService, GrpcTransport } from "../transport/grpc-transport.ts";
import type { Logger } from "../util/logger.ts";
import { SeededRandom } from "../util/rng.ts";
import { AcquireWaiters } from "../host/acquire-waiters.ts";
import { DiskGuard } from "./disk-guard.ts";
import { Failure } from "./handler.ts";
import { statusError } from "./status.ts";
import { adminServiceHandlers } from "./admin-service.ts";
import { NodeHealth } from "./health.ts";
import { clientInterceptor, peerInterceptor } from "./interceptors.ts";
import { NodeMetrics, timedStorage, timeProposals, type MetricsSource } from "./metrics.ts";
import { serveMetrics, type MetricsEndpoint } from "./metrics-server.ts";
import { RateLimiter } from "./rate-limit.ts";
import { runSliced } from "./sliced.ts";
import { loadNodeCredentials, type NodeCredentials } from "./tls.ts";
import type { EntryResult, NodeContext } from "./context.ts";
import { Driver, type Applier } from "../host/driver.ts";
import { lockServiceHandlers } from "./lock-service.ts";
import { tolerantDefinition } from "./tolerant.ts";
import { WatchHub } from "./watch-hub.ts";

/** Longest stretch of snapshot encoding between two turns of the event loop. */
const SNAPSHOT_SLICE_MS = 4;

export interface PalisadeNodeOptions {
  readonly logger: Logger;
  /** A durable write failed: the process must exit and recover from disk on restart. */
  readonly onFatal?: (error: unknown) => void;
  /** Lock events kept for Watch (default 10,000). */
  readonly watchRingCapacity?: number;
  /**
   * This node joins a running cluster: with an empty data directory it starts with no
   * membership and learns it from the leader (after `member add`), instead of taking the
   * cluster file's nodes as the initial voters.
   */
  readonly join?: boolean;
}

/**
 * The lock limits this node's cluster file asks for. They are not applied as they are: as
 * leader the node proposes them through the log (setLimits), so every replica decides every
 * entry with the same, replicated limits.
 */
export function lockLimitsOf(cfg: NodeConfig): LockLimits {
  return resolveLimits({
    maxSessions: cfg.limits.maxSessions,
    maxLocksPerSession: cfg.limits.maxLocksPerSession,
    maxWaitersPerLock: cfg.limits.maxWaitersPerLock,
    maxInFlightPerSession: cfg.limits.maxInflightPerSession,
    maxWaitMs: cfg.limits.maxWaitMs,
    minTtlMs: cfg.limits.minTtlMs,
    maxTtlMs: cfg.limits.maxTtlMs,
  });
}

function grpcServerOptions(cfg: NodeConfig, interceptors: grpc.ServerInterceptor[] = []): grpc.ServerOptions {
  return {
    "grpc.max_receive_message_length": cfg.limits.maxMessageBytes,
    "grpc.max_send_message_length": cfg.limits.maxMessageBytes,
    // Channelz bookkeeping costs a few microseconds per call and message; nothing reads it.
    "grpc.enable_channelz": 0,
    interceptors,
  };
}

function bind(server: grpc.Server, address: string, credentials: NodeCredentials | null): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials?.server ?? grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) reject(new Error(`cannot listen on ${address}: ${err.message}`, { cause: err }));
      else resolve(port);
    });
  });
}

function shutdown(server: grpc.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class PalisadeNode implements NodeContext {
  readonly logger: Logger;
  readonly clusterId: string;
  readonly clientAddresses: ReadonlyMap<number, string>;
  readonly peerAddresses: ReadonlyMap<number, string>;
  readonly leaseKeeper = new LeaseKeeper();
  readonly waiters = new AcquireWaiters();
  readonly watch: WatchHub;
  driver!: Driver<EntryResult>;
  readonly metrics: NodeMetrics;
  readonly health = new NodeHealth();

  private sm: LockStateMachine;
  private readonly cfg: NodeConfig;
  private readonly storage: LevelStorage;
  private readonly transport: GrpcTransport;
  private readonly peerServer: grpc.Server;
  private readonly clientServer: grpc.Server;
  private readonly onFatal: (error: unknown) => void;
  /** TLS credentials from the cluster file; null for plaintext. */
  private readonly credentials: NodeCredentials | null;
  private metricsEndpoint: MetricsEndpoint | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lastTickAt = 0;
  /** Term in which this node's lease timers were started; 0 while not leader. */
  private leaderTerm = 0;
  private stopping: Promise<void> | null = null;
  private snapshotting = false;
  /** Refuses proposals while free disk space is below the reserve. */
  private diskGuard: DiskGuard | null = null;
  /** The leader last reported by the driver, for leader-change metrics and health. */
  private knownLeader = 0;
  /** The limits this node's cluster file asks for (see lockLimitsOf). */
  private readonly fileLimits: LockLimits;
  /** Term in which this node, as leader, appended its setLimits entry (0: none in this term). */
  private limitsTerm = 0;
  /** Whether the replicated limits differed from the file's at the last look (logged on change). */
  private limitsDiffer = false;
  /** The snapshot from the leader that validateSnapshot last decoded, until it is installed. */
  private checkedSnapshot: { readonly snapshot: Snapshot; readonly sm: LockStateMachine } | null = null;

  private constructor(cfg: NodeConfig, opts: PalisadeNodeOptions, storage: LevelStorage, sm: LockStateMachine) {
    this.cfg = cfg;
    this.fileLimits = lockLimitsOf(cfg);
    this.logger = opts.logger;
    this.onFatal = opts.onFatal ?? (() => undefined);
    this.clusterId = cfg.clusterId;
    this.clientAddresses = new Map(cfg.nodes.map((n) => [n.id, n.clientAddress]));
    this.peerAddresses = new Map(cfg.nodes.map((n) => [n.id, n.peerAddress]));
    this.storage = storage;
    this.sm = sm;
    this.watch = new WatchHub({
      ringCapacity: opts.watchRingCapacity ?? 10_000,
      maxQueuedPerWatcher: 4_096,
      firstIndex: sm.appliedIndex + 1,
    });
    this.credentials = cfg.tls ? loadNodeCredentials(cfg.tls, cfg.self.id) : null;
    this.metrics = new NodeMetrics({ cluster: cfg.clusterId, node: cfg.self.id }, {
      raft: () => this.raftMetrics(),
      lockStats: () => this.sm.stats(),
    });
    this.transport = new GrpcTransport({
      ...(this.credentials ? { credentials: this.credentials.channel } : {}),
      selfId: cfg.self.id,
      clusterId: cfg.clusterId,
      peers: new Map(cfg.peers.map((p) => [p.id, p.peerAddress])),
      maxMessageBytes: cfg.limits.maxMessageBytes,
    });
    const limiter = new RateLimiter({ ratePerSecond: cfg.limits.requestsPerSecond, burst: cfg.limits.requestBurst, now: () => this.now() });
    this.clientServer = new grpc.Server(grpcServerOptions(cfg, [
      clientInterceptor({ tls: this.credentials !== null, limiter, onRejected: (method, reason) => this.metrics.requestRejected(method, reason) }),
    ]));
    // A joining node knows no members until the leader's entries arrive: until then any
    // node certificate of the cluster CA may send as the id it names.
    const isMember = (id: number): boolean => {
      const { voters, learners } = this.driver.core.membership;
      return (voters.length === 0 && learners.length === 0) || voters.includes(id) || learners.includes(id);
    };
    this.peerServer = new grpc.Server(grpcServerOptions(cfg, this.credentials ? [peerInterceptor(isMember)] : []));
  }

  /** Opens the data directory, recovers state, and starts serving peers and clients. */
  static async start(cfg: NodeConfig, opts: PalisadeNodeOptions): Promise<PalisadeNode> {
    const log = opts.logger;
    const storage = await LevelStorage.open({
      dir: cfg.self.dataDir,
      clusterId: cfg.clusterId,
      nodeId: cfg.self.id,
      reserveBytes: cfg.disk.reserveBytes,
      onDiskSpace: (e) => {
        if (e.low) log.warn({ freeBytes: e.freeBytes, reserveBytes: e.reserveBytes }, "free disk space below the reserve: writes paused until space returns");
        else log.info({ freeBytes: e.freeBytes }, "free disk space back above the reserve: writes resumed");
      },
    });
    let node: PalisadeNode;
    try {
      const durable = await storage.load();
      // Every replica starts from the default limits (or the snapshot's): the cluster file's
      // limits take effect when the leader's setLimits entry applies.
      const sm = durable.snapshot ? LockStateMachine.restore(durable.snapshot.data) : new LockStateMachine();
      node = new PalisadeNode(cfg, opts, storage, sm);
      const fresh = durable.entries.length === 0 && !durable.snapshot;
      const membership: Membership = durable.snapshot?.meta.membership ??
        (opts.join && fresh ? { voters: [], learners: [] } : { voters: cfg.nodes.map((n) => n.id), learners: [] });
      const core = new RaftCore(
        {
          id: cfg.self.id,
          electionTicks: cfg.raft.electionTicks,
          heartbeatTicks: cfg.raft.heartbeatTicks,
          maxInflightMsgs: cfg.raft.maxInflightMsgs,
          maxBytesPerAppend: cfg.raft.maxBytesPerAppend,
          preVote: true,
          checkQuorum: true,
          random: new SeededRandom(randomInt(0, 2 ** 32 - 1)),
        },
        {
          hardState: durable.hardState,
          membership,
          snapshotIndex: durable.snapshot?.meta.index ?? 0,
          snapshotTerm: durable.snapshot?.meta.term ?? 0,
          entries: durable.entries,
        },
      );
      // A leader must be able to send the recovered snapshot to followers that need it.
      if (durable.snapshot) core.compact(durable.snapshot);
      log.info(
        { commit: core.log.committed, lastIndex: core.log.lastIndex(), snapshotIndex: core.log.offset },
        `recovered durable state: term ${core.term}, commit ${core.log.committed}, last index ${core.log.lastIndex()}`,
      );
      const clock = (): number => node.now();
      const timed = timedStorage(storage, (seconds) => node.metrics.fsync(seconds), clock);
      node.driver = new Driver<EntryResult>(core, timed, node.transport, node.applier(), {
        onSoftState: (soft) => node.softStateChanged(soft),
        onFatal: (error) => node.fatal(error),
        onSnapshotRejected: (message, error) =>
          log.error({ err: error, from: message.from, index: message.snapshot.meta.index }, `dropped a snapshot at index ${message.snapshot.meta.index} from node ${message.from} that this node cannot load; nothing was stored`),
        onStepError: (message, error) =>
          log.warn({ err: error, from: message.from, messageType: message.type }, `dropped a ${message.type} message from node ${message.from} that the Raft core could not take`),
        onSend: (m) => {
          if (m.type === "append") node.metrics.appendSent(m.entries.length);
        },
      });
      node.driver.propose = timeProposals(node.driver.propose.bind(node.driver), node.metrics, clock);
      node.diskGuard = new DiskGuard(storage, cfg.disk.reserveBytes);
      node.driver.propose = node.diskGuard.guard(node.driver.propose.bind(node.driver));
      node.diskGuard.start();
      node.membershipChanged();
    } catch (err) {
      await storage.close().catch(() => undefined);
      throw err;
    }
    try {
      await node.listen();
    } catch (err) {
      await node.stop();
      throw err;
    }
    return node;
  }

  // ---------------------------------------------------------------- NodeContext

  get machine(): LockStateMachine {
    return this.sm;
  }

  isLeader(): boolean {
    return this.driver.core.role === "leader";
  }

  leaderHint(): string | null {
    const leader = this.driver.core.leader;
    if (leader === 0 || leader === this.cfg.self.id) return null;
    return this.clientAddresses.get(leader) ?? null;
  }

  now(): number {
    return performance.now();
  }

  wallMs(): number {
    return Date.now();
  }

  newRequestId(): string {
    return randomUUID();
  }

  unreachablePeers(): readonly number[] {
    return this.transport.unreachable();
  }

  get electionTimeoutMs(): number {
    return this.cfg.raft.electionTicks * this.cfg.raft.tickMs;
  }

  get clientAddress(): string {
    return this.cfg.self.clientAddress;
  }

  get peerAddress(): string {
    return this.cfg.self.peerAddress;
  }

  // ---------------------------------------------------------------- lifecycle

  private async listen(): Promise<void> {
    addRaftService(this.peerServer, this.transport);
    this.clientServer.addService(tolerantDefinition(lockServiceDefinition), lockServiceHandlers(this));
    this.clientServer.addService(tolerantDefinition(adminServiceDefinition), adminServiceHandlers(this));
    this.health.addTo(this.clientServer);
    await bind(this.peerServer, this.cfg.self.peerAddress, this.credentials);
    await bind(this.clientServer, this.cfg.self.clientAddress, this.credentials);
    if (this.cfg.self.metricsAddress) this.metricsEndpoint = await serveMetrics(this.cfg.self.metricsAddress, this.metrics);
    this.health.serving();
    this.lastTickAt = this.now();
    this.tickTimer = setInterval(() => this.onTick(), this.cfg.raft.tickMs);
    this.driver.tick();
  }

  /** Graceful stop: stop taking requests, end waiting calls, stop Raft, close the store. */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    await this.handOverLeadership();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.diskGuard?.stop();
    this.tickTimer = null;
    this.health.stopping();
    this.waiters.failAll("this node is shutting down");
    this.watch.closeAll();
    await shutdown(this.clientServer, 2_000);
    this.driver?.stop();
    this.leaseKeeper.stepDown();
    await this.transport.close();
    await shutdown(this.peerServer, 1_000);
    await this.metricsEndpoint?.close();
    await this.storage.close().catch((err: unknown) => this.logger.warn({ err }, "closing the store failed"));
    this.logger.info("node stopped");
  }

  /**
   * A leader that stops first hands leadership to the most caught-up voter (TimeoutNow), so
   * a planned restart costs the cluster no election timeout. The core drops a transfer that
   * has not completed within an election timeout (a lost TimeoutNow, a slow disk on the
   * target), so it is asked again, for at most three election timeouts and at least 2 s.
   */
  private async handOverLeadership(): Promise<void> {
    const driver = this.driver;
    const core = driver?.core;
    if (!driver || !core || core.role !== "leader" || driver.isStopped) return;
    let to = 0;
    let best = -1;
    for (const id of core.membership.voters) {
      const match = id === core.id ? -1 : (core.progressOf(id)?.match ?? 0);
      if (match > best) {
        to = id;
        best = match;
      }
    }
    if (to === 0) return;
    const term = core.term;
    const electionMs = this.cfg.raft.tickMs * this.cfg.raft.electionTicks;
    const deadline = this.now() + Math.max(2_000, 3 * electionMs);
    let attempts = 0;
    while (core.role === "leader" && core.term === term && this.now() < deadline && !driver.isStopped) {
      try {
        driver.transferLeadership(to);
      } catch {
        return;
      }
      attempts++;
      const retryAt = Math.min(deadline, this.now() + electionMs);
      while (core.role === "leader" && core.term === term && this.now() < retryAt) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    if (core.role === "leader") {
      this.logger.warn(`leadership transfer to node ${to} did not complete before stopping (${attempts} attempts)`);
    } else this.logger.info(`handed leadership to node ${to} before stopping`);
  }

  private fatal(error: unknown): void {
    this.logger.fatal({ err: error }, "durable write failed; stopping (restart recovers from disk)");
    this.onFatal(error);
  }

  // ---------------------------------------------------------------- ticks and timers

  private onTick(): void {
    const now = this.now();
    const gap = now - this.lastTickAt;
    this.lastTickAt = now;
    // How much later than its interval this tick ran: the event loop was blocked that long.
    const stallMs = gap - this.cfg.raft.tickMs;
    const heartbeatMs = this.cfg.raft.heartbeatTicks * this.cfg.raft.tickMs;
    this.driver.tick();
    this.maybeSnapshot();
    this.followFileLimits();
    // Let this loop turn's pending I/O (keepalives, peer messages) run first, then decide expiries.
    setImmediate(() => this.checkTimers(stallMs > heartbeatMs ? stallMs : 0));
  }

  /** `stallMs` > 0: the loop was blocked that long before this tick (see LeaseKeeper.stalled). */
  private checkTimers(stallMs: number): void {
    if (!this.leaseKeeper.isLeader || this.driver.isStopped) return;
    const now = this.now();
    if (stallMs > 0) {
      this.logger.warn({ stallMs: Math.round(stallMs) }, "event loop stalled longer than a heartbeat; every session's deadline moves later by the stall, none expires now");
      this.leaseKeeper.stalled(stallMs);
      return;
    }
    const due = this.leaseKeeper.due(now, this.wallMs());
    if (due.length === 0) return;
    for (const cmd of due) {
      this.logger.info({ command: cmd.type, sessionId: cmd.type === "expireSession" || cmd.type === "cancelWait" ? cmd.sessionId : undefined }, cmd.type === "expireSession" ? "session TTL ran out: proposing expiry" : "wait ran out: proposing its end");
    }
    // Failures are harmless: the keeper proposes again if the command does not apply.
    for (const p of this.driver.propose(due.map(encodeCommand))) p.catch(() => undefined);
  }

  /**
   * A leader's first command of its term sets the replicated limits to its cluster file's
   * (and again on a later tick if that proposal was refused). Any node logs when its file
   * and the replicated limits part or meet again.
   */
  private followFileLimits(): void {
    if (this.driver.isStopped) return;
    const differ = !sameLimits(this.sm.limits, this.fileLimits);
    if (differ !== this.limitsDiffer) {
      this.limitsDiffer = differ;
      if (differ) this.logger.warn({ replicated: this.sm.limits, file: this.fileLimits }, "the cluster's replicated lock limits differ from this node's cluster file; the replicated ones apply (a leader with this file proposes its own)");
      else this.logger.info({ limits: this.sm.limits }, "the cluster's replicated lock limits match this node's cluster file");
    }
    this.proposeFileLimits();
  }

  private proposeFileLimits(): void {
    const core = this.driver.core;
    if (core.role !== "leader" || this.limitsTerm === core.term || this.driver.isStopped) return;
    const term = core.term;
    this.limitsTerm = term;
    const [done] = this.driver.propose([encodeCommand({ type: "setLimits", limits: this.fileLimits, wallMs: this.wallMs() })]);
    done?.catch(() => {
      // Not appended (a transfer, a disk below its reserve) or overwritten: a later tick asks again.
      if (this.limitsTerm === term) this.limitsTerm = 0;
    });
  }

  /**
   * The limits a request is checked with before it is proposed: on a leader whose setLimits
   * entry of this term is in its log, its file's (every later entry applies after it);
   * elsewhere the replicated ones. The check at apply time decides.
   */
  limitsForRequests(): LockLimits {
    const core = this.driver.core;
    return core.role === "leader" && this.limitsTerm === core.term ? this.fileLimits : this.sm.limits;
  }

  /**
   * SnapshotSave: the state at the applied index as a snapshot, then the log dropped up to
   * it, on disk and in memory. Refused (retry) while an apply or another snapshot is in progress.
   */
  async snapshotNow(): Promise<{ index: number; term: number; bytes: number }> {
    const taking = this.takeSnapshot();
    if (taking === null) throw new Failure(statusError("ERROR_REASON_NODE_BUSY", "a snapshot or an apply is in progress on this node; retry"));
    const snapshot = await taking;
    this.logger.info({ index: snapshot.meta.index, bytes: snapshot.data.byteLength }, `snapshot taken at index ${snapshot.meta.index} on request; log compacted`);
    return { index: snapshot.meta.index, term: snapshot.meta.term, bytes: snapshot.data.byteLength };
  }

  /** Every snapshotEntries applied entries: a snapshot, then the log dropped up to it. */
  private maybeSnapshot(): void {
    if (this.sm.appliedIndex - this.driver.core.log.offset < this.cfg.raft.snapshotEntries) return;
    this.takeSnapshot()?.then(
      (snapshot) => {
        if (this.driver.core.log.offset === snapshot.meta.index) {
          this.logger.info({ index: snapshot.meta.index, bytes: snapshot.data.byteLength }, `snapshot taken at index ${snapshot.meta.index}; log compacted`);
        }
      },
      () => undefined,
    );
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
    if (this.snapshotting || driver.isStopped || term === undefined) return null;
    if (driver.applied !== index || core.log.applied !== index || driver.applyBacklog > 0) return null;
    this.snapshotting = true;
    const membership = core.membership;
    const release = driver.holdApply();
    const started = this.now();
    const taking = runSliced(sm.snapshotSteps(), SNAPSHOT_SLICE_MS)
      .finally(release)
      .then(async (data) => {
        const snapshot: Snapshot = { meta: { index, term, membership }, data };
        this.metrics.snapshotEncoded((this.now() - started) / 1000);
        // The driver writes it between batches (never beside an in-flight write or a snapshot
        // being installed from the leader, which would supersede it), then compacts the core.
        await driver.compact(snapshot);
        return snapshot;
      })
      .finally(() => {
        this.snapshotting = false;
      });
    taking.catch((error: unknown) => {
      if (this.stopping) return;
      driver.stop(error);
      this.fatal(error);
    });
    return taking;
  }

  private softStateChanged(soft: SoftState): void {
    const leaderText = soft.leader === 0 ? "no leader known" : soft.leader === this.cfg.self.id ? "this node leads" : `leader is node ${soft.leader}`;
    this.logger.info({ role: soft.role, leader: soft.leader }, `now ${soft.role} in term ${soft.term}; ${leaderText}`);
    if (soft.leader !== this.knownLeader) {
      this.knownLeader = soft.leader;
      if (soft.leader !== 0) this.metrics.leaderChanged();
      this.health.leaderKnown(soft.leader !== 0);
    }
    if (soft.role === "leader") {
      if (this.leaderTerm !== soft.term) {
        this.leaderTerm = soft.term;
        // A new leader starts every session's TTL and every pending wait afresh.
        this.leaseKeeper.becomeLeader(this.now(), this.sm.sessionLeases(), this.sm.pendingWaits());
        this.proposeFileLimits();
      }
    } else if (this.leaderTerm !== 0) {
      this.leaderTerm = 0;
      this.leaseKeeper.stepDown();
    }
  }

  /** The Raft view the metrics gauges read at scrape time. */
  private raftMetrics(): ReturnType<MetricsSource["raft"]> {
    const core = this.driver.core;
    const followerLag = new Map<number, number>();
    if (core.role === "leader") {
      for (const id of [...core.membership.voters, ...core.membership.learners]) {
        if (id !== core.id) followerLag.set(id, Math.max(0, core.log.lastIndex() - (core.progressOf(id)?.match ?? 0)));
      }
    }
    return {
      role: core.role, term: core.term, leader: core.leader, commit: core.log.committed,
      applied: this.driver.applied, lastIndex: core.log.lastIndex(), followerLag,
    };
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
      throw new SnapshotError(`snapshot state is at index ${sm.appliedIndex} but the snapshot is named for index ${snapshot.meta.index}`);
    }
    this.checkedSnapshot = { snapshot, sm };
  }

  private applyEntry(entry: Entry): EntryResult {
    if (entry.kind !== "normal") {
      this.sm.skip(entry.index);
      if (entry.kind === "config") this.membershipChanged();
      return null;
    }
    const outcome = this.sm.applyBytes(entry.index, entry.data);
    this.dispatch(outcome);
    return outcome;
  }

  /**
   * The membership in effect changed (a config entry was applied, or state was recovered):
   * learn the addresses of new members and stop sending to removed ones.
   */
  private membershipChanged(): void {
    const m = this.driver.core.membership;
    for (const [key, a] of Object.entries(m.addresses ?? {})) {
      const id = Number(key);
      if (id === this.cfg.self.id) continue;
      if (this.peerAddresses.get(id) !== a.peer) this.transport.addPeer(id, a.peer);
      (this.peerAddresses as Map<number, string>).set(id, a.peer);
      (this.clientAddresses as Map<number, string>).set(id, a.client);
    }
    const members = new Set([...m.voters, ...m.learners]);
    for (const id of [...this.peerAddresses.keys()]) {
      if (id !== this.cfg.self.id && !members.has(id) && members.size > 0) this.transport.removePeer(id);
    }
    this.logger.info({ voters: m.voters, learners: m.learners }, `membership: voters ${m.voters.join(",")}${m.learners.length ? `, learners ${m.learners.join(",")}` : ""}`);
  }

  /** Hands what an applied entry produced to waiting calls, watchers and the lease timers. */
  private dispatch(outcome: ApplyOutcome): void {
    for (const c of outcome.completions) this.waiters.complete(c.sessionId, c.seq, c.answer);
    this.watch.publish(outcome.events);
    this.metrics.applied(outcome);
    if (this.leaseKeeper.isLeader) this.leaseKeeper.onApplied(outcome.timers, this.now());
  }

  private restoreSnapshot(snapshot: Snapshot): void {
    const checked = this.checkedSnapshot;
    this.checkedSnapshot = null;
    this.sm = checked?.snapshot === snapshot ? checked.sm : LockStateMachine.restore(snapshot.data);
    this.logger.info({ index: snapshot.meta.index, term: snapshot.meta.term }, "installed a snapshot from the leader");
    this.watch.reset(snapshot.meta.index);
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
}

