// Number formatting of the report's cells.

export const num = (x: number | null | undefined, digits = 1): string =>
  x == null ? "–" : x.toFixed(digits);

export function ratio(a: number | null | undefined, b: number | null | undefined): string {
  if (a == null || b == null || b === 0) return "–";
  return `${(a / b).toFixed(2)}×`;
}
