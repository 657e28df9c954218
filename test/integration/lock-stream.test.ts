// The Stream RPC on real node processes: the client's lock calls share one stream per node,
// many to a frame; the unary RPCs still serve; bad frames end only their stream; a client
// that stops reading its answers holds up only itself.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { lockServiceDefinition } from "../../proto/grpc.ts";
import { REASON_METADATA_KEY, toU64 } from "../../proto/wire.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

const pb = palisade.v1;
const STREAM = lockServiceDefinition.Stream;

/** The sum of a metric's samples whose labels include `labels`, on one node. */
async function metric(cluster: Cluster, id: number, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${cluster.metricsOrigin(id)}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `)) || !line.includes(labels))
      continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

interface StreamStats {
  framesIn: number;
  callsIn: number;
}

async function streamStats(cluster: Cluster, id: number): Promise<StreamStats> {
  return {
    framesIn: await metric(cluster, id, "palisade_client_stream_frames_total", 'direction="in"'),
    callsIn: await metric(cluster, id, "palisade_client_stream_calls_total", 'direction="in"'),
  };
}

/**
 * A reading summed over the nodes: a client follows the leader wherever a loaded machine's
 * elections move it, and whichever node it reaches counts its calls.
 */
async function onEveryNode(
  cluster: Cluster,
  read: (id: number) => Promise<number>,
): Promise<number> {
  return (await Promise.all(cluster.ids.map(read))).reduce((a, b) => a + b, 0);
}

async function clusterStreamStats(cluster: Cluster): Promise<StreamStats> {
  return {
    framesIn: await onEveryNode(cluster, async (id) => (await streamStats(cluster, id)).framesIn),
    callsIn: await onEveryNode(cluster, async (id) => (await streamStats(cluster, id)).callsIn),
  };
}

/** A raw Stream call on `endpoint` whose frames are given as bytes. */
function rawStream(endpoint: string): {
  client: grpc.Client;
  call: grpc.ClientDuplexStream<Uint8Array, Buffer>;
} {
  const client = new grpc.Client(endpoint, grpc.credentials.createInsecure());
  const call = client.makeBidiStreamRequest<Uint8Array, Buffer>(
    STREAM.path,
    (b) => Buffer.from(b),
    (b) => b,
  );
  return { client, call };
}

function streamEnd(
  call: grpc.ClientDuplexStream<Uint8Array, Buffer>,
): Promise<grpc.ServiceError | null> {
  return new Promise((resolve) => {
    call.on("error", (e: grpc.ServiceError) => resolve(e));
    call.on("end", () => resolve(null));
  });
}

const getLocks = (from: number, count: number, lock: string): Uint8Array =>
  pb.ClientFrame.encode({
    requests: Array.from({ length: count }, (_, i) => ({ id: toU64(from + i), getLock: { lock } })),
  }).finish();

describe("lock calls on the Stream RPC", () => {
  let cluster: Cluster;
  let leader: number;

  clusterForTests({ metrics: true }, async (started) => {
    cluster = started;
    leader = await cluster.leaderId();
  });

  it("a client's concurrent lock calls travel on the stream to the leader, many to a frame", async () => {
    const client = cluster.client({ endpoints: [cluster.endpoint(leader)] });
    const before = await clusterStreamStats(cluster);
    const session = await client.openSession({ ttlMs: 10_000 });
    const names = Array.from({ length: 50 }, (_, i) => `stream-batch-${i}`);
    const got = await Promise.all(names.map((name) => session.acquire(name)));
    expect(got.every((g) => g.acquired)).toBe(true);
    await Promise.all(got.map((g, i) => session.release(names[i]!, g.token ?? 0n)));
    const after = await clusterStreamStats(cluster);
    const calls = after.callsIn - before.callsIn;
    const frames = after.framesIn - before.framesIn;
    expect(calls).toBeGreaterThanOrEqual(101); // OpenSession, 50 Acquires, 50 Releases (and keepalives)
    expect(frames).toBeLessThan(calls / 5);
    await session.close();
  });

  it("the keepalives of a client's sessions with one TTL travel as one call in one stream message per period", async () => {
    const client = cluster.client({ endpoints: [cluster.endpoint(leader)] });
    // A TTL a stall of this loaded process does not outlast; keepalives are counted, not timed.
    const sessions = await Promise.all(
      Array.from({ length: 200 }, () => client.openSession({ ttlMs: 10_000 })),
    );
    const acked = new Map(sessions.map((s) => [s, 0]));
    for (const s of sessions) s.onDeadlineExtended(() => acked.set(s, (acked.get(s) ?? 0) + 1));
    const fewestSince = (from: ReadonlyMap<unknown, number>): number =>
      Math.min(...sessions.map((s) => (acked.get(s) ?? 0) - (from.get(s) ?? 0)));
    try {
      // Past the first, possibly unaligned, keepalive of every session.
      await cluster.waitFor("every session's first keepalive", () =>
        Promise.resolve(fewestSince(new Map()) >= 1),
      );
      // Of the acknowledgements counted from here, one per session may have been counted by
      // the leader before the readings below: three each leave two or more in the window.
      const ackedBefore = new Map(acked);
      const readings = async (): Promise<StreamStats & { kept: number }> => ({
        ...(await clusterStreamStats(cluster)),
        kept: await onEveryNode(cluster, (id) =>
          metric(cluster, id, "palisade_session_keepalives_total"),
        ),
      });
      const before = await readings();
      await cluster.waitFor(
        "three more keepalives of every session",
        () => Promise.resolve(fewestSince(ackedBefore) >= 3),
        {
          progress: () => Promise.resolve(fewestSince(ackedBefore)),
        },
      );
      const after = await readings();
      const kept = after.kept - before.kept;
      const calls = after.callsIn - before.callsIn;
      const frames = after.framesIn - before.framesIn;
      expect(kept).toBeGreaterThanOrEqual(400); // two or three keepalives per session
      // Batched: one KeepAlive call carries a period's keepalives, in one message; a
      // slow turn splits them in two or three, so the bound is on keepalives per call and per
      // message (the bench measures both per second).
      expect(calls).toBeLessThanOrEqual(kept / 20);
      expect(frames).toBeLessThanOrEqual(kept / 20);
      expect(sessions.every((s) => !s.signal.aborted)).toBe(true);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  });

  it("a frame that is not a ClientFrame ends only its stream, with INVALID_ARGUMENT and a reason", async () => {
    const { client, call } = rawStream(cluster.endpoint(leader));
    try {
      const ended = streamEnd(call);
      call.write(Uint8Array.from([0x0a, 0x05, 0xff, 0xff])); // a field that claims more bytes than it has
      const error = await ended;
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.metadata.get(REASON_METADATA_KEY)).toEqual(["ERROR_REASON_MALFORMED_REQUEST"]);
    } finally {
      client.close();
    }
    const session = await cluster.client().openSession({ ttlMs: 5_000 });
    expect((await session.acquire("stream-after-bad-frame")).acquired).toBe(true);
    await session.close();
  });

  it("a client that stops reading its answers is held back while other clients are served, and gets every answer once it reads", async () => {
    const { client, call } = rawStream(cluster.endpoint(leader));
    try {
      const answered = new Set<string>();
      let duplicates = 0;
      call.on("data", (bytes: Buffer) => {
        for (const a of pb.ServerFrame.decode(bytes).answers) {
          const id = String(a.id);
          if (answered.has(id)) duplicates++;
          answered.add(id);
        }
      });
      call.pause();
      const frames = 10;
      const perFrame = 2_000;
      for (let f = 0; f < frames; f++)
        call.write(getLocks(1 + f * perFrame, perFrame, "stream-unread"));
      // Well past the node's in-flight cap: it stopped reading this stream, not serving.
      const other = await cluster.client().openSession({ ttlMs: 5_000 });
      expect((await other.acquire("stream-unread")).acquired).toBe(true);
      await other.close();
      call.resume();
      await cluster.waitFor(
        "every request answered",
        async () => answered.size === frames * perFrame,
        30_000,
      );
      expect(duplicates).toBe(0);
      const ended = streamEnd(call);
      call.end();
      expect(await ended).toBeNull(); // the node closes with OK once the client is done
    } finally {
      client.close();
    }
  });

  // Kills the leader: keep it last in this file.
  it("streamed writes in flight as the leader is killed each take effect once, and the session survives", async () => {
    const client = cluster.client({ clientName: "stream-failover" });
    const session = await client.openSession({ ttlMs: 10_000 });
    const held = Array.from({ length: 30 }, (_, i) => `stream-failover-held-${i}`);
    const fresh = Array.from({ length: 30 }, (_, i) => `stream-failover-fresh-${i}`);
    const current = await cluster.leaderId();
    const framesBefore = (await streamStats(cluster, current)).framesIn;
    const heldTokens = await Promise.all(
      held.map(async (name) => (await session.acquire(name)).token ?? 0n),
    );
    expect((await streamStats(cluster, current)).framesIn).toBeGreaterThan(framesBefore); // the calls went on the stream
    // 30 releases and 30 acquires (60 writes: a session takes 64 at once) leave on the stream as the leader is killed; each is
    // retried with its seq on the next leader.
    const releases = held.map((name, i) => session.release(name, heldTokens[i]!));
    const acquires = fresh.map((name) => session.acquire(name, { waitMs: 10_000 }));
    const killed = cluster.kill(current, "SIGKILL");
    await Promise.all(releases);
    const got = await Promise.all(acquires);
    await killed;
    expect(got.every((g) => g.acquired)).toBe(true);
    expect(session.signal.aborted).toBe(false);
    // One grant per name, and one release of each held one: no retry took effect twice.
    for (const [i, name] of held.entries()) {
      expect(
        (await client.read.history(name)).map((r) => [r.token, r.sessionId, r.reason]),
      ).toEqual([[heldTokens[i], session.id, "released"]]);
    }
    for (const [i, name] of fresh.entries()) {
      expect(
        (await client.read.history(name)).map((r) => [r.token, r.sessionId, r.reason]),
      ).toEqual([[got[i]!.token, session.id, "current"]]);
    }
    await session.close();
    await cluster.restart(current);
  });
});
