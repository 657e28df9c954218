import { describe, expect, it } from "vitest";
import { systemClock, type ClientClock, type Timer } from "../../client/clock.ts";
import { StallWatch } from "../../client/stall-watch.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* a synchronous stretch: the event loop stalls */ }
}

/** A clock moved by hand; `advance` runs the interval timers that fall due, each once, late after a jump (as a stalled loop does). */
class HandClock implements ClientClock {
  private now = 1_000;
  private readonly intervals = new Set<{ fn: () => void; ms: number; next: number }>();
  monotonicMs(): number { return this.now; }
  wallMs(): number { return this.now; }
  setTimeout(): Timer { throw new Error("not used"); }
  setInterval(fn: () => void, ms: number): Timer {
    const t = { fn, ms, next: this.now + ms };
    this.intervals.add(t);
    return { cancel: () => this.intervals.delete(t) };
  }
  advance(ms: number): void {
    this.now += ms;
    for (const t of this.intervals) {
      if (t.next > this.now) continue;
      t.fn();
      t.next = this.now + t.ms;
    }
  }
}

describe("StallWatch", () => {
  it("shows a stall to a watcher that has not looked since, however often thousands of others look and drop what they have seen", () => {
    const clock = new HandClock();
    const late = new StallWatch(clock);
    const others = Array.from({ length: 2_000 }, () => new StallWatch(clock));
    late.retain();
    for (const w of others) w.retain();
    try {
      clock.advance(10);
      late.takeMaxStallMs();
      clock.advance(500); // one stall: the sampler runs once, 500 ms late
      for (let round = 0; round < 50; round++) {
        clock.advance(10);
        for (const w of others) expect(w.takeMaxStallMs()).toBeLessThan(round === 0 ? 600 : 100);
      }
      expect(late.takeMaxStallMs()).toBeGreaterThanOrEqual(500);
      clock.advance(10);
      expect(late.takeMaxStallMs()).toBeLessThan(100);
      // A watcher released while the others go on no longer holds back what they have all seen.
      const gone = others.pop()!;
      gone.release();
      clock.advance(10);
      for (const w of others) expect(w.takeMaxStallMs()).toBeLessThan(100);
    } finally {
      late.release();
      for (const w of others) w.release();
    }
  });

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
