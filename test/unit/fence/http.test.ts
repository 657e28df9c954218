// The HTTP fence on a real Node http server, called with fencedFetch: header checks,
// refusals, and the 33/34 interleavings between requests and inside a handler.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  FenceRejectedError,
  fenceDone,
  fenceMiddleware,
  fencedFetch,
  fencedHandler,
  fencingTokenOf,
} from "../../../client/fence/index.ts";
import type { FenceMiddlewareOptions } from "../../../client/fence/index.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((r) => {
          server.close(() => r());
          // Keep-alive sockets of the test's fetch calls would hold close() for seconds.
          server.closeAllConnections();
        }),
    ),
  );
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
}

/** A list store over HTTP: GET returns the JSON list at a path, PUT replaces it. */
function listStore(
  options: FenceMiddlewareOptions,
  hooks: { beforeWrite?: (token: bigint) => Promise<void> } = {},
) {
  const data = new Map<string, string>();
  const handled: bigint[] = [];
  const handler = fencedHandler(
    options,
    async (req: IncomingMessage, res: ServerResponse, token: bigint) => {
      handled.push(token);
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "PUT") {
        const body = await readBody(req);
        await hooks.beforeWrite?.(token);
        data.set(path, body);
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(data.get(path) ?? "[]");
    },
  );
  return { handler, data, handled };
}

async function getList(base: string, token: bigint): Promise<string[]> {
  const response = await fencedFetch(token, `${base}/orders/42`);
  expect(response.status).toBe(200);
  return (await response.json()) as string[];
}

function putList(base: string, token: bigint, items: string[]): Promise<Response> {
  return fencedFetch(token, `${base}/orders/42`, { method: "PUT", body: JSON.stringify(items) });
}

