// The lines `acquire --hold` reads on its standard input while it holds one lock:
// `upgrade [DURATION]`, `downgrade shared|upgradeable` and `release`, one to a line. A bad
// line is said on stderr and skipped; the end of the input changes nothing. A terminal is
// read only while palisadectl is its foreground job: a background job that read it would
// be stopped by the terminal (SIGTTIN), and a stopped process lets its session expire.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { DowngradeMode } from "../types.ts";
import { parseDuration } from "./format.ts";

/** What one line asks of the held lock. */
export type HoldLine =
  | { readonly verb: "upgrade"; readonly waitMs?: number }
  | { readonly verb: "downgrade"; readonly mode: DowngradeMode }
  | { readonly verb: "release" };

/** The longest line taken; a longer one is refused whole (its rest is skipped up to its newline). */
export const MAX_LINE_CHARS = 1_024;

const USAGE = "upgrade [DURATION], downgrade shared|upgradeable or release";

/** A line's command; null for a blank line. Throws an Error whose message is one line. */
export function parseHoldLine(line: string): HoldLine | null {
  const words = line
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");
  const [verb, ...rest] = words;
  if (verb === undefined) return null;
  switch (verb.toLowerCase()) {
    case "upgrade": {
      if (rest.length > 1)
        throw new Error(`upgrade takes at most one DURATION (got ${quote(line)})`);
      if (rest[0] === undefined) return { verb: "upgrade" };
      try {
        return { verb: "upgrade", waitMs: parseDuration(rest[0]) };
      } catch (err) {
        throw new Error(`upgrade: ${(err as Error).message}`, { cause: err });
      }
    }
    case "downgrade": {
      const mode = rest.length === 1 ? rest[0]?.toLowerCase() : undefined;
      if (mode !== "shared" && mode !== "upgradeable")
        throw new Error(`downgrade takes shared or upgradeable (got ${quote(line)})`);
      return { verb: "downgrade", mode };
    }
    case "release":
      if (rest.length > 0) throw new Error(`release takes nothing more (got ${quote(line)})`);
      return { verb: "release" };
    default:
      throw new Error(`unknown command ${quote(verb)}: expected ${USAGE}`);
  }
}

/** JSON-quoted and cut short: a line is user input, and an error message stays one short line. */
function quote(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed);
}

/**
 * Splits text that comes in pieces into lines (LF or CRLF). A line longer than `maxChars`
 * is reported once through `tooLong` and dropped up to its newline, so no input grows the
 * buffer without bound.
 */
export class LineSplitter {
  private partial = "";
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly tooLong: () => void,
    private readonly maxChars = MAX_LINE_CHARS,
  ) {}

  push(text: string): void {
    let rest = text;
    for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
      const piece = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else this.take(this.partial + piece);
      this.partial = "";
    }
    if (this.skipping) return;
    this.partial += rest;
    if (this.partial.length > this.maxChars) {
      this.partial = "";
      this.skipping = true;
      this.tooLong();
    }
  }

  /** The input ended: a last line without its newline still counts. */
  end(): void {
    if (!this.skipping && this.partial !== "") this.take(this.partial);
    this.partial = "";
    this.skipping = false;
  }

  private take(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > this.maxChars) this.tooLong();
    else this.onLine(line);
  }
}

/** The standard input as the verbs that hold see it (process.stdin, or a test's stream). */
export type HoldInput = NodeJS.ReadableStream & { readonly isTTY?: boolean };

/**
 * Whether this process is the foreground job of its terminal, from the process group and
 * the terminal's foreground group: /proc/self/stat on Linux, `ps` elsewhere. False when
 * neither tells.
 */
export function inForeground(): boolean {
  try {
    return foregroundOfStat(readFileSync("/proc/self/stat", "utf8"));
  } catch {
    // Not Linux: ask ps below.
  }
  try {
    const out = execFileSync("ps", ["-o", "pgid=,tpgid=", "-p", String(process.pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2_000,
    });
    const [pgid, tpgid] = out.trim().split(/\s+/);
    return pgid !== undefined && pgid !== "" && pgid === tpgid;
  } catch {
    return false;
  }
}

/** /proc/PID/stat: its process group (field 5) is the terminal's foreground group (field 8). */
export function foregroundOfStat(stat: string): boolean {
  // The command name (field 2) is in parentheses and may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const pgrp = fields[2];
  const tpgid = fields[5];
  return pgrp !== undefined && pgrp === tpgid;
}

/**
 * Calls `onLine` with each line of `input` until the returned function is called. A
 * terminal is read only while this process is in its foreground, checked at the start and
 * again whenever the process is continued (after Ctrl-Z, `bg` or `fg`).
 */
export function readHoldLines(
  input: HoldInput,
  onLine: (line: string) => void,
  tooLong: () => void,
): () => void {
  const splitter = new LineSplitter(onLine, tooLong);
  const onData = (chunk: string | Buffer): void =>
    splitter.push(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
  const onEnd = (): void => splitter.end();
  const onError = (): void => stop();
  const mayRead = (): boolean => input.isTTY !== true || inForeground();
  const follow = (): void => {
    if (mayRead()) input.resume();
    else input.pause();
  };
  // Paused first, a stream stays paused when the data listener comes (which would start it).
  const readNow = mayRead();
  if (!readNow) input.pause();
  input.setEncoding("utf8");
  input.on("data", onData);
  input.on("end", onEnd);
  input.on("error", onError);
  if (readNow) input.resume();
  if (input.isTTY === true) process.on("SIGCONT", follow);
  let stopped = false;
  function stop(): void {
    if (stopped) return;
    stopped = true;
    process.off("SIGCONT", follow);
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("error", onError);
    input.pause();
  }
  return stop;
}
