// Monotonic-clock rates under libfaketime, for the clock-rate fault (npm run chaos --
// --clock-rate), and a probe that shows what a Node process under a rate really sees.
//
//   npx tsx chaos/clock-rate.ts          # a table: each rate, and x2 with the monotonic clock left alone
//
// What the probe found with libfaketime 0.9.10 (Debian 12) and Node 20: libfaketime
// intercepts clock_gettime(CLOCK_MONOTONIC) unless FAKETIME_DONT_FAKE_MONOTONIC=1 (that is
// the default; FAKETIME_DONT_FAKE_MONOTONIC=0 is the same as unset, and no
// FAKETIME_FORCE_MONOTONIC_FIX is needed), so under FAKETIME="+0 x2" process.hrtime,
// performance.now, Date.now and setTimeout all run at twice the host's rate: a 1000 ms
// timer fires after 500 ms of host time. The faked monotonic clock also starts at another
// base (offset by about the wall-clock epoch), so such a process's hrtime cannot be
// compared with another process's; Palisade's nodes only measure intervals with it
// (performance.now). With FAKETIME_DONT_FAKE_MONOTONIC=1 only Date.now runs at the rate.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { CLOCK_RATES } from "./faults.ts";
import { FAKETIME_LIB } from "./netns.ts";

/** The environment that runs a process with its monotonic and wall clocks at `rate` × the host's. */
export function clockRateEnv(rate: number): Record<string, string> {
  // No FAKETIME_DONT_FAKE_MONOTONIC and no FAKETIME_TIMESTAMP_FILE: the rate is fixed for
  // the process's life (a file rewritten later would change it, and its clock would jump).
  return { LD_PRELOAD: FAKETIME_LIB, FAKETIME: `+0 x${rate}` };
}

export interface RateProbe {
  /** The child's setTimeout, ms of its own time. */
  timerMs: number;
  /** Host time from the child's first reading to its timer's, ms. */
  hostMs: number;
  /** The child's own elapsed time by process.hrtime, performance.now and Date.now, ms. */
  hrtimeMs: number;
  perfMs: number;
  dateMs: number;
}

// The child: a reading at start, then one when its timer fires.
const CHILD = `
const t0 = { hr: process.hrtime.bigint(), perf: performance.now(), date: Date.now() };
console.log("start");
setTimeout(() => {
  const hr = process.hrtime.bigint();
  console.log(JSON.stringify({ hr: Number(hr - t0.hr) / 1e6, perf: performance.now() - t0.perf, date: Date.now() - t0.date }));
}, Number(process.argv[1]));
`;

/** Runs a Node child under `env` with a timer of `timerMs` and compares its clocks with the host's. */
export function probeClock(env: Record<string, string>, timerMs = 1_000): Promise<RateProbe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", CHILD, String(timerMs)], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let start: bigint | undefined;
    const timeout = setTimeout(
      () => {
        child.kill("SIGKILL");
        reject(new Error(`clock probe: no answer within ${timerMs * 4 + 5_000} ms`));
      },
      timerMs * 4 + 5_000,
    );
    createInterface({ input: child.stdout }).on("line", (line) => {
      const now = process.hrtime.bigint();
      if (line === "start") {
        start = now;
        return;
      }
      if (start === undefined) return;
      clearTimeout(timeout);
      const got = JSON.parse(line) as { hr: number; perf: number; date: number };
      const hostMs = Number(now - start) / 1e6;
      resolve({ timerMs, hostMs, hrtimeMs: got.hr, perfMs: got.perf, dateMs: got.date });
    });
    child.once("error", reject);
  });
}

/**
 * Checks that a Node process under clockRateEnv(rate) sees its monotonic clock and its
 * timers run at about `rate`; the error says what it saw instead.
 */
export async function verifyClockRate(rate: number): Promise<RateProbe> {
  const probe = await probeClock(clockRateEnv(rate));
  const off = (elapsedMs: number): boolean => Math.abs(elapsedMs / probe.hostMs / rate - 1) > 0.15;
  if (off(probe.hrtimeMs) || off(probe.perfMs) || off(probe.timerMs)) {
    throw new Error(
      `libfaketime does not run a Node process's monotonic clock at x${rate}: over ${probe.hostMs.toFixed(0)} ms of host time ` +
        `it saw hrtime ${probe.hrtimeMs.toFixed(0)} ms, performance.now ${probe.perfMs.toFixed(0)} ms, Date.now ${probe.dateMs} ms, ` +
        `and its ${probe.timerMs} ms timer fired`,
    );
  }
  return probe;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const rows: [string, Record<string, string>][] = [
    ["host (no libfaketime)", {}],
    ...CLOCK_RATES.map((rate): [string, Record<string, string>] => [
      `x${rate}`,
      clockRateEnv(rate),
    ]),
    [
      "x2, FAKETIME_DONT_FAKE_MONOTONIC=1",
      { ...clockRateEnv(2), FAKETIME_DONT_FAKE_MONOTONIC: "1" },
    ],
  ];
  console.log("A Node child's clocks over its setTimeout(1000), ms:");
  console.log(
    `${"environment".padEnd(36)} ${"host".padStart(8)} ${"hrtime".padStart(8)} ${"perf.now".padStart(8)} ${"Date.now".padStart(8)}`,
  );
  for (const [label, env] of rows) {
    const p = await probeClock(env);
    console.log(
      `${label.padEnd(36)} ${p.hostMs.toFixed(0).padStart(8)} ${p.hrtimeMs.toFixed(0).padStart(8)} ${p.perfMs.toFixed(0).padStart(8)} ${String(p.dateMs).padStart(8)}`,
    );
  }
}
