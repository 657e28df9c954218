// Structured logs: pino JSON lines carrying the node id (and the Raft term when known),
// or pino-pretty text when a person is watching a terminal.
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
    options.destination ?? defaultDestination(options.pretty ?? process.stdout.isTTY === true),
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

function defaultDestination(human: boolean): DestinationStream {
  // pino-pretty runs in-process and synchronously rather than as a worker transport, so
  // the last line before a fail-stop exit is never lost.
  if (human) {
    return pretty({
      sync: true,
      colorize: process.stdout.isTTY === true,
      translateTime: "SYS:HH:MM:ss.l",
      messageFormat: "[node {nodeId}{if term} term {term}{end}] {msg}",
      ignore: "pid,hostname,nodeId,term,clusterId",
    });
  }
  return pino.destination({ dest: 1, sync: true });
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
