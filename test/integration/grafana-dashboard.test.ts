// The Grafana dashboard in cluster-config/grafana: it parses, covers Raft health, disk,
// lock activity and sessions, and every metric it queries is served by a running node.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeConfig, parseClusterConfig } from "../../node/config/index.ts";
import { PalisadeNode } from "../../node/server/node.ts";
import { createLogger } from "../../node/util/logger.ts";
import { freePorts } from "../../scripts/free-ports.ts";
import { dashboard, dashboardQueries, metricNames } from "../unit/ops/dashboard-queries.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

describe("Grafana dashboard", () => {
  let dir: string;
  let node: PalisadeNode | undefined;
  let metricsUrl: string;

  beforeAll(async () => {
    ensureRoot();
    dir = mkdtempSync(join(IT_ROOT, "dashboard-"));
    const [peer, client, metrics] = await freePorts(3);
    metricsUrl = `http://127.0.0.1:${metrics}/metrics`;
    const cfg = nodeConfig(
      parseClusterConfig(
        {
          clusterId: "palisade-test",
          nodes: [
            {
              id: 1,
              peerAddress: `127.0.0.1:${peer}`,
              clientAddress: `127.0.0.1:${client}`,
              metricsAddress: `127.0.0.1:${metrics}`,
              dataDir: "node-1",
            },
          ],
          raft: { tickMs: 20, electionTicks: 10, heartbeatTicks: 1 },
          limits: { minTtlMs: 500 },
          disk: { reserveBytes: 0 },
        },
        "dashboard test",
        dir,
      ),
      1,
    );
    node = await PalisadeNode.start(cfg, { logger: createLogger({ nodeId: 1, level: "silent" }) });
  });

  afterAll(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has a row each for Raft health, disk, lock activity and sessions", () => {
    const d = dashboard();
    expect(d.title).toBe("Palisade");
    expect(d.panels.filter((p) => p.type === "row").map((p) => p.title)).toEqual([
      "Raft health",
      "Disk",
      "Lock activity",
      "Sessions",
    ]);
  });

  it("queries only metrics that a running node serves", async () => {
    const text = await (await fetch(metricsUrl)).text();
    const types = new Map<string, string>();
    for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm))
      types.set(match[1] as string, match[2] as string);
    const histograms = new Set([...types].filter(([, t]) => t === "histogram").map(([n]) => n));
    const queries = dashboardQueries();
    const missing: string[] = [];
    const used = new Set<string>();
    for (const q of queries) {
      for (const name of metricNames(q.expr, histograms)) {
        used.add(name);
        if (!types.has(name)) missing.push(`${q.panel}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    // The lock user's series are all on the dashboard.
    for (const name of [
      "palisade_lock_hold_seconds",
      "palisade_lock_wait_seconds",
      "palisade_lock_queue_length_max",
      "palisade_lock_grants_total",
      "palisade_lock_grants_ended_total",
      "palisade_session_expiries_total",
    ]) {
      expect(used.has(name), name).toBe(true);
    }
  });
});
