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
  return out.join("\n");
}
