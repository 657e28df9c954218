// Structured logs: pino JSON lines carrying the node id (and the Raft term when known),
// or, when a person is watching a terminal, one pino-pretty line per event that starts
// with the node id: `node 2 08:15:03.123 INFO  term 3 · now leader in term 3 {"role":…}`.
import { pino } from "pino";
import type { DestinationStream, Level, Logger } from "pino";
import pretty from "pino-pretty";

export type { Logger } from "pino";

export interface LoggerOptions {
  /** Raft id of this node; on every line as `nodeId`. */
  nodeId: number;
  /** Cluster id, on every line as `clusterId` when given. */
  clusterId?: string;
  /** Minimum level; default $PALISADE_LOG_LEVEL, else "info". */
  level?: Level | "silent";
  /** Human-readable output; default: when stdout is a terminal. */
  pretty?: boolean;
  /** Colours in human-readable output; default: when stdout is a terminal. */
  color?: boolean;
  /** Reads the current Raft term; when given, every line carries `term`. */
  term?: () => bigint | number | undefined;
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
}

const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

export function createLogger(options: LoggerOptions): Logger {
  const envLevel = process.env.PALISADE_LOG_LEVEL;
  const level = options.level ?? (envLevel && LEVELS.has(envLevel) ? envLevel : "info");
  const base: Record<string, unknown> = { nodeId: options.nodeId };
  if (options.clusterId !== undefined) base.clusterId = options.clusterId;
  const readTerm = options.term;
  const human = options.pretty ?? process.stdout.isTTY === true;
  const color = options.color ?? process.stdout.isTTY === true;

  const logger = pino(
    {
      level,
      base,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Indexes, terms and tokens are uint64: written as decimal strings, as in every
      // other JSON Palisade produces, so no reader loses precision.
      formatters: { log: stringifyBigints, bindings: stringifyBigints },
      mixin: readTerm ? () => termField(readTerm()) : undefined,
    },
    options.destination ?? (human ? prettyStream({ color }) : pino.destination({ dest: 1, sync: true })),
  );
  return logger;
}

/**
 * A child logger whose lines carry `term`. Derive it from the node's base logger on each
 * term change (not from the previous term's child, or `term` would appear twice).
 */
export function childWithTerm(logger: Logger, term: bigint | number): Logger {
  return logger.child({ term: term.toString() });
}

/** Node-id colours, so three interleaved nodes are told apart at a glance. */
const NODE_COLOURS = ["cyan", "magenta", "yellow", "blue", "green"] as const;
const LEVEL_COLOURS: Readonly<Record<string, string>> = {
  TRACE: "gray", DEBUG: "blue", INFO: "green", WARN: "yellow", ERROR: "red", FATAL: "red",
};

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };

type Paint = (text: string) => string;
const plain: Paint = (text) => text;

/**
 * pino-pretty turning each JSON record into one line, the node id first, then the time,
 * the level, the term and the message, with the other fields as JSON. It runs in-process
 * and synchronously rather than as a worker transport, so the last line before a
 * fail-stop exit is never lost.
 */
export function prettyStream(options: { color: boolean; destination?: NodeJS.WritableStream | number }): DestinationStream {
  return pretty({
    sync: true,
    colorize: options.color,
    singleLine: true,
    destination: options.destination ?? 1,
    ignore: "pid,hostname,nodeId,term,clusterId,time",
    // The whole head of the line is the message format: it sees the record before the
    // ignored keys are taken out, and pino-pretty's own level and time are left empty.
    customPrettifiers: { level: () => "" },
    // The message is written plain; the head's parts carry their own colours.
    customColors: "message:reset",
    messageFormat: (log, messageKey, _levelLabel, extras) => {
      const colours = extras.colors as unknown as Record<string, Paint | undefined>;
      const paint = (name: string): Paint => (options.color ? (colours[name] ?? plain) : plain);
      const id = Number(log.nodeId);
      const nodeColour = NODE_COLOURS[(Number.isSafeInteger(id) ? id : 0) % NODE_COLOURS.length] ?? "cyan";
      const label = (LEVEL_NAMES[Number(log.level)] ?? String(log.level)).toUpperCase();
      const term = log.term === undefined ? "" : `${paint("gray")(`term ${String(log.term)}`)} `;
      return `${paint(nodeColour)(`node ${String(log.nodeId)}`)} ${paint("gray")(clockTime(log.time))} ` +
        `${paint(LEVEL_COLOURS[label] ?? "white")(label.padEnd(5))} ${term}${String(log[messageKey] ?? "")}`;
    },
  });
}

/** HH:MM:ss.mmm in local time, from pino's ISO time (or epoch milliseconds). */
function clockTime(time: unknown): string {
  const date = new Date(typeof time === "number" || typeof time === "string" ? time : Date.now());
  if (Number.isNaN(date.getTime())) return String(time);
  const two = (n: number): string => String(n).padStart(2, "0");
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

function termField(term: bigint | number | undefined): Record<string, string> {
  return term === undefined ? {} : { term: term.toString() };
}

function stringifyBigints(record: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === "bigint") {
      out ??= { ...record };
      out[key] = value.toString();
    }
  }
  return out ?? record;
}
