import { expect, it } from "vitest";
import { runSeed } from "./run-seed.ts";

it("one seed gives one run: the same trace hash twice", async () => {
  for (const seed of [3, 17, 42]) {
    const a = await runSeed(seed);
    const b = await runSeed(seed);
    expect(a.hash).toBe(b.hash);
    expect(a.stats).toEqual(b.stats);
  }
});

it("different seeds give different runs", async () => {
  const a = await runSeed(5);
  const b = await runSeed(6);
  expect(a.hash).not.toBe(b.hash);
});
