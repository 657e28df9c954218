// The cluster's own figures for `palisadectl check perf`: where each node's /metrics page
// is (its Status names its metrics address), reading the pages before and after the load,
// and the change of the fsync, commit and peer round-trip histograms in between.
import type { PalisadeClient } from "../client.ts";
import type { ClusterFigures } from "./perf-verdict.ts";
import {
  histogramDelta,
  histogramQuantile,
  mergeHistograms,
  parseHistograms,
  gaugeValue,
  type HistogramSeries,
} from "./prom-histograms.ts";

export const FSYNC_SECONDS = "palisade_storage_fsync_seconds";
export const COMMIT_SECONDS = "palisade_proposal_commit_seconds";
export const PEER_RTT_SECONDS = "palisade_raft_peer_rtt_seconds";
/** prom-client's event-loop delay figures, since the page was last read. */
export const LOOP_P99_SECONDS = "nodejs_eventloop_lag_p99_seconds";
export const LOOP_MIN_SECONDS = "nodejs_eventloop_lag_min_seconds";

/** A node's metrics page. */
export interface MetricsSource {
  readonly nodeId: number;
  readonly url: string;
}

/** A node's page read before and after the load. */
export interface NodeReading {
  readonly nodeId: number;
  readonly before: string;
  readonly after: string;
}

export interface NodeFigures {
  readonly nodeId: number;
  readonly fsyncs: number;
  readonly fsyncP99Ms: number | null;
  readonly commits: number;
  readonly commitP99Ms: number | null;
  readonly eventLoopP99Ms: number | null;
}

export interface LinkFigures {
  readonly from: number;
  readonly to: number;
  readonly roundTrips: number;
  readonly p99Ms: number | null;
}

export interface ClusterDetail {
  /** Over every node (fsync, commit) and every link (round trips) together. */
  readonly figures: ClusterFigures;
  readonly nodes: readonly NodeFigures[];
  readonly links: readonly LinkFigures[];
}

/** How long one node may take to answer Status or serve its page. */
const ASK_BOUND_MS = 3_000;

const WILDCARD_HOSTS = new Set(["", "0.0.0.0", "::", "[::]"]);

/** host and port of "host:port" or "[v6]:port". */
function splitHostPort(address: string): { host: string; port: string } | null {
  const at = address.lastIndexOf(":");
  if (at < 0) return null;
  return { host: address.slice(0, at), port: address.slice(at + 1) };
}

/**
 * The URL of a node's /metrics page: its metrics address, or, when that listens on every
 * interface (0.0.0.0), the port of it on the host the node was reached at.
 */
export function metricsUrl(metricsAddress: string, clientEndpoint: string): string | null {
  const metrics = splitHostPort(metricsAddress);
  if (metrics === null || metrics.port === "") return null;
  const host = WILDCARD_HOSTS.has(metrics.host)
    ? (splitHostPort(clientEndpoint)?.host ?? "")
    : metrics.host;
  return host === "" ? null : `http://${host}:${metrics.port}/metrics`;
}

/**
 * The metrics pages of the members the leader lists (or of the endpoints given, when no
 * leader answers), and what kept any node's page from being found.
 */
export async function findMetrics(
  client: PalisadeClient,
): Promise<{ sources: MetricsSource[]; problems: string[] }> {
  const problems: string[] = [];
  let targets: string[];
  try {
    const members = await client.admin.memberList({ budgetMs: ASK_BOUND_MS });
    targets = members.map((m) => m.clientAddress).filter((a) => a !== "");
  } catch (err) {
    problems.push(`members not listed (${(err as Error).message}): asking the endpoints given`);
    targets = [];
  }
  if (targets.length === 0) targets = [...client.endpoints];
  const found = await Promise.all(
    targets.map(async (endpoint): Promise<MetricsSource | null> => {
      try {
        const status = await client.admin.status(endpoint);
        const url = metricsUrl(status.metricsAddress, endpoint);
        if (url === null)
          problems.push(`node ${status.nodeId} (${endpoint}) has no metrics address`);
        return url === null ? null : { nodeId: status.nodeId, url };
      } catch (err) {
        problems.push(`${endpoint}: Status not answered (${(err as Error).message})`);
        return null;
      }
    }),
  );
  return { sources: found.filter((s) => s !== null), problems };
}

