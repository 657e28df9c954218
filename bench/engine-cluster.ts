// Three nodes of Palisade's engine in one process: each the real Raft core and driver on
// its own LevelDB store, applying to the real lock state machine, built from a default
// cluster file the way a node builds them (node/server/node.ts → node/host/recover.ts),
// and ticked on a timer at the cluster file's tick. No gRPC, no node host: the nodes talk
// through InProcessNetwork, and nothing expires sessions, snapshots or proposes on its own.
import { createHash, randomInt } from "node:crypto";
import { join } from "node:path";
import { nodeConfig, parseClusterConfig, type ClusterConfigInput } from "../node/config/index.ts";
import { Driver, type Applier, type DriverHooks } from "../node/host/driver.ts";
import type { HostConfig } from "../node/host/host-env.ts";
import { recoverReplica, type Recovered } from "../node/host/recover.ts";
import { LockStateMachine, type ApplyOutcome } from "../node/lock/index.ts";
import type { NodeId } from "../node/raft/types.ts";
import { hostConfigOf } from "../node/server/node.ts";
import { LevelStorage } from "../node/storage/level-storage.ts";
import type { Transport } from "../node/transport/transport.ts";
import { SeededRandom } from "../node/util/rng.ts";
import { InProcessNetwork } from "./engine-transport.ts";

export type EngineApplyResult = ApplyOutcome | null;

/** The cluster file of the engine's nodes: defaults throughout, as the throughput cluster's. */
function clusterFile(dir: string, size: number): ClusterConfigInput {
  return {
    clusterId: "palisade-engine",
    nodes: Array.from({ length: size }, (_, i) => ({
      id: i + 1,
      // Never listened on: the cluster file needs them, the in-process network does not.
      peerAddress: `127.0.0.1:${20_000 + 2 * i}`,
      clientAddress: `127.0.0.1:${20_001 + 2 * i}`,
      dataDir: join(dir, `node-${i + 1}`),
    })),
    disk: { reserveBytes: 0 },
  };
}

/** One node: its store, its driver, and the state machine the driver applies to. */
export class EngineNode {
  readonly driver: Driver<EngineApplyResult>;
  /** The applied state (replaced if a snapshot from the leader is installed). */
  sm: LockStateMachine;

  constructor(
    readonly id: NodeId,
    readonly storage: LevelStorage,
    recovered: Recovered,
    transport: Transport,
    hooks: DriverHooks,
  ) {
    this.sm = recovered.sm;
    this.driver = new Driver(recovered.core, storage, transport, this.applier(), hooks);
  }

  /** What a node host's applier does to the state, without what it hands on (waiters, Watch, timers). */
  private applier(): Applier<EngineApplyResult> {
    return {
      apply: (entry) => {
        if (entry.kind === "normal") return this.sm.applyBytes(entry.index, entry.data);
        this.sm.skip(entry.index);
        return null;
      },
      restore: (snapshot) => {
        this.sm = LockStateMachine.restore(snapshot.data);
      },
    };
  }
}

export class EngineCluster {
  readonly network = new InProcessNetwork();
  readonly nodes: EngineNode[] = [];
  readonly tickMs: number;
  /** Leader changes reported by any node after the first leader was known. */
  leaderChanges = 0;
  /** A storage error that stopped a driver, if any. */
  fatal: unknown = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private knownLeader: NodeId = 0;

  private constructor(tickMs: number) {
    this.tickMs = tickMs;
  }

  /** Opens a store per node under `dir` and starts ticking; stops what it opened on failure. */
  static async start(dir: string, size = 3): Promise<EngineCluster> {
    const cluster = parseClusterConfig(clusterFile(dir, size), join(dir, "cluster.json"));
    const configs = cluster.nodes.map((n) => nodeConfig(cluster, n.id));
    const engine = new EngineCluster(cluster.raft.tickMs);
    try {
      for (const cfg of configs)
        await engine.addNode(hostConfigOf(cfg, false), cfg.self.dataDir, cfg.disk.reserveBytes);
    } catch (error) {
      await engine.stop();
      throw error;
    }
    engine.tickTimer = setInterval(() => {
      for (const n of engine.nodes) n.driver.tick();
    }, engine.tickMs);
    return engine;
  }

  private async addNode(cfg: HostConfig, dir: string, reserveBytes: number): Promise<void> {
    const storage = await LevelStorage.open({
      dir,
      clusterId: cfg.clusterId,
      nodeId: cfg.id,
      reserveBytes,
    });
    try {
      const random = new SeededRandom(randomInt(0, 2 ** 32 - 1));
      const recovered = recoverReplica(cfg, await storage.load(), random);
      const node = new EngineNode(cfg.id, storage, recovered, this.network.transport(cfg.id), {
        onFatal: (error) => {
          this.fatal ??= error;
        },
        onSoftState: (soft) => this.leaderSeen(soft.leader),
      });
      this.nodes.push(node);
    } catch (error) {
      await storage.close().catch(() => undefined);
      throw error;
    }
  }

  private leaderSeen(leader: NodeId): void {
    if (leader === 0 || leader === this.knownLeader) return;
    if (this.knownLeader !== 0) this.leaderChanges++;
    this.knownLeader = leader;
  }

  /** The node that leads in the highest term, if any. */
  leader(): EngineNode | undefined {
    let best: EngineNode | undefined;
    for (const n of this.nodes)
      if (n.driver.core.role === "leader" && (!best || n.driver.core.term > best.driver.core.term))
        best = n;
    return best;
  }

  /** Resolves with the leader once one has committed an entry of its term (its no-op). */
  async waitForLeader(timeoutMs: number): Promise<EngineNode> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const leader = this.leader();
      if (leader && leader.driver.applied >= leader.driver.core.leadershipIndex) return leader;
      if (this.fatal !== null) throw new Error(`a node stopped: ${String(this.fatal)}`);
      if (performance.now() > deadline) throw new Error(`no leader within ${timeoutMs} ms`);
      await sleep(this.tickMs);
    }
  }

  /** Waits until every node has applied what the leader applied; false if not within `timeoutMs`. */
  async converged(leader: EngineNode, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    const target = leader.driver.applied;
    while (this.nodes.some((n) => n.driver.applied < target)) {
      if (performance.now() > deadline) return false;
      await sleep(this.tickMs / 5);
    }
    return true;
  }

  /** Each node's applied index and a digest of its whole state (its snapshot bytes). */
  states(): Array<{ id: NodeId; applied: number; digest: string }> {
    return this.nodes.map((n) => ({
      id: n.id,
      applied: n.sm.appliedIndex,
      digest: createHash("sha256").update(n.sm.snapshot()).digest("hex").slice(0, 16),
    }));
  }

  /** Stops the ticks and the drivers, then closes the stores (their writes complete first). */
  async stop(): Promise<void> {
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
    for (const n of this.nodes) n.driver.stop();
    await Promise.all(this.nodes.map((n) => n.storage.close().catch(() => undefined)));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
