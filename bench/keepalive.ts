// Keepalive scale: a three-node cluster (product defaults, metrics on), `sessions` live
// sessions opened from `processes` client processes (bench/keepalive-proc.ts: the client
// library from dist/, its default transport, the stream), held for `holdS` seconds with
// `transfers` leader transfers (the admin RPC `palisadectl leader transfer` uses) spread
// evenly through the hold. Reported:
// - spurious expiries, from both sides: sessions a client process saw lost while it kept
//   them alive, and sessions the cluster no longer has at the end (its `palisade_sessions`
//   against the count before plus those opened) with the growth of its
//   `palisade_session_expiries_total`;
// - keepalive traffic as the nodes count it: `palisade_client_stream_frames_total` and
//   `palisade_client_stream_calls_total` (direction "in"; a client sends its sessions'
//   keepalives together, one KeepAlive call per interval and TTL) and the session
//   keepalives they carried (`palisade_session_keepalives_total`), summed over the nodes, per second
//   over a steady window (the hold before the first transfer, after a settling time), when
//   keepalives are the only calls;
// - the leader's CPU time (/proc/PID/stat) over the same window, in % of one core and per
//   1,000 sessions.
// Each client process uses a deadline tick of `deadlineTickMs` (the default 50 ms would
// have 10,000 session timers per process firing 200,000 times a second on these two cores).
// Every process and folder is removed at the end, also on failure.
import { fileURLToPath } from "node:url";
import { PalisadeClient } from "../client/index.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep } from "./cluster-control.ts";
import { startProc, stopProcs, type ClientProc } from "./status-procs.ts";
import { addMetricsAddresses, cpuSeconds } from "./memory.ts";
import { metricSum } from "./prom-text.ts";
import type { KeepaliveResult, KeepaliveTransfer } from "./report-data.ts";

export interface KeepaliveOptions {
  sessions: number;
  processes: number;
  holdS: number;
  transfers: number;
  ttlMs: number;
  deadlineTickMs: number;
  log: (line: string) => void;
}

const KEEPALIVE_PROC = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "./keepalive-proc.ts" : "./keepalive-proc.js",
    import.meta.url,
  ),
);
const OPEN_BOUND_MS = 900_000;

/** A node's /metrics page, or null when it does not answer. */
async function metricsPage(address: string | undefined): Promise<string | null> {
  if (!address) return null;
  try {
    return await (
      await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(15_000) })
    ).text();
  } catch {
    return null;
  }
}

interface Reading {
  at: number;
  frames: number | null;
  calls: number | null;
  keepalives: number | null;
  leaderCpuS: number | null;
}

