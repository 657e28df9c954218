// The throughput harness's merge of what several client processes recorded: figures from
// the samples of all of them inside one window, Jain's index over every worker, and the
// mutual-exclusion and fence checks across processes; and the workers' own records, run
// as two groups against an in-memory lock that is correct or that grants to two at once.
import { describe, expect, it } from "vitest";
import type { LockBackend } from "../../../bench/backends/backend.ts";
import { checkHolds, jainIndex, mergeParts } from "../../../bench/lock-merge.ts";
import {
  emptyCycleLog,
  sharedClock,
  type Hold,
  type Window,
  type WorkerPart,
} from "../../../bench/lock-part.ts";
import { LocalWorkers, sleep, splitPlans, type WorkerPlan } from "../../../bench/lock-workers.ts";

const WINDOW: Window = { startMs: 1_000, stopMs: 3_000 };

/** A cycle: worker, acquire sent, acquired, release returned (released = acquired). */
type Cycle = [worker: number, start: number, acquired: number, end: number];

function part(first: number, count: number, cycles: Cycle[], holds: Hold[] = []): WorkerPart {
  const log = emptyCycleLog();
  for (const [w, start, acquired, end] of cycles) {
    log.worker.push(w);
    log.start.push(start);
    log.acquired.push(acquired);
    log.released.push(acquired);
    log.end.push(end);
  }
  return {
    first,
    count,
    cycles: log,
    holds,
    failedTriesByMs: [],
    timeouts: 0,
    errors: 0,
    errorSamples: {},
    cpuMs: 500,
    cpuSpanMs: 2_000,
    drained: true,
  };
}

const hold = (worker: number, startMs: number, endMs: number, fence: bigint | null): Hold => ({
  worker,
  startMs,
  endMs,
  fence,
});

describe("merging the parts of a throughput run", () => {
  it("takes percentiles from all processes' samples together, not from each process's figures", () => {
    // Process A: acquires of 1, 2 and 3 ms; process B: one of 100 ms. Merged, the p50 is
    // 2 ms; an average of each process's p50 would be 51 ms.
    const a = part(0, 2, [
      [0, 1_100, 1_101, 1_102],
      [1, 1_200, 1_202, 1_203],
      [0, 1_300, 1_303, 1_304],
    ]);
    const b = part(2, 2, [[2, 1_400, 1_500, 1_501]]);
    const m = mergeParts([a, b], WINDOW, 4, false);
    expect(m.acquire_ms.p50).toBe(2);
    expect(m.acquire_ms.p99).toBe(100);
    expect(m.acquire_ms.max).toBe(100);
    expect(m.acquire_ms.mean).toBe(26.5);
    expect(m.client_procs).toBe(2);
    expect(m.client_cpu_pct).toBe(50);
  });

  it("counts the cycles whose release returned inside the window, over the window's length", () => {
    const a = part(0, 1, [
      [0, 900, 950, 990], // ended before the window
      [0, 990, 995, 1_010], // began before, ended inside: counted
      [0, 2_990, 2_995, 3_000], // ended at the window's end: not counted
    ]);
    const b = part(1, 1, [[1, 1_500, 1_501, 1_502]]);
    const m = mergeParts([a, b], WINDOW, 2, false);
    expect(m.cycles).toBe(2);
    expect(m.seconds).toBe(2);
    expect(m.cycles_per_s).toBe(1);
    expect(m.acquire_ms.max).toBe(5);
  });

  it("computes Jain's index over every worker of every process", () => {
    // A's workers 0 and 1 did 2 cycles each (even within A); B's worker 2 did 4, worker 3
    // none. Over all four: 8² / (4 · 24) = 0.667; the mean of the two processes' indexes
    // would be 0.75.
    const at = (w: number, t: number): Cycle => [w, t, t + 1, t + 2];
    const a = part(0, 2, [at(0, 1_100), at(0, 1_200), at(1, 1_100), at(1, 1_200)]);
    const b = part(2, 2, [at(2, 1_100), at(2, 1_200), at(2, 1_300), at(2, 1_400)]);
    const m = mergeParts([a, b], WINDOW, 4, false);
    expect(m.per_worker_cycles).toEqual({ min: 0, max: 4, jain: 0.667 });
    expect(m.workers_served).toBe(3);
    expect(jainIndex([3, 3, 3])).toBe(1);
  });

  it("finds two processes' holds of the contended lock that overlap", () => {
    const a = part(0, 1, [], [hold(0, 1_100, 1_120, 1n), hold(0, 1_300, 1_310, 4n)]);
    const b = part(1, 1, [], [hold(1, 1_115, 1_130, 2n), hold(1, 1_200, 1_210, 3n)]);
    const m = mergeParts([a, b], WINDOW, 2, true);
    expect(m.mutex_violations).toBe(1);
    expect(m.fence_regressions).toBe(0);
    // The same holds one after the other pass.
    const apart = part(1, 1, [], [hold(1, 1_120, 1_130, 2n), hold(1, 1_200, 1_210, 3n)]);
    expect(mergeParts([a, apart], WINDOW, 2, true).mutex_violations).toBe(0);
  });

  it("finds fencing tokens out of order across processes, and counts handoffs in the window", () => {
    const holds = [
      hold(0, 900, 950, 1n), // before the window: checked, not a handoff in it
      hold(1, 1_000, 1_010, 2n),
      hold(1, 1_020, 1_030, 3n), // the same worker again: no handoff
      hold(0, 1_040, 1_050, 3n), // token not above the one before
      hold(1, 3_000, 3_010, 5n), // after the window
    ];
    expect(checkHolds(holds, WINDOW)).toEqual({
      violations: 0,
      fenceRegressions: 1,
      handoffs: 2,
    });
  });

  it("splits the workers over processes, each worker in exactly one", () => {
    const base = {
      prefix: "p",
      mode: "contended" as const,
      holdMs: 0,
      retryDelayMs: 5,
      retryJitterMs: 5,
      acquireTimeoutMs: 1_000,
    };
    const plans = splitPlans(base, 1_024, 3);
    expect(plans.map((p) => [p.first, p.count])).toEqual([
      [0, 341],
      [341, 341],
      [682, 342],
    ]);
    expect(splitPlans(base, 2, 4).map((p) => p.count)).toEqual([1, 1]);
  });
});

