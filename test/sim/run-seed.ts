// One seed of the full simulation.
import { runRaftSeed, type SeedResult } from "./raft-run.ts";

export async function runSeed(seed: number, verbose = false): Promise<SeedResult> {
  return runRaftSeed(seed, {}, verbose);
}
