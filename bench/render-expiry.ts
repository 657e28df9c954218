// The report's sections on sessions ending: a holder's crash to the next grant, a frozen
// `palisadectl run` to its command's death, and many sessions kept alive through leader
// transfers (where none may end).
import type { CrashGrantSide } from "./crash-grant.ts";
import { failed, type Parts } from "./report-data.ts";
import { num } from "./report-format.ts";
import type { Summary } from "./stats.ts";

const ms = (s: Summary): string => `${num(s.p50, 0)} | ${num(s.p99, 0)} | ${num(s.max, 0)}`;

function crashGrantRow(
  name: string,
  side: CrashGrantSide | { error: string } | undefined,
): string | null {
  if (!side) return null;
  if (failed(side)) return `| ${name} | failed: ${side.error.slice(0, 200)} | | | | | | |`;
  return `| ${name} | ${side.ttl_ms} | ${side.runs} | ${ms(side.grant_ms)} | ${num(side.beyond_ttl_ms.p50, 0)} / ${num(side.beyond_ttl_ms.p99, 0)} | ${side.unresolved} |`;
}

export function renderExpiryParts(parts: Parts): string {
  const out: string[] = [];
  const cg = parts.crash_grant;
  if (failed(cg)) out.push(`### Crash to next grant\n\nfailed: ${cg.error}\n`);
  else if (cg) {
    const p = failed(cg.palisade) ? undefined : cg.palisade;
    const e = cg.etcd && !failed(cg.etcd) ? cg.etcd : undefined;
    out.push(
      "### Crash to next grant (the holder's process SIGKILLed while a waiter in another process waits on the lock)",
      "",
      `Time from the kill to the waiter's grant, as the waiter's process sees it (both on the host's monotonic clock); the kill lands at a random point of the holder's keepalive period. ` +
        `Palisade: ${p?.config ?? "–"}. etcd: ${e?.config ?? (cg.etcd && failed(cg.etcd) ? `failed: ${cg.etcd.error}` : "not run")}.`,
      "",
      "| system | TTL ms | runs | p50 ms | p99 ms | max ms | beyond the TTL p50 / p99 ms | no grant within TTL + 30 s |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ...[crashGrantRow("Palisade", cg.palisade), crashGrantRow("etcd Lock API", cg.etcd)].filter(
        (r): r is string => r !== null,
      ),
      "",
      `Samples (ms): Palisade ${p ? p.samples_ms.map((x) => x.toFixed(0)).join(", ") : "–"}` +
        (e ? `; etcd ${e.samples_ms.map((x) => x.toFixed(0)).join(", ")}` : "") +
        ".",
      "",
    );
  }
  const rl = parts.run_loss;
  if (failed(rl))
    out.push(`### Loss to child dead for \`palisadectl run\`\n\nfailed: ${rl.error}\n`);
  else if (rl) {
    out.push(
      "### Loss to child dead for `palisadectl run` (the CLI SIGSTOPped past its TTL)",
      "",
      `${rl.config}. The command's process group is polled every millisecond until kill(-pgid, 0) answers ESRCH. Two deadlines: ` +
        `the watchdog's local one (the send time of the last acknowledged keepalive + ${rl.budget_ms} ms, what the watchdog acts on; taken at the keepalive's due time, so at most the timer's lateness early), ` +
        "and the cluster's expiry of the session (a client polling the lock every 10 ms sees its holder go; from then on the lock can be granted to another client, so the command must be dead before it).",
      "",
      "| from | to | runs | p50 ms | p99 ms | max ms |",
      "|---|---|---:|---:|---:|---:|",
      `| watchdog's local deadline | command group dead | ${rl.after_local_deadline_ms.n} | ${ms(rl.after_local_deadline_ms)} |`,
      `| command group dead | cluster frees the lock (margin; positive = dead first) | ${rl.before_cluster_expiry_ms.n} | ${ms(rl.before_cluster_expiry_ms)} |`,
      `| SIGSTOP of the CLI | command group dead | ${rl.stop_to_dead_ms.n} | ${ms(rl.stop_to_dead_ms)} |`,
      "",
      `TTL ${rl.ttl_ms} ms; ${rl.unresolved} runs with the group alive past TTL + 30 s; ${rl.earlier_keepalive_runs} runs in which the keepalive due just before the stop was not acknowledged in time (their deadline is taken one period earlier). ` +
        `Margins before the cluster's expiry (ms): ${rl.samples.map((x) => (x.before_cluster_expiry_ms === null ? "?" : x.before_cluster_expiry_ms.toFixed(0))).join(", ")}.`,
      "",
    );
  }
  const k = parts.keepalive;
  if (failed(k)) out.push(`### Keepalive scale\n\nfailed: ${k.error}\n`);
  else if (k) {
    const e = k.etcd;
    const etcdText = !e
      ? "not run"
      : "skipped" in e
        ? `not run: ${e.skipped}`
        : failed(e)
          ? `failed: ${e.error}`
          : null;
    const en = e && !("skipped" in e) && !failed(e) ? e : undefined;
    const count = (n: number): string => n.toLocaleString("en-US");
    out.push(
      `### Keepalive scale (${count(k.sessions_opened)} sessions from ${k.processes} client processes, held ${k.hold_s} s with ${k.transfers_done} of ${k.transfers_requested} leader transfers)`,
      "",
      `Session TTL ${k.ttl_ms} ms; each process is one client (the library from dist/, its default transport, the stream); the sessions opened in ${k.open_s} s. ` +
        "Spurious expiries: sessions a client process saw lost while it kept them alive, and sessions the cluster no longer had at the end of the hold (its `palisade_sessions`, with the growth of `palisade_session_expiries_total`). " +
        `Keepalive traffic as the nodes count it (\`palisade_client_stream_frames_total\` and \`palisade_client_stream_calls_total\`, direction in, and the session keepalives those calls carried, \`palisade_session_keepalives_total\`: a client sends all its sessions' keepalives of one interval in one KeepAlive call; summed over the nodes) and the leader's CPU (/proc/PID/stat) over a steady window of ${k.steady_window_s} s before the first transfer.` +
        (k.errors ? ` Errors: ${k.errors} (${k.error_samples.join("; ")}).` : ""),
      "",
      "| system | sessions | lost at the clients | missing at the cluster | expiries counted | keepalive frames/s | keepalive calls/s | session keepalives/s | leader CPU % | leader CPU % per 1,000 sessions |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      `| Palisade | ${count(k.sessions_opened)} | ${count(k.client_lost)} | ${k.cluster_missing === null ? "–" : count(k.cluster_missing)} | ${k.expired_metric_delta === null ? "–" : count(k.expired_metric_delta)} | ${num(k.keepalive_frames_per_s)} | ${num(k.keepalive_calls_per_s)} | ${num(k.session_keepalives_per_s ?? null)} | ${num(k.leader_cpu_pct)} | ${num(k.leader_cpu_pct_per_1k_sessions, 2)} |`,
      ...(en
        ? [
            `| etcd (leases) | ${count(en.leases_granted)} | ${count(en.leases_lost)} | ${en.leases_missing_end === null ? "–" : count(en.leases_missing_end)} | – | – | – | – | ${num(en.leader_cpu_pct)} | ${num(en.leader_cpu_pct_per_1k_leases, 2)} |`,
          ]
        : []),
      "",
      `Leader transfers: ${k.transfers.map((t) => `at ${t.at_s} s node ${t.from ?? "?"} → ${t.to ?? "?"} (${t.took_ms ?? "?"} ms${t.error ? `, ${t.error}` : ""})`).join("; ") || "none"}.` +
        (etcdText ? ` etcd: ${etcdText}.` : "") +
        (en
          ? ` etcd: ${count(en.leases_granted)} of ${count(en.leases_requested)} leases granted in ${en.grant_s} s (grants stop after ${en.grant_bound_s} s), lease TTL ${en.ttl_s} s; ${count(en.errors)} errors (failed grants and leader moves).`
          : ""),
      "",
    );
  }
  return out.join("\n");
}
