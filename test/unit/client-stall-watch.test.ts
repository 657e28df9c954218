import { describe, expect, it } from "vitest";
import { systemClock } from "../../client/clock.ts";
import { StallWatch } from "../../client/stall-watch.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* a synchronous stretch: the event loop stalls */ }
}

describe("StallWatch", () => {
  it("shows every watcher a stall since its own last look, whoever read the shared sampler first", async () => {
    const a = new StallWatch(systemClock);
    const b = new StallWatch(systemClock);
    a.retain();
    b.retain();
    try {
      await sleep(50);
      a.takeMaxStallMs();
      b.takeMaxStallMs();
      block(300);
      await sleep(150); // the sampling timer fires (late) and the stall is recorded
      expect(a.takeMaxStallMs()).toBeGreaterThanOrEqual(290);
      await sleep(20);
      expect(b.takeMaxStallMs()).toBeGreaterThanOrEqual(290);
      // Seen once per watcher: quiet time afterwards shows no stall of that size.
      await sleep(60);
      expect(a.takeMaxStallMs()).toBeLessThan(290);
      expect(b.takeMaxStallMs()).toBeLessThan(290);
    } finally {
      a.release();
      b.release();
    }
  });

  it("a watcher retained after a stall was recorded does not see it", async () => {
    const a = new StallWatch(systemClock);
    a.retain();
    try {
      await sleep(30);
      block(300);
      await sleep(150);
      a.takeMaxStallMs(); // the shared histogram is read: the stall is in a fold from before `late`
      const late = new StallWatch(systemClock);
      late.retain();
      try {
        await sleep(30);
        expect(late.takeMaxStallMs()).toBeLessThan(290);
      } finally {
        late.release();
      }
    } finally {
      a.release();
    }
  });

  it("sees a stall that began right after its last look, before the sampler ran again", async () => {
    const a = new StallWatch(systemClock);
    a.retain();
    try {
      await sleep(50);
      a.takeMaxStallMs();
      block(300);
      // No timer has run since the stall ended.
      expect(a.takeMaxStallMs()).toBeGreaterThanOrEqual(290);
    } finally {
      a.release();
    }
  });

  it("answers 0 when not retained", () => {
    expect(new StallWatch(systemClock).takeMaxStallMs()).toBe(0);
  });
});
