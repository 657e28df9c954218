// The chaos run's load on the Stream RPC, run inside the clients' namespace beside the
// workers, in one of two modes:
// - `waits`: one client (the library's defaults: the stream) with `--sessions` sessions, each
//   waiting for `--waits` locks that a session of its own holds. It prints a "waits-ready"
//   record once every wait is queued on the cluster, and on "stop" how many of its sessions
//   it lost.
// - `flood`: a raw Stream call to `--endpoint` that sends requests (reads, batched keepalives
//   of unknown ids, requests that carry no call) as fast as the transport takes them and
//   never reads an answer. On "stop" it prints what it sent.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { PalisadeClient, type Session } from "../client/index.ts";
import { palisade } from "../proto/gen/palisade.js";
import { asBuffer, lockServiceDefinition } from "../proto/grpc.ts";
import { packFrame } from "../proto/stream-frames.ts";
import { toU64 } from "../proto/wire.ts";
import { emit } from "./protocol.ts";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "waits" },
    endpoints: { type: "string", default: "" },
    endpoint: { type: "string", default: "" },
    sessions: { type: "string", default: "64" },
    waits: { type: "string", default: "64" },
    ttl: { type: "string", default: "10000" },
  },
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let stopping = false;
const stopped = new Promise<void>((resolve) => {
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line.trim() !== "stop") return;
    stopping = true;
    resolve();
  });
});

async function waits(): Promise<void> {
  const client = new PalisadeClient({
    endpoints: values.endpoints.split(","),
    clientName: "stream-load-waits",
  });
  const count = Number(values.sessions);
  const perSession = Number(values.waits);
  const ttlMs = Number(values.ttl);
  const names = Array.from({ length: perSession }, (_, i) => `stream-load/held-${i}`);
  const started = Date.now();
  // Each loss is logged with its reason and time, so a failed phase says which path lost it.
  const watch = (session: Session, label: string): void =>
    session.onLost((reason) =>
      emit({
        t: "log",
        msg: `stream-load waits: ${label} lost at ${((Date.now() - started) / 1000).toFixed(1)} s: ${reason}`,
      }),
    );
  const holder = await client.openSession({ ttlMs });
  watch(holder, "holder");
  for (const name of names) await holder.acquire(name, { waitMs: 60_000 });
  const sessions: Session[] = [];
  const pending: Array<Promise<unknown>> = [];
  for (let s = 0; s < count; s++) {
    const session = await client.openSession({ ttlMs });
    sessions.push(session);
    watch(session, `session ${s}`);
    for (const name of names)
      pending.push(session.acquire(name, { waitMs: 3_600_000 }).catch((err: unknown) => err));
    await sleep(50); // the waits are the load, not one turn issuing thousands of calls
  }
  while (!stopping) {
    const info = await client.read.getLock(names[names.length - 1]!).catch(() => undefined);
    if (info && info.waiters.length >= count) break;
    await sleep(500);
  }
  emit({ t: "stream-load", what: "waits-ready", sessions: count + 1, waits: count * perSession });
  await stopped;
  const all = [holder, ...sessions];
  const lost = all.filter((s) => s.state !== "open").length;
  emit({
    t: "stream-load",
    what: "waits-final",
    sessions: all.length,
    lost,
    waits: count * perSession,
  });
  await client.close();
  await Promise.all(pending);
}

async function flood(): Promise<void> {
  const pb = palisade.v1;
  const stream = lockServiceDefinition.Stream;
  const client = new grpc.Client(values.endpoint, grpc.credentials.createInsecure());
  let frames = 0;
  let requests = 0;
  let nextId = 1;
  const ids = Array.from({ length: 64 }, (_, i) => toU64(900_000_000 + i));
  const frame = (): Buffer => {
    const entries: Uint8Array[] = [];
    for (let i = 0; i < 1_024; i++) {
      const id = toU64(nextId++);
      const kind = i % 3;
      entries.push(
        pb.StreamRequest.encode(
          kind === 0
            ? { id, getLock: { lock: "stream-load/read" } }
            : kind === 1
              ? { id, keepAlive: { sessionIds: ids } }
              : { id },
        ).finish(),
      );
    }
    return packFrame(entries, 0, Number.MAX_SAFE_INTEGER, entries.length).frame;
  };
  while (!stopping) {
    // A stream that never reads; the node may end it (then another is opened).
    const call = client.makeBidiStreamRequest<Buffer, Buffer>(stream.path, asBuffer, (b) => b);
    let ended = false;
    call.on("error", () => (ended = true));
    call.on("end", () => (ended = true));
    while (!stopping && !ended) {
      const more = call.write(frame());
      frames++;
      requests += 1_024;
      if (!more)
        await Promise.race([new Promise((r) => call.once("drain", r)), stopped, sleep(1_000)]);
    }
    call.cancel();
  }
  emit({ t: "stream-load", what: "flood-final", frames, requests });
  client.close();
}

try {
  await (values.mode === "flood" ? flood() : waits());
} catch (err) {
  emit({ t: "log", msg: `stream-load ${values.mode}: ${(err as Error).stack ?? String(err)}` });
}
process.exit(0);
