// Runs a range of simulation seeds as vitest tests; a failure names the seed and the
// command that reproduces it.
import { expect, it } from "vitest";
import { describeOptions } from "./options.ts";
import { runSeed } from "./run-seed.ts";

export function swarm(from: number, to: number): void {
  it(`seeds ${from}..${to} keep every invariant and recover after healing`, async () => {
    const failures: string[] = [];
    for (let seed = from; seed <= to; seed++) {
      const r = await runSeed(seed);
      if (!r.ok) {
        failures.push(`seed ${seed} (${describeOptions(r.options)}): ${r.violations.join("; ")}\n  reproduce: npm run sim -- --seed ${seed} --verbose`);
      }
    }
    expect(failures).toEqual([]);
  });
}
