// The apply clock: when an index was applied here, from a bounded table of samples.
import { describe, expect, it } from "vitest";
import { ApplyClock } from "../../../node/ops/apply-clock.ts";

describe("ApplyClock", () => {
  it("gives the time of the last sample at or before an index, and null for indexes not applied here", () => {
    const clock = new ApplyClock();
    expect(clock.timeOf(1)).toBeNull();
    clock.record(5, 100);
    clock.record(6, 100.5); // within a millisecond: no sample
    clock.record(7, 103);
    expect(clock.timeOf(4)).toBeNull();
    expect(clock.timeOf(5)).toBe(100);
    expect(clock.timeOf(6)).toBe(100);
    expect(clock.timeOf(7)).toBe(103);
    expect(clock.timeOf(1_000)).toBe(103);
  });

  it("after the state is replaced, nothing up to its grants counts as applied here", () => {
    const clock = new ApplyClock();
    clock.record(1, 10);
    clock.reset(20);
    clock.record(21, 50);
    expect(clock.timeOf(1)).toBeNull();
    expect(clock.timeOf(20)).toBeNull();
    expect(clock.timeOf(21)).toBe(50);
    // A grant index above the state's was applied at the first sample or later.
    clock.reset(30);
    clock.record(25, 60);
    expect(clock.timeOf(28)).toBeNull();
    expect(clock.timeOf(31)).toBe(60);
  });

  it("stays bounded: old samples thin out, the newest keep their resolution, an early index never reads late", () => {
    const clock = new ApplyClock();
    const n = 100_000;
    for (let i = 1; i <= n; i++) clock.record(i, i * 2);
    for (const i of [n, n - 1, n - 100]) expect(clock.timeOf(i)).toBe(i * 2);
    for (const i of [1, 2, 3, 500, 50_000, 90_000]) {
      const at = clock.timeOf(i) as number;
      expect(at).toBeLessThanOrEqual(i * 2);
      expect(at).toBeGreaterThanOrEqual(2);
    }
    expect(clock.timeOf(1)).toBe(2);
  });
});
