// A client clock the test moves by hand (its timers never fire on their own).
import type { ClientClock } from "../../../client/clock.ts";

export function manualClock(): ClientClock & { advance(ms: number): void } {
  let now = 1_000;
  return {
    monotonicMs: () => now,
    wallMs: () => 1_700_000_000_000 + now,
    setTimeout: () => ({ cancel: () => undefined }),
    setInterval: () => ({ cancel: () => undefined }),
    advance(ms) {
      now += ms;
    },
  };
}
