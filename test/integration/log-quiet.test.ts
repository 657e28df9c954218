// At info level a node logs events (elections, membership, snapshots, expiries), never a
// line per request: Acquire, Release, KeepAlive, reads and status page views write nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import { nodeConfig, parseClusterConfig } from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { createLogger } from "../../node/util/logger.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

const LIMITS_MATCH = "the cluster's replicated lock limits match this node's cluster file";

describe("logs at info level", () => {
  const lines: Array<{ level: number; msg: string }> = [];
  let dir: string;
  let node: PalisadeNode | undefined;
  let client: PalisadeClient;
  let metrics: string;

  beforeAll(async () => {
    ensureRoot();
    dir = mkdtempSync(join(IT_ROOT, "quiet-"));
    const [peer, clientPort, m] = await freePorts(3);
    metrics = `127.0.0.1:${m}`;
    const cfg = nodeConfig(
      parseClusterConfig(
        {
          clusterId: "palisade-quiet",
          nodes: [
            {
              id: 1,
              peerAddress: `127.0.0.1:${peer}`,
              clientAddress: `127.0.0.1:${clientPort}`,
              metricsAddress: metrics,
              dataDir: "node-1",
            },
          ],
          raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
          limits: { minTtlMs: 500 },
          disk: { reserveBytes: 0 },
        },
        "quiet test",
        dir,
      ),
      1,
    );
    const logger = createLogger({
      nodeId: 1,
      level: "info",
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    node = await PalisadeNode.start(cfg, { logger });
    // A single node elects itself, then sets the replicated limits to its file's (minTtlMs
    // differs from the default) and logs that they match: both are start-up events, so the
    // test looks at lines only after the last of them. The hook's timeout bounds the wait.
    const settled = (): boolean =>
      node?.host.isLeader === true && lines.some((l) => l.msg === LIMITS_MATCH);
    while (!settled()) await new Promise((r) => setTimeout(r, 25));
    client = new PalisadeClient({
      endpoints: [`127.0.0.1:${clientPort}`],
      callTimeoutMs: 2_000,
      retryBudgetMs: 10_000,
    });
  });

  afterAll(async () => {
    await client?.close();
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("write no line for Acquire, Release, KeepAlive, reads or page views", async () => {
    // A TTL a stall of this loaded process does not outlast; the keepalives are counted.
    const session = await client.openSession({ ttlMs: 3_000, clientName: "quiet" });
    let keepalives = 0;
    session.onDeadlineExtended(() => keepalives++);
    const keptAlive = (n: number): Promise<void> =>
      new Promise((resolve) => {
        const off = session.onDeadlineExtended(() => {
          if (keepalives < n) return;
          off();
          resolve();
        });
        if (keepalives >= n) {
          off();
          resolve();
        }
      });
    await keptAlive(1);
    const before = lines.length;
    const keptBefore = keepalives;
    for (let i = 0; i < 25; i++) {
      const got = await session.acquire(`quiet/${i % 3}`);
      expect(got.acquired).toBe(true);
      await session.release(`quiet/${i % 3}`, got.token ?? 0n);
      await client.read.getLock(`quiet/${i % 3}`);
    }
    for (const path of ["/ui", "/ui/api/locks", "/ui/api/sessions", "/ui/api/cluster", "/metrics"])
      await (await fetch(`http://${metrics}${path}`)).text();
    // Two more keepalives acknowledged within the lines looked at.
    await keptAlive(keptBefore + 2);
    // A loaded machine may stall this process's event loop past a 20 ms heartbeat, which
    // the node rightly reports; that line is about the machine, not about a request.
    const during = lines
      .slice(before)
      .filter((l) => !String(l.msg).startsWith("event loop stalled"));
    expect(during.map((l) => l.msg)).toEqual([]);
    await session.close();
  });
});
