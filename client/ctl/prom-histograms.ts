// Histograms read from a node's /metrics page (the Prometheus text format), the change of
// one between two reads, and quantiles of it as Prometheus's histogram_quantile computes
// them. prom-client writes this format but does not read it, so the few lines needed are
// read here.

/** One histogram series: cumulative bucket counts by upper bound (+Inf last), count and sum. */
export interface HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Ascending upper bounds, the last one Infinity; counts are cumulative. */
  readonly buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>;
  readonly count: number;
  readonly sum: number;
}

interface Sample {
  readonly suffix: "_bucket" | "_sum" | "_count";
  readonly labels: Record<string, string>;
  readonly value: number;
}

const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** A sample line of histogram `name`, or null for any other line. */
function sampleOf(line: string, name: string): Sample | null {
  if (!line.startsWith(name)) return null;
  const rest = line.slice(name.length);
  const suffix = (["_bucket", "_sum", "_count"] as const).find((s) => rest.startsWith(s));
  if (suffix === undefined) return null;
  let body = rest.slice(suffix.length);
  let labelText = "";
  if (body.startsWith("{")) {
    const end = body.lastIndexOf("}");
    if (end < 0) return null;
    labelText = body.slice(1, end);
    body = body.slice(end + 1);
  }
  if (!body.startsWith(" ")) return null;
  const value = parseValue(body.trim().split(/\s+/)[0] ?? "");
  if (value === null) return null;
  const labels: Record<string, string> = {};
  for (const m of labelText.matchAll(LABEL)) labels[m[1]!] = m[2]!.replace(/\\(.)/g, "$1");
  return { suffix, labels, value };
}

function parseValue(text: string): number | null {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  const n = Number(text);
  return text === "" || Number.isNaN(n) ? null : n;
}

/** The value of the first sample of gauge `name` on the page; null when it has none. */
export function gaugeValue(text: string, name: string): number | null {
  for (const line of text.split("\n")) {
    const l = line.trim();
    if (!l.startsWith(name) || (l[name.length] !== " " && l[name.length] !== "{")) continue;
    const rest = l[name.length] === "{" ? l.slice(l.lastIndexOf("}") + 1) : l.slice(name.length);
    const value = parseValue(rest.trim().split(/\s+/)[0] ?? "");
    if (value !== null) return value;
  }
  return null;
}

/** The series' identity: its labels but `le`, in name order. */
function seriesKey(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .filter((k) => k !== "le")
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(",");
}

/** Every series of histogram `name` on the page, by its labels (`le` aside). */
export function parseHistograms(text: string, name: string): Map<string, HistogramSeries> {
  const building = new Map<
    string,
    { labels: Record<string, string>; buckets: Map<number, number>; count: number; sum: number }
  >();
  for (const line of text.split("\n")) {
    const sample = sampleOf(line.trim(), name);
    if (sample === null) continue;
    const { le, ...labels } = sample.labels;
    const key = seriesKey(labels);
    let series = building.get(key);
    if (series === undefined) {
      series = { labels, buckets: new Map(), count: 0, sum: 0 };
      building.set(key, series);
    }
    if (sample.suffix === "_bucket") {
      const bound = parseValue(le ?? "");
      if (bound !== null) series.buckets.set(bound, sample.value);
    } else if (sample.suffix === "_sum") series.sum = sample.value;
    else series.count = sample.value;
  }
  const out = new Map<string, HistogramSeries>();
  for (const [key, s] of building) {
    const buckets = [...s.buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([le, count]) => ({ le, count }));
    out.set(key, { labels: s.labels, buckets, count: s.count, sum: s.sum });
  }
  return out;
}

/**
 * What `after` counted since `before` (the same series read twice). A count that went down
 * means the node restarted in between: then all of `after` is new.
 */
export function histogramDelta(
  before: HistogramSeries | undefined,
  after: HistogramSeries,
): HistogramSeries {
  if (before === undefined || after.count < before.count) return after;
  const earlier = new Map(before.buckets.map((b) => [b.le, b.count]));
  return {
    labels: after.labels,
    buckets: after.buckets.map((b) => ({ le: b.le, count: b.count - (earlier.get(b.le) ?? 0) })),
    count: after.count - before.count,
    sum: after.sum - before.sum,
  };
}

/** Several series with the same buckets (one per node, or per peer) as one. */
export function mergeHistograms(series: readonly HistogramSeries[]): HistogramSeries | null {
  if (series.length === 0) return null;
  const counts = new Map<number, number>();
  for (const s of series)
    for (const b of s.buckets) counts.set(b.le, (counts.get(b.le) ?? 0) + b.count);
  return {
    labels: {},
    buckets: [...counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([le, count]) => ({ le, count })),
    count: series.reduce((n, s) => n + s.count, 0),
    sum: series.reduce((n, s) => n + s.sum, 0),
  };
}

/**
 * The q-quantile (0..1) of a histogram, in its unit, as histogram_quantile computes it:
 * linear within the bucket it falls in (from 0 for the first); in the +Inf bucket, the
 * highest finite bound. Null when the histogram counted nothing.
 */
export function histogramQuantile(q: number, h: HistogramSeries): number | null {
  const total = h.buckets.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const b of h.buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return lowerBound;
      const inBucket = b.count - lowerCount;
      if (inBucket <= 0) return b.le;
      return lowerBound + (b.le - lowerBound) * ((rank - lowerCount) / inBucket);
    }
    lowerBound = b.le;
    lowerCount = b.count;
  }
  return lowerBound;
}
