// Runs one Palisade node: `palisade node --config FILE --id N [--log-level L] [--log-format F] [--log-color W]`.
// Exits 1 with one clear line when the config or the data directory cannot be used, and
// when a durable write fails (restarted, the node recovers from disk). SIGINT and SIGTERM
// stop it gracefully. bin/palisade.mjs calls runNode() in its own process (so the pid a
// supervisor records is the node's); run directly, this module runs it with its own argv.
import { setFlagsFromString } from "node:v8";
import { Command, Option } from "commander";
import { ConfigError, loadClusterConfig, nodeConfig, type NodeConfig } from "../config/index.ts";
import { StorageError } from "../storage/errors.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { PalisadeNode } from "../server/node.ts";
import { isEntryPoint } from "../util/entry-point.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
/** A graceful stop that takes longer than this ends the process anyway. */
const STOP_DEADLINE_MS = 10_000;

const LOG_FORMATS = ["auto", "json", "pretty"] as const;
type LogFormat = (typeof LOG_FORMATS)[number];
const LOG_COLORS = ["auto", "always", "never"] as const;
type LogColor = (typeof LOG_COLORS)[number];

interface Options {
  config: string;
  id: string;
  logLevel?: LogLevel;
  logFormat: LogFormat;
  logColor: LogColor;
  join?: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const program = new Command("palisade node")
    .description("Run one node of a Palisade lock-service cluster.")
    .requiredOption("-c, --config <file>", "cluster file (JSON) shared by every node")
    .requiredOption("-i, --id <n>", "this node's id in the cluster file")
    .option(
      "--join",
      "join a running cluster (after `palisadectl member add`): with an empty data directory, learn the membership from the leader",
    )
    .addOption(
      new Option(
        "-l, --log-level <level>",
        "minimum log level (default $PALISADE_LOG_LEVEL or info)",
      ).choices(LOG_LEVELS),
    )
    .addOption(
      new Option(
        "--log-format <format>",
        "pretty text (one line per event), JSON lines, or auto (pretty on a terminal)",
      )
        .choices(LOG_FORMATS)
        .default("auto"),
    )
    .addOption(
      new Option(
        "--log-color <when>",
        "colours in pretty text: auto (on a terminal, unless $NO_COLOR is set), always, never",
      )
        .choices(LOG_COLORS)
        .default("auto"),
    )
    .addHelpText("after", "\nExample:\n  palisade node --config cluster-config/local.json --id 1\n")
    .allowExcessArguments(false);
  program.parse([...argv], { from: "user" });
  return program.opts<Options>();
}

/**
 * How far V8 lets the old generation grow past what survived the last full collection
 * before it collects again, in percent. Left to itself V8 allows up to 4× on a machine with
 * a large heap limit: with ~100 MB of live lock state that is hundreds of MB of garbage
 * held in RSS, and the ArrayBuffers of gRPC messages, freed only by a collection, pile up
 * in the C heap meanwhile. At 50% (a full collection each time the heap has grown by half)
 * the memory benchmark's leader ended at 376 MB instead of 541 MB and the followers at
 * 274–283 MB instead of 349–370 MB, for about twice as many full collections (their
 * pauses: 1.2 s instead of 0.5 s on the leader over a 40 s fill of 110,000 writes); a
 * start that replays a 1,000,000-entry log took 10.9 s instead of 8.6 s.
 * PALISADE_HEAP_GROWING_PERCENT overrides it; 0 leaves V8's own heuristic.
 */
const DEFAULT_HEAP_GROWING_PERCENT = 50;

/**
 * How much V8's young generation grows each time it fills with survivors: V8 doubles it up
 * to 16 MiB per semi-space. Loading the bundle would grow it to several MiB kept for good,
 * so bin/palisade.mjs sets 1 until the node starts (it stays at its initial 1 MiB); then
 * this applies PALISADE_SEMI_SPACE_GROWTH, by default V8's own 2. At 1 throughout, a busy
 * node is smaller but scavenges more often and moves more objects to the old generation,
 * for more CPU per request (the figures are in bench/README.md, Memory). The flag is read
 * at each scavenge, unlike the size limits (read once, at start), so it can be set at run
 * time.
 */
const DEFAULT_SEMI_SPACE_GROWTH = 2;

/** An integer setting from the environment, or the process exits naming it. */
function envInteger(name: string, fallback: number, max: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    process.stderr.write(`palisade: ${name} must be an integer from 0 to ${max}, got "${text}"\n`);
    process.exit(1);
  }
  return value;
}

/** One line for an operator: what is wrong and where. */
function describe(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof StorageError) return `data directory problem: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs a node with `argv` (the options after `palisade node`) until a signal stops the process. */
export async function runNode(argv: readonly string[]): Promise<void> {
  const opts = parseArgs(argv);
  // Read by V8 at each full collection, so setting it now, before the state is loaded, applies.
  const growing = envInteger("PALISADE_HEAP_GROWING_PERCENT", DEFAULT_HEAP_GROWING_PERCENT, 1000);
  if (growing > 0) setFlagsFromString(`--heap-growing-percent=${growing}`);
  const semiSpaceGrowth = envInteger("PALISADE_SEMI_SPACE_GROWTH", DEFAULT_SEMI_SPACE_GROWTH, 16);
  setFlagsFromString(
    `--semi-space-growth-factor=${semiSpaceGrowth > 0 ? semiSpaceGrowth : DEFAULT_SEMI_SPACE_GROWTH}`,
  );
  let cfg: NodeConfig;
  try {
    cfg = nodeConfig(loadClusterConfig(opts.config), opts.id);
  } catch (error) {
    process.stderr.write(`palisade: ${describe(error)}\n`);
    process.exit(1);
  }
  let node: PalisadeNode | null = null;
  const human =
    opts.logFormat === "auto" ? process.stdout.isTTY === true : opts.logFormat === "pretty";
  const color =
    opts.logColor === "auto"
      ? process.stdout.isTTY === true && !process.env.NO_COLOR
      : opts.logColor === "always";
  // Loaded only for human-readable output: a node writing JSON lines does without it.
  const destination = human
    ? (await import("../util/pretty-log.ts")).prettyStream({ color })
    : undefined;
  const logger: Logger = createLogger({
    nodeId: cfg.self.id,
    clusterId: cfg.clusterId,
    level: opts.logLevel,
    ...(destination ? { destination } : {}),
    term: () => node?.host.term,
  });
  const exitFatal = (error: unknown): never => {
    logger.fatal(`cannot continue: ${describe(error)}`);
    process.exit(1);
  };
  try {
    node = await PalisadeNode.start(cfg, { logger, onFatal: exitFatal, join: opts.join === true });
  } catch (error) {
    exitFatal(error);
  }
  logger.info(
    {
      clientAddress: cfg.self.clientAddress,
      peerAddress: cfg.self.peerAddress,
      dataDir: cfg.self.dataDir,
    },
    `node ${cfg.self.id} serving clients on ${cfg.self.clientAddress}, peers on ${cfg.self.peerAddress}`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A terminal's Ctrl-C reaches every process of the group, so a supervisor's SIGTERM
    // may follow at once: repeats are ignored, and the stop is bounded instead.
    if (stopping) {
      logger.info(`${signal} received while stopping; still stopping`);
      return;
    }
    stopping = true;
    logger.info(`${signal} received: stopping`);
    setTimeout(() => {
      logger.error(`stop did not finish within ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    const started = node;
    void (started ? started.stop() : Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (isEntryPoint(import.meta.url)) void runNode(process.argv.slice(2));
