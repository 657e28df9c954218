// A client of the fenced store doing a read-modify-write under a Palisade lock: acquire,
// read the list, (optionally wait for a line on stdin), append its name, write the list
// back with its token. It never checks whether it still holds the lock before writing,
// as a process that was paused cannot know it was: the store's fence has to refuse it.
// Each step is printed as one JSON line.
// Run: npx tsx examples/fenced-store/worker.ts --store http://127.0.0.1:8080 --name worker-1
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { PalisadeClient } from "../../client/index.ts";
import { fencedFetch } from "../../client/fence/index.ts";

export type WorkerEvent =
  | { event: "acquired"; name: string; token: string; sessionId: string }
  | { event: "read"; name: string; items: string[] }
  | { event: "paused"; name: string }
  | {
      event: "write";
      name: string;
      token: string;
      items: string[];
      sessionLost: boolean;
      status: number;
      answer: string;
    }
  | { event: "released"; name: string; error?: string }
  | { event: "not-acquired"; name: string };

function emit(event: WorkerEvent): void {
  console.log(JSON.stringify(event));
}

function firstLine(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.once("line", () => {
      lines.close();
      resolve();
    });
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      endpoints: {
        type: "string",
        default: process.env.PALISADE_ENDPOINTS ?? "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003",
      },
      store: { type: "string", default: "http://127.0.0.1:8080" },
      lock: { type: "string", default: "fenced-store/orders" },
      key: { type: "string", default: "orders" },
      name: { type: "string", default: "worker" },
      ttl: { type: "string", default: "3000" },
      wait: { type: "string", default: "30000" },
      "pause-before-write": { type: "boolean", default: false },
    },
  });
  const name = values.name;
  const client = new PalisadeClient({ endpoints: values.endpoints.split(","), clientName: name });
  try {
    const session = await client.openSession({ ttlMs: Number(values.ttl) });
    const { acquired, token } = await session.acquire(values.lock, { waitMs: Number(values.wait) });
    if (!acquired || token === undefined) {
      emit({ event: "not-acquired", name });
      return 2;
    }
    emit({ event: "acquired", name, token: token.toString(), sessionId: session.id.toString() });
    const itemUrl = `${values.store}/items/${encodeURIComponent(values.key)}`;
    const read = await fencedFetch(token, itemUrl);
    if (read.status !== 200) throw new Error(`read answered ${read.status}: ${await read.text()}`);
    const items = (await read.json()) as string[];
    emit({ event: "read", name, items });
    if (values["pause-before-write"]) {
      emit({ event: "paused", name });
      await firstLine();
    }
    // Deliberately not consulting session.signal: the point is what the store does.
    const next = [...items, name];
    const write = await fencedFetch(token, itemUrl, { method: "PUT", body: JSON.stringify(next) });
    emit({
      event: "write",
      name,
      token: token.toString(),
      items: next,
      sessionLost: session.signal.aborted,
      status: write.status,
      answer: await write.text(),
    });
    try {
      await session.release(values.lock, token);
      await session.close();
      emit({ event: "released", name });
    } catch (err) {
      emit({ event: "released", name, error: (err as Error).message });
    }
    return write.status === 204 ? 0 : 4;
  } finally {
    await client.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
