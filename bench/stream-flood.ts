// A flood of the largest keepalive frames on the Stream RPC against a three-node cluster
// (product defaults, metrics on): `clients` raw streams at the leader, each sending, for
// `seconds`, frames just under the client port's message limit (requests of 10,000 small
// session ids, as many as a request could carry before the stream's limits) and frames at
// the stream's own frame limit (keepalives of 4,096 small ids each), reading their answers.
// Reported: the largest event-loop delay on the leader over the flood (prom-client's
// nodejs_eventloop_lag_max_seconds, read every second, which resets it), against
// STREAM_FLOOD_BOUND_MS, beside the same over 10 s of the idle cluster before it;
// leader changes and the term before and after; frames and requests sent. Every process and
// folder is removed at the end, also on failure.
import * as grpc from "@grpc/grpc-js";
import { PalisadeClient } from "../client/index.ts";
import { palisade } from "../proto/gen/palisade.js";
import { asBuffer, lockServiceDefinition } from "../proto/grpc.ts";
import { packFrame } from "../proto/stream-frames.ts";
import { MAX_KEEPALIVE_SESSION_IDS, STREAM_MAX_FRAME_BYTES, toU64 } from "../proto/wire.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep } from "./cluster-control.ts";
import { addMetricsAddresses } from "./memory.ts";
import { metricSum } from "./prom-text.ts";
import { failed, type Parts, type StreamFloodResult } from "./report-data.ts";

/** The largest event-loop delay on the leader the flood may cause: well under an election timeout (500–1,000 ms). */
export const STREAM_FLOOD_BOUND_MS = 100;
/** Seconds of the same reading before the flood. */
const IDLE_SECONDS = 10;
/** The client port's message limit (the default limits.maxMessageBytes). */
const PORT_LIMIT = 4 * 1024 * 1024;

export interface StreamFloodOptions {
  seconds: number;
  clients: number;
  log: (line: string) => void;
}

const pb = palisade.v1;
const STREAM = lockServiceDefinition.Stream;

function keepAliveEntry(id: number, ids: number): Uint8Array {
  return pb.StreamRequest.encode({
    id: toU64(id),
    keepAlive: { sessionIds: Array.from({ length: ids }, (_, i) => toU64(i + 1)) },
  }).finish();
}

/** The frames one flooding client sends, in turn. */
function floodFrames(): Array<{ frame: Buffer; requests: number }> {
  const old = keepAliveEntry(1, 10_000);
  const portCount = Math.floor((PORT_LIMIT - 1024) / (old.byteLength + 4));
  const portSized = packFrame(
    Array.from({ length: portCount }, () => old),
    0,
    PORT_LIMIT,
    portCount,
  ).frame;
  const entry = keepAliveEntry(1, MAX_KEEPALIVE_SESSION_IDS);
  const streamCount = Math.floor(STREAM_MAX_FRAME_BYTES / (entry.byteLength + 4));
  // Distinct ids per request: a stream refuses a request whose id is still in flight.
  const streamSized = packFrame(
    Array.from({ length: streamCount }, (_, i) => keepAliveEntry(i + 1, MAX_KEEPALIVE_SESSION_IDS)),
    0,
    STREAM_MAX_FRAME_BYTES,
    streamCount,
  ).frame;
  return [
    { frame: portSized, requests: portCount },
    { frame: streamSized, requests: streamCount },
  ];
}

/** One frame on a stream of its own; resolves once every answer came or the node ended the stream. */
function sendOne(client: grpc.Client, frame: Buffer, requests: number): Promise<void> {
  return new Promise((resolve) => {
    const call = client.makeBidiStreamRequest<Buffer, palisade.v1.ServerFrame>(
      STREAM.path,
      asBuffer,
      STREAM.responseDeserialize,
    );
    let answers = 0;
    const done = (): void => {
      call.removeAllListeners();
      call.on("error", () => undefined);
      call.cancel();
      resolve();
    };
    call.on("data", (f: palisade.v1.ServerFrame) => {
      answers += f.answers.length;
      if (answers >= requests) done();
    });
    call.on("error", done);
    call.on("end", done);
    call.write(frame);
  });
}

async function metricsPage(address: string | undefined): Promise<string> {
  if (!address) return "";
  try {
    return await (
      await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(5_000) })
    ).text();
  } catch {
    return "";
  }
}

