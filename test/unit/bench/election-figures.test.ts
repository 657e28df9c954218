// The election failover part's figures: times between monotonic readings, the last
// observer, unresolved runs, and the report's section.
import { describe, expect, it } from "vitest";
import {
  lastObserved,
  msBetween,
  renderElectionFailover,
  seriesOf,
  type ElectionSide,
} from "../../../bench/election-figures.ts";

const side = (elected: number[], config: string): ElectionSide => {
  const s = seriesOf(
    elected.map((e) => ({ elected_ms: e, observed_ms: e + 5 })),
    32_000,
  );
  return {
    ttl_ms: 2_000,
    candidates: 3,
    observers: 2,
    kill: s,
    stop: s,
    handoff: seriesOf([{ elected_ms: 10, observed_ms: 12 }], 32_000),
    wrong_successor: 0,
    config,
  };
};

describe("election failover figures", () => {
  it("takes ms between monotonic nanosecond readings, to 0.1 ms", () => {
    expect(msBetween(1_000_000_000n, 1_001_234_567n)).toBe(1.2);
    expect(msBetween(5n, 5n)).toBe(0);
  });

  it("times every observer by the last one, and has no figure when one did not see the leader", () => {
    expect(lastObserved(0n, [3_000_000n, 7_500_000n, 1_000_000n])).toBe(7.5);
    expect(lastObserved(0n, [3_000_000n, null])).toBeNull();
    expect(lastObserved(0n, [])).toBeNull();
  });

  it("counts a run without a figure as unresolved, at the bound", () => {
    const s = seriesOf(
      [
        { elected_ms: 100, observed_ms: 110 },
        { elected_ms: 300, observed_ms: null },
        { elected_ms: null, observed_ms: null },
      ],
      1_000,
    );
    expect(s.runs).toBe(3);
    expect(s.unresolved).toBe(2);
    expect(s.elected_ms.p50).toBe(300);
    expect(s.elected_ms.max).toBe(1_000);
    expect(s.observed_samples_ms).toEqual([110, 1_000, 1_000]);
  });

  it("renders both systems with their ratios, and a failed side in its place", () => {
    const both = renderElectionFailover({
      palisade: side([100, 200, 300], "P-config"),
      etcd: side([200, 400, 600], "E-config"),
    });
    expect(both).toContain("Palisade: P-config. etcd: E-config.");
    expect(both).toContain(
      "| Palisade | leader's process SIGKILLed | 3 | 200 | 300 | 205 | 305 | 0 |",
    );
    expect(both).toContain("| ratio P/e | kill | | 0.50× | 0.50× |");
    expect(both).toContain("Palisade: kill 100, 200, 300;");

    const etcdFailed = renderElectionFailover({
      palisade: side([100], "P-config"),
      etcd: { error: "no leader" },
    });
    expect(etcdFailed).toContain("| etcd election | failed: no leader |");
    expect(etcdFailed).not.toContain("ratio P/e");
    expect(renderElectionFailover(undefined)).toBe("");
    expect(renderElectionFailover({ error: "boom" })).toContain("failed: boom");
  });

  it("calls out handoffs that elected another candidate than the named one", () => {
    const p = { ...side([100], "P"), wrong_successor: 2 };
    expect(renderElectionFailover({ palisade: p })).toContain(
      "2 Palisade handoffs elected another candidate than the named one",
    );
  });
});
