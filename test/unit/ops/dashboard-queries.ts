// The PromQL of the Grafana dashboard in cluster-config/grafana, for the tests that check it.
import { readFileSync } from "node:fs";

export const DASHBOARD_PATH = new URL(
  "../../../cluster-config/grafana/palisade-dashboard.json",
  import.meta.url,
);

interface Panel {
  readonly type: string;
  readonly title: string;
  readonly panels?: readonly Panel[];
  readonly targets?: ReadonlyArray<{ readonly expr?: string }>;
}

export interface DashboardQuery {
  readonly panel: string;
  readonly expr: string;
}

export function dashboard(): { title: string; panels: Panel[] } {
  return JSON.parse(readFileSync(DASHBOARD_PATH, "utf8")) as { title: string; panels: Panel[] };
}

/** Every query of every panel, rows' nested panels included. */
export function dashboardQueries(): DashboardQuery[] {
  const out: DashboardQuery[] = [];
  const walk = (panels: readonly Panel[]): void => {
    for (const p of panels) {
      for (const t of p.targets ?? []) if (t.expr) out.push({ panel: p.title, expr: t.expr });
      if (p.panels) walk(p.panels);
    }
  };
  walk(dashboard().panels);
  return out;
}

/** The query with Grafana's variables given values, as Prometheus would receive it. */
export function concrete(expr: string): string {
  return expr.replaceAll("$__rate_interval", "1m").replaceAll("$cluster", "palisade-test");
}

const HISTOGRAM_PARTS = /_(bucket|sum|count)$/;

/** Metric names a query reads (a histogram's _bucket/_sum/_count named by the histogram). */
export function metricNames(expr: string, histograms: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  for (const match of expr.matchAll(/\b((?:palisade|nodejs|process)_[a-z0-9_]+)\b/g)) {
    const name = match[1] as string;
    const base = name.replace(HISTOGRAM_PARTS, "");
    names.add(base !== name && histograms.has(base) ? base : name);
  }
  return [...names];
}
