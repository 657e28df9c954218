// Number formatting of the report's cells, and what tells a part's failure from its figures.

/** A part (or one side of it) that failed: its error in place of its figures. */
export const failed = (x: object | undefined): x is { error: string } =>
  x !== undefined && "error" in x;

export const num = (x: number | null | undefined, digits = 1): string =>
  x == null ? "–" : x.toFixed(digits);

export function ratio(a: number | null | undefined, b: number | null | undefined): string {
  if (a == null || b == null || b === 0) return "–";
  return `${(a / b).toFixed(2)}×`;
}
