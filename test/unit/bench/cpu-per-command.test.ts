// Server CPU per lock command from each server's CPU over a cell's window.
import { describe, expect, it } from "vitest";
import { cpuPerCommand, renderCpuTable } from "../../../bench/cpu-per-command.ts";
import type { RunResult } from "../../../bench/report-data.ts";

function cell(label: string, cycles: number, each: number[] | null): RunResult {
  return {
    label,
    mode: "uncontended",
    concurrency: 64,
    cycles_per_s: cycles,
    handoffs_per_s: null,
    acquire_ms: { p50: 1, p99: 2, max: 3 },
    errors: 0,
    timeouts: 0,
    mutex_violations: 0,
    fence_regressions: 0,
    server_cpu_pct: each === null ? null : each.reduce((a, b) => a + b, 0),
    server_cpu_pct_each: each,
  };
}

describe("server CPU per command", () => {
  it("divides the busiest server's CPU, and the others' average, by two commands a cycle", () => {
    // 1,000 cycles/s = 2,000 commands/s; 60 % of a core = 600,000 µs/s → 300 µs per command.
    expect(cpuPerCommand(cell("palisade", 1000, [20, 60, 30]))).toEqual({
      busiestUs: 300,
      othersUs: 125,
    });
  });

  it("gives nothing without per-server figures or without cycles", () => {
    expect(cpuPerCommand(cell("palisade", 1000, null))).toBeNull();
    expect(cpuPerCommand(cell("palisade", 0, [10, 10, 10]))).toBeNull();
  });

  it("renders a row for each named system's cell and none for the others", () => {
    const text = renderCpuTable(
      [cell("palisade", 1000, [20, 60, 30]), cell("redlock", 5000, [10, 10])],
      [{ label: "palisade", name: "Palisade" }],
    );
    expect(text).toContain("| Palisade | uncontended | 64 | 2000 | 300 | 125 |");
    expect(text).not.toContain("redlock");
    expect(
      renderCpuTable([cell("palisade", 1000, null)], [{ label: "palisade", name: "Palisade" }]),
    ).toBe("");
  });
});
