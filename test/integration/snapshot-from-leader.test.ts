// A real node (node 2, in this process) installing snapshots sent by a leader that the test
// plays with its own peer transport, as node 1. The snapshot names node 4, a member added with
// `member add` that the cluster file does not list; the test plays node 4 too.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  nodeConfig,
  parseClusterConfig,
  type ClusterConfigInput,
  type NodeConfig,
} from "../../node/config/index.ts";
import { LockStateMachine } from "../../node/lock/index.ts";
import type { InstallSnapshot, Membership, Message } from "../../node/raft/types.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { addRaftService, GrpcTransport } from "../../node/transport/grpc-transport.ts";
import { createLogger } from "../../node/util/logger.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { eventually } from "../unit/eventually.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

const CLUSTER = "palisade-snapshot-install";

interface Peer {
  readonly transport: GrpcTransport;
  readonly received: Message[];
  readonly address: string;
}

let dir = "";
let cfg: NodeConfig;
let node: PalisadeNode | null = null;
const fatal: unknown[] = [];
const closers: Array<() => Promise<void>> = [];
let leader: Peer;
let added: Peer;

/** A peer transport serving RaftService on `port`, recording what it receives. */
async function peer(id: number, port: number, node2: string): Promise<Peer> {
  const transport = new GrpcTransport({
    selfId: id,
    clusterId: CLUSTER,
    peers: new Map([[2, node2]]),
    backoff: { initialMs: 5, maxMs: 50 },
  });
  const received: Message[] = [];
  transport.onMessage((m) => received.push(m));
  const server = new grpc.Server();
  addRaftService(server, transport);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e) =>
      e ? reject(e) : resolve(),
    ),
  );
  closers.push(async () => {
    await transport.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });
  return { transport, received, address: `127.0.0.1:${port}` };
}

async function startNode(): Promise<PalisadeNode> {
  node = await PalisadeNode.start(cfg, {
    logger: createLogger({ nodeId: 2, level: "silent" }),
    onFatal: (e) => fatal.push(e),
  });
  return node;
}

/** Node 4 asks node 2 for a read index; a follower answers at once (index 0), if it can reach node 4. */
async function node2Answers4(requestId: number): Promise<void> {
  added.transport.send([{ type: "readIndex", from: 4, to: 2, term: 3, requestId }]);
  await eventually(() =>
    expect(added.received).toContainEqual(
      expect.objectContaining({ type: "readIndexResp", from: 2, requestId }),
    ),
  );
}

beforeAll(async () => {
  ensureRoot();
  dir = mkdtempSync(join(IT_ROOT, "snapshot-install-"));
  const ports = await freePorts(7);
  const input: ClusterConfigInput = {
    clusterId: CLUSTER,
    nodes: [1, 2, 3].map((id) => ({
      id,
      peerAddress: `127.0.0.1:${ports[2 * id - 2]}`,
      clientAddress: `127.0.0.1:${ports[2 * id - 1]}`,
      dataDir: `node-${id}`,
    })),
    raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
    disk: { reserveBytes: 0 },
  };
  cfg = nodeConfig(parseClusterConfig(input, "snapshot install test", dir), 2);
  leader = await peer(1, ports[0]!, cfg.self.peerAddress);
  added = await peer(4, ports[6]!, cfg.self.peerAddress);
  await startNode();
});

afterAll(async () => {
  await node?.stop();
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a snapshot installed from the leader", () => {
  const membership = (): Membership => ({
    voters: [1, 2, 3, 4],
    learners: [],
    addresses: { "4": { peer: added.address, client: "127.0.0.1:1" } },
  });
  const snapshotMessage = (data: Uint8Array): InstallSnapshot => ({
    type: "snapshot",
    from: 1,
    to: 2,
    term: 3,
    snapshot: { meta: { index: 10, term: 3, membership: membership() }, data },
  });

  it("is checked before it is stored: one the node cannot load is dropped without stopping the node", async () => {
    const state = new LockStateMachine();
    for (let i = 1; i <= 10; i++) state.skip(i);
    leader.transport.send([
      snapshotMessage(new TextEncoder().encode("a lock table in some other format")),
    ]);
    leader.transport.send([snapshotMessage(state.snapshot())]);
    await eventually(() => expect(node!.host.state.appliedIndex).toBe(10));
    expect(fatal).toEqual([]);
    expect(node!.host.driver.isStopped).toBe(false);
    expect(node!.host.driver.rejectedSnapshots).toBe(1);
    expect(node!.host.driver.core.log.offset).toBe(10);
  });

  it("makes the node reach the members it names, and still after a restart from it", async () => {
    await node2Answers4(1);
    await node!.stop();
    node = null;
    await startNode();
    expect(node!.host.driver.core.membership).toEqual(membership());
    await node2Answers4(2);
    expect(fatal).toEqual([]);
  });
});
