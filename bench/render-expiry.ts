// The report's sections on sessions ending: a holder's crash to the next grant, a frozen
// `palisadectl run` to its command's death, and many sessions kept alive through leader
// transfers (where none may end).
import type { CrashGrantSide } from "./crash-grant.ts";
import { failed, type Parts } from "./report-data.ts";
import { num } from "./report-format.ts";
import type { Summary } from "./stats.ts";

const ms = (s: Summary): string => `${num(s.p50, 0)} | ${num(s.p99, 0)} | ${num(s.max, 0)}`;

function crashGrantRow(name: string, side: CrashGrantSide | { error: string } | undefined): string | null {
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
      ...[crashGrantRow("Palisade", cg.palisade), crashGrantRow("etcd Lock API", cg.etcd)].filter((r): r is string => r !== null),
      "",
      `Samples (ms): Palisade ${p ? p.samples_ms.map((x) => x.toFixed(0)).join(", ") : "–"}` + (e ? `; etcd ${e.samples_ms.map((x) => x.toFixed(0)).join(", ")}` : "") + ".",
      "",
    );
  }
  const rl = parts.run_loss;
  if (failed(rl)) out.push(`### Loss to child dead for \`palisadectl run\`\n\nfailed: ${rl.error}\n`);
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
  return out.join("\n");
}
