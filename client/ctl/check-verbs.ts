// palisadectl's check verbs: `check perf` runs a short load at a named profile against the
// cluster and judges whether its disks, network and CPU carry it, from the client's figures
// and the nodes' own metrics read before and after. Exit 0 when every check passes, 1 when
// one fails, 130 when interrupted (the load stops and its sessions are closed).
import { randomBytes } from "node:crypto";
import { InvalidArgumentError, Option } from "commander";
import type { PalisadeClient } from "../client.ts";
import {
  addExamples,
  EXIT_ERROR,
  EXIT_INTERRUPTED,
  EXIT_OK,
  onStopSignal,
  type Ctl,
  type Output,
} from "./context.ts";
import { parseCount, parseDuration, toJson } from "./format.ts";
import type { ClusterDetail } from "./perf-metrics.ts";
import type { LoadResult } from "./perf-load.ts";
import {
  PERF_PROFILES,
  PROFILE_NAMES,
  thresholdsWith,
  type PerfProfile,
  type PerfThresholds,
  type ProfileName,
} from "./perf-profiles.ts";
import { judge, ms, summarize, type PerfFigures, type Verdict } from "./perf-verdict.ts";

interface PerfOptions {
  profile: ProfileName;
  seconds?: number;
  minThroughput?: number;
  maxP99?: number;
  maxFsyncP99?: number;
  maxRttP99?: number;
  maxCommitP99?: number;
  maxEventLoopP99?: number;
}

/** Everything `check perf` found, as --json prints it. */
export interface PerfReport {
  readonly profile: ProfileName;
  readonly plan: {
    readonly sessions: number;
    readonly concurrency: number;
    readonly rate: number;
    readonly seconds: number;
    readonly prefix: string;
  };
  readonly thresholds: PerfThresholds;
  readonly client: {
    readonly cycles: number;
    readonly attempts: number;
    readonly achievedRate: number;
    readonly acquireMs: PerfFigures["acquire"];
    readonly errors: number;
    readonly errorKinds: LoadResult["errorKinds"];
  };
  /** Null when no node's metrics could be read. */
  readonly cluster: ClusterDetail | null;
  /** What kept any node's metrics from being read. */
  readonly metricsProblems: readonly string[];
  readonly verdict: "PASS" | "FAIL";
  readonly checks: Verdict["checks"];
  readonly advice: Verdict["advice"];
}

/** --min-throughput: a percentage of the target rate, 1 to 100. */
function parsePercent(text: string): number {
  const n = Number(text.replace(/%$/, ""));
  if (!Number.isFinite(n) || n <= 0 || n > 100)
    throw new InvalidArgumentError(
      `expected a percentage from 1 to 100 (got ${JSON.stringify(text)})`,
    );
  return n / 100;
}

function parseSeconds(text: string): number {
  const n = parseCount(text);
  if (n < 1) throw new InvalidArgumentError("expected at least 1 second");
  return n;
}

