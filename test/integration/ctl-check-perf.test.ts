// `palisadectl check perf` against a real three-node cluster with metrics: a short load, the
// report's client and cluster figures (read from the nodes' /metrics pages), an impossible
// limit failing with exit code 1, and Ctrl-C stopping the load with every session closed.
// Nothing here asserts how fast the machine is: only what the report names and how it ends.
import { describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import type { PerfReport } from "../../client/ctl/check-verbs.ts";
import { runCtl, spawnCtl, type Run } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3, metrics: true }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "check-perf-test" });
});

const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);

/** Sessions the check opened that are still open. */
async function checkSessionsLeft(): Promise<number> {
  const sessions = await client.read.allSessions();
  return sessions.filter((s) => s.clientName === "palisadectl check perf").length;
}

describe("palisadectl check perf", () => {
  it("reports throughput, acquire percentiles and the nodes' fsync, commit and round-trip figures", async () => {
    const run = await ctl("--json", "check", "perf", "--seconds", "2");
    const report = JSON.parse(run.stdout) as PerfReport;
    // Either verdict may come on a busy machine; the exit code must match it.
    expect(run.code, run.stderr).toBe(report.verdict === "PASS" ? 0 : 1);
    expect(report.profile).toBe("small");
    expect(report.plan.seconds).toBe(2);
    expect(report.plan.prefix).toMatch(/^check-perf\/[0-9a-f]{8}\/$/);
    expect(report.client.cycles).toBeGreaterThan(0);
    expect(report.client.achievedRate).toBeGreaterThan(0);
    const acquire = report.client.acquireMs!;
    expect(acquire.p50).toBeGreaterThan(0);
    expect(acquire.p50).toBeLessThanOrEqual(acquire.p90);
    expect(acquire.p90).toBeLessThanOrEqual(acquire.p99);
    expect(acquire.p99).toBeLessThanOrEqual(acquire.max);
    expect(report.metricsProblems).toEqual([]);
    const detail = report.cluster!;
    expect(detail.nodes.map((n) => n.nodeId)).toEqual([...cluster.ids]);
    // Every node fsynced the load's entries; the leader proposed and committed them.
    expect(detail.nodes.every((n) => n.fsyncs > 0 && n.fsyncP99Ms !== null)).toBe(true);
    expect(detail.nodes.some((n) => n.commits >= report.client.cycles)).toBe(true);
    expect(detail.figures.fsyncP99Ms).toBeGreaterThan(0);
    expect(detail.figures.commitP99Ms).toBeGreaterThan(0);
    expect(detail.figures.rttP99Ms).not.toBeNull();
    expect(detail.nodes.every((n) => n.eventLoopP99Ms !== null)).toBe(true);
    // The leader timed its round trips to both followers.
    const leader = await cluster.leaderId();
    const fromLeader = detail.links.filter((l) => l.from === leader && l.roundTrips > 0);
    expect(fromLeader.map((l) => l.to).sort()).toEqual(cluster.ids.filter((id) => id !== leader));
    expect(report.checks.map((c) => c.name)).toEqual([
      "throughput",
      "acquire p99",
      "errors",
      "fsync p99",
      "peer RTT p99",
      "commit p99",
      "event-loop p99",
    ]);
    expect(report.checks.every((c) => c.pass !== null)).toBe(true);
    expect(await checkSessionsLeft()).toBe(0);
    // The workers' locks are free: each was released, or freed with its session.
    const locks = await client.read.allLocks(report.plan.prefix);
    expect(locks.filter((l) => l.holderCount > 0)).toEqual([]);
  });

  it("an impossible limit fails with exit code 1 and names the check and the cause", async () => {
    const run = await ctl("check", "perf", "--seconds", "2", "--max-p99", "0ms");
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/throughput\s+[\d.]+ acquire\+release\/s of 200 target/);
    expect(run.stdout).toMatch(/acquire\s+p50 [\d.]+ ms {2}p90 [\d.]+ ms {2}p99 [\d.]+ ms/);
    expect(run.stdout).toMatch(/fsync\s+p99 [\d.]+ ms/);
    expect(run.stdout).toMatch(/peer RTT\s+p99 [\d.]+ ms/);
    expect(run.stdout).toMatch(/^FAIL {2}acquire p99 .* \(limit <= 0\.00 ms\)$/m);
    expect(run.stdout).toMatch(/^advice: /m);
    expect(run.stdout).toMatch(/FAIL: the cluster does not carry the small profile\n?$/);
    expect(await checkSessionsLeft()).toBe(0);
  });

  it("Ctrl-C stops the load, closes its sessions and exits 130", async () => {
    const running = spawnCtl(cluster.endpoints, "check", "perf", "--seconds", "60");
    try {
      await cluster.waitFor("the load to run", async () => {
        return running.stderrSoFar().includes("running the small profile");
      });
      await cluster.waitFor("the check's sessions", async () => (await checkSessionsLeft()) > 0);
      const run = await running.signal("SIGINT");
      expect(run.code, run.stderr).toBe(130);
      expect(run.stderr).toContain("interrupted: the load stopped and its sessions are closed");
      expect(await checkSessionsLeft()).toBe(0);
    } finally {
      running.kill();
    }
  });
});
