// The chaos run's phase of load on the Stream RPC, before the faults (so a lost session or
// a grown node is the load's doing): beside the workers, one client whose 64 sessions each
// wait for 64 locks, and one that sends requests on the stream as fast as it can without
// ever reading an answer (stream-load.ts), for a minute. Checks: the waiting client lost no
// session, and the leader's resident memory grew by less than RSS_GROWTH_BOUND over it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NsProcess } from "./procs.ts";
import type { Line, StreamLoadRecord } from "./protocol.ts";

/** How long the load runs once every wait is queued. */
export const STREAM_PHASE_MS = 60_000;
/** The most the leader's resident memory may grow over the phase. */
export const RSS_GROWTH_BOUND = 64 * 1024 * 1024;

export interface StreamPhaseReport {
  sessions: number;
  lost: number;
  waits: number;
  leader: number;
  rssBefore: number;
  rssAfter: number;
  floodFrames: number;
  floodRequests: number;
  violations: string[];
}

export interface StreamPhaseContext {
  runDir: string;
  endpoints: string;
  /** The client address of node `id`. */
  endpointOf: (id: number) => string;
  leader: () => number;
  /** The pid of node `id`'s process. */
  pidOf: (id: number) => number | undefined;
  say: (msg: string) => void;
}

/** VmRSS of a process in bytes (0 when it cannot be read). */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line ? Number(line.replace(/\D+/g, "")) * 1024 : 0;
  } catch {
    return 0;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

export async function runStreamPhase(ctx: StreamPhaseContext): Promise<StreamPhaseReport> {
  const records: StreamLoadRecord[] = [];
  const onLine = (line: Line): void => {
    if (line.t === "stream-load") records.push(line);
    else if (line.t === "log") ctx.say(line.msg);
  };
  const leader = ctx.leader();
  const waits = new NsProcess({
    name: "stream-waits",
    ns: 4,
    script: "chaos/stream-load.ts",
    logPath: join(ctx.runDir, "stream-waits.log"),
    onLine,
    args: [
      "--mode",
      "waits",
      "--endpoints",
      ctx.endpoints,
      "--sessions",
      "64",
      "--waits",
      "64",
      "--ttl",
      "10000",
    ],
  });
  const flood = new NsProcess({
    name: "stream-flood",
    ns: 4,
    script: "chaos/stream-load.ts",
    logPath: join(ctx.runDir, "stream-flood.log"),
    onLine,
    args: ["--mode", "flood", "--endpoint", ctx.endpointOf(leader)],
  });
  const violations: string[] = [];
  try {
    waits.start();
    const readyBy = Date.now() + 120_000;
    while (!records.some((r) => r.what === "waits-ready")) {
      if (Date.now() > readyBy || !waits.running)
        throw new Error("the waiting client's waits were not all queued within 120 s");
      await sleep(200);
    }
    flood.start();
    const rssBefore = rssOf(ctx.pidOf(leader));
    ctx.say(
      `stream load: 64 sessions × 64 waits queued, a client flooding node ${leader} without reading; leader RSS ${mib(rssBefore)}`,
    );
    await sleep(STREAM_PHASE_MS);
    const rssAfter = rssOf(ctx.pidOf(leader));
    waits.send("stop");
    flood.send("stop");
    await Promise.all([waits.waitExit(30_000), flood.waitExit(30_000)]);
    const final = records.find((r) => r.what === "waits-final");
    const flooded = records.find((r) => r.what === "flood-final");
    if (!final) violations.push("stream load: the waiting client did not report its sessions");
    else if ((final.lost ?? 0) > 0)
      violations.push(
        `stream load: the waiting client lost ${final.lost} of ${final.sessions} sessions`,
      );
    if (ctx.leader() !== leader)
      violations.push(
        `stream load: the leader changed from node ${leader} to node ${ctx.leader()} with no fault injected`,
      );
    if (rssBefore === 0 || rssAfter === 0)
      violations.push("stream load: the leader's RSS could not be read");
    else if (rssAfter - rssBefore >= RSS_GROWTH_BOUND)
      violations.push(
        `stream load: the leader's RSS grew by ${mib(rssAfter - rssBefore)} in ${STREAM_PHASE_MS / 1000} s (bound ${mib(RSS_GROWTH_BOUND)})`,
      );
    return {
      sessions: final?.sessions ?? 0,
      lost: final?.lost ?? 0,
      waits: final?.waits ?? 0,
      leader,
      rssBefore,
      rssAfter,
      floodFrames: flooded?.frames ?? 0,
      floodRequests: flooded?.requests ?? 0,
      violations,
    };
  } finally {
    await waits.kill();
    await flood.kill();
  }
}

/** The phase's lines of the chaos report. */
export function streamPhaseLines(r: StreamPhaseReport): string[] {
  return [
    `  ${"stream load: sessions lost (waits client)".padEnd(42)} ${r.lost} of ${r.sessions} (${r.waits} waits)`,
    `  ${"stream load: leader RSS growth in 60 s".padEnd(42)} ${mib(r.rssAfter - r.rssBefore)} (${mib(r.rssBefore)} → ${mib(r.rssAfter)}; bound ${mib(RSS_GROWTH_BOUND)})`,
    `  ${"stream load: flood frames sent, unread".padEnd(42)} ${r.floodFrames} (${r.floodRequests} requests)`,
  ];
}
