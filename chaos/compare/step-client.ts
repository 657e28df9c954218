// One client of a comparison scenario, driven step by step over stdin (one JSON command a
// line, one JSON answer a line), so the harness can stop it between steps. It locks with
// Palisade, a single Redis, or Redlock, and reads and writes a counter of the store.
//   {"cmd":"acquire"} {"cmd":"read"} {"cmd":"write"} {"cmd":"release"} {"cmd":"loop","ms":N}
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { PalisadeClient, type Session } from "../../client/index.ts";
import { FENCING_TOKEN_HEADER } from "../../client/fence/index.ts";
import { RedisLockClient, type RedisGrant } from "./redis-locks.ts";

const { values } = parseArgs({
  options: {
    system: { type: "string", default: "palisade" },
    name: { type: "string", default: "client" },
    endpoints: { type: "string", default: "" },
    redis: { type: "string", default: "" },
    store: { type: "string", default: "" },
    lock: { type: "string", default: "cmp" },
    key: { type: "string", default: "cmp" },
    ttl: { type: "string", default: "2000" },
  },
});
const ttlMs = Number(values.ttl);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let palisade: PalisadeClient | undefined;
let session: Session | undefined;
let redis: RedisLockClient | undefined;
if (values.system === "palisade")
  palisade = new PalisadeClient({
    endpoints: values.endpoints.split(","),
    clientName: values.name,
    callTimeoutMs: 1_000,
  });
else
  redis = new RedisLockClient(
    values.redis
      .split(",")
      .map((hp) => ({ host: hp.split(":")[0], port: Number(hp.split(":")[1]) })),
  );

let token = 1n;
let grant: RedisGrant | undefined;
let lastRead = 0;
/** How long an acquire waits: 4 s in the scripted steps, 1 s in the loop. */
let looping = false;
const waitMs = (): number => (looping ? 1_000 : 4_000);

async function acquire(): Promise<Record<string, unknown>> {
  if (palisade) {
    session ??= await palisade.openSession({ ttlMs });
    const r = await session.acquire(values.lock, { waitMs: waitMs() });
    if (r.acquired && r.token !== undefined) token = r.token;
    return { ok: r.acquired, token: r.token?.toString() };
  }
  // Redis: retry for a while, as a client waiting for the lock would.
  const giveUp = Date.now() + waitMs();
  while (Date.now() < giveUp) {
    grant = await redis!.acquire(values.lock, ttlMs);
    if (grant)
      return { ok: true, validityMs: Math.round(grant.validityMs), servers: grant.servers };
    await sleep(50);
  }
  return { ok: false };
}

async function storeCall(method: "GET" | "PUT"): Promise<Record<string, unknown>> {
  const res = await fetch(`${values.store}/c/${encodeURIComponent(values.key)}`, {
    method,
    headers: {
      [FENCING_TOKEN_HEADER]: token.toString(),
      "x-session": values.name,
      "x-req": `${values.name}.${method}`,
      "content-type": "application/json",
    },
    ...(method === "PUT" ? { body: JSON.stringify({ read: lastRead }) } : {}),
    signal: AbortSignal.timeout(5_000),
  });
  if (method === "GET" && res.status === 200) {
    lastRead = ((await res.json()) as { value: number }).value;
    return { status: 200, value: lastRead };
  }
  await res.arrayBuffer();
  return { status: res.status };
}

async function release(): Promise<Record<string, unknown>> {
  if (session) {
    await session.release(values.lock, token).catch(() => undefined);
    return { ok: true };
  }
  if (grant) await redis!.release(values.lock, grant.value);
  return { ok: true };
}

/** The fenced-counter task in a loop for `ms` (the random-pauses scenario). */
async function loop(ms: number): Promise<Record<string, unknown>> {
  const until = Date.now() + ms;
  looping = true;
  let acked = 0;
  let refused = 0;
  while (Date.now() < until) {
    try {
      if (session && session.state !== "open") session = undefined;
      const got = await acquire();
      if (got.ok !== true) continue;
      const read = await storeCall("GET");
      if (read.status === 200) {
        await sleep(Math.floor(Math.random() * 30));
        const wrote = await storeCall("PUT");
        if (wrote.status === 204) acked++;
        else refused++;
      } else refused++;
      await release();
    } catch {
      await sleep(50);
    }
  }
  return { acked, refused };
}

const steps: Record<string, (arg: number) => Promise<Record<string, unknown>>> = {
  acquire,
  read: () => storeCall("GET"),
  write: () => storeCall("PUT"),
  release,
  loop,
};
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const { cmd, ms } = JSON.parse(line) as { cmd: string; ms?: number };
  queue = queue.then(async () => {
    try {
      const answer = cmd === "exit" ? {} : await steps[cmd](ms ?? 0);
      process.stdout.write(`${JSON.stringify({ cmd, ...answer })}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ cmd, error: (err as Error).message })}\n`);
    }
    if (cmd === "exit") {
      redis?.close();
      await Promise.race([palisade?.close(), sleep(1_000)]);
      process.exit(0);
    }
  });
});
process.stdout.write(`${JSON.stringify({ cmd: "ready" })}\n`);
