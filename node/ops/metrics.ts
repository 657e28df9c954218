// Prometheus metrics of one node, in a registry of its own (several nodes may share a
// process in tests). Gauges of Raft and lock state are read from the node when scraped;
// counters and histograms are fed by the node as things happen. Every series carries the
// labels `cluster` and `node`.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ApplyOutcome, LockInfo, StateStats } from "../lock/index.ts";
import type { Role } from "../raft/types.ts";
import type { StorageWrite } from "../storage/level-storage.ts";
import type { StreamObserver } from "../api/stream-options.ts";
import { LockMetrics, LockPrefixLabel, type LockMetricsSource } from "./metrics-locks.ts";

/** What the scrape-time gauges read from the node. */
export interface MetricsSource {
  raft(): {
    role: Role;
    term: number;
    leader: number;
    commit: number;
    applied: number;
    lastIndex: number;
    /** Per follower: entries behind the leader's last index (leader only, else empty). */
    followerLag: ReadonlyMap<number, number>;
  };
  lockStats(): StateStats;
}

export interface NodeMetricsOptions {
  /** Lock-name prefixes allowed as the `lock_prefix` label (cluster file: metrics.lockPrefixes). */
  readonly lockPrefixes?: readonly string[];
  /** The clock and role the lock metrics read (default: performance.now, never leader). */
  readonly locks?: LockMetricsSource;
}

const ROLES: readonly Role[] = ["follower", "precandidate", "candidate", "leader"];
const LATENCY_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];
/** Round trips on a LAN or loopback take well under a millisecond. */
const RTT_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

export class NodeMetrics {
  readonly registry = new Registry();
  private readonly leaderChanges: Counter;
  private readonly proposals: Counter<"result">;
  /**
   * The per-request counts, kept as plain numbers and added to their counters when the
   * metrics are read: a labelled increment hashes its labels, four times per request.
   */
  private readonly tally = { committed: 0, framesIn: 0, framesOut: 0, callsIn: 0, callsOut: 0 };
  private readonly commitLatency: Histogram;
  private readonly fsyncLatency: Histogram;
  private readonly peerRtt: Histogram<"peer">;
  private readonly savesPerWrite: Histogram;
  private readonly appendBatch: Histogram;
  private readonly snapshotEncoding: Histogram;
  private readonly sessionExpiries: Counter;
  private readonly keepalives: Counter;
  private readonly lockExpiries: Counter;
  private readonly rejected: Counter<"method" | "reason">;
  private readonly authDeniedTotal: Counter<"reason">;
  private readonly streamsOpen: Gauge;
  private readonly streamFrames: Counter<"direction">;
  private readonly streamMessages: Counter<"direction">;
  private readonly locks: LockMetrics;

