// The two start-up targets, timed on real processes as operators run them:
// - a node on an empty data directory (`bin/palisade.mjs node`), from spawn to its first
//   Status answer (target 0.5 s);
// - `palisadectl status` against a running three-node cluster, from spawn to exit (target 0.3 s).
// Each is run several times; the report gives the median, p90 and max.
import { spawn } from "node:child_process";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition } from "../proto/grpc.ts";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep } from "./cluster-control.ts";

export const PALISADECTL_BIN = join(PACKAGE_ROOT, "bin/palisadectl.mjs");

export interface Timings {
  runs: number;
  samples_ms: number[];
  p50_ms: number | null;
  p90_ms: number | null;
  max_ms: number | null;
}

const POLL_MS = 5;
const BOUND_MS = 30_000;

export function summarize(samples: readonly number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number | null =>
    sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    runs: samples.length,
    samples_ms: samples.map((s) => Math.round(s)),
    p50_ms: round(at(0.5)),
    p90_ms: round(at(0.9)),
    max_ms: round(at(1)),
  };
}

const round = (x: number | null): number | null => (x === null ? null : Math.round(x));

/**
 * One Status call on a channel of its own. A shared channel would wait out grpc-js's
 * reconnect back-off after each refused connection and report the node late.
 */
export function answersStatus(endpoint: string, timeoutMs = 200): Promise<boolean> {
  const client = new grpc.Client(endpoint, grpc.credentials.createInsecure());
  const method = adminServiceDefinition.Status;
  return new Promise((done) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      palisade.v1.StatusRequest.create({}),
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err) => {
        client.close();
        done(!err);
      },
    );
  });
}

/** Milliseconds from `startedAt` (performance.now()) until `endpoint` answers Status; throws past the bound or if `alive()` turns false. */
export async function untilStatus(
  endpoint: string,
  startedAt: number,
  alive: () => boolean,
  logs: () => string,
): Promise<number> {
  while (performance.now() - startedAt < BOUND_MS) {
    if (await answersStatus(endpoint)) return performance.now() - startedAt;
    if (!alive()) throw new Error(`the node exited before answering Status\n${logs()}`);
    await sleep(POLL_MS);
  }
  throw new Error(`no Status answer within ${BOUND_MS} ms\n${logs()}`);
}

/** `runs` starts of node 1 of a new three-node cluster file, each on a new, empty data directory. */
export async function timeFreshStarts(runs: number): Promise<Timings> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = makeTempDir("palisade-fresh-start-");
    try {
      const cluster = await BenchCluster.create(dir);
      const startedAt = cluster.start(1);
      samples.push(
        await untilStatus(
          cluster.endpointOf(1),
          startedAt,
          () => cluster.pidOf(1) !== null,
          () => cluster.logTails(),
        ),
      );
      await cluster.stop(1, "SIGTERM");
    } finally {
      removeTempDir(dir);
    }
  }
  return summarize(samples);
}

/** `runs` runs of `palisadectl status` against `endpoints`, each from spawn to exit; a run that does not exit 0 fails the measurement. */
export async function timeCtlStatus(endpoints: readonly string[], runs: number): Promise<Timings> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startedAt = performance.now();
    const child = spawn(
      process.execPath,
      [PALISADECTL_BIN, "--endpoints", endpoints.join(","), "status"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) =>
      child.once("exit", (c) => resolve(c)),
    );
    if (code !== 0) throw new Error(`palisadectl status exited ${code}: ${stderr.trim()}`);
    samples.push(performance.now() - startedAt);
  }
  return summarize(samples);
}