/** The report in text: the plan, the client's and the cluster's figures, the checks, advice. */
export function reportLines(r: PerfReport): string[] {
  const p = r.plan;
  const c = r.client;
  const lines = [
    `check perf: profile ${r.profile} (${p.sessions} sessions, concurrency ${p.concurrency}, target ${p.rate} acquire+release/s, ${p.seconds} s) on locks under ${p.prefix}`,
    `  throughput    ${c.achievedRate.toFixed(1)} acquire+release/s of ${p.rate} target (${c.cycles} cycles)`,
    c.acquireMs === null
      ? "  acquire       no acquire completed"
      : `  acquire       p50 ${ms(c.acquireMs.p50)}  p90 ${ms(c.acquireMs.p90)}  p99 ${ms(c.acquireMs.p99)}  max ${ms(c.acquireMs.max)}`,
    `  errors        ${c.errors} of ${c.attempts} acquires`,
    ...c.errorKinds.slice(0, 3).map((k) => `    ${k.count} × ${k.what}`),
  ];
  const fig = (v: number | null): string => (v === null ? "-" : ms(v));
  if (r.cluster === null)
    lines.push("  cluster       metrics unreachable: judged on the client's figures only");
  else {
    const nodes = r.cluster.nodes;
    // Followers send each other nothing: only links that carried the load are shown.
    const timed = r.cluster.links.filter((l) => l.roundTrips > 0);
    lines.push(
      `  fsync         p99 ${fig(r.cluster.figures.fsyncP99Ms)}  (${nodes.map((n) => `node ${n.nodeId} ${fig(n.fsyncP99Ms)}`).join(", ")})`,
      `  commit        p99 ${fig(r.cluster.figures.commitP99Ms)}`,
      `  peer RTT      p99 ${fig(r.cluster.figures.rttP99Ms)}  (${timed.map((l) => `${l.from}→${l.to} ${fig(l.p99Ms)}`).join(", ") || "no round trips timed"})`,
      `  event loop    p99 ${fig(r.cluster.figures.eventLoopP99Ms)}  (${nodes.map((n) => `node ${n.nodeId} ${fig(n.eventLoopP99Ms)}`).join(", ")})`,
    );
  }
  for (const problem of r.metricsProblems) lines.push(`  metrics: ${problem}`);
  for (const check of r.checks) {
    const mark = check.pass === null ? "SKIP" : check.pass ? "PASS" : "FAIL";
    lines.push(`${mark}  ${check.name.padEnd(14)} ${check.value} (limit ${check.limit})`);
  }
  for (const line of r.advice) lines.push(`advice: ${line}`);
  lines.push(
    r.verdict === "PASS"
      ? `PASS: the cluster carries the ${r.profile} profile`
      : `FAIL: the cluster does not carry the ${r.profile} profile`,
  );
  return lines;
}

/** Adds the check verbs to palisadectl. */
export function registerCheckVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;
  const check = program
    .command("check")
    .description("checks of the cluster: perf (can its disks, network and CPU carry a load)");
  check
    .command("perf")
    .description(
      "run a short acquire → release load and judge throughput, acquire latency, errors and the nodes' fsync, commit, peer round-trip and event-loop times (exit 0 pass, 1 fail)",
    )
    .addOption(
      new Option("--profile <name>", "the load: sessions, concurrency, target rate and limits")
        .choices(PROFILE_NAMES)
        .default("small"),
    )
    .option("--seconds <n>", "how long the load runs (default: the profile's)", parseSeconds)
    .option(
      "--min-throughput <percent>",
      "lowest share of the target rate that passes",
      parsePercent,
    )
    .option("--max-p99 <duration>", "highest acquire p99 that passes", parseDuration)
    .option("--max-fsync-p99 <duration>", "highest fsync p99 that passes", parseDuration)
    .option("--max-rtt-p99 <duration>", "highest peer round-trip p99 that passes", parseDuration)
    .option("--max-commit-p99 <duration>", "highest commit p99 that passes", parseDuration)
    .option(
      "--max-event-loop-p99 <duration>",
      "highest event-loop delay p99 (the busiest node's) that passes",
      parseDuration,
    )
    .action((cmd: PerfOptions) =>
      withClient(async (client, opts) => {
        const stop = new AbortController();
        const off = onStopSignal(() => stop.abort());
        try {
          return await checkPerf(client, cmd, stop.signal, io, opts.json);
        } finally {
          off();
        }
      }),
    );

  addExamples(program, {
    "check perf": [
      "check perf",
      "check perf --profile medium --seconds 60",
      "--endpoints 10.0.0.11:7001 check perf --profile large --json",
      "check perf --max-p99 50ms --max-fsync-p99 5ms",
    ],
  });
}

