// Runs one Palisade node: `palisade node --config FILE --id N [--log-level L]`.
// Exits 1 with one clear line when the config or the data directory cannot be used, and
// when a durable write fails (restarted, the node recovers from disk). SIGINT and SIGTERM
// stop it gracefully.
import { Command, Option } from "commander";
import { ConfigError, loadClusterConfig, nodeConfig, type NodeConfig } from "../config/index.ts";
import { StorageError } from "../storage/errors.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { PalisadeNode } from "./node.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
/** A graceful stop that takes longer than this ends the process anyway. */
const STOP_DEADLINE_MS = 10_000;

const LOG_FORMATS = ["auto", "json", "pretty"] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

interface Options {
  config: string;
  id: string;
  logLevel?: LogLevel;
  logFormat: LogFormat;
  join?: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const program = new Command("palisade node")
    .description("Run one node of a Palisade lock-service cluster.")
    .requiredOption("-c, --config <file>", "cluster file (JSON) shared by every node")
    .requiredOption("-i, --id <n>", "this node's id in the cluster file")
    .option("--join", "join a running cluster (after `palisadectl member add`): with an empty data directory, learn the membership from the leader")
    .addOption(new Option("-l, --log-level <level>", "minimum log level (default $PALISADE_LOG_LEVEL or info)").choices(LOG_LEVELS))
    .addOption(new Option("--log-format <format>", "pretty text, JSON lines, or auto (pretty on a terminal)").choices(LOG_FORMATS).default("auto"))
    .addHelpText("after", "\nExample:\n  palisade node --config cluster-config/local.json --id 1\n")
    .allowExcessArguments(false);
  program.parse([...argv], { from: "user" });
  return program.opts<Options>();
}

/** One line for an operator: what is wrong and where. */
function describe(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof StorageError) return `data directory problem: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  let cfg: NodeConfig;
  try {
    cfg = nodeConfig(loadClusterConfig(opts.config), opts.id);
  } catch (error) {
    process.stderr.write(`palisade: ${describe(error)}\n`);
    process.exit(1);
  }
  let node: PalisadeNode | null = null;
  const logger: Logger = createLogger({
    nodeId: cfg.self.id,
    clusterId: cfg.clusterId,
    level: opts.logLevel,
    pretty: opts.logFormat === "auto" ? undefined : opts.logFormat === "pretty",
    term: () => node?.driver?.core.term,
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
  logger.info({ clientAddress: cfg.self.clientAddress, peerAddress: cfg.self.peerAddress, dataDir: cfg.self.dataDir },
    `node ${cfg.self.id} serving clients on ${cfg.self.clientAddress}, peers on ${cfg.self.peerAddress}`);

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

void main();
