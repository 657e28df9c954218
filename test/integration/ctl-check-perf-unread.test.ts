// `palisadectl check perf` against a cluster whose nodes serve no metrics: the report says
// so, leaves the node checks unjudged and judges on the client's figures alone.
import { describe, expect, it } from "vitest";
import type { PerfReport } from "../../client/ctl/check-verbs.ts";
import { runCtl } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
});

describe("palisadectl check perf without metrics", () => {
  it("says why no node's figures were read and judges on the client's", async () => {
    const run = await runCtl(cluster.endpoints, "--json", "check", "perf", "--seconds", "2");
    const report = JSON.parse(run.stdout) as PerfReport;
    expect(run.code, run.stderr).toBe(report.verdict === "PASS" ? 0 : 1);
    expect(report.cluster).toBeNull();
    expect(report.metricsProblems).toHaveLength(cluster.ids.length);
    for (const id of cluster.ids)
      expect(report.metricsProblems).toContainEqual(
        expect.stringMatching(new RegExp(`^node ${id} \\(.*\\) has no metrics address$`)),
      );
    const unjudged = report.checks.filter((c) => c.pass === null).map((c) => c.name);
    expect(unjudged).toEqual(["fsync p99", "peer RTT p99", "commit p99", "event-loop p99"]);
    expect(report.checks.filter((c) => c.pass !== null).map((c) => c.name)).toEqual([
      "throughput",
      "acquire p99",
      "errors",
    ]);
    expect(report.client.cycles).toBeGreaterThan(0);

    const text = await runCtl(cluster.endpoints, "check", "perf", "--seconds", "1");
    expect(text.stdout).toContain("metrics unreachable: judged on the client's figures only");
    expect(text.stdout).toMatch(/^SKIP {2}fsync p99 +metrics unreachable/m);
  });
});
