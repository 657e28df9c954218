// `palisade restore --backup FILE --config NEW.json [--epoch N] [--id N]`: seeds the data
// directories of a new cluster from a backup. The new cluster has its own cluster id (peers
// of the old cluster are dropped), a token epoch above the backup's (so its tokens exceed
// every token the old cluster issued), no sessions, and the old lock history.
//
// Each node's store gets the transformed state as a snapshot at the backup's index, and a
// hard state with the backup's term and commit = that index; the membership is the new
// cluster file's nodes. The data directories must be empty or absent.
import { existsSync, readdirSync } from "node:fs";
import { Command } from "commander";
import { BackupFileError, readBackupFile } from "../../proto/backup-format.ts";
import { ConfigError, loadClusterConfig } from "../config/index.ts";
import { SnapshotError } from "../lock/index.ts";
import {
  chooseRestoreEpoch,
  EPOCH_RULE,
  restoreFromBackup,
  RestoreRefusedError,
} from "../lock/restore.ts";
import { StorageError } from "../storage/errors.ts";
import { LevelStorage } from "../storage/level-storage.ts";
import { isEntryPoint } from "../util/entry-point.ts";

export interface RestoreOptions {
  /** Backup file written by `palisadectl snapshot save`. */
  readonly backup: string;
  /** Cluster file of the new cluster. */
  readonly config: string;
  /** Token epoch to use; must be at least the backup's epoch + 1. */
  readonly epoch?: number;
  /** Seed only this node's data directory (one host of a multi-host cluster); default: every node in the file. */
  readonly id?: number;
  /** Display time for the history records of grants the restore ends (default: now). */
  readonly wallMs?: number;
}

export interface RestoreResult {
  readonly fromClusterId: string;
  readonly clusterId: string;
  readonly index: number;
  readonly term: number;
  readonly backupEpoch: number;
  readonly epoch: number;
  readonly droppedSessions: number;
  readonly endedGrants: number;
  readonly droppedWaiters: number;
  readonly seeded: ReadonlyArray<{ readonly id: number; readonly dataDir: string }>;
}

/** Thrown for anything that stops a restore; its message is one line for the operator. */
export class RestoreError extends Error {
  override readonly name = "RestoreError";
}

function safeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RestoreError(`the backup's ${what} ${value} is out of range`);
  return Number(value);
}

function isEmptyDir(dir: string): boolean {
  if (!existsSync(dir)) return true;
  // A mount point may hold lost+found and nothing else.
  return readdirSync(dir).every((name) => name === "lost+found");
}

