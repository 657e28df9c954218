// The election failover part's figures and its section of the report: per run, the time
// from the leader's kill (or stop, or resign call) to the new leader's campaign resolving,
// and to the last observer seeing it; over the runs, p50 and max. Pure: no processes.
import { failed, num, ratio } from "./report-format.ts";
import { summarize, type Summary } from "./stats.ts";

/** One run: elected / all observers saw it, in ms after the signal; null: not within the bound. */
export interface ElectionRun {
  elected_ms: number | null;
  observed_ms: number | null;
}

export interface ElectionSeries {
  runs: number;
  /** The signal to the new leader's process reporting its campaign resolved. */
  elected_ms: Summary;
  /** The signal to the last observer reporting the new leader. */
  observed_ms: Summary;
  elected_samples_ms: number[];
  observed_samples_ms: number[];
  /** Runs with no new leader, or an observer that never saw it, within the bound (counted at the bound). */
  unresolved: number;
}

export interface ElectionSide {
  ttl_ms: number;
  candidates: number;
  observers: number;
  /** The leader's process SIGKILLed. */
  kill: ElectionSeries;
  /** The leader's process SIGSTOPped (killed after the run). */
  stop: ElectionSeries;
  /** The leader resigned (Palisade: to a named waiting candidate). */
  handoff: ElectionSeries;
  /** Handoffs in which another candidate than the named one was elected (Palisade). */
  wrong_successor: number;
  config: string;
}

export interface ElectionFailoverResult {
  palisade: ElectionSide | { error: string };
  etcd?: ElectionSide | { error: string };
}

const NS_PER_MS = 1_000_000n;

/** ms from `from` to `to` (monotonic ns), to 0.1 ms. */
export function msBetween(from: bigint, to: bigint): number {
  return Number(((to - from) * 10n) / NS_PER_MS) / 10;
}

/** When the last observer saw the new leader, in ms after `t0`; null if one did not. */
export function lastObserved(t0: bigint, seenAt: ReadonlyArray<bigint | null>): number | null {
  if (seenAt.length === 0) return null;
  let last: bigint | null = null;
  for (const at of seenAt) {
    if (at === null) return null;
    if (last === null || at > last) last = at;
  }
  return last === null ? null : msBetween(t0, last);
}

/** The runs' summary; a run without a figure counts as unresolved, at `boundMs`. */
export function seriesOf(runs: readonly ElectionRun[], boundMs: number): ElectionSeries {
  const elected = runs.map((r) => r.elected_ms ?? boundMs);
  const observed = runs.map((r) => r.observed_ms ?? boundMs);
  return {
    runs: runs.length,
    elected_ms: summarize(elected),
    observed_ms: summarize(observed),
    elected_samples_ms: elected.map((x) => Math.round(x)),
    observed_samples_ms: observed.map((x) => Math.round(x)),
    unresolved: runs.filter((r) => r.elected_ms === null || r.observed_ms === null).length,
  };
}

const KINDS = [
  ["kill", "leader's process SIGKILLed"],
  ["stop", "leader's process SIGSTOPped"],
  ["handoff", "resign"],
] as const;

function rows(
  system: string,
  side: ElectionSide | { error: string } | undefined,
  handoffLabel: string,
): string[] {
  if (!side) return [];
  if (failed(side)) return [`| ${system} | failed: ${side.error.slice(0, 200)} | | | | | | |`];
  return KINDS.map(([kind, label]) => {
    const s = side[kind];
    return `| ${system} | ${kind === "handoff" ? handoffLabel : label} | ${s.runs} | ${num(s.elected_ms.p50, 0)} | ${num(s.elected_ms.max, 0)} | ${num(s.observed_ms.p50, 0)} | ${num(s.observed_ms.max, 0)} | ${s.unresolved} |`;
  });
}

/** The report's section, or "" when the part did not run. */
export function renderElectionFailover(
  ef: ElectionFailoverResult | { error: string } | undefined,
): string {
  if (!ef) return "";
  if (failed(ef)) return `### Election failover\n\nfailed: ${ef.error}\n`;
  const p = failed(ef.palisade) ? undefined : ef.palisade;
  const e = ef.etcd && !failed(ef.etcd) ? ef.etcd : undefined;
  const etcdConfig = e?.config ?? (ef.etcd && failed(ef.etcd) ? "failed" : "not run");
  const out = [
    "### Election failover (the leader's process killed, stopped, or resigning, to the next leader elected and seen)",
    "",
    `Palisade: ${p?.config ?? "failed"}. etcd: ${etcdConfig}. ` +
      "Elected: from the signal (for a handoff, the resign call in the leader's process) to the new leader's process reporting its campaign resolved; " +
      "seen: to the last observer process reporting the new leader (Palisade: a leader event with the new token; etcd: the observer's change to the new value). " +
      "All on the host's monotonic clock; a kill or stop lands at a random point of the leader's keepalive period.",
    "",
    "| system | leader | runs | elected p50 ms | elected max ms | all observers p50 ms | all observers max ms | unresolved |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...rows("Palisade", ef.palisade, "`resign({ to })` a named candidate"),
    ...rows("etcd election", ef.etcd, "resign (the next candidate)"),
  ];
  if (p && e) {
    out.push(
      ...KINDS.map(
        ([kind]) =>
          `| ratio P/e | ${kind} | | ${ratio(p[kind].elected_ms.p50, e[kind].elected_ms.p50)} | ${ratio(p[kind].elected_ms.max, e[kind].elected_ms.max)} | ${ratio(p[kind].observed_ms.p50, e[kind].observed_ms.p50)} | ${ratio(p[kind].observed_ms.max, e[kind].observed_ms.max)} | |`,
      ),
    );
  }
  const samples = (name: string, side: ElectionSide | undefined): string =>
    side
      ? `${name}: ${KINDS.map(([kind]) => `${kind} ${side[kind].elected_samples_ms.join(", ")}`).join("; ")}.`
      : "";
  out.push(
    "",
    [
      "Elected samples (ms).",
      samples("Palisade", p),
      samples("etcd", e),
      p && p.wrong_successor > 0
        ? `**${p.wrong_successor} Palisade handoffs elected another candidate than the named one.**`
        : "",
    ]
      .filter((x) => x !== "")
      .join(" "),
    "",
  );
  if (ef.etcd && failed(ef.etcd)) out.push(`etcd failed: ${ef.etcd.error}`, "");
  return out.join("\n");
}
