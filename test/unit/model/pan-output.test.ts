// The model runner's reading of pan output and of the exactly-once model's traces, on
// samples captured from SPIN 6.5.2 (models/fence.pml clean and with -DTRUST_MODE).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PanOutputError, parsePanOutput, trailSteps } from "../../../scripts/model/pan-output.ts";
import { parseTrace, replay } from "../../../scripts/model/conformance.ts";
import { parseLeaseTrace, replayLease } from "../../../scripts/model/lease-conformance.ts";
import { parseClientTrace, replaySession } from "../../../scripts/model/session-conformance.ts";

const sample = (name: string): string => readFileSync(join(import.meta.dirname, name), "utf8");

describe("parsePanOutput", () => {
  it("reads the figures of a run that found nothing", () => {
    const r = parsePanOutput(sample("pan-clean.txt"));
    expect(r.errors).toBe(0);
    expect(r.violated).toBeNull();
    expect(r.states).toBe(98765);
    expect(r.transitions).toBe(177925);
    expect(r.depth).toBe(81);
    expect(r.memoryMb).toBeGreaterThan(0);
  });

  it("names the property a violation broke", () => {
    const r = parsePanOutput(sample("pan-violated.txt"));
    expect(r.errors).toBe(1);
    expect(r.violated).toBe("fence_order");
    expect(r.states).toBe(196);
    expect(r.depth).toBe(72);
    expect(r.memoryMb).toBeCloseTo(133.536);
  });

  it("refuses output that is not pan's", () => {
    expect(() => parsePanOutput("spin: model.pml:3, Error: syntax error")).toThrow(PanOutputError);
  });
});

describe("trailSteps", () => {
  it("counts the steps, not the header", () => {
    expect(trailSteps("-4:-4:-4\n1:1:370\n2:1:371\n3:0:12\n")).toBe(3);
  });
});

describe("conformance replay", () => {
  const trace = [
    "APPLY idx=3 s=1 op=1 seq=1 mark=0 rtok=0 ans=259 h=1,0 tok=3 marks=0,0 kept=2,0",
    "APPLY idx=4 s=2 op=1 seq=1 mark=0 rtok=0 ans=512 h=1,0 tok=3 marks=0,0 kept=2,2",
    "APPLY idx=5 s=1 op=0 seq=2 mark=1 rtok=3 ans=768 h=0,0 tok=0 marks=1,0 kept=4,2",
    "APPLY idx=6 s=1 op=1 seq=1 mark=0 rtok=0 ans=1536 h=0,0 tok=0 marks=1,0 kept=4,2",
  ].join("\n");

  it("agrees with the state machine on a trace the model printed", () => {
    const steps = parseTrace(trace);
    expect(steps).toHaveLength(4);
    expect(replay(steps)).toBeNull();
  });

  it("reports the entry where the model and the code part", () => {
    // The model claims the late copy of seq 1 was granted again: the code says too old.
    const steps = parseTrace(trace.replace("ans=1536", "ans=262"));
    expect(replay(steps)).toMatch(/^entry 6 .*REQUEST_TOO_OLD/);
  });
});

describe("lease conformance replay", () => {
  // TTL 12: a keepalive at 3 restarts it; a stall of 2 moves the deadline; the expiry at 17.
  const trace = [
    "LEASE ev=0 t=1 arg=0 live=1 deadline=12",
    "LEASE ev=1 t=3 arg=1 live=1 deadline=15",
    "LEASE ev=4 t=5 arg=2 live=1 deadline=17",
    "LEASE ev=2 t=17 arg=0 live=0 deadline=0",
  ].join("\n");

  it("agrees with the lease keeper on a trace the model printed", () => {
    expect(replayLease(parseLeaseTrace(trace))).toBeNull();
  });

  it("finds a keeper that would expire before the model's deadline", () => {
    const early = trace.replace("arg=2 live=1 deadline=17", "arg=2 live=1 deadline=18");
    expect(replayLease(parseLeaseTrace(early))).toMatch(/^event 4 at t=5 .*before 18$/);
  });
});

describe("session conformance replay", () => {
  // TTL 12, rho 1/8: a budget of 8 from each send, a call every 4. The call made with the
  // session (at 0) is answered at 1 and moves nothing; the one at 4, answered at 5, moves the
  // deadline to 12; the client pauses after its call at 8 and is lost at 13.
  const ticks = (from: number, to: number, deadline: number, live = true): string[] =>
    Array.from(
      { length: to - from + 1 },
      (_, i) => `CLIENT ev=0 t=${from + i} live=${live ? 1 : 0} deadline=${deadline}`,
    );
  const trace = [
    ...ticks(1, 1, 8),
    "CLIENT ev=2 t=1 live=1 deadline=8",
    ...ticks(2, 4, 8),
    "CLIENT ev=1 t=4 live=1 deadline=8",
    ...ticks(5, 5, 8),
    "CLIENT ev=2 t=5 live=1 deadline=12",
    ...ticks(6, 8, 12),
    "CLIENT ev=1 t=8 live=1 deadline=12",
    "CLIENT ev=4 t=8 live=1 deadline=12",
    ...ticks(9, 12, 12),
    "CLIENT ev=0 t=13 live=0 deadline=13",
  ].join("\n");

  it("agrees with the client Session on a trace the model printed", async () => {
    expect(parseClientTrace(trace)).toHaveLength(18);
    expect(await replaySession(parseClientTrace(trace))).toBeNull();
  });

  it("finds a Session whose deadline is not the model's", async () => {
    const late = trace.replace("ev=2 t=5 live=1 deadline=12", "ev=2 t=5 live=1 deadline=13");
    expect(await replaySession(parseClientTrace(late))).toMatch(/^event 2 at t=5 .*is 120 ms$/);
  });

  it("finds a Session that calls when the model's client does not", async () => {
    const none = trace.replace("CLIENT ev=1 t=8 live=1 deadline=12\n", "");
    expect(await replaySession(parseClientTrace(none))).toMatch(
      /^event 4 at t=8 .*KeepAlive call at 80 ms, the model none$/,
    );
  });
});