/** Seeds the new cluster's data directories; nothing is written unless every check passes. */
export async function restoreCluster(options: RestoreOptions): Promise<RestoreResult> {
  let backup;
  let cfg;
  try {
    backup = readBackupFile(options.backup);
    cfg = loadClusterConfig(options.config);
  } catch (err) {
    if (err instanceof BackupFileError || err instanceof ConfigError)
      throw new RestoreError(err.message, { cause: err });
    throw err;
  }
  const { meta } = backup;
  if (cfg.clusterId === meta.clusterId) {
    throw new RestoreError(
      `the new cluster file uses cluster id "${cfg.clusterId}", the id of the backed-up cluster: a restored cluster needs a new cluster id, so that nodes of the old cluster are refused`,
    );
  }
  const index = safeNumber(meta.index, "index");
  const term = safeNumber(meta.term, "term");
  const backupEpoch = safeNumber(meta.epoch, "epoch");
  let epoch: number;
  try {
    epoch = chooseRestoreEpoch(backupEpoch, options.epoch);
  } catch (err) {
    if (err instanceof RestoreRefusedError) throw new RestoreError(err.message, { cause: err });
    throw err;
  }
  const nodes = options.id === undefined ? cfg.nodes : cfg.nodes.filter((n) => n.id === options.id);
  if (nodes.length === 0) throw new RestoreError(`node ${options.id} is not in ${options.config}`);
  for (const node of nodes) {
    if (!isEmptyDir(node.dataDir)) {
      throw new RestoreError(
        `the data directory of node ${node.id}, ${node.dataDir}, is not empty: a restore seeds new, empty directories only`,
      );
    }
  }
  let state;
  try {
    state = restoreFromBackup(backup.data, epoch, options.wallMs ?? Date.now());
  } catch (err) {
    if (err instanceof RestoreRefusedError || err instanceof SnapshotError)
      throw new RestoreError(err.message, { cause: err });
    throw err;
  }
  if (state.index !== index)
    throw new RestoreError(
      `the backup's metadata names index ${index} but its state is at index ${state.index}`,
    );

  const membership = { voters: cfg.nodes.map((n) => n.id), learners: [] };
  const seeded: Array<{ id: number; dataDir: string }> = [];
  for (const node of nodes) {
    let storage: LevelStorage;
    try {
      storage = await LevelStorage.open({
        dir: node.dataDir,
        clusterId: cfg.clusterId,
        nodeId: node.id,
        reserveBytes: 0,
      });
    } catch (err) {
      throw new RestoreError(
        `cannot create the store of node ${node.id}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    try {
      await storage.save(
        {
          snapshot: { meta: { index, term, membership }, data: state.data },
          hardState: { term, vote: 0, commit: index },
        },
        true,
      );
    } catch (err) {
      if (err instanceof StorageError)
        throw new RestoreError(`seeding node ${node.id} failed: ${err.message}`, { cause: err });
      throw err;
    } finally {
      await storage.close();
    }
    seeded.push({ id: node.id, dataDir: node.dataDir });
  }
  return {
    fromClusterId: meta.clusterId,
    clusterId: cfg.clusterId,
    index,
    term,
    backupEpoch,
    epoch: state.epoch,
    droppedSessions: state.droppedSessions,
    endedGrants: state.endedGrants,
    droppedWaiters: state.droppedWaiters,
    seeded,
  };
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Output = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
};

function parseInteger(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error(`expected a non-negative integer, got "${text}"`);
  return Number(text.trim());
}

/** `palisade restore ...`; resolves with the exit code (0 done, 1 refused or failed). */
export async function restoreMain(argv: readonly string[], io: Output = stdio): Promise<number> {
  const program = new Command("palisade restore")
    .description(
      "Seed the data directories of a NEW cluster from a backup (palisadectl snapshot save).",
    )
    .requiredOption("-b, --backup <file>", "backup file")
    .requiredOption(
      "-c, --config <file>",
      "cluster file of the new cluster (a cluster id of its own, empty data directories)",
    )
    .option(
      "--epoch <n>",
      "token epoch (default: the backup's epoch + 1; must be above every epoch used)",
      parseInteger,
    )
    .option(
      "-i, --id <n>",
      "seed only this node's data directory (run it on each host)",
      parseInteger,
    )
    .addHelpText(
      "after",
      `\nRule: ${EPOCH_RULE}.\n\nExample:\n  palisade restore --backup backup.palisade --config cluster-config/restored.json\n`,
    )
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.out(t.trimEnd()),
      writeErr: (t) => io.err(t.trimEnd()),
    });
  let opts: { backup: string; config: string; epoch?: number; id?: number };
  try {
    program.parse([...argv], { from: "user" });
    opts = program.opts();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === "commander.helpDisplayed" || code === "commander.help" ? 0 : 1;
  }
  try {
    const r = await restoreCluster(opts);
    io.out(
      `backup of cluster "${r.fromClusterId}" at index ${r.index} (term ${r.term}, token epoch ${r.backupEpoch})`,
    );
    io.out(
      `new cluster "${r.clusterId}": token epoch ${r.epoch}${opts.epoch === undefined ? " (the backup's epoch + 1)" : " (from --epoch)"}`,
    );
    io.out(`rule: ${EPOCH_RULE}`);
    io.out(
      `dropped ${r.droppedSessions} sessions, ${r.endedGrants} grants and ${r.droppedWaiters} waiters with them; lock history kept`,
    );
    for (const s of r.seeded) io.out(`seeded node ${s.id}: ${s.dataDir}`);
    return 0;
  } catch (err) {
    io.err(`palisade restore: ${(err as Error).message}`);
    if (err instanceof RestoreError && /epoch/.test(err.message)) io.err(`rule: ${EPOCH_RULE}`);
    return 1;
  }
}

if (isEntryPoint(import.meta.url)) {
  process.exit(await restoreMain(process.argv.slice(2)));
}
