// Reads what a SPIN verifier (pan) prints: the figures of a run and the property it found
// violated. The models name each property by a flag they assert, so an assertion's text is
// the property's name ("assertion violated no_orphan").

export interface PanResult {
  /** States stored. */
  readonly states: number;
  readonly transitions: number;
  /** Deepest step reached. */
  readonly depth: number;
  /** Total memory pan reports, in MB. */
  readonly memoryMb: number;
  readonly seconds: number;
  readonly errors: number;
  /** The property a violation names, or null when none was found. */
  readonly violated: string | null;
}

export class PanOutputError extends Error {
  override readonly name = "PanOutputError";
}

function figure(text: string, pattern: RegExp, what: string): number {
  const m = pattern.exec(text);
  if (!m?.[1]) throw new PanOutputError(`pan output has no ${what}`);
  return Number(m[1]);
}

export function parsePanOutput(text: string): PanResult {
  const violation = /assertion violated (\w+)/.exec(text);
  return {
    states: figure(text, /^\s*(\d+) states, stored/m, "states stored"),
    transitions: figure(text, /^\s*(\d+) transitions/m, "transitions"),
    depth: figure(text, /depth reached (\d+)/, "depth"),
    memoryMb: figure(text, /^\s*([\d.]+)\s+total actual memory usage/m, "memory usage"),
    seconds: figure(text, /pan: elapsed time ([\d.e+]+) seconds/, "elapsed time"),
    errors: figure(text, /errors: (\d+)/, "error count"),
    violated: violation?.[1] ?? null,
  };
}

/** Steps in a trail file: one line each (the header lines start with "-"). */
export function trailSteps(trail: string): number {
  return trail.split("\n").filter((line) => /^\d/.test(line)).length;
}
