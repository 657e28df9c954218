import { describe, expect, it } from "vitest";
import { systemClock, type ClientClock, type Timer } from "../../../client/clock.ts";
import { StallWatch } from "../../../client/stall-watch.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* a synchronous stretch: the event loop stalls */
  }
}

/** A clock moved by hand; `advance` runs the interval timers that fall due, each once, late after a jump (as a stalled loop does). */
class HandClock implements ClientClock {
  private now = 1_000;
  private readonly intervals = new Set<{ fn: () => void; ms: number; next: number }>();
  monotonicMs(): number {
    return this.now;
  }
  wallMs(): number {
    return this.now;
  }
  setTimeout(): Timer {
    throw new Error("not used");
  }
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
  /** Quiet time: `ms` of a loop that runs its timers on time. */
  idle(ms: number): void {
    for (let i = 0; i < ms; i += 10) this.advance(Math.min(10, ms - i));
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

  // On a hand clock: on the system clock, the quiet time these tests need is not quiet on a loaded machine.
  it("shows every watcher a stall since its own last look, whoever read the shared sampler first", () => {
    const clock = new HandClock();
    const a = new StallWatch(clock);
    const b = new StallWatch(clock);
    a.retain();
    b.retain();
    try {
      clock.idle(50);
      a.takeMaxStallMs();
      b.takeMaxStallMs();
      clock.advance(300); // the sampling timer fires late, once: the stall is recorded
      clock.idle(150);
      expect(a.takeMaxStallMs()).toBeGreaterThanOrEqual(290);
      clock.idle(20);
      expect(b.takeMaxStallMs()).toBeGreaterThanOrEqual(290);
      // Seen once per watcher: quiet time afterwards shows no stall of that size.
      clock.idle(60);
      expect(a.takeMaxStallMs()).toBeLessThan(290);
      expect(b.takeMaxStallMs()).toBeLessThan(290);
    } finally {
      a.release();
      b.release();
    }
  });

  it("a watcher retained after a stall was recorded does not see it", () => {
    const clock = new HandClock();
    const a = new StallWatch(clock);
    a.retain();
    try {
      clock.idle(30);
      clock.advance(300);
      clock.idle(150);
      a.takeMaxStallMs(); // the shared histogram is read: the stall is in a fold from before `late`
      const late = new StallWatch(clock);
      late.retain();
      try {
        clock.idle(30);
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