describe("HTTP fence", () => {
  it("answers 428 without a token, 400 for a malformed one, 409 for a lower one", async () => {
    const store = listStore({});
    const base = await listen(store.handler);
    expect((await fetch(`${base}/orders/42`)).status).toBe(428);
    const malformed = await fetch(`${base}/orders/42`, { headers: { "Fencing-Token": "-3" } });
    expect(malformed.status).toBe(400);
    expect((await putList(base, 34n, ["a"])).status).toBe(204);
    const stale = await putList(base, 33n, ["b"]);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ highest: "34" });
    expect(store.handled).toEqual([34n]);
    expect(store.data.get("/orders/42")).toBe('["a"]');
  });

  it("refuses the former holder's write after the new holder's read (33/34)", async () => {
    const store = listStore({});
    const base = await listen(store.handler);
    expect((await putList(base, 33n, ["seed"])).status).toBe(204);
    const seenBy33 = await getList(base, 33n);
    const seenBy34 = await getList(base, 34n);
    expect((await putList(base, 33n, [...seenBy33, "from-33"])).status).toBe(409);
    expect((await putList(base, 34n, [...seenBy34, "from-34"])).status).toBe(204);
    expect(await getList(base, 34n)).toEqual(["seed", "from-34"]);
  });

  it("loses 33's update when only writes raise the fence (so the test above can tell)", async () => {
    const store = listStore({ readsRaise: false });
    const base = await listen(store.handler);
    expect((await putList(base, 33n, ["seed"])).status).toBe(204);
    const seenBy33 = await getList(base, 33n);
    const seenBy34 = await getList(base, 34n);
    expect((await putList(base, 33n, [...seenBy33, "from-33"])).status).toBe(204);
    expect(store.data.get("/orders/42")).toBe('["seed","from-33"]');
    expect((await putList(base, 34n, [...seenBy34, "from-34"])).status).toBe(204);
    expect(await getList(base, 34n)).toEqual(["seed", "from-34"]);
  });

  it("holds 33 while 34's handler runs, then refuses it without running its handler (33/34 inside the handler)", async () => {
    const inside = deferred();
    const resume = deferred();
    const store = listStore(
      {},
      {
        beforeWrite: async (token) => {
          if (token !== 34n) return;
          inside.resolve();
          await resume.promise;
        },
      },
    );
    const base = await listen(store.handler);
    const by34 = putList(base, 34n, ["from-34"]);
    await inside.promise;
    const by33 = putList(base, 33n, ["from-33"]);
    await until("33 queued behind 34", () => store.handler.waiting("/orders/42") === 1);
    resume.resolve();
    expect((await by34).status).toBe(204);
    expect((await by33).status).toBe(409);
    expect(store.handled).toEqual([34n]);
    expect(store.data.get("/orders/42")).toBe('["from-34"]');
  });

  it("holds 34 while the paused 33's handler runs; 34 then sees 33's write", async () => {
    const inside = deferred();
    const resume = deferred();
    const store = listStore(
      {},
      {
        beforeWrite: async (token) => {
          if (token !== 33n) return;
          inside.resolve();
          await resume.promise;
        },
      },
    );
    const base = await listen(store.handler);
    const by33 = putList(base, 33n, ["from-33"]);
    await inside.promise;
    const read34 = getList(base, 34n);
    await until("34 queued behind 33", () => store.handler.waiting("/orders/42") === 1);
    resume.resolve();
    expect((await by33).status).toBe(204);
    expect(await read34).toEqual(["from-33"]);
    expect((await putList(base, 33n, [])).status).toBe(409);
  });

  it("answers 500 when the handler throws, and frees the resource", async () => {
    let fail = true;
    const handler = fencedHandler({}, (_req, res) => {
      if (fail) throw new Error("handler broke");
      res.writeHead(204).end();
    });
    const base = await listen(handler);
    const broken = await fencedFetch(1n, `${base}/r`, { method: "POST" });
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: "handler broke" });
    fail = false;
    expect((await fencedFetch(1n, `${base}/r`, { method: "POST" })).status).toBe(204);
  });

  it("works as Express-style middleware: refusals go to next(err) with a statusCode", async () => {
    const fence = fenceMiddleware({ resourceOf: (req) => String(req.headers["x-resource"]) });
    const seen: Array<{ status: number; token?: string }> = [];
    const base = await listen((req, res) => {
      fence(req, res, (err) => {
        if (err !== undefined) {
          seen.push({ status: (err as { statusCode: number }).statusCode });
          res.writeHead(599).end();
          return;
        }
        seen.push({ status: 200, token: fencingTokenOf(req)?.toString() });
        res.writeHead(200).end();
      });
    });
    await fencedFetch(5n, base, { method: "POST", headers: { "x-resource": "a" } });
    await fencedFetch(4n, base, { method: "POST", headers: { "x-resource": "a" } });
    await fencedFetch(4n, base, { method: "POST", headers: { "x-resource": "b" } });
    await fetch(base, { headers: { "x-resource": "a" } });
    expect(seen).toEqual([
      { status: 200, token: "5" },
      { status: 409 },
      { status: 200, token: "4" },
      { status: 428 },
    ]);
  });

  it("middleware: a client that disconnects mid-handler keeps the resource held until its handler ends, so no update is lost (33/34)", async () => {
    const fence = fenceMiddleware();
    const data = new Map<string, string[]>();
    const read33 = deferred();
    const resume33 = deferred();
    const closed33 = deferred();
    let ended33 = false;
    const base = await listen((req, res) => {
      fence(req, res, (err) => {
        if (err !== undefined) {
          res.writeHead((err as { statusCode?: number }).statusCode ?? 500).end();
          return;
        }
        void (async () => {
          // A read-modify-write of the list at the path, like a handler that appends an order.
          const token = fencingTokenOf(req);
          const path = new URL(req.url ?? "/", "http://x").pathname;
          const seen = [...(data.get(path) ?? [])];
          if (token === 33n) {
            res.once("close", () => closed33.resolve());
            read33.resolve();
            await resume33.promise;
          }
          data.set(path, [...seen, `from-${token}`]);
          res.writeHead(204).end();
          if (token === 33n) ended33 = true;
        })();
      });
    });

    // 33 reads, then stalls; its HTTP client gives up and drops the connection.
    const abort33 = new AbortController();
    const by33 = fencedFetch(33n, `${base}/orders/42`, {
      method: "POST",
      signal: abort33.signal,
    }).catch((err: unknown) => err);
    await read33.promise;
    abort33.abort();
    await closed33.promise;
    expect(await by33).toBeInstanceOf(Error);

    // 34 arrives while 33's handler still runs: it must wait for it, not be let in.
    let done34 = false;
    const by34 = fencedFetch(34n, `${base}/orders/42`, { method: "POST" }).then((response) => {
      done34 = true;
      return response;
    });
    await until(
      "34 queued behind 33 (or let in)",
      () => fence.waiting("/orders/42") === 1 || done34,
    );
    resume33.resolve();
    expect((await by34).status).toBe(204);
    expect(ended33).toBe(true);
    expect(data.get("/orders/42")).toEqual(["from-33", "from-34"]);
  });

  it("middleware: a handler that gives up on a departed client without ending the response frees the resource with fenceDone", async () => {
    const fence = fenceMiddleware();
    const inside = deferred();
    const base = await listen((req, res) => {
      fence(req, res, (err) => {
        if (err !== undefined) {
          res.writeHead(409).end();
          return;
        }
        if (fencingTokenOf(req) !== 33n) {
          res.writeHead(204).end();
          return;
        }
        // Stops once the client is gone, without ending the response.
        res.once("close", () => fenceDone(req));
        inside.resolve();
      });
    });
    const abort33 = new AbortController();
    const by33 = fencedFetch(33n, `${base}/r`, { method: "POST", signal: abort33.signal }).catch(
      (err: unknown) => err,
    );
    await inside.promise;
    abort33.abort();
    expect(await by33).toBeInstanceOf(Error);
    expect((await fencedFetch(34n, `${base}/r`, { method: "POST" })).status).toBe(204);
    expect(fence.waiting("/r")).toBe(0);
  });

  it("fencedFetch keeps the caller's headers and replaces a stale Fencing-Token", async () => {
    const got: Array<Record<string, string | string[] | undefined>> = [];
    const base = await listen((req, res) => {
      got.push(req.headers);
      res.end();
    });
    await fencedFetch(7n, base, { headers: { "x-a": "1", "Fencing-Token": "1" } });
    await fencedFetch(8n, new Request(base, { headers: { "x-b": "2" } }));
    expect(got[0]).toMatchObject({ "x-a": "1", "fencing-token": "7" });
    expect(got[1]).toMatchObject({ "x-b": "2", "fencing-token": "8" });
  });

  it("fencedFetch takes the mode from the grant: Fencing-Mode: shared for a shared grant only, whatever headers the caller set", async () => {
    const got: Array<Record<string, string | string[] | undefined>> = [];
    const base = await listen((req, res) => {
      got.push(req.headers);
      res.end();
    });
    const shared = { lock: "catalog", token: 30n, mode: "shared" as const };
    const exclusive = { lock: "catalog", token: 40n, mode: "exclusive" as const };
    const permit = { lock: "pool", token: 41n, mode: "permit" as const, slot: 1 };
    await fencedFetch(shared, base);
    await fencedFetch(exclusive, base, { method: "PUT", headers: { "Fencing-Mode": "shared" } });
    await fencedFetch(permit, new Request(base, { headers: { "Fencing-Mode": "shared" } }));
    await fencedFetch(shared, base, { headers: { "Fencing-Mode": "exclusive" } });
    await fencedFetch({ token: 42n }, base);
    expect(got.map((h) => [h["fencing-token"], h["fencing-mode"]])).toEqual([
      ["30", "shared"],
      ["40", undefined],
      ["41", undefined],
      ["30", "shared"],
      ["42", undefined],
    ]);
  });

  it("a write that claims a shared grant is answered 403 and runs no handler, through the middleware too", async () => {
    const fence = fenceMiddleware();
    const seen: Array<{ status: number; message?: string }> = [];
    const base = await listen((req, res) => {
      fence(req, res, (err) => {
        if (err !== undefined) {
          seen.push({
            status: (err as { statusCode: number }).statusCode,
            message: (err as Error).message,
          });
          res.writeHead(599).end();
          return;
        }
        seen.push({ status: 200 });
        res.writeHead(200).end();
      });
    });
    // As they come on the wire: the resource cannot tell who set the header.
    await fetch(`${base}/r`, { method: "POST", headers: { "Fencing-Token": "20" } });
    await fetch(`${base}/r`, { headers: { "Fencing-Token": "30", "Fencing-Mode": "shared" } });
    await fetch(`${base}/r`, {
      method: "DELETE",
      headers: { "Fencing-Token": "20", "Fencing-Mode": "shared" },
    });
    expect(seen.map((s) => s.status)).toEqual([200, 200, 403]);
    expect(seen[2]?.message).toMatch(/shared.*exclusive grant/);
    expect(fence.counts.snapshot()).toEqual({ admitted: 2, rejected: 0 });
  });

  it("FenceRejectedError carries the refused and the highest token", () => {
    const err = new FenceRejectedError("r", 33n, 34n);
    expect(err.message).toContain("33");
    expect(err.message).toContain("34");
    expect(err.statusCode).toBe(409);
  });
});
