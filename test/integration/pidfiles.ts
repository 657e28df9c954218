// Bookkeeping of the node processes and folders the integration tests create, kept under
// os.tmpdir()/palisade-it so a later run can clean up after a run that died.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../../chaos/fault/registry.ts";

export const IT_ROOT = join(tmpdir(), "palisade-it");
const PID_DIR = join(IT_ROOT, "pids");

/** What a pidfile records: the node process and the test process that owns it. */
interface PidRecord {
  pid: number;
  owner: number;
  dir: string;
}

export function ensureRoot(): void {
  mkdirSync(PID_DIR, { recursive: true });
}

export function recordPid(pid: number, dir: string): void {
  ensureRoot();
  const record: PidRecord = { pid, owner: process.pid, dir };
  writeFileSync(join(PID_DIR, `${pid}.json`), JSON.stringify(record));
}

export function forgetPid(pid: number): void {
  try {
    unlinkSync(join(PID_DIR, `${pid}.json`));
  } catch {
    // Already gone.
  }
}

/** Writes the owner of a cluster folder, so a cleanup knows whether the folder is stale. */
export function recordOwner(dir: string): void {
  writeFileSync(join(dir, "owner.json"), JSON.stringify({ owner: process.pid }));
}

/** True only if the process's command line is a Palisade node (a reused pid is left alone). */
function isPalisadeNode(pid: number): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    // The sources run by the harness, the `palisade` bin (from the repository or an installed
    // package), or `npm start`'s supervisor, which would otherwise start its nodes again.
    return (
      cmdline.includes("node/cli/main.ts") ||
      /\/bin\/palisade(\.mjs)?\0node\0/.test(cmdline) ||
      /\/scripts\/start-local\.(js|ts)\0/.test(cmdline)
    );
  } catch {
    // No /proc (not Linux): trust the pidfile.
    return !existsSync("/proc") && processAlive(pid);
  }
}

/**
 * Kills node processes whose owning test process is gone, and removes cluster folders
 * whose owner is gone. Processes and folders of a run still alive are left alone.
 */
export function cleanupLeftovers(): { killed: number[]; removed: string[] } {
  ensureRoot();
  const killed: number[] = [];
  const removed: string[] = [];
  for (const file of readdirSync(PID_DIR)) {
    const path = join(PID_DIR, file);
    let record: PidRecord;
    try {
      record = JSON.parse(readFileSync(path, "utf8")) as PidRecord;
    } catch {
      rmSync(path, { force: true });
      continue;
    }
    if (processAlive(record.owner)) continue;
    if (processAlive(record.pid) && isPalisadeNode(record.pid)) {
      try {
        process.kill(record.pid, "SIGKILL");
        killed.push(record.pid);
      } catch {
        // Exited meanwhile.
      }
    }
    rmSync(path, { force: true });
  }
  for (const entry of readdirSync(IT_ROOT)) {
    if (!entry.startsWith("cluster-")) continue;
    const dir = join(IT_ROOT, entry);
    let owner = 0;
    try {
      owner = (JSON.parse(readFileSync(join(dir, "owner.json"), "utf8")) as { owner: number })
        .owner;
    } catch {
      // No owner file: a folder from a run that died while creating it.
    }
    if (owner !== 0 && processAlive(owner)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return { killed, removed };
}
