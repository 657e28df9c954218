// Reading figures out of a node's /metrics page (Prometheus text format).

/**
 * The sum of the samples of metric `name` whose labels include all of `labels`; null when
 * the page has no such sample. A counter without labels is its one sample.
 */
export function metricSum(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | null {
  let sum: number | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== " " && rest[0] !== "{") continue; // another metric sharing the prefix
    let labelText = "";
    let valueText = rest;
    if (rest[0] === "{") {
      const end = rest.indexOf("}");
      if (end < 0) continue;
      labelText = rest.slice(1, end);
      valueText = rest.slice(end + 1);
    }
    const have = new Map(
      [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (!Object.entries(labels).every(([k, v]) => have.get(k) === v)) continue;
    const value = Number(valueText.trim().split(" ")[0]);
    if (!Number.isFinite(value)) continue;
    sum = (sum ?? 0) + value;
  }
  return sum;
}
