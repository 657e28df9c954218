// Formatting and argument parsing for palisadectl: durations, counts and uint64 arguments,
// JSON with bigints, plain-text tables and holders in words.
import { InvalidArgumentError as CommanderArgumentError } from "commander";
import type { LockHolderInfo } from "../types.ts";

/** JSON with bigints as decimal strings (tokens and ids are uint64). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** "500ms", "10s", "1.5m", "1h"; a bare number is milliseconds. */
export function parseDuration(text: string): number {
  // A unit is required: a bare number is as likely meant as seconds as milliseconds.
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!match)
    throw new CommanderArgumentError(
      `expected a duration with its unit, such as 500ms, 10s, 2m or 1h (got ${JSON.stringify(text)})`,
    );
  const ms = Number(match[1]) * UNITS[match[2]!];
  if (!Number.isSafeInteger(Math.round(ms))) throw new CommanderArgumentError("duration too large");
  return Math.round(ms);
}

export function parseUint64(text: string): bigint {
  if (!/^\d{1,20}$/.test(text) || BigInt(text) >= 2n ** 64n)
    throw new CommanderArgumentError(`expected a decimal uint64 (got ${JSON.stringify(text)})`);
  return BigInt(text);
}

export function parseCount(text: string): number {
  if (!/^\d{1,9}$/.test(text))
    throw new CommanderArgumentError(
      `expected a non-negative integer (got ${JSON.stringify(text)})`,
    );
  return Number(text);
}

/** Left-aligned columns separated by two spaces. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** A display-only wall-clock time (0: unknown). */
export function wallTime(ms: number): string {
  return ms > 0 ? new Date(ms).toISOString() : "-";
}

/** Parses --permits: a semaphore's permit count, at least 1. */
export function parsePermits(text: string): number {
  const n = parseCount(text);
  if (n < 1) throw new CommanderArgumentError(`expected at least 1 permit (got ${text})`);
  return n;
}

/** "free", or who holds the lock with which token since which index. */
export function describeHolder(holder: LockHolderInfo | undefined): string {
  if (!holder) return "free";
  const name = holder.clientName ? ` (${holder.clientName})` : "";
  return `held by session ${holder.sessionId}${name}, token ${holder.token}, granted at index ${holder.grantedIndex}`;
}
