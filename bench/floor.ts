// The floor of this machine and this stack, measured in the same run as the report: what a
// lock service built on Node, grpc-js and LevelDB cannot go below here, whatever its Raft
// does. Primitives, each timed on its own:
//   - a 100-byte append + fdatasync on the main thread (the disk);
//   - a synced one-put LevelDB batch (`level`, the store Palisade uses);
//   - a grpc-js unary echo to a server in another process: latency at concurrency 1 and
//     calls/s at concurrency 64 (a client call is one of these);
//   - a grpc-js bidirectional-stream echo round trip (a peer link carries Raft this way).
// Bounds derived from them (lower bounds: no Raft, no state machine, no client library):
//   - acquire latency at concurrency 1 ≥ unary round trip + stream round trip + synced batch
//     (client → leader, leader → follower and back, the follower's durable write; the
//     leader's own write runs beside the follower's);
//   - uncontended cycles/s ≤ unary calls/s at concurrency 64 / 2 (Acquire and Release are two
//     calls, both served by the leader's one event loop, and the client shares the cores);
//   - contended handoffs/s ≤ 1 / that acquire bound (each handoff waits for one release to
//     commit and its grant to reach the next client).
import { spawn } from "node:child_process";
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Level } from "level";
import { percentile } from "./stats.ts";

export interface FloorResult {
  fdatasync_ms: { p50: number | null; p99: number | null };
  leveldb_sync_batch_ms: { p50: number | null; p99: number | null };
  grpc_unary_c1_ms: { p50: number | null; p99: number | null };
  grpc_unary_c64_calls_per_s: number;
  grpc_stream_rtt_ms: { p50: number | null; p99: number | null };
  /** Derived lower/upper bounds (see the header of bench/floor.ts). */
  acquire_c1_floor_ms: number | null;
  uncontended_c64_ceiling_cycles_per_s: number;
  contended_ceiling_handoffs_per_s: number | null;
}

const identity = (b: Buffer): Buffer => b;
const ECHO_SERVICE = {
  unary: {
    path: "/floor.Echo/Unary",
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
  stream: {
    path: "/floor.Echo/Stream",
    requestStream: true,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
} as const;

// The echo server, run in a child process so that client and server do not share an event loop.
const SERVER_SCRIPT = `
const grpc = require("@grpc/grpc-js");
const id = (b) => b;
const s = new grpc.Server();
s.addService({
  unary: { path: "/floor.Echo/Unary", requestStream: false, responseStream: false, requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id },
  stream: { path: "/floor.Echo/Stream", requestStream: true, responseStream: true, requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id },
}, { unary: (call, cb) => cb(null, call.request), stream: (call) => call.on("data", (d) => call.write(d)) });
s.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => { if (e) throw e; process.stdout.write(port + "\\n"); });
`;

const round = (x: number | null, digits = 3): number | null =>
  x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits;

function summary(samples: number[]): { p50: number | null; p99: number | null } {
  samples.sort((a, b) => a - b);
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) };
}

function timeFdatasync(dir: string, ms: number): number[] {
  const fd = openSync(join(dir, "fsync-probe"), "a");
  const buf = Buffer.alloc(100, 120);
  const out: number[] = [];
  const end = performance.now() + ms;
  try {
    while (performance.now() < end) {
      const t = performance.now();
      writeSync(fd, buf);
      fdatasyncSync(fd);
      out.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

async function timeLevelBatches(dir: string, count: number): Promise<number[]> {
  const db = new Level<Buffer, Buffer>(join(dir, "level"), {
    keyEncoding: "buffer",
    valueEncoding: "buffer",
  });
  await db.open();
  const value = Buffer.alloc(100, 1);
  const out: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      await db.batch([{ type: "put", key: Buffer.from(`k${i}`), value }], { sync: true });
      out.push(performance.now() - t);
    }
  } finally {
    await db.close();
  }
  return out;
}

async function startEchoServer(): Promise<{ address: string; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", SERVER_SCRIPT], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("echo server did not start within 10 s")),
        10_000,
      );
      child.stdout!.once("data", (d: Buffer) => {
        clearTimeout(timer);
        resolve(d.toString().trim());
      });
      child.once("exit", (code) => reject(new Error(`echo server exited (${code})`)));
    });
    return { address: `127.0.0.1:${port}`, stop };
  } catch (e) {
    stop();
    throw e;
  }
}

export async function runFloor(opts: { log: (line: string) => void }): Promise<FloorResult> {
  const dir = mkdtempSync(join(tmpdir(), "palisade-floor-"));
  const server = await startEchoServer();
  const Client = grpc.makeGenericClientConstructor(ECHO_SERVICE, "Echo");
  const client = new Client(server.address, grpc.credentials.createInsecure());
  try {
    const fsync = summary(timeFdatasync(dir, 3_000));
    opts.log(`fdatasync p50 ${fsync.p50} ms`);
    const level = summary(await timeLevelBatches(dir, 3_000));
    opts.log(`LevelDB synced batch p50 ${level.p50} ms`);

    const payload = Buffer.alloc(64, 7);
    const unary = (): Promise<void> =>
      new Promise((resolve, reject) => {
        client.makeUnaryRequest(
          ECHO_SERVICE.unary.path,
          identity,
          identity,
          payload,
          { deadline: Date.now() + 10_000 },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    for (let i = 0; i < 500; i++) await unary(); // warm-up: connection, JIT
    const unaryLat: number[] = [];
    for (let i = 0; i < 3_000; i++) {
      const t = performance.now();
      await unary();
      unaryLat.push(performance.now() - t);
    }
    const unaryC1 = summary(unaryLat);
    opts.log(`grpc unary c=1 p50 ${unaryC1.p50} ms`);

    let calls = 0;
    const until = performance.now() + 3_000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (performance.now() < until) {
          await unary();
          calls++;
        }
      }),
    );
    const callsPerS = Math.round(calls / ((performance.now() - started) / 1000));
    opts.log(`grpc unary c=64 ${callsPerS} calls/s`);

    const stream = client.makeBidiStreamRequest(ECHO_SERVICE.stream.path, identity, identity);
    const streamLat: number[] = [];
    await new Promise<void>((resolve, reject) => {
      let sentAt = 0;
      let n = 0;
      stream.on("error", reject);
      stream.on("data", () => {
        if (n++ >= 300) streamLat.push(performance.now() - sentAt);
        if (n >= 3_300) {
          stream.end();
          resolve();
          return;
        }
        sentAt = performance.now();
        stream.write(payload);
      });
      sentAt = performance.now();
      stream.write(payload);
    });
    const streamRtt = summary(streamLat);
    opts.log(`grpc stream round trip p50 ${streamRtt.p50} ms`);

    const acquireFloor =
      unaryC1.p50 !== null && streamRtt.p50 !== null && level.p50 !== null
        ? unaryC1.p50 + streamRtt.p50 + level.p50
        : null;
    return {
      fdatasync_ms: fsync,
      leveldb_sync_batch_ms: level,
      grpc_unary_c1_ms: unaryC1,
      grpc_unary_c64_calls_per_s: callsPerS,
      grpc_stream_rtt_ms: streamRtt,
      acquire_c1_floor_ms: round(acquireFloor),
      uncontended_c64_ceiling_cycles_per_s: Math.round(callsPerS / 2),
      contended_ceiling_handoffs_per_s:
        acquireFloor === null ? null : Math.round(1000 / acquireFloor),
    };
  } finally {
    client.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
