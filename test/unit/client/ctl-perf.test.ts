// `palisadectl check perf`'s pure parts: the profiles, histograms read from the text format
// and their change over a load, the cluster figures of several nodes, and the verdict with
// its advice.
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { PERF_PROFILES, thresholdsWith } from "../../../client/ctl/perf-profiles.ts";
import {
  histogramDelta,
  histogramQuantile,
  mergeHistograms,
  parseHistograms,
} from "../../../client/ctl/prom-histograms.ts";
import { clusterDetail, metricsUrl } from "../../../client/ctl/perf-metrics.ts";
import {
  judge,
  percentile,
  summarize,
  type PerfFigures,
} from "../../../client/ctl/perf-verdict.ts";
import { reportLines, type PerfReport } from "../../../client/ctl/check-verbs.ts";

const BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

/** A node's page as prom-client writes it, with fsync, commit and round-trip samples. */
async function page(
  node: number,
  samples: { fsync?: number[]; commit?: number[]; rtt?: Record<number, number[]> },
): Promise<string> {
  const registers = [new Registry()];
  registers[0]!.setDefaultLabels({ cluster: "c", node: String(node) });
  const fsync = new Histogram({
    name: "palisade_storage_fsync_seconds",
    help: "h",
    buckets: BUCKETS,
    registers,
  });
  const commit = new Histogram({
    name: "palisade_proposal_commit_seconds",
    help: "h",
    buckets: BUCKETS,
    registers,
  });
  const rtt = new Histogram({
    name: "palisade_raft_peer_rtt_seconds",
    help: "h",
    labelNames: ["peer"],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1],
    registers,
  });
  for (const s of samples.fsync ?? []) fsync.observe(s);
  for (const s of samples.commit ?? []) commit.observe(s);
  for (const [peer, list] of Object.entries(samples.rtt ?? {}))
    for (const s of list) rtt.observe({ peer }, s);
  return registers[0]!.metrics();
}

const many = (n: number, value: number): number[] => Array.from({ length: n }, () => value);

describe("profiles", () => {
  it("grow from small to large, and the command line's limits replace the profile's", () => {
    const { small, medium, large } = PERF_PROFILES;
    expect(small.rate).toBeLessThan(medium.rate);
    expect(medium.rate).toBeLessThan(large.rate);
    expect(small.concurrency).toBeLessThan(large.concurrency);
    expect(large.thresholds.maxFsyncP99Ms).toBeLessThanOrEqual(small.thresholds.maxFsyncP99Ms);
    const t = thresholdsWith(small, { maxAcquireP99Ms: 0, maxRttP99Ms: undefined });
    expect(t.maxAcquireP99Ms).toBe(0);
    expect(t.maxRttP99Ms).toBe(small.thresholds.maxRttP99Ms);
  });
});

