// Human-readable log lines for a person watching a terminal: one pino-pretty line per event
// that starts with the node id. Apart from logger.ts so a node writing JSON lines (the
// default off a terminal) never loads pino-pretty and its dependencies.
import type { DestinationStream } from "pino";
import pretty from "pino-pretty";

/** Node-id colours, so three interleaved nodes are told apart at a glance. */
const NODE_COLOURS = ["cyan", "magenta", "yellow", "blue", "green"] as const;
const LEVEL_COLOURS: Readonly<Record<string, string>> = {
  TRACE: "gray",
  DEBUG: "blue",
  INFO: "green",
  WARN: "yellow",
  ERROR: "red",
  FATAL: "red",
};

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

type Paint = (text: string) => string;
const plain: Paint = (text) => text;

/**
 * pino-pretty turning each JSON record into one line, the node id first, then the time,
 * the level, the term and the message, with the other fields as JSON. It runs in-process
 * and synchronously rather than as a worker transport, so the last line before a
 * fail-stop exit is never lost.
 */
export function prettyStream(options: {
  color: boolean;
  destination?: NodeJS.WritableStream | number;
}): DestinationStream {
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
      const nodeColour =
        NODE_COLOURS[(Number.isSafeInteger(id) ? id : 0) % NODE_COLOURS.length] ?? "cyan";
      const label = (LEVEL_NAMES[Number(log.level)] ?? String(log.level)).toUpperCase();
      const term = log.term === undefined ? "" : `${paint("gray")(`term ${String(log.term)}`)} `;
      return (
        `${paint(nodeColour)(`node ${String(log.nodeId)}`)} ${paint("gray")(clockTime(log.time))} ` +
        `${paint(LEVEL_COLOURS[label] ?? "white")(label.padEnd(5))} ${term}${String(log[messageKey] ?? "")}`
      );
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
