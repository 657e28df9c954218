// npm run sim -- --seeds N | --seed S [--verbose] [--check-determinism]
// Runs seeded simulations; prints each failing seed with the command that reproduces it,
// then summary lines, and last `N passed, M failed`. Exits non-zero on any failure.
import { Command } from "commander";
import { describeOptions } from "./options.ts";
import { LOCK_SUMMARY_KEYS } from "./lock-run.ts";
import { runSeed } from "./run-seed.ts";

const program = new Command()
  .name("sim")
  .option("--seeds <n>", "run seeds 1..n", (v) => Number.parseInt(v, 10))
  .option("--seed <s>", "run one seed", (v) => Number.parseInt(v, 10))
  .option("--from <s>", "first seed for --seeds", (v) => Number.parseInt(v, 10), 1)
  .option("--verbose", "print the trace of a single seed")
  .option("--check-determinism", "run every seed twice and compare trace hashes")
  .parse();
const o = program.opts<{
  seeds?: number;
  seed?: number;
  from: number;
  verbose?: boolean;
  checkDeterminism?: boolean;
}>();

const seeds: number[] =
  o.seed !== undefined ? [o.seed] : Array.from({ length: o.seeds ?? 20 }, (_, i) => o.from + i);
let passed = 0;
let failed = 0;
const totals: Record<string, number> = {};
for (const seed of seeds) {
  const r = await runSeed(seed, o.verbose === true && seeds.length === 1);
  if (r.trace) for (const line of r.trace) console.log(line);
  let ok = r.ok;
  if (ok && o.checkDeterminism) {
    const again = await runSeed(seed, false);
    if (again.hash !== r.hash) {
      ok = false;
      r.violations.push(`nondeterministic: trace hash ${r.hash} then ${again.hash}`);
    }
  }
  // Counts add up over the seeds; a "max…" figure is the largest of any seed.
  for (const [k, v] of Object.entries(r.stats))
    totals[k] = k.startsWith("max") ? Math.max(totals[k] ?? 0, v) : (totals[k] ?? 0) + v;
  if (ok) {
    passed++;
    if (seeds.length === 1)
      console.log(`seed ${seed} ok hash=${r.hash} ${describeOptions(r.options)}`);
  } else {
    failed++;
    console.log(`FAIL seed ${seed}: ${describeOptions(r.options)}`);
    for (const v of r.violations) console.log(`  ${v}`);
    console.log(`  reproduce: npm run sim -- --seed ${seed} --verbose`);
  }
}
console.log(
  `summary: ${Object.entries(totals)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ")}`,
);
console.log(`lock workload: ${LOCK_SUMMARY_KEYS.map((k) => `${k}=${totals[k] ?? 0}`).join(" ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