describe("histograms from the text format", () => {
  it("reads each series by its labels, with cumulative buckets, count and sum", async () => {
    const text = await page(1, { rtt: { 2: [0.0003, 0.0003, 0.004], 3: [0.0002] } });
    const series = parseHistograms(text, "palisade_raft_peer_rtt_seconds");
    expect(series.size).toBe(2);
    const toTwo = [...series.values()].find((s) => s.labels.peer === "2")!;
    expect(toTwo.labels).toEqual({ cluster: "c", node: "1", peer: "2" });
    expect(toTwo.count).toBe(3);
    expect(toTwo.sum).toBeCloseTo(0.0046);
    expect(toTwo.buckets.find((b) => b.le === 0.0005)?.count).toBe(2);
    expect(toTwo.buckets.at(-1)).toEqual({ le: Infinity, count: 3 });
    // A metric whose name starts with another's is not taken for it.
    expect(parseHistograms(text, "palisade_raft_peer_rtt").size).toBe(0);
  });

  it("takes the change between two reads, and all of a restarted node's counts", async () => {
    const name = "palisade_storage_fsync_seconds";
    const before = parseHistograms(await page(1, { fsync: many(100, 0.0008) }), name);
    const after = parseHistograms(
      await page(1, { fsync: [...many(100, 0.0008), ...many(10, 0.03)] }),
      name,
    );
    const [key, a] = [...after][0]!;
    const d = histogramDelta(before.get(key), a);
    expect(d.count).toBe(10);
    expect(d.buckets.find((b) => b.le === 0.02)?.count).toBe(0);
    expect(d.buckets.find((b) => b.le === 0.05)?.count).toBe(10);
    const restarted = parseHistograms(await page(1, { fsync: many(3, 0.0008) }), name);
    expect(histogramDelta(before.get(key), [...restarted.values()][0]!).count).toBe(3);
  });

  it("computes quantiles as histogram_quantile does", async () => {
    const name = "palisade_storage_fsync_seconds";
    const h = [
      ...parseHistograms(await page(1, { fsync: [...many(90, 0.0015), ...many(10, 0.04)] }), name),
    ][0]![1];
    // 90 samples in (1 ms, 2 ms], 10 in (20 ms, 50 ms].
    expect(histogramQuantile(0.45, h)).toBeCloseTo(0.0015);
    expect(histogramQuantile(0.99, h)).toBeCloseTo(0.02 + 0.03 * 0.9);
    const empty = [...parseHistograms(await page(1, {}), name)][0]![1];
    expect(histogramQuantile(0.99, empty)).toBeNull();
    const beyond = [...parseHistograms(await page(1, { fsync: [9] }), name)][0]![1];
    expect(histogramQuantile(0.99, beyond)).toBe(5);
    expect(mergeHistograms([h, beyond])?.count).toBe(101);
  });
});

describe("cluster figures", () => {
  it("merges the nodes' changes and names each link's round trips", async () => {
    const readings = [
      {
        nodeId: 1,
        before: await page(1, { fsync: many(50, 0.03) }),
        after: await page(1, {
          fsync: [...many(50, 0.03), ...many(100, 0.0015)],
          commit: many(100, 0.004),
          rtt: { 2: many(100, 0.0003), 3: many(100, 0.003) },
        }),
      },
      {
        nodeId: 2,
        before: await page(2, {}),
        after:
          (await page(2, { fsync: many(100, 0.0015) })) +
          'nodejs_eventloop_lag_min_seconds{cluster="c",node="2"} 0.0091\n' +
          'nodejs_eventloop_lag_p99_seconds{cluster="c",node="2"} 0.0341\n',
      },
    ];
    const d = clusterDetail(readings);
    // The slow fsyncs before the load are not counted.
    expect(d.figures.fsyncP99Ms).toBeLessThanOrEqual(2);
    expect(d.nodes.map((n) => [n.nodeId, n.fsyncs, n.commits])).toEqual([
      [1, 100, 100],
      [2, 100, 0],
    ]);
    expect(d.nodes[1]!.commitP99Ms).toBeNull();
    // The event loop's delay is its p99 less its idle interval; a node without it has none.
    expect(d.nodes.map((n) => n.eventLoopP99Ms)).toEqual([null, expect.closeTo(25, 6)]);
    expect(d.figures.eventLoopP99Ms).toBeCloseTo(25, 6);
    expect(d.figures.commitP99Ms).toBeGreaterThan(2);
    expect(d.figures.commitP99Ms).toBeLessThanOrEqual(5);
    expect(d.links.map((l) => [l.from, l.to, l.roundTrips])).toEqual([
      [1, 2, 100],
      [1, 3, 100],
    ]);
    expect(d.links[0]!.p99Ms).toBeLessThanOrEqual(0.5);
    // Half of the round trips are slow: the p99 of them all is that of the slow link.
    expect(d.figures.rttP99Ms).toBeGreaterThan(2);
  });

  it("finds a node's page at its metrics address, or at its client host for a wildcard", () => {
    expect(metricsUrl("10.0.0.11:7200", "node1.example:7001")).toBe(
      "http://10.0.0.11:7200/metrics",
    );
    expect(metricsUrl("0.0.0.0:7200", "10.0.0.12:7001")).toBe("http://10.0.0.12:7200/metrics");
    expect(metricsUrl("[::]:7200", "[fd00::3]:7001")).toBe("http://[fd00::3]:7200/metrics");
    expect(metricsUrl("", "10.0.0.12:7001")).toBeNull();
  });
});