/** The profile of --profile with --seconds, and its limits with those given in their place. */
function planOf(cmd: PerfOptions): { profile: PerfProfile; thresholds: PerfThresholds } {
  const base = PERF_PROFILES[cmd.profile];
  const profile: PerfProfile = { ...base, seconds: cmd.seconds ?? base.seconds };
  const thresholds = thresholdsWith(profile, {
    minThroughputRatio: cmd.minThroughput,
    maxAcquireP99Ms: cmd.maxP99,
    maxFsyncP99Ms: cmd.maxFsyncP99,
    maxRttP99Ms: cmd.maxRttP99,
    maxCommitP99Ms: cmd.maxCommitP99,
    maxEventLoopP99Ms: cmd.maxEventLoopP99,
  });
  return { profile, thresholds };
}

/**
 * Finds the nodes' pages, runs the load between two reads of them, and prints the report;
 * answers the exit code.
 */
async function checkPerf(
  client: PalisadeClient,
  cmd: PerfOptions,
  signal: AbortSignal,
  io: Output,
  json: boolean,
): Promise<number> {
  const { profile, thresholds } = planOf(cmd);
  const prefix = `check-perf/${randomBytes(4).toString("hex")}/`;
  const { findMetrics, readPages, clusterDetail } = await import("./perf-metrics.ts");
  const { runLoad } = await import("./perf-load.ts");
  const { sources, problems } = await findMetrics(client);
  let before = new Map<number, string>();
  let after = new Map<number, string>();
  io.err(
    `running the ${profile.name} profile for ${profile.seconds} s on locks under ${prefix} (Ctrl-C stops it and cleans up)`,
  );
  const load = await runLoad(client, { ...profile, prefix }, signal, {
    ready: async () => void (before = await readPages(sources, problems)),
    loaded: async () => void (after = await readPages(sources, problems)),
  });
  if (load.interrupted) {
    io.err("interrupted: the load stopped and its sessions are closed; nothing judged");
    return EXIT_INTERRUPTED;
  }
  const readings = [...after].flatMap(([nodeId, text]) => {
    const earlier = before.get(nodeId);
    return earlier === undefined ? [] : [{ nodeId, before: earlier, after: text }];
  });
  if (sources.length === 0 && problems.length === 0) problems.push("no node named a metrics page");
  const cluster = readings.length > 0 ? clusterDetail(readings) : null;
  const report = reportOf(profile, prefix, thresholds, load, cluster, problems);
  io.out(json ? toJson(report) : reportLines(report).join("\n"));
  return report.verdict === "PASS" ? EXIT_OK : EXIT_ERROR;
}

/** The figures of a finished load, judged. */
function reportOf(
  profile: PerfProfile,
  prefix: string,
  thresholds: PerfThresholds,
  load: LoadResult,
  cluster: ClusterDetail | null,
  metricsProblems: readonly string[],
): PerfReport {
  const achievedRate = load.elapsedS > 0 ? load.cycles / load.elapsedS : 0;
  const figures: PerfFigures = {
    targetRate: profile.rate,
    achievedRate,
    concurrency: profile.concurrency,
    meanCycleMs: load.cycles > 0 ? load.cycleMs / load.cycles : null,
    attempts: load.attempts,
    errors: load.errors,
    acquire: summarize(load.acquireMs),
    cluster: cluster?.figures ?? null,
  };
  const verdict = judge(figures, thresholds);
  return {
    profile: profile.name,
    plan: {
      sessions: profile.sessions,
      concurrency: profile.concurrency,
      rate: profile.rate,
      seconds: profile.seconds,
      prefix,
    },
    thresholds,
    client: {
      cycles: load.cycles,
      attempts: load.attempts,
      achievedRate,
      acquireMs: figures.acquire,
      errors: load.errors,
      errorKinds: load.errorKinds,
    },
    cluster,
    metricsProblems,
    verdict: verdict.pass ? "PASS" : "FAIL",
    checks: verdict.checks,
    advice: verdict.advice,
  };
}
