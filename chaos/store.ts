// The fenced store of the chaos suite: one counter per key behind a MemoryFence from
// palisade-lock/fence, over HTTP. Every admitted or refused access is printed (admission
// order per key), so the harness can check the fence and the counters independently.
//   GET /c/KEY  -> 200 {"value":N} | 409      (a fenced read; raises the fence)
//   PUT /c/KEY  body {"read":N} -> 204 | 409  (a fenced write of N+1)
// Headers: Fencing-Token, Fencing-Mode (shared for a read under a shared grant: the fence's
// shared-mode rule, which keeps per key the highest exclusive token and the highest of any
// mode; a PUT cannot be shared), x-session (the grant's session), x-req (a request id).
// Run inside the clients' namespace: node dist/chaos/store.js --port 8080
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import {
  FenceRejectedError,
  FencingTokenHeaderError,
  MemoryFence,
  modeFromHeaders,
  tokenFromHeaders,
  type KvTx,
} from "../client/fence/index.ts";
import { emit } from "./protocol.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8080" },
    "no-fence": { type: "boolean", default: false },
  },
});
// --no-fence (the suite's self-check): every token is admitted, as in a store that trusts lock holders.
const fence = new MemoryFence();
const noFence = values["no-fence"];

const plain = new Map<string, string>();

/** The same effect without the fence (for --no-fence). */
async function unfenced(key: string, effect: (tx: KvTx) => Promise<number>): Promise<number> {
  const tx: KvTx = {
    get: async (k) => plain.get(k),
    put: (k, v) => void plain.set(k, v),
    del: (k) => void plain.delete(k),
  };
  return effect(tx);
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return typeof value === "string" ? value : "";
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const match = /^\/c\/([^/?]+)$/.exec(req.url ?? "");
  if (!match) return void res.writeHead(404).end();
  const key = decodeURIComponent(match[1]);
  const token = tokenFromHeaders(req);
  const session = header(req, "x-session");
  const reqId = header(req, "x-req");
  const access = req.method === "PUT" ? "write" : "read";
  const shared = modeFromHeaders(req) === "shared";
  if (shared && access === "write")
    return void res.writeHead(400).end("a write cannot be made under a shared grant");
  const mode = shared ? { mode: "shared" as const } : {};
  const read = access === "write" ? (JSON.parse(await bodyOf(req)) as { read: number }).read : 0;
  try {
    const effect = async (tx: KvTx): Promise<number> => {
      const before = Number((await tx.get(key)) ?? "0");
      if (access === "read") {
        emit({
          t: "admit",
          key,
          token: token.toString(),
          session,
          access,
          ...mode,
          value: before,
          req: reqId,
        });
        return before;
      }
      tx.put(key, String(read + 1));
      emit({
        t: "admit",
        key,
        token: token.toString(),
        session,
        access,
        value: read + 1,
        basedOn: read,
        before,
        req: reqId,
      });
      return read + 1;
    };
    const value = noFence
      ? await unfenced(key, effect)
      : await fence.guard(key, token, effect, { access, ...mode });
    if (access === "read")
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ value }));
    else res.writeHead(204).end();
  } catch (err) {
    if (!(err instanceof FenceRejectedError)) throw err;
    emit({
      t: "refuse",
      key,
      token: token.toString(),
      session,
      access,
      ...mode,
      highest: err.highest.toString(),
    });
    res.writeHead(409).end();
  }
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    const status = err instanceof FencingTokenHeaderError ? err.statusCode : 500;
    res.writeHead(status).end(String((err as Error).message));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), "0.0.0.0", () => emit({ t: "ready", what: "store" }));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
