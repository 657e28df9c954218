// The fenced store as an HTTP service.
//   GET  /items/KEY        (Fencing-Token required)  -> 200 JSON list
//   PUT  /items/KEY        (Fencing-Token required, JSON list body) -> 204
//   GET  /inspect/items/KEY (no token; for operators)  -> 200 JSON list
// A token lower than one already admitted for KEY gets 409 Conflict.
// Run: npx tsx examples/fenced-store/server.ts --dir ./data/fenced-store [--port 8080] [--no-fence]
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  FenceRejectedError,
  FencingTokenHeaderError,
  tokenFromHeaders,
} from "../../client/fence/index.ts";
import { openFencedStore, openUnfencedStore, type ItemStore } from "./store.ts";

export interface StoreServer {
  readonly url: string;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

function send(res: ServerResponse, status: number, payload?: unknown): void {
  if (payload === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
}

async function handle(
  store: ItemStore,
  fenced: boolean,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://store").pathname;
  const inspect = /^\/inspect\/items\/([^/]+)$/.exec(path);
  if (inspect && req.method === "GET")
    return send(res, 200, await store.peek(decodeURIComponent(inspect[1])));
  const item = /^\/items\/([^/]+)$/.exec(path);
  if (!item) return send(res, 404, { error: "no such route" });
  const key = decodeURIComponent(item[1]);
  // With the fence off the token is not even read: any caller is trusted.
  const token = fenced ? tokenFromHeaders(req) : 0n;
  if (req.method === "GET") return send(res, 200, await store.read(key, token));
  if (req.method === "PUT") {
    const items = JSON.parse(await body(req)) as unknown;
    if (!Array.isArray(items) || !items.every((x) => typeof x === "string"))
      return send(res, 400, { error: "body must be a JSON list of strings" });
    await store.write(key, token, items);
    return send(res, 204);
  }
  send(res, 405, { error: "GET or PUT" });
}

export async function startStoreServer(options: {
  dir: string;
  port?: number;
  fenced: boolean;
}): Promise<StoreServer> {
  const store = options.fenced
    ? await openFencedStore(options.dir)
    : await openUnfencedStore(options.dir);
  const server: Server = createServer((req, res) => {
    handle(store, options.fenced, req, res).catch((err: unknown) => {
      if (err instanceof FenceRejectedError)
        return send(res, 409, { error: err.message, highest: err.highest.toString() });
      if (err instanceof FencingTokenHeaderError)
        return send(res, err.statusCode, { error: err.message });
      send(res, 500, { error: (err as Error).message });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve()),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: "string", default: "data/fenced-store" },
      port: { type: "string", default: "0" },
      "no-fence": { type: "boolean", default: false },
    },
  });
  const fenced = !values["no-fence"];
  const server = await startStoreServer({ dir: values.dir, port: Number(values.port), fenced });
  console.log(`listening ${server.url} (fence ${fenced ? "on" : "off"})`);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
