// `npm run model`: checks every SPIN model in models/ exhaustively. For each run it generates
// the verifier (spin -a), compiles it, runs it, and checks that a clean model violates
// nothing and that each mutant violates its named property with a trail. Then it replays
// random simulations of the exactly-once model on the state machine (conformance.ts) and of
// the session model on the lease keeper (lease-conformance.ts) and on the client's Session
// (session-conformance.ts).
// Two runs at a time (the machine has two cores). Last line: "N passed, M failed".
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parsePanOutput, trailSteps, type PanResult } from "./pan-output.ts";
import { RUNS, type ModelRun } from "./runs.ts";
import { exactlyOnceReplay } from "./conformance.ts";
import { leaseReplay } from "./lease-conformance.ts";
import { sessionReplay } from "./session-conformance.ts";
import { replaySeeds } from "./trace-runs.ts";

const exec = promisify(execFile);
const MODELS = resolve(import.meta.dirname, "../../models");
/** Search depth pan may use; the models stay far below it. */
const MAX_DEPTH = 200_000;

interface Outcome {
  readonly run: ModelRun;
  readonly result: PanResult | null;
  readonly trail: number | null;
  readonly problem: string | null;
}

function label(run: ModelRun): string {
  return run.mutant ? `${run.model} -D${run.mutant}` : run.model;
}

async function verify(run: ModelRun): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), "palisade-model-"));
  try {
    await copyFile(join(MODELS, run.model), join(dir, run.model));
    const defines = run.mutant ? [`-D${run.mutant}`] : [];
    await exec("spin", [...defines, "-a", run.model], { cwd: dir });
    await exec("gcc", ["-w", "-O2", "-DSAFETY", "-o", "pan", "pan.c"], { cwd: dir });
    // pan exits 0 whether or not it found a violation: the output says which.
    const { stdout } = await exec("./pan", ["-E", `-m${MAX_DEPTH}`], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = parsePanOutput(stdout);
    let trail: number | null = null;
    try {
      trail = trailSteps(await readFile(join(dir, `${run.model}.trail`), "utf8"));
    } catch {
      trail = null;
    }
    let problem: string | null = null;
    if (/search depth too small/i.test(stdout)) problem = "search depth too small";
    else if (!run.fails && result.errors > 0)
      problem = `violates ${result.violated ?? "a property"}`;
    else if (run.fails && result.violated !== run.fails)
      problem = `expected ${run.fails} to fail, got ${result.violated ?? "no violation"}`;
    else if (run.fails && !trail) problem = "no trail written";
    return { run, result, trail, problem };
  } catch (error) {
    return { run, result: null, trail: null, problem: String(error) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function report(o: Outcome): void {
  const r = o.result;
  const figures = r
    ? `states ${r.states}, depth ${r.depth}, memory ${r.memoryMb.toFixed(1)} MB, time ${r.seconds} s` +
      (o.trail !== null ? `, trail ${o.trail} steps` : "")
    : "";
  const verdict = o.problem
    ? `FAIL (${o.problem})`
    : o.run.fails
      ? `ok: fails ${o.run.fails}`
      : "ok: no violation";
  console.log(`${label(o.run).padEnd(46)} ${verdict}${figures ? `  [${figures}]` : ""}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const queue = [...RUNS];
  const outcomes: Outcome[] = [];
  const worker = async (): Promise<void> => {
    for (let run = queue.shift(); run; run = queue.shift()) {
      const o = await verify(run);
      report(o);
      outcomes.push(o);
    }
  };
  await Promise.all([worker(), worker()]);
  const conformance = [
    await replaySeeds(MODELS, exactlyOnceReplay),
    await replaySeeds(MODELS, leaseReplay),
    await replaySeeds(MODELS, sessionReplay),
  ];
  const failed =
    outcomes.filter((o) => o.problem !== null).length + conformance.filter((c) => !c.ok).length;
  const passed = outcomes.length + conformance.length - failed;
  console.log(`model: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
