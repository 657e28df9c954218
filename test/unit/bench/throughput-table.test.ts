// The benchmark report's throughput table: Palisade and etcd side by side, Redis and
// Redlock as labelled reference columns when they ran.
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../bench/report-data.ts";
import { renderTable } from "../../../bench/throughput-table.ts";

function cell(
  label: string,
  mode: string,
  concurrency: number,
  cycles: number,
  handoffs: number | null = null,
): RunResult {
  return {
    label,
    mode,
    concurrency,
    cycles_per_s: cycles,
    handoffs_per_s: handoffs,
    acquire_ms: { p50: 0.07, p99: 0.3, max: 4 },
    per_worker_cycles: { jain: 1 },
    errors: 0,
    timeouts: 0,
    mutex_violations: 0,
    fence_regressions: 0,
    server_cpu_pct: 50,
  };
}

const cellsOf = (line: string | undefined): string[] =>
  (line ?? "")
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());

describe("the throughput table", () => {
  it("shows single Redis and Redlock as reference columns without fencing safety, in the rows of their cells", () => {
    const md = renderTable([
      cell("palisade", "contended", 64, 500, 520),
      cell("etcd-lockapi", "contended", 64, 150, 160),
      cell("redis-single", "contended", 64, 7_000, 460),
      cell("redlock", "contended", 64, 760, 590),
    ]);
    const [header, , row] = md.split("\n");
    const names = cellsOf(header);
    expect(names).toContain("Redis cycles/s (reference, unsafe: no fencing / no consensus)");
    expect(names).toContain("Redlock (5) cycles/s (reference, unsafe: no fencing / no consensus)");
    const cells = cellsOf(row);
    expect(cells.length).toBe(names.length);
    expect(
      cells[names.indexOf("Redis cycles/s (reference, unsafe: no fencing / no consensus)")],
    ).toBe("7000.0");
    expect(cells[names.indexOf("Redis handoffs/s")]).toBe("460.0");
    expect(cells[names.indexOf("Redlock (5) handoffs/s")]).toBe("590.0");
    expect(cells[names.indexOf("Redlock (5) acq. p50 / p99 ms")]).toBe("0.07 / 0.30");
    expect(md).toContain("reference columns, unsafe: no fencing / no consensus");
  });

  it("has no reference columns when Redis did not run", () => {
    const md = renderTable([
      cell("palisade", "uncontended", 1, 500),
      cell("etcd-lockapi", "uncontended", 1, 200),
    ]);
    expect(md).not.toContain("Redis");
    const [header, , row] = md.split("\n");
    expect(cellsOf(row).length).toBe(cellsOf(header).length);
  });

  it("names a reference backend's mutual-exclusion violation in the notes", () => {
    const bad = { ...cell("redlock", "contended", 16, 700, 500), mutex_violations: 2 };
    const md = renderTable([cell("palisade", "contended", 16, 100, 100), bad]);
    expect(cellsOf(md.split("\n")[2]).at(-1)).toBe("Redlock (5): 2 MUTEX VIOLATION");
  });

  it("notes workers that never cycled in the window and a warm-up cut short", () => {
    const slow = {
      ...cell("palisade", "contended", 1_024, 120, 120),
      workers_served: 377,
      warm: false,
      warmup_s: 30.1,
      drained: false,
    };
    const md = renderTable([slow, cell("etcd-lockapi", "contended", 1_024, 40, 40)]);
    expect(cellsOf(md.split("\n")[2]).at(-1)).toBe(
      "Palisade: 377 of 1024 workers cycled in the window, warm-up cut at 30 s, acquires still waiting 15 s after the window",
    );
  });
});