  constructor(
    labels: { cluster: string; node: number },
    source: MetricsSource,
    options: NodeMetricsOptions = {},
  ) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ cluster: labels.cluster, node: String(labels.node) });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });

    const readRaft = (): ReturnType<MetricsSource["raft"]> => source.raft();
    const gauge = (
      name: string,
      help: string,
      value: (r: ReturnType<MetricsSource["raft"]>) => number,
    ): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(value(readRaft()));
        },
      });
    };
    new Gauge({
      name: "palisade_raft_role",
      help: "1 for this node's current Raft role, 0 for the others",
      labelNames: ["role"],
      registers,
      collect() {
        const role = readRaft().role;
        for (const r of ROLES) this.set({ role: r }, r === role ? 1 : 0);
      },
    });
    gauge("palisade_raft_term", "current Raft term", (r) => r.term);
    gauge(
      "palisade_raft_leader_id",
      "id of the leader this node knows, 0 when none",
      (r) => r.leader,
    );
    gauge("palisade_raft_commit_index", "highest log index known committed", (r) => r.commit);
    gauge(
      "palisade_raft_applied_index",
      "highest log index applied to the lock state machine",
      (r) => r.applied,
    );
    gauge(
      "palisade_raft_last_index",
      "index of the last entry in this node's log",
      (r) => r.lastIndex,
    );
    new Gauge({
      name: "palisade_raft_follower_lag_entries",
      help: "on the leader: entries each follower is behind the leader's last index",
      labelNames: ["follower"],
      registers,
      collect() {
        this.reset();
        for (const [id, lag] of readRaft().followerLag) this.set({ follower: String(id) }, lag);
      },
    });
    const lockGauge = (name: string, help: string, value: (s: StateStats) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(value(source.lockStats()));
        },
      });
    };
    lockGauge("palisade_sessions", "live sessions", (s) => s.sessions);
    lockGauge("palisade_locks_held", "locks with a holder", (s) => s.heldLocks);
    lockGauge("palisade_lock_waiters", "Acquire calls queued behind a holder", (s) => s.waiters);

    this.leaderChanges = new Counter({
      name: "palisade_raft_leader_changes_total",
      help: "times the leader this node knows changed",
      registers,
    });
    const tally = this.tally;
    this.proposals = new Counter({
      name: "palisade_proposals_total",
      help: "commands proposed on this node, by result (committed and applied, or failed)",
      labelNames: ["result"],
      registers,
      collect: () => {
        this.proposals.inc({ result: "committed" }, tally.committed);
        tally.committed = 0;
      },
    });
    this.commitLatency = new Histogram({
      name: "palisade_proposal_commit_seconds",
      help: "time from proposing a command to its apply on this node",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.fsyncLatency = new Histogram({
      name: "palisade_storage_fsync_seconds",
      help: "time of one synced (durable) write of Raft state to disk",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.peerRtt = new Histogram({
      name: "palisade_raft_peer_rtt_seconds",
      help: "round trip of a batch of Raft messages to a peer and its acknowledgement, less the time the peer held the acknowledgement back, by peer node id",
      labelNames: ["peer"],
      buckets: RTT_BUCKETS,
      registers,
    });
    this.savesPerWrite = new Histogram({
      name: "palisade_storage_batches_per_write",
      help: "Raft batches carried by each write of Raft state (batches queued behind a write share the next)",
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.appendBatch = new Histogram({
      name: "palisade_raft_append_entries_batch_size",
      help: "entries in each AppendEntries message this node sends",
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.snapshotEncoding = new Histogram({
      name: "palisade_snapshot_encode_seconds",
      help: "wall time to encode one snapshot of the lock state (in slices: applying waits meanwhile, the event loop does not)",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.sessionExpiries = new Counter({
      name: "palisade_session_expiries_total",
      help: "sessions ended because their TTL ran out (applied)",
      registers,
    });
    this.lockExpiries = new Counter({
      name: "palisade_lock_expiries_total",
      help: "locks freed because their holder's session expired (applied)",
      registers,
    });
    this.rejected = new Counter({
      name: "palisade_requests_rejected_total",
      help: "client and admin requests answered with an error, by method and reason (status code, or rate_limited)",
      labelNames: ["method", "reason"],
      registers,
    });
    this.authDeniedTotal = new Counter({
      name: "palisade_auth_denied_total",
      help: "requests refused by access control, by reason: unauthenticated (a token unknown, revoked or expired), permission (no grant of the action on the name), not_owner (a session of another identity), quota, admin_required",
      labelNames: ["reason"],
      registers,
    });
    this.keepalives = new Counter({
      name: "palisade_session_keepalives_total",
      help: "session keepalives this node took as leader (one per session, however many a request carried)",
      registers,
    });
    this.streamsOpen = new Gauge({
      name: "palisade_client_streams",
      help: "client Stream RPCs open on this node",
      registers,
    });
    this.streamFrames = new Counter({
      name: "palisade_client_stream_frames_total",
      help: "frames on client Stream RPCs: in (from clients) and out (to clients)",
      labelNames: ["direction"],
      registers,
      collect: () => {
        this.streamFrames.inc({ direction: "in" }, tally.framesIn);
        this.streamFrames.inc({ direction: "out" }, tally.framesOut);
        tally.framesIn = tally.framesOut = 0;
      },
    });
    this.streamMessages = new Counter({
      name: "palisade_client_stream_calls_total",
      help: "calls the client Stream RPCs carried: requests in, answers out (divided by the frames: calls per frame)",
      labelNames: ["direction"],
      registers,
      collect: () => {
        this.streamMessages.inc({ direction: "in" }, tally.callsIn);
        this.streamMessages.inc({ direction: "out" }, tally.callsOut);
        tally.callsIn = tally.callsOut = 0;
      },
    });
    // Both directions exist from the start, at 0, so a node no client streamed to yet shows them.
    for (const direction of ["in", "out"]) {
      this.streamFrames.inc({ direction }, 0);
      this.streamMessages.inc({ direction }, 0);
    }
    this.locks = new LockMetrics(
      this.registry,
      new LockPrefixLabel(options.lockPrefixes ?? []),
      options.locks ?? { now: () => performance.now(), isLeader: () => false },
    );
  }

  leaderChanged(): void {
    this.leaderChanges.inc();
  }

  proposalCommitted(seconds: number): void {
    this.tally.committed++;
    this.commitLatency.observe(seconds);
  }

  proposalFailed(): void {
    this.proposals.inc({ result: "failed" });
  }

  /** One LevelDB write of Raft state: its time if synced, and how many batches it carried. */
  storageWrite(write: StorageWrite): void {
    if (write.sync) this.fsyncLatency.observe(write.seconds);
    this.savesPerWrite.observe(write.saves);
  }

  /** One round trip to `peer` (node/transport/grpc-transport.ts: onPeerRtt). */
  peerRoundTrip(peer: number, seconds: number): void {
    this.peerRtt.observe({ peer: String(peer) }, seconds);
  }

  snapshotEncoded(seconds: number): void {
    this.snapshotEncoding.observe(seconds);
  }

  appendSent(entries: number): void {
    this.appendBatch.observe(entries);
  }

  keptAlive(): void {
    this.keepalives.inc();
  }

  applied(outcome: ApplyOutcome): void {
    if (outcome.result.kind === "sessionExpired") this.sessionExpiries.inc();
    let expired = 0;
    for (const e of outcome.events) if (e.type === "sessionExpired") expired++;
    if (expired > 0) this.lockExpiries.inc(expired);
    this.locks.applied(outcome);
  }

  /** The applied state was replaced (recovered at start, or a snapshot from the leader installed). */
  lockStateReplaced(locks: Iterable<LockInfo>): void {
    this.locks.stateReplaced(locks);
  }

  requestRejected(method: string, reason: string): void {
    this.rejected.inc({ method, reason });
  }

  /** A request access control refused (see node/host/access-gate.ts). */
  authDenied(reason: string): void {
    this.authDeniedTotal.inc({ reason });
  }

  /** What the client streams carry (node/api/lock-stream.ts). */
  readonly streams: StreamObserver = {
    streamsChanged: (delta) => this.streamsOpen.inc(delta),
    frameIn: (requests) => {
      this.tally.framesIn++;
      this.tally.callsIn += requests;
    },
    frameOut: (answers) => {
      this.tally.framesOut++;
      this.tally.callsOut += answers;
    },
  };

  /** The text exposition format, for the /metrics endpoint. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Proposal results and latencies of a driver-like proposer, fed to `metrics`. */
export function timeProposals<T>(
  propose: (data: readonly Uint8Array[]) => Array<Promise<T>>,
  metrics: NodeMetrics,
  nowMs: () => number,
): (data: readonly Uint8Array[]) => Array<Promise<T>> {
  return (data) => {
    const started = nowMs();
    const pending = propose(data);
    for (const p of pending) {
      p.then(
        () => metrics.proposalCommitted((nowMs() - started) / 1000),
        () => metrics.proposalFailed(),
      );
    }
    return pending;
  };
}
