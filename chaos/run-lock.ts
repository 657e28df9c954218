// One chaos run at a time on a host: the namespaces, bridge and address range are shared,
// and a second run's start-up cleanup (or its teardown) would destroy the first run's.
import { readFileSync, rmSync, writeFileSync } from "node:fs";

const LOCK_FILE = "/run/palisade-chaos.pid";

function isChaosRun(pid: number): boolean {
  try {
    // The suite runs from its build (dist/chaos/run.js); a run of the sources counts too.
    return /chaos\/run\.(ts|js)\0/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch {
    return false;
  }
}

/** Takes the lock; the pid of a live run holding it otherwise. */
export function takeRunLock(): number | undefined {
  try {
    const holder = Number(readFileSync(LOCK_FILE, "utf8").trim());
    if (holder !== process.pid && isChaosRun(holder)) return holder;
  } catch {
    // no lock file
  }
  writeFileSync(LOCK_FILE, `${process.pid}\n`);
  return undefined;
}

export function dropRunLock(): void {
  try {
    if (Number(readFileSync(LOCK_FILE, "utf8").trim()) === process.pid) rmSync(LOCK_FILE);
  } catch {
    // already gone
  }
}
