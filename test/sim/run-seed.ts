// One seed of the full simulation: the Raft run, then the lock workload run (its own
// derived seed stream), with their stats merged.
import { runLockSeed } from "./lock-run.ts";
import { runRaftSeed, type SeedResult } from "./raft-run.ts";

export async function runSeed(seed: number, verbose = false): Promise<SeedResult> {
  const raft = await runRaftSeed(seed, {}, verbose);
  const lock = await runLockSeed(seed, {}, verbose);
  return {
    seed,
    ok: raft.ok && lock.ok,
    violations: [...raft.violations, ...lock.violations.map((v) => `lock run: ${v}`)],
    hash: `${raft.hash}-${lock.hash}`,
    options: raft.options,
    stats: { ...raft.stats, ...lock.stats },
    trace: raft.trace && lock.trace ? [...raft.trace, "--- lock run", ...lock.trace] : undefined,
  };
}
