// One Palisade node process: the I/O shell around its host (node/host/node-host.ts). It
// opens the LevelDB store and the peer transport, gives the host real clocks, randomness
// and a disk-space check, serves the client and admin gRPC services, Watch streams,
// Prometheus metrics and gRPC health, and ticks the host on a timer. Everything that
// decides something is in the host, which the simulator runs too.
import { randomInt } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { adminServiceDefinition, lockServiceNodeDefinition } from "../../proto/grpc.ts";
import { STREAM_MAX_FRAME_BYTES } from "../../proto/wire.ts";
import type { NodeConfig } from "../config/index.ts";
import { AdminRequests } from "../host/admin-requests.ts";
import type { HostConfig, HostEnv } from "../host/host-env.ts";
import { LockRequests } from "../host/lock-requests.ts";
import { NodeHost } from "../host/node-host.ts";
import {
  configurableOf,
  MAX_LOCK_NAME_BYTES,
  resolveLimits,
  type LockEvent,
  type LockLimits,
} from "../lock/index.ts";
import { LevelStorage, type StorageWrite } from "../storage/level-storage.ts";
import { addRaftService, GrpcTransport } from "../transport/grpc-transport.ts";
import type { Logger } from "../util/logger.ts";
import { SeededRandom } from "../util/rng.ts";
import { adminServiceHandlers } from "../api/admin-service.ts";
import type { ServiceContext } from "../api/context.ts";
import { DiskGuard } from "../ops/disk-guard.ts";
import { NodeHealth } from "../ops/health.ts";
import { tokenCatchUp } from "../api/callers.ts";
import { clientInterceptor, peerInterceptor } from "../api/interceptors.ts";
import { lockServiceHandlers } from "../api/lock-service.ts";
import { DEFAULT_STREAM_LIMITS } from "../api/lock-stream.ts";
import { everyLock } from "../ops/metrics-locks.ts";
import { NodeMetrics, type MetricsSource } from "../ops/metrics.ts";
import { serveMetrics, type MetricsEndpoint } from "../ops/metrics-server.ts";
import {
  eventJson,
  isPageRequest,
  LiveFeed,
  servePageListener,
  StatusPage,
  statusPagePlace,
  statusPageUrl,
  type PageListener,
} from "../ops/status-page/index.ts";
import { RateLimiter } from "../host/rate-limiter.ts";
import { AccessGate } from "../host/access-gate.ts";
import { RequestFailure } from "../host/failures.ts";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { identityOf, loadNodeCredentials, type NodeCredentials } from "../ops/tls.ts";
import { tolerantDefinition } from "../api/tolerant.ts";
import { Gateway } from "../api/gateway.ts";
import { gatewayOrigin, listenHttp, type HttpListener } from "../ops/http-listener.ts";
import { WatchHub } from "../api/watch-hub.ts";

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
  return resolveLimits(configurableOf(cfg.limits));
}

/** What the host needs to know of a node's cluster file. */
export function hostConfigOf(cfg: NodeConfig, join: boolean): HostConfig {
  return {
    id: cfg.self.id,
    clusterId: cfg.clusterId,
    tickMs: cfg.raft.tickMs,
    electionTicks: cfg.raft.electionTicks,
    heartbeatTicks: cfg.raft.heartbeatTicks,
    maxInflightMsgs: cfg.raft.maxInflightMsgs,
    maxBytesPerAppend: cfg.raft.maxBytesPerAppend,
    snapshotEntries: cfg.raft.snapshotEntries,
    limits: lockLimitsOf(cfg),
    members: cfg.nodes.map((n) => ({
      id: n.id,
      peerAddress: n.peerAddress,
      clientAddress: n.clientAddress,
    })),
    join,
  };
}

/**
 * The most bytes a client may send in one message: a Stream frame, or the largest request the
 * limits allow (an Acquire naming the most locks, with the most holder data) if that is more,
 * never above limits.maxMessageBytes. grpc-js refuses a larger message from its header,
 * before reading it; peers keep the full limit (their appends and snapshot chunks).
 */
export function clientMessageBytes(cfg: NodeConfig): number {
  const largestAcquire =
    cfg.limits.maxLocksPerAcquire * (MAX_LOCK_NAME_BYTES + 32) +
    cfg.limits.maxHolderDataBytes +
    4 * 1024;
  return Math.min(cfg.limits.maxMessageBytes, Math.max(STREAM_MAX_FRAME_BYTES, largestAcquire));
}