/**
 * One lock shared by two groups of workers, as two processes share a server. Correct: a
 * second acquire waits until it is released, and each grant has the next token. Broken:
 * every acquire is granted at once, with a token counted per group.
 */
function sharedLock(correct: boolean): (group: number) => LockBackend<number, null> {
  let held = false;
  let token = 0n;
  const tokens = [0n, 0n];
  return (group) => ({
    info: {},
    fencing: "test",
    session: async (w) => w,
    async acquire(_session, _lock, signal) {
      while (correct && held) if (!(await sleep(1, signal))) return null;
      held = true;
      const fence = correct ? ++token : ++tokens[group]!;
      return { handle: null, fence };
    },
    async release() {
      held = false;
      await sleep(0);
    },
    async close() {},
  });
}

async function runTwoGroups(correct: boolean): Promise<WorkerPart[]> {
  const clock = sharedClock(process.hrtime.bigint());
  const backendOf = sharedLock(correct);
  const base: Omit<WorkerPlan, "first" | "count"> = {
    prefix: "t",
    mode: "contended",
    holdMs: 3,
    retryDelayMs: 1,
    retryJitterMs: 1,
    acquireTimeoutMs: 5_000,
  };
  const groups = await Promise.all(
    splitPlans(base, 4, 2).map((plan, g) => LocalWorkers.open(backendOf(g), plan, clock)),
  );
  groups.forEach((g) => g.start());
  const startMs = clock() + 20;
  // Long enough for both groups to hold the lock on a loaded machine (npm test runs files side by side).
  const window = { startMs, stopMs: startMs + 1_000 };
  return Promise.all(groups.map((g) => g.measure(window)));
}

describe("the workers' records across two groups", () => {
  it("show no overlap and increasing tokens on a correct lock", async () => {
    const parts = await runTwoGroups(true);
    const holds = parts.flatMap((p) => p.holds);
    // Holds of both groups (workers 0-1 in one process, 2-3 in the other) are checked together.
    const workers = new Set(holds.map((h) => h.worker));
    expect([0, 1].some((w) => workers.has(w)) && [2, 3].some((w) => workers.has(w))).toBe(true);
    expect(checkHolds(holds, { startMs: 0, stopMs: Infinity })).toMatchObject({
      violations: 0,
      fenceRegressions: 0,
    });
    expect(parts.every((p) => p.drained)).toBe(true);
  });

  it("show the overlaps and token regressions of a lock that grants to two at once", async () => {
    const parts = await runTwoGroups(false);
    const check = checkHolds(
      parts.flatMap((p) => p.holds),
      { startMs: 0, stopMs: Infinity },
    );
    expect(check.violations).toBeGreaterThan(0);
    expect(check.fenceRegressions).toBeGreaterThan(0);
  });
});
