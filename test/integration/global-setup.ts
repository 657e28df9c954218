// Before the integration tests run: kill node processes, remove cluster folders and tear
// down network-namespace labs left by an earlier run that died (its test process is gone),
// and bring dist/ up to date. After the run: the same cleanup, for anything a crashed test
// worker of this run left behind.
import { cleanStaleLabs } from "../../chaos/fault/registry.ts";
import { ensureBuilt } from "./built.ts";
import { cleanupLeftovers } from "./pidfiles.ts";

async function cleanup(when: string): Promise<void> {
  const { killed, removed } = cleanupLeftovers();
  // Only root builds labs; for anyone else there is nothing to clean.
  const labs = process.getuid?.() === 0 ? await cleanStaleLabs() : [];
  if (killed.length > 0 || removed.length > 0 || labs.length > 0) {
    console.warn(
      `palisade integration (${when}): killed ${killed.length} leftover node(s), removed ${removed.length} stale folder(s), tore down ${labs.length} stale namespace lab(s)`,
    );
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  await cleanup("before the run");
  ensureBuilt();
  return () => cleanup("after the run");
}
