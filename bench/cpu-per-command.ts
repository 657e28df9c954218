// Server CPU per lock command in a throughput cell, on the busiest node (under steady load,
// the leader) and on the others (followers), from each server's CPU over the measured window.
// A cycle is two commands (Acquire and Release); keepalives ride along uncounted.
import type { RunResult } from "./report-data.ts";

export interface CpuPerCommand {
  /** µs of CPU per command on the busiest server. */
  readonly busiestUs: number;
  /** µs of CPU per command on each other server, averaged. */
  readonly othersUs: number;
}

export function cpuPerCommand(r: RunResult): CpuPerCommand | null {
  const each = r.server_cpu_pct_each;
  if (!each || each.length === 0 || !(r.cycles_per_s > 0)) return null;
  const commandsPerS = 2 * r.cycles_per_s;
  const usPerCommand = (pct: number): number => ((pct / 100) * 1e6) / commandsPerS;
  const sorted = [...each].sort((a, b) => b - a);
  const others = sorted.slice(1);
  return {
    busiestUs: usPerCommand(sorted[0]!),
    othersUs:
      others.length === 0 ? 0 : usPerCommand(others.reduce((a, b) => a + b, 0) / others.length),
  };
}

/** Palisade's and etcd's server CPU per command, cell by cell, where each server's CPU was read. */
export function renderCpuTable(
  runs: readonly RunResult[],
  labels: ReadonlyArray<{ readonly label: string; readonly name: string }>,
): string {
  const rows: string[] = [];
  for (const r of runs) {
    const named = labels.find((l) => l.label === r.label);
    const cpu = named ? cpuPerCommand(r) : null;
    if (!named || !cpu) continue;
    rows.push(
      `| ${named.name} | ${r.mode} | ${r.concurrency} | ${(2 * r.cycles_per_s).toFixed(0)} | ` +
        `${cpu.busiestUs.toFixed(0)} | ${cpu.othersUs.toFixed(0)} |`,
    );
  }
  if (rows.length === 0) return "";
  return [
    "Server CPU per lock command (Acquire or Release; two per cycle), from each server's CPU over the measured window: the busiest server (under steady load, the leader) and the others (followers), averaged.",
    "",
    "| system | mode | conc. | commands/s | CPU µs per command, busiest server | CPU µs per command, each other server |",
    "|---|---|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}