/** Each node's page, by node id; a node whose page could not be read is left out and said why. */
export async function readPages(
  sources: readonly MetricsSource[],
  problems: string[],
): Promise<Map<number, string>> {
  const pages = new Map<number, string>();
  await Promise.all(
    sources.map(async (s) => {
      try {
        const res = await fetch(s.url, { signal: AbortSignal.timeout(ASK_BOUND_MS) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        pages.set(s.nodeId, await res.text());
      } catch (err) {
        problems.push(`node ${s.nodeId}: ${s.url} not read (${(err as Error).message})`);
      }
    }),
  );
  return pages;
}

/** Every series of `name` on a node's page, as changed over the load. */
function deltas(reading: NodeReading, name: string): HistogramSeries[] {
  const before = parseHistograms(reading.before, name);
  return [...parseHistograms(reading.after, name)].map(([key, after]) =>
    histogramDelta(before.get(key), after),
  );
}

/** The p99 of a histogram in milliseconds; null when it counted nothing. */
function p99Ms(h: HistogramSeries | null): number | null {
  const q = h === null ? null : histogramQuantile(0.99, h);
  return q === null ? null : q * 1_000;
}

/**
 * A node's event-loop delay p99 over the load in milliseconds. prom-client samples the delay
 * with a timer of its own and starts afresh at every read of the page, so the read after
 * the load covers the load (unless Prometheus read it meanwhile: then its last part). A
 * sample is the timer's whole interval, so its least (the interval when the loop was idle)
 * is taken off.
 */
function eventLoopP99Ms(after: string): number | null {
  const p99 = gaugeValue(after, LOOP_P99_SECONDS);
  const min = gaugeValue(after, LOOP_MIN_SECONDS);
  if (p99 === null || min === null || !Number.isFinite(p99) || !Number.isFinite(min)) return null;
  return Math.max(0, p99 - min) * 1_000;
}

/** The fsync, commit and peer round-trip figures of the load from the nodes' pages. */
export function clusterDetail(readings: readonly NodeReading[]): ClusterDetail {
  const nodes: NodeFigures[] = [];
  const links: LinkFigures[] = [];
  const all = { fsync: [] as HistogramSeries[], commit: [] as HistogramSeries[] };
  const rtts: HistogramSeries[] = [];
  for (const r of [...readings].sort((a, b) => a.nodeId - b.nodeId)) {
    const fsync = mergeHistograms(deltas(r, FSYNC_SECONDS));
    const commit = mergeHistograms(deltas(r, COMMIT_SECONDS));
    if (fsync) all.fsync.push(fsync);
    if (commit) all.commit.push(commit);
    nodes.push({
      nodeId: r.nodeId,
      fsyncs: fsync?.count ?? 0,
      fsyncP99Ms: p99Ms(fsync),
      commits: commit?.count ?? 0,
      commitP99Ms: p99Ms(commit),
      eventLoopP99Ms: eventLoopP99Ms(r.after),
    });
    for (const link of deltas(r, PEER_RTT_SECONDS)) {
      rtts.push(link);
      links.push({
        from: r.nodeId,
        to: Number(link.labels.peer ?? 0),
        roundTrips: link.count,
        p99Ms: p99Ms(link),
      });
    }
  }
  links.sort((a, b) => a.from - b.from || a.to - b.to);
  return {
    figures: {
      fsyncP99Ms: p99Ms(mergeHistograms(all.fsync)),
      commitP99Ms: p99Ms(mergeHistograms(all.commit)),
      rttP99Ms: p99Ms(mergeHistograms(rtts)),
      eventLoopP99Ms: busiest(nodes.map((n) => n.eventLoopP99Ms)),
    },
    nodes,
    links,
  };
}

/** The highest of the figures known; null when none is. */
function busiest(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v) => v !== null);
  return known.length === 0 ? null : Math.max(...known);
}