export async function runStreamFlood(options: StreamFloodOptions): Promise<StreamFloodResult> {
  const dir = makeTempDir("palisade-stream-flood-");
  const cluster = await BenchCluster.create(dir);
  const metricsAddresses = await addMetricsAddresses(cluster.configPath);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 1_000,
    retryBudgetMs: 2_000,
  });
  const clients: grpc.Client[] = [];
  try {
    cluster.startAll();
    await cluster.waitServing();
    const leader = await cluster.waitLeader(admin);
    const leaderMetrics = metricsAddresses.get(leader);
    const changesOf = async (): Promise<number> => {
      let sum = 0;
      for (const id of cluster.ids)
        sum +=
          metricSum(
            await metricsPage(metricsAddresses.get(id)),
            "palisade_raft_leader_changes_total",
          ) ?? 0;
      return sum;
    };
    const termOf = async (): Promise<number> =>
      metricSum(await metricsPage(leaderMetrics), "palisade_raft_term") ?? -1;
    const changesBefore = await changesOf();
    const termBefore = await termOf();
    // The same reading with no flood first: what the machine alone gives.
    await metricsPage(leaderMetrics); // resets the lag maximum
    let idleLagMs = 0;
    for (let i = 0; i < IDLE_SECONDS; i++) {
      await sleep(1_000);
      idleLagMs = Math.max(
        idleLagMs,
        (metricSum(await metricsPage(leaderMetrics), "nodejs_eventloop_lag_max_seconds") ?? 0) *
          1_000,
      );
    }
    const frames = floodFrames();
    let framesSent = 0;
    let requestsSent = 0;
    let maxLagMs = 0;
    const until = performance.now() + options.seconds * 1_000;
    const flooders = Array.from({ length: options.clients }, async () => {
      const client = new grpc.Client(
        cluster.endpointOf(leader),
        grpc.credentials.createInsecure(),
        { "grpc.max_receive_message_length": PORT_LIMIT },
      );
      clients.push(client);
      for (let i = 0; performance.now() < until; i++) {
        const { frame, requests } = frames[i % frames.length]!;
        await sendOne(client, frame, requests);
        framesSent++;
        requestsSent += requests;
      }
    });
    const sampler = (async () => {
      while (performance.now() < until) {
        await sleep(1_000);
        const lag = metricSum(await metricsPage(leaderMetrics), "nodejs_eventloop_lag_max_seconds");
        if (lag !== null) maxLagMs = Math.max(maxLagMs, lag * 1_000);
      }
    })();
    await Promise.all([...flooders, sampler]);
    const lag = metricSum(await metricsPage(leaderMetrics), "nodejs_eventloop_lag_max_seconds");
    if (lag !== null) maxLagMs = Math.max(maxLagMs, lag * 1_000);
    const result: StreamFloodResult = {
      seconds: options.seconds,
      clients: options.clients,
      leader_max_event_loop_delay_ms: Math.round(maxLagMs),
      leader_max_event_loop_delay_before_ms: Math.round(idleLagMs),
      bound_ms: STREAM_FLOOD_BOUND_MS,
      met: maxLagMs <= STREAM_FLOOD_BOUND_MS,
      leader_changes: (await changesOf()) - changesBefore,
      term_before: termBefore,
      term_after: await termOf(),
      frames_sent: framesSent,
      requests_sent: requestsSent,
      config: `3 nodes, product defaults; ${options.clients} raw Stream clients at the leader for ${options.seconds} s, alternating a ${(frames[0]!.frame.byteLength / 1048576).toFixed(2)} MiB frame of ${frames[0]!.requests} KeepAlive × 10,000 ids and a ${(frames[1]!.frame.byteLength / 1048576).toFixed(2)} MiB frame of ${frames[1]!.requests} × ${MAX_KEEPALIVE_SESSION_IDS} ids, each on a stream of its own`,
    };
    options.log(
      `stream-flood: leader's largest event-loop delay ${result.leader_max_event_loop_delay_ms} ms (bound ${STREAM_FLOOD_BOUND_MS} ms; ${result.leader_max_event_loop_delay_before_ms} ms idle before), ${result.leader_changes} leader changes, term ${termBefore} → ${result.term_after}, ${framesSent} frames sent`,
    );
    return result;
  } finally {
    for (const c of clients) c.close();
    await admin.close();
    await cluster.stopAll();
    removeTempDir(dir);
  }
}

/** The report's section on the flood. */
export function renderStreamFlood(parts: Parts): string {
  const f = parts.stream_flood;
  if (!f) return "";
  if (failed(f)) return `### Flood of keepalive frames on the Stream RPC\n\nfailed: ${f.error}\n`;
  return [
    "### Flood of keepalive frames on the Stream RPC (the leader's largest event-loop delay)",
    "",
    `${f.config}.`,
    "",
    "| largest event-loop delay on the leader ms | the same, idle, before ms | bound ms | met | leader changes | term before → after | frames sent | requests sent |",
    "|---:|---:|---:|---|---:|---|---:|---:|",
    `| ${f.leader_max_event_loop_delay_ms} | ${f.leader_max_event_loop_delay_before_ms} | ${f.bound_ms} | ${f.met ? "yes" : "NO"} | ${f.leader_changes} | ${f.term_before} → ${f.term_after} | ${f.frames_sent} | ${f.requests_sent} |`,
    "",
  ].join("\n");
}