const fine: PerfFigures = {
  targetRate: 200,
  achievedRate: 199,
  concurrency: 8,
  meanCycleMs: 5,
  attempts: 6_000,
  errors: 0,
  acquire: { p50: 2, p90: 3, p99: 6, max: 20 },
  cluster: { fsyncP99Ms: 1.8, commitP99Ms: 5, rttP99Ms: 0.4, eventLoopP99Ms: 3 },
};
const limits = PERF_PROFILES.small.thresholds;

describe("verdict", () => {
  it("passes a load within every limit, with no advice", () => {
    const v = judge(fine, limits);
    expect(v.pass).toBe(true);
    expect(v.checks.map((c) => [c.name, c.pass])).toEqual([
      ["throughput", true],
      ["acquire p99", true],
      ["errors", true],
      ["fsync p99", true],
      ["peer RTT p99", true],
      ["commit p99", true],
      ["event-loop p99", true],
    ]);
    expect(v.advice).toEqual([]);
  });

  it("blames the disk when fsync is slow", () => {
    const v = judge(
      {
        ...fine,
        acquire: { ...fine.acquire!, p99: 400 },
        cluster: { ...fine.cluster!, fsyncP99Ms: 120, commitP99Ms: 300 },
      },
      limits,
    );
    expect(v.pass).toBe(false);
    expect(v.advice).toHaveLength(1);
    expect(v.advice[0]).toMatch(/^slow disk: fsync p99 120 ms/);
  });

  it("blames the network when round trips are slow", () => {
    const v = judge({ ...fine, cluster: { ...fine.cluster!, rttP99Ms: 80 } }, limits);
    expect(v.pass).toBe(false);
    expect(v.advice).toEqual([expect.stringMatching(/^slow network: peer round trip p99 80 ms/)]);
  });

  it("blames the CPU before the disk when slow fsyncs are within what a slow event loop adds", () => {
    const v = judge(
      { ...fine, cluster: { ...fine.cluster!, fsyncP99Ms: 70, eventLoopP99Ms: 60 } },
      limits,
    );
    expect(v.advice).toEqual([
      expect.stringMatching(/^slow disk or CPU: fsync p99 70 ms is timed on the nodes' event loop/),
      expect.stringMatching(/^CPU starved on the nodes/),
    ]);
    const disk = judge(
      { ...fine, cluster: { ...fine.cluster!, fsyncP99Ms: 400, eventLoopP99Ms: 60 } },
      limits,
    );
    expect(disk.advice[0]).toMatch(/^slow disk: fsync p99 400 ms/);
  });

  it("blames the nodes' CPU, not the network, when their event loops wait too", () => {
    const v = judge(
      {
        ...fine,
        cluster: { ...fine.cluster!, rttP99Ms: 80, commitP99Ms: 150, eventLoopP99Ms: 70 },
      },
      limits,
    );
    expect(v.pass).toBe(false);
    expect(v.advice).toEqual([
      expect.stringMatching(/^CPU starved on the nodes: event-loop delay p99 70 ms/),
    ]);
  });

  it("blames the nodes' CPU when commits are slow while disk and network are fine", () => {
    const v = judge({ ...fine, cluster: { ...fine.cluster!, commitP99Ms: 250 } }, limits);
    expect(v.pass).toBe(false);
    expect(v.advice).toEqual([expect.stringMatching(/^CPU starved on the nodes: commit p99/)]);
  });

  it("blames the cycle time, not this host, when the workers could not have kept the rate", () => {
    // 8 workers at 60 ms a cycle make 133 cycles/s at most.
    const v = judge({ ...fine, achievedRate: 130, meanCycleMs: 60 }, limits);
    expect(v.pass).toBe(false);
    expect(v.advice).toEqual([
      expect.stringMatching(/^acquires slow while the cluster's own figures/),
    ]);
  });

  it("blames this host's CPU when the rate was missed though the workers had time for it", () => {
    const v = judge({ ...fine, achievedRate: 120 }, limits);
    expect(v.checks.find((c) => c.name === "throughput")).toMatchObject({
      value: "60% of target",
      pass: false,
    });
    expect(v.advice).toEqual([
      expect.stringMatching(/^CPU starved on this host: the client could not reach the rate/),
    ]);
  });

  it("fails on too many errors and says so first", () => {
    const v = judge({ ...fine, errors: 300, achievedRate: 150 }, limits);
    expect(v.pass).toBe(false);
    expect(v.advice[0]).toMatch(/^too many errors: 300 \(5%\)/);
  });

  it("judges on the client's figures alone when metrics are unreachable", () => {
    const v = judge({ ...fine, cluster: null }, limits);
    expect(v.pass).toBe(true);
    expect(v.checks.filter((c) => c.pass === null).map((c) => c.value)).toEqual([
      "metrics unreachable",
      "metrics unreachable",
      "metrics unreachable",
      "metrics unreachable",
    ]);
    const slow = judge({ ...fine, cluster: null, acquire: { ...fine.acquire!, p99: 500 } }, limits);
    expect(slow.pass).toBe(false);
    expect(slow.advice).toEqual([expect.stringMatching(/no cluster figure to tell why/)]);
  });

  it("fails an impossible limit", () => {
    const v = judge(fine, thresholdsWith(PERF_PROFILES.small, { maxAcquireP99Ms: 0 }));
    expect(v.pass).toBe(false);
    expect(v.checks.find((c) => c.name === "acquire p99")?.pass).toBe(false);
    expect(v.advice).toEqual([expect.stringMatching(/cluster's own figures are fine/)]);
  });
});

describe("client percentiles and the text report", () => {
  it("takes nearest-rank percentiles", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(summarize(values)).toEqual({ p50: 50, p90: 90, p99: 99, max: 100 });
    expect(summarize([])).toBeNull();
  });

  it("names throughput, percentiles, the cluster's figures, each check and the verdict", () => {
    const v = judge({ ...fine, cluster: { ...fine.cluster!, fsyncP99Ms: 90 } }, limits);
    const report: PerfReport = {
      profile: "small",
      plan: { sessions: 50, concurrency: 8, rate: 200, seconds: 30, prefix: "check-perf/ab/" },
      thresholds: limits,
      client: {
        cycles: 5_970,
        attempts: 6_000,
        achievedRate: 199,
        acquireMs: fine.acquire,
        errors: 0,
        errorKinds: [],
      },
      cluster: {
        figures: { ...fine.cluster!, fsyncP99Ms: 90 },
        nodes: [
          { nodeId: 1, fsyncs: 10, fsyncP99Ms: 90, commits: 10, commitP99Ms: 5, eventLoopP99Ms: 3 },
        ],
        links: [
          { from: 1, to: 2, roundTrips: 10, p99Ms: 0.4 },
          { from: 2, to: 3, roundTrips: 0, p99Ms: null },
        ],
      },
      metricsProblems: [],
      verdict: v.pass ? "PASS" : "FAIL",
      checks: v.checks,
      advice: v.advice,
    };
    const text = reportLines(report).join("\n");
    expect(text).toContain("199.0 acquire+release/s of 200 target");
    expect(text).toContain("p50 2.0 ms  p90 3.0 ms  p99 6.0 ms  max 20 ms");
    expect(text).toContain("fsync         p99 90 ms  (node 1 90 ms)");
    // A link that carried nothing over the load is left out.
    expect(text).toContain("peer RTT      p99 0.40 ms  (1→2 0.40 ms)");
    expect(text).toContain("event loop    p99 3.0 ms  (node 1 3.0 ms)");
    expect(text).toContain("FAIL  fsync p99");
    expect(text).toContain("advice: slow disk");
    expect(text).toMatch(/FAIL: the cluster does not carry the small profile$/);
  });
});
