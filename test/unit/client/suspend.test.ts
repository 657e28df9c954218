// System suspend: CLOCK_MONOTONIC stops while the host sleeps, the wall clock does not.
// The session deadline and the stall watch count the larger of the two elapsed times, so
// a suspend past the deadline loses the session. A suspend is played here by moving the
// wall clock (Date.now) forward while the monotonic clock goes on as usual.
import { afterEach, describe, expect, it, vi } from "vitest";
import { monotonicMs, systemClock, type ClientClock } from "../../../client/clock.ts";
import type { LockApi } from "../../../client/lock-api.ts";
import { SessionLostError } from "../../../client/errors.ts";
import { Session, type SessionSettings } from "../../../client/session.ts";
import { StallWatch } from "../../../client/stall-watch.ts";

const realDateNow = Date.now.bind(Date);

/** From now on the wall clock reads `ms` ahead of the real one. */
function wallJump(ms: number): void {
  vi.spyOn(Date, "now").mockImplementation(() => realDateNow() + ms);
}

/** Keepalives and everything else stay unanswered: only the deadline decides. */
const silent: LockApi = { call: () => new Promise(() => undefined) };

function settings(ttlMs: number): SessionSettings {
  return {
    id: 9n,
    ttlMs,
    clientName: "t",
    openedSentAt: monotonicMs(),
    callTimeoutMs: 1_000,
    retryBudgetMs: 1_000,
    driftBound: 0.01,
    deadlineTickMs: 50,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("system suspend", () => {
  it("a session whose host slept past its deadline is lost at the next look, though the monotonic clock stood still", () => {
    const session = new Session(silent, settings(2_000), systemClock);
    expect(session.live).toBe(true);
    wallJump(5_000);
    expect(session.live).toBe(false);
    expect(session.state).toBe("lost");
    expect(session.signal.reason).toBeInstanceOf(SessionLostError);
  });

  it("a shorter suspend brings the deadline forward by the time slept", () => {
    const opened = monotonicMs();
    const session = new Session(silent, { ...settings(10_000), openedSentAt: opened }, systemClock);
    const budget = 10_000 - (2 * 0.01 * 10_000 + 50);
    // Less by what the wall clock saw pass beyond the monotonic one: under its 1 ms resolution.
    expect(session.deadline).toBeLessThanOrEqual(opened + budget);
    expect(session.deadline).toBeGreaterThan(opened + budget - 1);
    wallJump(3_000);
    expect(session.live).toBe(true);
    expect(session.deadline).toBeLessThan(opened + budget - 2_990);
    expect(session.deadline).toBeGreaterThan(opened + budget - 3_010);
    void session.close();
  });

  it("a backward jump of the wall clock neither ends nor extends a session", async () => {
    const opened = monotonicMs();
    const session = new Session(silent, { ...settings(10_000), openedSentAt: opened }, systemClock);
    const before = session.deadline;
    wallJump(-3_600_000);
    expect(session.live).toBe(true);
    expect(session.deadline).toBe(before);
    void session.close();

    const short = new Session(
      silent,
      { ...settings(1_000), openedSentAt: monotonicMs() - 2_000 },
      systemClock,
    );
    expect(short.live).toBe(false);
  });

  it("the stall watch counts the time the host slept as a stall", () => {
    // On a hand clock: the quiet time after the suspend must be quiet, which a loaded
    // machine's own stalls of this process are not.
    let mono = 1_000;
    let wall = 1_000;
    const intervals = new Set<{ fn: () => void; ms: number; next: number }>();
    const clock: ClientClock = {
      monotonicMs: () => mono,
      wallMs: () => wall,
      setTimeout: () => {
        throw new Error("not used");
      },
      setInterval(fn, ms) {
        const t = { fn, ms, next: mono + ms };
        intervals.add(t);
        return { cancel: () => intervals.delete(t) };
      },
    };
    /** `ms` of a loop that runs its timers on time; `slept` more pass on the wall clock only. */
    const pass = (ms: number, slept = 0): void => {
      wall += slept;
      for (let i = 0; i < ms; i += 10) {
        mono += 10;
        wall += 10;
        for (const t of intervals) {
          if (t.next > mono) continue;
          t.fn();
          t.next = mono + t.ms;
        }
      }
    };
    const watch = new StallWatch(clock);
    watch.retain();
    try {
      pass(30);
      watch.takeMaxStallMs();
      pass(30, 5_000); // the sampler runs and records the gap
      expect(watch.takeMaxStallMs()).toBeGreaterThanOrEqual(4_990);
      // Seen once: afterwards the wall clock runs at its usual rate again.
      pass(40);
      expect(watch.takeMaxStallMs()).toBeLessThan(1_000);
    } finally {
      watch.release();
    }
  });
});