export async function runKeepalive(options: KeepaliveOptions): Promise<KeepaliveResult> {
  const dir = makeTempDir("palisade-keepalive-");
  const cluster = await BenchCluster.create(dir);
  const metrics = await addMetricsAddresses(cluster.configPath);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 2_000,
    retryBudgetMs: 10_000,
  });
  const procs: ClientProc[] = [];
  const errorSamples: string[] = [];
  const pages = (): Promise<Array<string | null>> =>
    Promise.all(cluster.ids.map((id) => metricsPage(metrics.get(id))));
  const sumOver = (
    texts: Array<string | null>,
    name: string,
    labels: Record<string, string> = {},
  ): number | null => {
    const values = texts.map((t) => (t === null ? null : metricSum(t, name, labels)));
    return values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0);
  };
  const maxOver = (texts: Array<string | null>, name: string): number | null => {
    const values = texts
      .map((t) => (t === null ? null : metricSum(t, name)))
      .filter((v): v is number => v !== null);
    return values.length ? Math.max(...values) : null;
  };
  const lostSoFar = (): number => procs.reduce((a, p) => a + (p.last?.lost ?? 0), 0);
  const leaderPage = async (): Promise<string | null> =>
    metricsPage(metrics.get(await cluster.waitLeader(admin)));
  try {
    cluster.startAll();
    await cluster.waitServing();
    await sleep(1_000);
    const sessionsBefore = metricSum((await leaderPage()) ?? "", "palisade_sessions") ?? 0;
    const expiriesBefore = maxOver(await pages(), "palisade_session_expiries_total");

    const perProc = Math.ceil(options.sessions / options.processes);
    const t0 = performance.now();
    for (let i = 0; i < options.processes; i++) {
      const count = Math.min(perProc, options.sessions - i * perProc);
      if (count <= 0) break;
      procs.push(
        startProc(KEEPALIVE_PROC, [
          cluster.endpoints.join(","),
          String(count),
          String(options.ttlMs),
          String(options.deadlineTickMs),
          `keepalive-bench-${i}`,
        ]),
      );
    }
    let lastLog = 0;
    while (!procs.every((p) => p.opened)) {
      const failedProc = procs.find((p) => p.error);
      if (failedProc) throw new Error(failedProc.error ?? "client process failed");
      if (performance.now() - t0 > OPEN_BOUND_MS)
        throw new Error(`sessions not all opened within ${OPEN_BOUND_MS / 1000} s`);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        options.log(
          `keepalive: ${procs.reduce((a, p) => a + (p.last?.opened ?? 0), 0)} sessions open after ${((performance.now() - t0) / 1000).toFixed(0)} s, ${lostSoFar()} lost`,
        );
      }
      await sleep(200);
    }
    const openS = (performance.now() - t0) / 1000;
    const opened = procs.reduce((a, p) => a + (p.last?.opened ?? 0), 0);
    const openErrors = procs.reduce((a, p) => a + (p.last?.open_errors ?? 0), 0);
    options.log(
      `keepalive: ${opened} sessions open from ${procs.length} processes in ${openS.toFixed(1)} s (${openErrors} opens failed); holding ${options.holdS} s with ${options.transfers} leader transfers`,
    );

    // The hold: transfers at equal spacing, the steady window before the first.
    const holdStart = performance.now();
    // When sessions are lost, for the log: every 10 s of the hold.
    const progress = setInterval(
      () =>
        options.log(
          `keepalive: ${((performance.now() - holdStart) / 1000).toFixed(0)} s into the hold: ${lostSoFar()} sessions lost at the clients`,
        ),
      10_000,
    ).unref();
    const spacingMs = (options.holdS * 1000) / (options.transfers + 1);
    const windowStart = holdStart + Math.min(5_000, spacingMs / 4);
    const windowEnd = holdStart + spacingMs - Math.min(1_000, spacingMs / 10);
    const read = async (): Promise<Reading> => {
      const leader = await cluster.waitLeader(admin);
      const texts = await pages();
      return {
        at: performance.now(),
        frames: sumOver(texts, "palisade_client_stream_frames_total", { direction: "in" }),
        calls: sumOver(texts, "palisade_client_stream_calls_total", { direction: "in" }),
        keepalives: sumOver(texts, "palisade_session_keepalives_total"),
        leaderCpuS: cpuSeconds(cluster.pidOf(leader) ?? -1),
      };
    };
    await sleep(windowStart - performance.now());
    const leaderAtWindow = await cluster.waitLeader(admin);
    const first = await read();
    await sleep(windowEnd - performance.now());
    const second = await read();
    const leaderAfterWindow = await cluster.waitLeader(admin);
    const windowS = (second.at - first.at) / 1000;
    const rate = (a: number | null, b: number | null): number | null =>
      a === null || b === null || windowS <= 0 ? null : Math.round(((b - a) / windowS) * 10) / 10;
    const leaderCpuPct =
      leaderAtWindow === leaderAfterWindow &&
      first.leaderCpuS !== null &&
      second.leaderCpuS !== null
        ? Math.round(((second.leaderCpuS - first.leaderCpuS) / windowS) * 1000) / 10
        : null;

    const transfers: KeepaliveTransfer[] = [];
    for (let i = 1; i <= options.transfers; i++) {
      await sleep(holdStart + i * spacingMs - performance.now());
      const at = (performance.now() - holdStart) / 1000;
      const from = await cluster.waitLeader(admin).catch(() => null);
      const t = performance.now();
      try {
        await admin.admin.transferLeader(0);
        let to: number | null = null;
        while (performance.now() - t < 30_000) {
          to = await cluster.waitLeader(admin, 30_000);
          if (to !== from) break;
          await sleep(20);
        }
        transfers.push({
          at_s: Math.round(at * 10) / 10,
          from,
          to,
          took_ms: Math.round(performance.now() - t),
        });
      } catch (e) {
        const message = e instanceof Error ? e.message.slice(0, 200) : String(e);
        transfers.push({
          at_s: Math.round(at * 10) / 10,
          from,
          to: null,
          took_ms: null,
          error: message,
        });
        if (errorSamples.length < 5) errorSamples.push(`leader transfer: ${message}`);
      }
      const last = transfers.at(-1);
      options.log(
        `keepalive: transfer ${i}/${options.transfers} at ${at.toFixed(0)} s: node ${last?.from ?? "?"} → ${last?.to ?? "?"} in ${last?.took_ms ?? "?"} ms${last?.error ? ` (${last.error})` : ""}`,
      );
    }
    await sleep(holdStart + options.holdS * 1000 - performance.now());
    clearInterval(progress);

    // The end of the hold: both sides' counts before anything is stopped.
    await sleep(1_500); // one status line from every process covering the whole hold
    const lost = procs.reduce((a, p) => a + (p.last?.lost ?? 0), 0);
    for (const p of procs)
      for (const s of p.last?.lost_samples ?? [])
        if (errorSamples.length < 5) errorSamples.push(`session lost: ${s}`);
    const endPages = await pages();
    const sessionsEnd = metricSum((await leaderPage()) ?? "", "palisade_sessions");
    const expiriesEnd = maxOver(endPages, "palisade_session_expiries_total");
    const missing =
      sessionsEnd === null ? null : Math.max(0, sessionsBefore + opened - sessionsEnd);
    const procError = procs.find((p) => p.error)?.error;
    if (procError && errorSamples.length < 5) errorSamples.push(procError.slice(0, 300));
    options.log(
      `keepalive: end of hold: ${lost} sessions lost at the clients; the cluster has ${sessionsEnd ?? "?"} sessions (${missing ?? "?"} of the opened missing), ` +
        `expiries ${expiriesBefore ?? "?"} → ${expiriesEnd ?? "?"}; steady window ${windowS.toFixed(1)} s: ${rate(first.frames, second.frames) ?? "?"} frames/s and ` +
        `${rate(first.calls, second.calls) ?? "?"} calls/s in carrying ${rate(first.keepalives, second.keepalives) ?? "?"} session keepalives/s, leader CPU ${leaderCpuPct ?? "?"} %`,
    );
    return {
      sessions_requested: options.sessions,
      sessions_opened: opened,
      processes: procs.length,
      hold_s: options.holdS,
      ttl_ms: options.ttlMs,
      open_s: Math.round(openS * 10) / 10,
      transfers_requested: options.transfers,
      transfers_done: transfers.filter((t) => !t.error && t.to !== null && t.to !== t.from).length,
      transfers,
      client_lost: lost,
      cluster_sessions_end: sessionsEnd,
      cluster_missing: missing,
      expired_metric_delta:
        expiriesBefore === null || expiriesEnd === null ? null : expiriesEnd - expiriesBefore,
      keepalive_frames_per_s: rate(first.frames, second.frames),
      keepalive_calls_per_s: rate(first.calls, second.calls),
      session_keepalives_per_s: rate(first.keepalives, second.keepalives),
      leader_cpu_pct: leaderCpuPct,
      leader_cpu_pct_per_1k_sessions:
        leaderCpuPct === null || opened === 0
          ? null
          : Math.round((leaderCpuPct / (opened / 1000)) * 100) / 100,
      steady_window_s: Math.round(windowS * 10) / 10,
      errors: openErrors + transfers.filter((t) => t.error).length + (procError ? 1 : 0),
      error_samples: errorSamples,
    };
  } finally {
    await stopProcs(procs);
    await admin.close().catch(() => undefined);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}
