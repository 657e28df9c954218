// Random simulations of a model replayed on the shipped code, the harness the conformance
// checks share: seeds 1..traces split between two workers, each in a directory of its own
// (spin writes its preprocessed file into its working directory), every run's printed trace
// parsed and replayed; the first divergences are printed with their seed.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** A model whose random runs are replayed on the code, and how. */
export interface TraceReplay<E> {
  readonly model: string;
  /** What the trace is replayed on, for the summary line ("LockStateMachine"). */
  readonly on: string;
  /** What one trace line is called in the summary ("entries", "events"). */
  readonly unit: string;
  /** Prefix of a divergence line ("lease conformance"). */
  readonly label: string;
  /** spin's options besides the seed and the model (-DTRACE and the bounds). */
  readonly spinArgs: readonly string[];
  readonly maxBuffer: number;
  parse(text: string): E[];
  /** Null when the code followed the trace, else where and how it diverged. */
  replay(trace: readonly E[]): string | null | Promise<string | null>;
}

export interface TraceRunsResult {
  readonly ok: boolean;
  readonly traces: number;
  /** Trace lines replayed, over every run. */
  readonly events: number;
  readonly divergences: number;
}

/** Replays `traces` random runs (seeds 1..traces) of `runs.model`, found in `modelsDir`. */
export async function replaySeeds<E>(
  modelsDir: string,
  runs: TraceReplay<E>,
  traces = Number(process.env.MODEL_TRACES ?? 1000),
): Promise<TraceRunsResult> {
  let events = 0;
  let divergences = 0;
  let next = 1;
  const traceSeeds = async (dir: string): Promise<void> => {
    for (let seed = next++; seed <= traces; seed = next++) {
      const { stdout } = await exec("spin", [`-n${seed}`, ...runs.spinArgs, runs.model], {
        cwd: dir,
        maxBuffer: runs.maxBuffer,
      });
      const trace = runs.parse(stdout);
      events += trace.length;
      const diverged = await runs.replay(trace);
      if (diverged !== null) {
        divergences++;
        if (divergences <= 3) console.log(`${runs.label}: seed ${seed} diverges at ${diverged}`);
      }
    }
  };
  const worker = async (): Promise<void> => {
    const dir = await mkdtemp(join(tmpdir(), "palisade-trace-"));
    await copyFile(join(modelsDir, runs.model), join(dir, runs.model));
    try {
      await traceSeeds(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(
    `conformance (${runs.model} on ${runs.on}): ${traces} traces, ${events} ${runs.unit}, ${divergences} divergences`,
  );
  return { ok: divergences === 0 && events > 0, traces, events, divergences };
}