function grpcServerOptions(
  cfg: NodeConfig,
  interceptors: grpc.ServerInterceptor[] = [],
  receiveBytes = cfg.limits.maxMessageBytes,
): grpc.ServerOptions {
  return {
    "grpc.max_receive_message_length": receiveBytes,
    "grpc.max_send_message_length": cfg.limits.maxMessageBytes,
    // Channelz bookkeeping costs a few microseconds per call and message; nothing reads it.
    "grpc.enable_channelz": 0,
    interceptors,
  };
}

function bind(
  server: grpc.Server,
  address: string,
  credentials: NodeCredentials | null,
): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(
      address,
      credentials?.server ?? grpc.ServerCredentials.createInsecure(),
      (err, port) => {
        if (err) reject(new Error(`cannot listen on ${address}: ${err.message}`, { cause: err }));
        else resolve(port);
      },
    );
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

const monotonicMs = (): number => performance.now();

/** A certificate path of the cluster file with `{id}` filled in. */
const fill = (path: string, id: number): string => path.replaceAll("{id}", String(id));

export class PalisadeNode {
  readonly logger: Logger;
  readonly host: NodeHost;
  readonly watch: WatchHub;
  readonly metrics: NodeMetrics;
  readonly health = new NodeHealth();

  private readonly cfg: NodeConfig;
  private readonly storage: LevelStorage;
  private readonly transport: GrpcTransport;
  private readonly diskGuard: DiskGuard;
  private readonly credentials: NodeCredentials | null;
  private readonly peerServer: grpc.Server;
  private readonly clientServer: grpc.Server;
  /** The per-client request budget (the interceptor spends it per unary call, a Stream per request). */
  private readonly limiter: RateLimiter;
  /** Who each client request comes from, and the checks the node makes itself. */
  private readonly gate: AccessGate;
  private metricsEndpoint: MetricsEndpoint | null = null;
  /** The status page's live feed (null when the page is off) and its own listener, if any. */
  private pageFeed: LiveFeed | null = null;
  private pageListener: PageListener | null = null;
  /** The JSON gateway's listener (null without an httpAddress). */
  private gatewayListener: HttpListener | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  /** The leader last reported, for leader-change metrics and health. */
  private knownLeader = 0;

  private constructor(
    cfg: NodeConfig,
    opts: PalisadeNodeOptions,
    parts: {
      storage: LevelStorage;
      transport: GrpcTransport;
      diskGuard: DiskGuard;
      credentials: NodeCredentials | null;
      metrics: NodeMetrics;
      watch: WatchHub;
      host: NodeHost;
    },
  ) {
    this.cfg = cfg;
    this.logger = opts.logger;
    this.storage = parts.storage;
    this.transport = parts.transport;
    this.diskGuard = parts.diskGuard;
    this.credentials = parts.credentials;
    this.metrics = parts.metrics;
    this.watch = parts.watch;
    this.host = parts.host;
    const limiter = new RateLimiter({
      ratePerSecond: cfg.limits.requestsPerSecond,
      burst: cfg.limits.requestBurst,
      now: monotonicMs,
    });
    this.limiter = limiter;
    const gate = new AccessGate({
      tls: this.credentials !== null,
      certIdentity: cfg.auth.certIdentity,
      admins: cfg.auth.admins,
      state: () => this.host.state.accessState,
      wallMs: () => this.host.wallMs(),
      now: monotonicMs,
      logger: this.logger,
      onDenied: (reason) => this.metrics.authDenied(reason),
    });
    this.gate = gate;
    this.clientServer = new grpc.Server(
      grpcServerOptions(
        cfg,
        [
          clientInterceptor({
            tls: this.credentials !== null,
            limiter,
            onRejected: (method, reason) => this.metrics.requestRejected(method, reason),
            tokenCatchUp: (authorization) => tokenCatchUp(gate, this.host, authorization),
          }),
        ],
        clientMessageBytes(cfg),
      ),
    );
    // A joining node knows no members until the leader's entries arrive: until then any
    // node certificate of the cluster CA may send as the id it names.
    const isMember = (id: number): boolean => {
      const { voters, learners } = this.host.raftStatus().membership;
      return (
        (voters.length === 0 && learners.length === 0) ||
        voters.includes(id) ||
        learners.includes(id)
      );
    };
    this.peerServer = new grpc.Server(
      grpcServerOptions(cfg, this.credentials ? [peerInterceptor(isMember)] : []),
    );
  }

