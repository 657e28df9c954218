// Which process owns which lab, in /run/palisade-netns/NAME.json. A claim is exclusive (the
// record is created with O_EXCL); a record whose owner is gone marks a lab left by a run
// that died, which the next claim of that name, or cleanStaleLabs, tears down.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LabSpec } from "./lab-spec.ts";
import { destroyLab } from "./topology.ts";

export const REGISTRY_DIR = process.env.PALISADE_NETNS_REGISTRY ?? "/run/palisade-netns";

interface LabRecord {
  owner: number;
  spec: LabSpec;
}

const recordPath = (name: string): string => join(REGISTRY_DIR, `${name}.json`);

/** Whether process `pid` exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readRecord(name: string): LabRecord | undefined {
  try {
    return JSON.parse(readFileSync(recordPath(name), "utf8")) as LabRecord;
  } catch {
    return undefined;
  }
}

function tryCreate(spec: LabSpec): boolean {
  try {
    writeFileSync(
      recordPath(spec.name),
      JSON.stringify({ owner: process.pid, spec } satisfies LabRecord),
      { flag: "wx" },
    );
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/**
 * Claims `spec.name` for this process. A live owner's claim stands (false); a dead owner's
 * lab is torn down and the claim taken over.
 */
export async function claimLab(spec: LabSpec): Promise<boolean> {
  mkdirSync(REGISTRY_DIR, { recursive: true });
  if (tryCreate(spec)) return true;
  const held = readRecord(spec.name);
  if (held && held.owner !== process.pid && processAlive(held.owner)) return false;
  if (held) await destroyLab(held.spec);
  rmSync(recordPath(spec.name), { force: true });
  return tryCreate(spec);
}

/** Drops this process's claim (after the lab is torn down). */
export function releaseLab(name: string): void {
  if (readRecord(name)?.owner === process.pid) rmSync(recordPath(name), { force: true });
}

/** Tears down every lab whose owner is gone; returns their names. */
export async function cleanStaleLabs(): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(REGISTRY_DIR).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  const cleaned: string[] = [];
  for (const file of files) {
    const name = file.slice(0, -".json".length);
    const record = readRecord(name);
    if (record && processAlive(record.owner)) continue;
    if (record) await destroyLab(record.spec);
    rmSync(recordPath(name), { force: true });
    cleaned.push(name);
  }
  return cleaned;
}
