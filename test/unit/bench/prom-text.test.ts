// The benchmark reads counters off the nodes' /metrics pages.
import { describe, expect, it } from "vitest";
import { metricSum } from "../../../bench/prom-text.ts";

const PAGE = [
  "# HELP palisade_client_stream_calls_total calls the client Stream RPCs carried",
  "# TYPE palisade_client_stream_calls_total counter",
  'palisade_client_stream_calls_total{direction="in"} 120',
  'palisade_client_stream_calls_total{direction="out"} 118',
  "palisade_client_streams 4",
  "palisade_session_expiries_total 0",
  "palisade_sessions 1001",
  "palisade_sessions_opened_total 7",
].join("\n");

describe("reading the nodes' metrics", () => {
  it("sums the samples whose labels match, and tells a metric from another sharing its prefix", () => {
    expect(metricSum(PAGE, "palisade_client_stream_calls_total", { direction: "in" })).toBe(120);
    expect(metricSum(PAGE, "palisade_client_stream_calls_total")).toBe(238);
    expect(metricSum(PAGE, "palisade_sessions")).toBe(1001);
    expect(metricSum(PAGE, "palisade_session_expiries_total")).toBe(0);
    expect(metricSum(PAGE, "palisade_client_streams")).toBe(4);
  });

  it("has no value for a metric the page does not have", () => {
    expect(metricSum(PAGE, "palisade_client_stream_frames_total")).toBeNull();
    expect(
      metricSum(PAGE, "palisade_client_stream_calls_total", { direction: "sideways" }),
    ).toBeNull();
  });
});