  /** Opens the data directory, recovers state, and starts serving peers and clients. */
  static async start(cfg: NodeConfig, opts: PalisadeNodeOptions): Promise<PalisadeNode> {
    const log = opts.logger;
    // The metrics are made once the store is open; its writes report to them from then on.
    let onWrite: ((write: StorageWrite) => void) | null = null;
    let onPeerRtt: ((peer: number, seconds: number) => void) | null = null;
    const storage = await LevelStorage.open({
      onWrite: (write) => onWrite?.(write),
      dir: cfg.self.dataDir,
      clusterId: cfg.clusterId,
      nodeId: cfg.self.id,
      reserveBytes: cfg.disk.reserveBytes,
      onDiskSpace: (e) => {
        if (e.low)
          log.warn(
            { freeBytes: e.freeBytes, reserveBytes: e.reserveBytes },
            "free disk space below the reserve: writes paused until space returns",
          );
        else
          log.info(
            { freeBytes: e.freeBytes },
            "free disk space back above the reserve: writes resumed",
          );
      },
    });
    let node: PalisadeNode;
    try {
      const credentials = cfg.tls ? loadNodeCredentials(cfg.tls, cfg.self.id) : null;
      const transport = new GrpcTransport({
        ...(credentials ? { credentials: credentials.channel } : {}),
        selfId: cfg.self.id,
        clusterId: cfg.clusterId,
        peers: new Map(cfg.peers.map((p) => [p.id, p.peerAddress])),
        maxMessageBytes: cfg.limits.maxMessageBytes,
        onPeerRtt: (peer, seconds) => onPeerRtt?.(peer, seconds),
      });
      // The node is referred to by the gauges and hooks, which run only once it exists.
      let self: PalisadeNode | null = null;
      const metrics = new NodeMetrics(
        { cluster: cfg.clusterId, node: cfg.self.id },
        {
          raft: () =>
            self?.raftMetrics() ?? {
              role: "follower",
              term: 0,
              leader: 0,
              commit: 0,
              applied: 0,
              lastIndex: 0,
              followerLag: new Map(),
            },
          lockStats: () =>
            self?.host.state.stats() ?? {
              sessions: 0,
              lockEntries: 0,
              heldLocks: 0,
              waiters: 0,
              historyRecords: 0,
              rememberedRequestIds: 0,
              rememberedClosedSessions: 0,
            },
        },
        {
          lockPrefixes: cfg.metrics.lockPrefixes,
          locks: { now: monotonicMs, isLeader: () => self?.host.isLeader ?? false },
        },
      );
      onWrite = (write) => metrics.storageWrite(write);
      onPeerRtt = (peer, seconds) => metrics.peerRoundTrip(peer, seconds);
      const diskGuard = new DiskGuard(storage, cfg.disk.reserveBytes);
      let watch: WatchHub | null = null;
      const env: HostEnv = {
        now: monotonicMs,
        wallMs: () => Date.now(),
        random: new SeededRandom(randomInt(0, 2 ** 32 - 1)),
        defer: (fn) => setImmediate(fn),
        // Unreferenced: a deadline that lost its race must not keep a stopping process alive.
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
        logger: log,
        storage,
        transport,
        writesRefused: () => diskGuard.refusal(),
      };
      const host = await NodeHost.boot(hostConfigOf(cfg, opts.join === true), env, {
        onFatal: (error) => opts.onFatal?.(error),
        onSoftState: (soft) => self?.softStateChanged(soft.leader),
        onApplied: (outcome) => {
          metrics.applied(outcome);
          const kind = outcome.result.kind;
          if (kind === "policySet" || kind === "tokenRevoked") watch?.recheck();
        },
        onKeepAlive: () => metrics.keptAlive(),
        onEvents: (events) => {
          watch?.publish(events);
          self?.pageEvents(events);
        },
        onSnapshotInstalled: (index) => {
          watch?.reset(index);
          self?.pageFeed?.reset(index);
          if (self) metrics.lockStateReplaced(everyLock(self.host.state));
        },
        onSnapshotTaken: (_index, _bytes, seconds) => metrics.snapshotEncoded(seconds),
        onProposalSettled: (committed, seconds) =>
          committed ? metrics.proposalCommitted(seconds) : metrics.proposalFailed(),
        onSend: (m) => {
          if (m.type === "append") metrics.appendSent(m.entries.length);
        },
      });
      metrics.lockStateReplaced(everyLock(host.state));
      watch = new WatchHub({
        ringCapacity: opts.watchRingCapacity ?? 10_000,
        maxQueuedPerWatcher: 4_096,
        firstIndex: host.state.appliedIndex + 1,
      });
      node = new PalisadeNode(cfg, opts, {
        storage,
        transport,
        diskGuard,
        credentials,
        metrics,
        watch,
        host,
      });
      self = node;
      diskGuard.start();
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

  get clientAddress(): string {
    return this.cfg.self.clientAddress;
  }

  get peerAddress(): string {
    return this.cfg.self.peerAddress;
  }

  // ---------------------------------------------------------------- lifecycle

  private async listen(): Promise<void> {
    const ctx: ServiceContext = {
      host: this.host,
      locks: new LockRequests(this.host, this.gate),
      admin: new AdminRequests(this.host, () => this.transport.unreachable()),
      watch: this.watch,
      logger: this.logger,
      ...(this.cfg.self.metricsAddress ? { metricsAddress: this.cfg.self.metricsAddress } : {}),
      streams: {
        tls: this.credentials !== null,
        observer: this.metrics.streams,
        // Answer frames stay under what this node may send in one message.
        limits: { ...DEFAULT_STREAM_LIMITS, maxAnswerFrameBytes: this.cfg.limits.maxMessageBytes },
        takeBudget: (key, cost) => {
          if (this.limiter.take(key, cost)) return true;
          this.metrics.requestRejected("Stream", "rate_limited");
          return false;
        },
      },
    };
    addRaftService(this.peerServer, this.transport);
    this.clientServer.addService(
      tolerantDefinition(lockServiceNodeDefinition),
      lockServiceHandlers(ctx),
    );
    this.clientServer.addService(
      tolerantDefinition(adminServiceDefinition),
      adminServiceHandlers(ctx),
    );
    this.health.addTo(this.clientServer);
    await bind(this.peerServer, this.cfg.self.peerAddress, this.credentials);
    await bind(this.clientServer, this.cfg.self.clientAddress, this.credentials);
    const page = guardedPage(this.statusPage(ctx), ctx.locks.gate);
    const place = statusPagePlace(this.cfg, this.cfg.self);
    const onMetricsPort = place.kind === "metrics" && page ? page : null;
    if (this.cfg.self.metricsAddress) {
      this.metricsEndpoint = await serveMetrics(
        this.cfg.self.metricsAddress,
        this.metrics,
        onMetricsPort
          ? { handle: (req, res) => onMetricsPort.handle(req, res), paths: ["/ui"] }
          : undefined,
      );
    }
    if (place.kind === "own" && page) {
      const tls = this.cfg.tls && this.cfg.statusPage.tls;
      const files = tls
        ? {
            cert: fill(tls.cert, this.cfg.self.id),
            key: fill(tls.key, this.cfg.self.id),
            ca: tls.ca ?? this.cfg.tls?.ca ?? "",
          }
        : null;
      this.pageListener = await servePageListener(
        place.address,
        (req, res) => page.handle(req, res),
        files,
      );
    }
    await this.serveGateway(ctx);
    if (place.kind === "off") this.logger.info(`status page off: ${place.why}`);
    else this.logger.info({ url: place.url }, `status page at ${place.url}`);
    this.health.serving();
    this.tickTimer = setInterval(() => this.host.tick(), this.cfg.raft.tickMs);
    this.host.tick();
  }

  /** Graceful stop: hand leadership over, stop taking requests, end waiting calls, stop Raft, close the store. */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    await this.host.handOverLeadership();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.diskGuard.stop();
    this.tickTimer = null;
    this.health.stopping();
    this.host.waiters.failAll("this node is shutting down");
    this.watch.closeAll();
    this.pageFeed?.closeAll();
    await shutdown(this.clientServer, 2_000);
    this.host.stop();
    await this.transport.close();
    await shutdown(this.peerServer, 1_000);
    await this.metricsEndpoint?.close();
    await this.pageListener?.close();
    await this.gatewayListener?.close();
    await this.storage
      .close()
      .catch((err: unknown) => this.logger.warn({ err }, "closing the store failed"));
    this.logger.info("node stopped");
  }

  /** The JSON gateway on the node's httpAddress, if it has one: HTTPS with its own certificate under mTLS. */
  private async serveGateway(ctx: ServiceContext): Promise<void> {
    const address = this.cfg.self.httpAddress;
    if (address === undefined) return;
    const tls = this.cfg.tls;
    const origins = new Map(
      this.cfg.nodes.flatMap((n) =>
        n.httpAddress === undefined
          ? []
          : [[n.id, gatewayOrigin(n.httpAddress, tls !== undefined)]],
      ),
    );
    const gateway = new Gateway({
      ctx,
      tls: tls !== undefined,
      limiter: this.limiter,
      maxBodyBytes: this.cfg.limits.maxMessageBytes,
      leaderOrigin: () => {
        const leader = this.host.leaderId;
        return leader === 0 || leader === this.cfg.self.id ? null : (origins.get(leader) ?? null);
      },
      onRejected: (method, reason) => this.metrics.requestRejected(method, reason),
    });
    this.gatewayListener = await listenHttp(
      address,
      "the HTTP gateway",
      (req, res) => gateway.handle(req, res),
      tls
        ? {
            cert: fill(tls.cert, this.cfg.self.id),
            key: fill(tls.key, this.cfg.self.id),
            ca: tls.ca,
            rejectUnauthorized: false,
          }
        : null,
    );
    const url = gatewayOrigin(address, tls !== undefined);
    this.logger.info({ url }, `HTTP gateway at ${url}/v1/`);
  }

  /** The read-only status page over what any client may read (null when the cluster file turns it off). */
  private statusPage(ctx: ServiceContext): StatusPage | null {
    if (statusPagePlace(this.cfg, this.cfg.self).kind === "off") return null;
    const feed = new LiveFeed({ maxFeeds: this.cfg.statusPage.maxLiveFeeds });
    this.pageFeed = feed;
    const pages = new Map(this.cfg.nodes.map((n) => [n.id, statusPageUrl(this.cfg, n)]));
    return new StatusPage({
      read: (query) => ctx.locks.read(query),
      status: () => ctx.admin.status(),
      book: {
        clientAddressOf: (id) =>
          this.host.clientAddressOf(id) ??
          (id === this.cfg.self.id ? this.cfg.self.clientAddress : undefined),
        pageOf: (id) => pages.get(id) ?? null,
      },
      feed,
      wallMs: () => Date.now(),
    });
  }

  /**
   * Lock events of an applied entry, for the status page's live feeds (skipped while none
   * is open: the apply path pays nothing for a page nobody watches). A session that just
   * ended is gone from the state: its name is then the one on the grant's history record.
   */
  private pageEvents(events: readonly LockEvent[]): void {
    const feed = this.pageFeed;
    if (!feed || feed.open === 0) return;
    const state = this.host.state;
    const nameOf = (e: LockEvent): string =>
      state.getSession(e.sessionId)?.clientName ??
      [...state.history(e.lock)].reverse().find((h) => h.token === e.token)?.clientName ??
      "";
    feed.publish(events.map((e) => eventJson(e, nameOf(e))));
  }

  private softStateChanged(leader: number): void {
    if (leader === this.knownLeader) return;
    this.knownLeader = leader;
    if (leader !== 0) this.metrics.leaderChanged();
    this.health.leaderKnown(leader !== 0);
  }

  /** The Raft view the metrics gauges read at scrape time. */
  private raftMetrics(): ReturnType<MetricsSource["raft"]> {
    const raft = this.host.driver.core.status();
    const followerLag = new Map<number, number>();
    // The leader's progress lists every other member (empty on a follower).
    for (const peer of raft.progress)
      if (peer.id !== raft.id) followerLag.set(peer.id, Math.max(0, raft.lastIndex - peer.match));
    return {
      role: raft.role,
      term: raft.term,
      leader: raft.leader,
      commit: raft.commit,
      applied: this.host.driver.applied,
      lastIndex: raft.lastIndex,
      followerLag,
    };
  }
}

/**
 * The status page behind access control: once a policy is applied, it shows every lock, so
 * it needs a caller (a bearer token, or the browser's certificate) that may read every name.
 */
export function guardedPage(page: StatusPage | null, gate: AccessGate): StatusPage | null {
  if (page === null) return null;
  const refusal = (req: IncomingMessage): string | null => {
    if (!gate.policyApplied) return null;
    const socket = req.socket as TLSSocket;
    const cert =
      socket.encrypted && socket.authorized
        ? identityOf({
            transportSecurityType: "ssl",
            sslPeerCertificate: socket.getPeerCertificate(),
          })
        : null;
    try {
      gate.require(
        gate.callerOf(cert, req.headers.authorization, "StatusPage"),
        "StatusPage",
        "read",
        "",
      );
      return null;
    } catch (error) {
      if (error instanceof RequestFailure) return error.message;
      throw error;
    }
  };
  const handle = page.handle.bind(page);
  page.handle = (req, res) => {
    // Another path (the metrics port's /metrics, beside the page) is not the page's to refuse.
    if (!isPageRequest(req)) return handle(req, res);
    const why = refusal(req);
    if (why === null) return handle(req, res);
    res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(`${why}\n`);
    return true;
  };
  return page;
}
