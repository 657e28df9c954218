// What the scripted lock tests on the simulated cluster share: a quiet cluster (no loss,
// partitions, crashes, stalls or drift unless a test makes them), running it for a span of
// simulated time with the lock checker's verdict after each, and running it until a promise
// settles.
import { expect } from "vitest";
import { LockSim } from "./lock-sim.ts";
import { drawOptions, QUIET } from "./options.ts";

/** A three-node cluster with no faults of its own, started and led. */
export async function quietSim(seed: number): Promise<LockSim> {
  const opts = drawOptions(seed, QUIET);
  const sim = new LockSim(opts);
  await sim.c.start();
  await runFor(sim, 500);
  expect(sim.c.leader()).toBeDefined();
  return sim;
}

/** Runs `ms` of simulated time; the lock checker must have found nothing. */
export async function runFor(sim: LockSim, ms: number): Promise<void> {
  await sim.c.runUntil(sim.c.sched.now + ms);
  expect(sim.c.checker.violations).toEqual([]);
}

/** Runs the simulation until `p` settles or `maxMs` of simulated time pass; says which. */
export async function settleWithin<T>(
  sim: LockSim,
  p: Promise<T>,
  maxMs: number,
): Promise<{ done: boolean; value?: T }> {
  let done = false;
  let value: T | undefined;
  void p.then((v) => {
    done = true;
    value = v;
  });
  const end = sim.c.sched.now + maxMs;
  while (!done && sim.c.sched.now < end) await runFor(sim, 5);
  return done ? { done, value: value as T } : { done };
}

/** Runs the simulation until `p` settles, which it must within `maxMs`, and returns its value. */
export async function until<T>(sim: LockSim, p: Promise<T>, maxMs = 5000): Promise<T> {
  const settled = await settleWithin(sim, p, maxMs);
  expect(settled.done).toBe(true);
  return settled.value as T;
}
