// Structured logs: pino JSON lines carrying the node id (and the Raft term when known), or
// any other destination, such as pretty-log.ts's one human-readable line per event:
// `node 2 08:15:03.123 INFO  term 3 · now leader in term 3 {"role":…}`.
import { pino } from "pino";
import type { DestinationStream, Level, Logger } from "pino";

export type { Logger } from "pino";

export interface LoggerOptions {
  /** Raft id of this node; on every line as `nodeId`. */
  nodeId: number;
  /** Cluster id, on every line as `clusterId` when given. */
  clusterId?: string;
  /** Minimum level; default $PALISADE_LOG_LEVEL, else "info". */
  level?: Level | "silent";
  /** Reads the current Raft term; when given, every line carries `term`. */
  term?: () => bigint | number | undefined;
  /** Where lines go; default JSON lines on stdout (human-readable lines: prettyStream in pretty-log.ts). */
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
    options.destination ?? pino.destination({ dest: 1, sync: true }),
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
