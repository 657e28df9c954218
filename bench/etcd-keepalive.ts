// The etcd side of the keepalive scale part: three members (etcd defaults), `sessions`
// leases granted from `processes` client processes (bench/etcd-keepalive-proc.ts, the
// etcd3 client) and kept alive for `holdS` seconds with `transfers` leader moves
// (`etcdctl move-leader`) spread through the hold, as on Palisade's side. Reported: leases
// a process saw lost, leases etcd no longer has at the end (`etcdctl lease list`), and the
// leader's CPU over the steady window before the first move. Grants stop after
// ETCD_GRANT_BOUND_S; the hold then runs with the leases granted by then.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { makeTempDir, removeTempDir, sleep } from "./cluster-control.ts";
import { EtcdCluster } from "./etcd-control.ts";
import type { KeepaliveOptions } from "./keepalive.ts";
import { cpuSeconds } from "./memory.ts";
import type { EtcdKeepaliveResult } from "./report-data.ts";
import { startProc, stopProcs, type ClientProc } from "./status-procs.ts";

const PROC = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "./etcd-keepalive-proc.ts" : "./etcd-keepalive-proc.js",
    import.meta.url,
  ),
);
/** How long the processes start grants; the hold runs with the leases granted by then. */
export const ETCD_GRANT_BOUND_S = 180;
const OPEN_BOUND_MS = (ETCD_GRANT_BOUND_S + 120) * 1000;

function etcdctl(args: string[], timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      "etcdctl",
      ["--command-timeout=5s", ...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

/** A member's id (hex, as move-leader takes it), from its own endpoint status. */
async function memberIdHex(endpoint: string): Promise<string | null> {
  const out = await etcdctl(["--endpoints", endpoint, "endpoint", "status", "-w", "fields"]);
  const match = out ? /"MemberID" : (\d+)/.exec(out) : null;
  return match?.[1] ? BigInt(match[1]).toString(16) : null;
}

export async function runEtcdKeepalive(options: KeepaliveOptions): Promise<EtcdKeepaliveResult> {
  const dir = makeTempDir("palisade-etcd-keepalive-");
  const cluster = await EtcdCluster.create(dir);
  const procs: ClientProc[] = [];
  const ttlS = Math.max(2, Math.ceil(options.ttlMs / 1000));
  let errors = 0;
  try {
    cluster.startAll();
    await cluster.waitLeader();
    const perProc = Math.ceil(options.sessions / options.processes);
    const t0 = performance.now();
    for (let i = 0; i < options.processes; i++) {
      const count = Math.min(perProc, options.sessions - i * perProc);
      if (count <= 0) break;
      procs.push(
        startProc(PROC, [
          cluster.endpoints.join(","),
          String(count),
          String(ttlS),
          String(ETCD_GRANT_BOUND_S),
        ]),
      );
    }
    let lastLog = 0;
    while (!procs.every((p) => p.opened)) {
      const failedProc = procs.find((p) => p.error);
      if (failedProc) throw new Error(failedProc.error ?? "client process failed");
      if (performance.now() - t0 > OPEN_BOUND_MS)
        throw new Error(`leases not all granted within ${OPEN_BOUND_MS / 1000} s`);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        options.log(
          `etcd keepalive: ${procs.reduce((a, p) => a + (p.last?.opened ?? 0), 0)} leases after ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
      }
      await sleep(200);
    }
    const granted = procs.reduce((a, p) => a + (p.last?.opened ?? 0), 0);
    const grantS = Math.round((performance.now() - t0) / 100) / 10;
    errors += procs.reduce((a, p) => a + (p.last?.open_errors ?? 0), 0);
    options.log(
      `etcd keepalive: ${granted} leases from ${procs.length} processes in ${((performance.now() - t0) / 1000).toFixed(1)} s; holding ${options.holdS} s with ${options.transfers} leader moves`,
    );

    const holdStart = performance.now();
    const spacingMs = (options.holdS * 1000) / (options.transfers + 1);
    await sleep(holdStart + Math.min(5_000, spacingMs / 4) - performance.now());
    const leader = await cluster.waitLeader();
    const cpu0 = cpuSeconds(cluster.pidOf(leader) ?? -1);
    const w0 = performance.now();
    await sleep(holdStart + spacingMs - Math.min(1_000, spacingMs / 10) - performance.now());
    const cpu1 = cpuSeconds(cluster.pidOf(leader) ?? -1);
    const windowS = (performance.now() - w0) / 1000;
    const sameLeader = (await cluster.waitLeader()) === leader;
    const leaderCpuPct =
      sameLeader && cpu0 !== null && cpu1 !== null
        ? Math.round(((cpu1 - cpu0) / windowS) * 1000) / 10
        : null;

    for (let i = 1; i <= options.transfers; i++) {
      await sleep(holdStart + i * spacingMs - performance.now());
      const from = await cluster.waitLeader();
      const target = cluster.ids.find((id) => id !== from) ?? from;
      const hex = await memberIdHex(cluster.endpointOf(target));
      const moved = hex
        ? await etcdctl(["--endpoints", cluster.endpointOf(from), "move-leader", hex], 30_000)
        : null;
      if (moved === null) errors++;
      options.log(
        `etcd keepalive: leader move ${i}/${options.transfers}: m${from} → m${target}${moved === null ? " failed" : ""}`,
      );
    }
    await sleep(holdStart + options.holdS * 1000 - performance.now());
    await sleep(1_500);
    const lost = procs.reduce((a, p) => a + (p.last?.lost ?? 0), 0);
    const list = await etcdctl(
      ["--endpoints", cluster.endpoints.join(","), "lease", "list"],
      60_000,
    );
    const found = list ? /found (\d+) leases/.exec(list) : null;
    const leasesEnd = found?.[1] ? Number(found[1]) : null;
    options.log(
      `etcd keepalive: end of hold: ${lost} leases lost at the clients; etcd has ${leasesEnd ?? "?"} leases; leader CPU ${leaderCpuPct ?? "?"} %`,
    );
    return {
      leases_requested: options.sessions,
      leases_granted: granted,
      grant_s: grantS,
      grant_bound_s: ETCD_GRANT_BOUND_S,
      processes: procs.length,
      hold_s: options.holdS,
      ttl_s: ttlS,
      leases_lost: lost,
      leases_missing_end: leasesEnd === null ? null : Math.max(0, granted - leasesEnd),
      leader_cpu_pct: leaderCpuPct,
      leader_cpu_pct_per_1k_leases:
        leaderCpuPct === null || granted === 0
          ? null
          : Math.round((leaderCpuPct / (granted / 1000)) * 100) / 100,
      errors,
    };
  } finally {
    await stopProcs(procs);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}
