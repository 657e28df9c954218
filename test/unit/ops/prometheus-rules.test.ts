// The shipped alert rules and the Grafana dashboard's queries, checked by promtool (Debian
// package prometheus, installed by scripts/install-test-deps.sh).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { concrete, dashboardQueries } from "./dashboard-queries.ts";

const PROMETHEUS_DIR = fileURLToPath(
  new URL("../../../cluster-config/prometheus/", import.meta.url),
);

function promtool(args: string[], cwd: string): string {
  try {
    return execFileSync("promtool", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const e = error as { code?: string; stdout?: string; stderr?: string };
    if (e.code === "ENOENT")
      throw new Error(
        "promtool is not installed: run scripts/install-test-deps.sh (Debian package prometheus)",
        { cause: error },
      );
    throw new Error(`promtool ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`, {
      cause: error,
    });
  }
}

describe("Prometheus rules and dashboard queries", () => {
  it("the alert rules pass promtool check rules", () => {
    expect(promtool(["check", "rules", "alerts.yml"], PROMETHEUS_DIR)).toMatch(
      /SUCCESS: \d+ rules found/,
    );
  });

  it("the alert rules' unit tests pass promtool test rules", () => {
    expect(promtool(["test", "rules", "alerts.test.yml"], PROMETHEUS_DIR)).toContain("SUCCESS");
  });

  it("every query of the Grafana dashboard is valid PromQL", () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(10);
    // Each query as a recording rule: promtool parses every expression of a rule file.
    const dir = mkdtempSync(join(tmpdir(), "palisade-dashboard-"));
    try {
      const rules = queries
        .map(
          (q, i) =>
            `      - record: palisade_dashboard_query_${i}\n        expr: ${JSON.stringify(concrete(q.expr))}\n`,
        )
        .join("");
      writeFileSync(join(dir, "queries.yml"), `groups:\n  - name: dashboard\n    rules:\n${rules}`);
      expect(promtool(["check", "rules", "queries.yml"], dir)).toContain(
        `SUCCESS: ${queries.length} rules found`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
