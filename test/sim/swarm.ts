// Runs a range of simulation seeds as vitest tests, one test per seed (so no single test
// runs long on a loaded machine); a failure names the seed and the command that
// reproduces it.
import { expect, it } from "vitest";
import { describeOptions } from "./options.ts";
import { runSeed } from "./run-seed.ts";

export function swarm(from: number, to: number): void {
  for (let seed = from; seed <= to; seed++) {
    it(`seed ${seed} keeps every invariant and recovers after healing`, async () => {
      const r = await runSeed(seed);
      const why = `seed ${seed} (${describeOptions(r.options)}): ${r.violations.join("; ")}\n  reproduce: npm run sim -- --seed ${seed} --verbose`;
      expect(r.ok, why).toBe(true);
    });
  }
}
