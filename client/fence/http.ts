// Fencing for HTTP services. The middleware reads the `Fencing-Token` header, holds a
// per-resource mutex from admission until the handler says its work is done (it ends the
// response, or calls fenceDone), so the whole handler runs under the fence, one request
// per resource at a time; it refuses lower tokens and records admitted ones. The
// connection closing is never that signal: a client that gives up mid-handler must not let
// the next holder in while the handler still writes. A write that claims a shared grant
// is refused (403): shared grants only read. `fencedFetch` stamps a grant's token and
// mode on outgoing calls.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { FenceCounter } from "./counts.ts";
import { FenceRejectedError } from "./errors.ts";
import { KeyedMutex } from "./keyed-mutex.ts";
import { FENCING_MODE_HEADER, FENCING_TOKEN_HEADER, checkToken, parseToken } from "./token.ts";
import {
  admits,
  barFor,
  fenceModeOf,
  raisedMarks,
  raises,
  refuseSharedWrite,
  type Access,
  type FenceGrant,
  type FenceMarks,
  type FenceMode,
  type FenceOptions,
} from "./types.ts";

/**
 * Where the middleware keeps the highest admitted token per resource. Records that also
 * keep the highest exclusive token (highestExclusive and recordMarks, which must write both
 * marks in one step) serve shared-mode requests too; others admit exclusive ones only.
 */
export interface TokenRecords {
  highest(resource: string): Promise<bigint | undefined>;
  record(resource: string, token: bigint): Promise<void>;
  /** The highest exclusive token (0n: none yet; undefined: never recorded, so every admitted token was exclusive). */
  highestExclusive?(resource: string): Promise<bigint | undefined>;
  /** Records both marks at once (exclusive 0n: none yet). */
  recordMarks?(resource: string, highest: bigint, exclusive: bigint): Promise<void>;
}

/** Token records in process memory (lost on restart: persist them for a durable fence). */
export class MemoryTokenRecords implements TokenRecords {
  private readonly tokens = new Map<string, bigint>();
  private readonly exclusiveTokens = new Map<string, bigint>();

  async highest(resource: string): Promise<bigint | undefined> {
    return this.tokens.get(resource);
  }

  async record(resource: string, token: bigint): Promise<void> {
    this.tokens.set(resource, token);
    this.exclusiveTokens.delete(resource);
  }

  async highestExclusive(resource: string): Promise<bigint | undefined> {
    return this.exclusiveTokens.get(resource);
  }

  async recordMarks(resource: string, highest: bigint, exclusive: bigint): Promise<void> {
    this.tokens.set(resource, highest);
    this.exclusiveTokens.set(resource, exclusive);
  }
}

/** A request without a usable `Fencing-Token` header (428 if missing, 400 if malformed). */
export class FencingTokenHeaderError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = "FencingTokenHeaderError";
  }

  get status(): number {
    return this.statusCode;
  }
}

export interface FenceMiddlewareOptions extends FenceOptions {
  /** The resource a request accesses (default: the URL path without the query). */
  resourceOf?: (req: IncomingMessage) => string;
  /** Whether a request reads or writes (default: GET, HEAD and OPTIONS read). */
  accessOf?: (req: IncomingMessage) => Access;
  /**
   * The lock mode of the request's grant (default: its `Fencing-Mode` header, "shared" or
   * "exclusive"; absent: exclusive). A write (see accessOf) in shared mode is refused with 403.
   */
  modeOf?: (req: IncomingMessage) => FenceMode;
  /** Default: in memory. */
  tokens?: TokenRecords;
}

/** Express-style `next`; Fastify's `done` has the same shape. */
export type NextFunction = (err?: unknown) => void;

export interface FenceMiddleware {
  (req: IncomingMessage, res: ServerResponse, next: NextFunction): void;
  /** How many requests for `resource` wait behind the one in progress. */
  waiting(resource: string): number;
  /** Requests this fence admitted and rejected (a lower token). */
  readonly counts: FenceCounter;
}

const admitted = new WeakMap<IncomingMessage, bigint>();

/** The token the fence admitted for this request (undefined if it did not pass the fence). */
export function fencingTokenOf(req: IncomingMessage): bigint | undefined {
  return admitted.get(req);
}

function defaultResource(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://resource").pathname;
}

function defaultAccess(req: IncomingMessage): Access {
  const method = (req.method ?? "GET").toUpperCase();
  return method === "GET" || method === "HEAD" || method === "OPTIONS" ? "read" : "write";
}

/** The `Fencing-Mode` header: "shared" or "exclusive" (absent: exclusive); anything else is a 400. */
export function modeFromHeaders(req: IncomingMessage): FenceMode {
  const value = req.headers[FENCING_MODE_HEADER.toLowerCase()];
  if (value === undefined) return "exclusive";
  if (Array.isArray(value))
    throw new FencingTokenHeaderError(`more than one ${FENCING_MODE_HEADER} header`, 400);
  const mode = value.trim().toLowerCase();
  if (mode !== "shared" && mode !== "exclusive")
    throw new FencingTokenHeaderError(
      `${FENCING_MODE_HEADER}: ${JSON.stringify(value)} is not "shared" or "exclusive"`,
      400,
    );
  return mode;
}

/** A resource's marks in `tokens`; a record without an exclusive mark counts every admitted token as exclusive. */
async function marksOf(
  tokens: TokenRecords,
  resource: string,
): Promise<FenceMarks & { recorded: boolean }> {
  const highest = await tokens.highest(resource);
  const exclusive = tokens.highestExclusive ? await tokens.highestExclusive(resource) : undefined;
  return {
    highest,
    exclusive: exclusive === undefined ? highest : exclusive === 0n ? undefined : exclusive,
    recorded: exclusive !== undefined,
  };
}

/** Reads the header; throws FencingTokenHeaderError if it is missing or malformed. */
export function tokenFromHeaders(req: IncomingMessage): bigint {
  const value = req.headers[FENCING_TOKEN_HEADER.toLowerCase()];
  if (value === undefined)
    throw new FencingTokenHeaderError(`missing ${FENCING_TOKEN_HEADER} header`, 428);
  if (Array.isArray(value))
    throw new FencingTokenHeaderError(`more than one ${FENCING_TOKEN_HEADER} header`, 400);
  try {
    return parseToken(value);
  } catch (err) {
    throw new FencingTokenHeaderError((err as Error).message, 400);
  }
}

function whenClosed(res: ServerResponse): Promise<void> {
  return res.closed
    ? Promise.resolve()
    : new Promise((resolve) => res.once("close", () => resolve()));
}

/**
 * Admits a request or throws: on success the caller holds the resource's mutex and must
 * call the returned release function once the request's work is done.
 */
function fenceAdmission(options: FenceMiddlewareOptions) {
  const mutex = new KeyedMutex();
  const tokens = options.tokens ?? new MemoryTokenRecords();
  const resourceOf = options.resourceOf ?? defaultResource;
  const accessOf = options.accessOf ?? defaultAccess;
  const modeOf = options.modeOf ?? modeFromHeaders;
  const readsRaise = options.readsRaise ?? true;
  const counts = options.counter ?? new FenceCounter();

  const admit = async (req: IncomingMessage, res: ServerResponse): Promise<() => void> => {
    const token = tokenFromHeaders(req);
    const mode = modeOf(req);
    const resource = resourceOf(req);
    const access = accessOf(req);
    refuseSharedWrite(resource, token, access, mode);
    if (mode === "shared" && !(tokens.highestExclusive && tokens.recordMarks)) {
      throw new FencingTokenHeaderError(
        "shared-mode fencing needs token records that keep the highest exclusive token (highestExclusive, recordMarks)",
        501,
      );
    }
    let closed = res.closed;
    const onClose = (): void => {
      closed = true;
    };
    res.once("close", onClose);
    const release = await mutex.lock(resource);
    res.off("close", onClose);
    // A client that went away while queued gets nothing: run no handler for it.
    if (closed || res.closed) {
      release();
      throw new Error("the client closed the request while it waited for the fence");
    }
    try {
      const marks = await marksOf(tokens, resource);
      const bar = barFor(mode, marks);
      if (!admits(bar, token)) {
        counts.count("rejected", resource);
        throw new FenceRejectedError(resource, token, bar ?? 0n, mode);
      }
      if (raises(access, readsRaise)) {
        const raised = raisedMarks(mode, marks, token);
        const changed =
          raised.highest !== marks.highest ||
          raised.exclusive !== marks.exclusive ||
          !marks.recorded;
        if (tokens.recordMarks) {
          if (changed)
            await tokens.recordMarks(resource, raised.highest ?? token, raised.exclusive ?? 0n);
        } else if (marks.highest !== token) {
          // Exclusive only (checked above): the one mark is the highest token.
          await tokens.record(resource, token);
        }
      }
      counts.count("admitted", resource);
    } catch (err) {
      release();
      throw err;
    }
    admitted.set(req, token);
    return release;
  };
  return { admit, waiting: (resource: string) => mutex.waiting(resource), counts };
}

const completions = new WeakMap<IncomingMessage, () => void>();

/**
 * Tells the middleware that the handler of `req` is done with the resource, for a handler
 * that stops without ending its response (ending it, even after the client went away,
 * says the same). Does nothing for a request the middleware does not hold.
 */
export function fenceDone(req: IncomingMessage): void {
  completions.get(req)?.();
}

/**
 * Calls `release` once the handler is done: when it ends the response (`res.end()`, which
 * Express's `send`/`json` and Fastify's `reply.send` call, and which still counts after
 * the client disconnected) or calls fenceDone(req). A 'close' alone, which is also what a
 * dropped connection emits while the handler runs, releases nothing.
 */
function holdUntilDone(req: IncomingMessage, res: ServerResponse, release: () => void): void {
  let held = true;
  const done = (): void => {
    if (!held) return;
    held = false;
    completions.delete(req);
    res.off("finish", done);
    release();
  };
  completions.set(req, done);
  // 'finish' covers an end through a reference to `end` taken before this wrapper; after a
  // disconnect no 'finish' comes, so the wrapper below is what sees the handler end.
  res.once("finish", done);
  const end = res.end;
  res.end = function endThenRelease(
    this: ServerResponse,
    ...args: Parameters<ServerResponse["end"]>
  ) {
    try {
      return end.apply(this, args);
    } finally {
      done();
    }
  } as ServerResponse["end"];
}

/**
 * Middleware for Node `http`, Express (`app.use(fence)`) and Fastify
 * (`addHook("onRequest", (request, reply, done) => fence(request.raw, reply.raw, done))`).
 * A refused request goes to `next(err)` with `err.statusCode` (409 for a lower token, 403
 * for a write that claims a shared grant);
 * an admitted one to `next()`, holding the resource until the handler ends the response
 * or calls fenceDone(req). So do all the work on the resource before ending the response,
 * and end it (or call fenceDone) on every path, also when the client has gone away: a
 * handler that never does keeps the resource held. A disconnect does not free it.
 */
export function fenceMiddleware(options: FenceMiddlewareOptions = {}): FenceMiddleware {
  const fence = fenceAdmission(options);
  const middleware = (req: IncomingMessage, res: ServerResponse, next: NextFunction): void => {
    fence.admit(req, res).then(
      (release) => {
        holdUntilDone(req, res, release);
        next();
      },
      (err: unknown) => next(err),
    );
  };
  return Object.assign(middleware, { waiting: fence.waiting, counts: fence.counts });
}

/** HTTP status for an error the middleware passes to `next`. */
export function statusOf(err: unknown): number {
  const code = (err as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof code === "number" ? code : 500;
}

function sendError(res: ServerResponse, err: unknown): void {
  if (res.closed || res.headersSent) {
    res.end();
    return;
  }
  const body: { error: string; highest?: string } = { error: (err as Error).message };
  if (err instanceof FenceRejectedError) body.highest = err.highest.toString();
  res.writeHead(statusOf(err), { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * A Node `http` request listener: the fence, then `handler` with the admitted token. The
 * resource stays held until the handler has settled and the response has closed.
 * Refusals are answered with their status and a JSON body `{ error, highest? }`.
 */
export function fencedHandler(
  options: FenceMiddlewareOptions,
  handler: (req: IncomingMessage, res: ServerResponse, token: bigint) => Promise<void> | void,
): RequestListener & { waiting(resource: string): number; readonly counts: FenceCounter } {
  const fence = fenceAdmission(options);
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let release: () => void;
    try {
      release = await fence.admit(req, res);
    } catch (err) {
      sendError(res, err);
      return;
    }
    try {
      await handler(req, res, admitted.get(req) ?? 0n);
    } catch (err) {
      sendError(res, err);
    } finally {
      // A handler that returned without ending the response keeps the resource until it does.
      await whenClosed(res);
      release();
    }
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(req, res);
  };
  return Object.assign(listener, { waiting: fence.waiting, counts: fence.counts });
}

/**
 * `fetch` with a `Fencing-Token` header carrying the grant's token, and `Fencing-Mode:
 * shared` for a shared grant. The mode comes from the grant (a LockHandle, a
 * LockGrantInfo, or `{ token, mode }`): a `Fencing-Mode` header the caller set is
 * replaced, and a bare token is an exclusive grant's. A shared grant's requests must only
 * read: the fence refuses a write that claims one.
 */
export function fencedFetch(
  grant: FenceGrant | bigint,
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const { token, mode } =
    typeof grant === "bigint"
      ? { token: grant, mode: "exclusive" as const }
      : { token: grant.token, mode: fenceModeOf(grant) };
  const headers = new Headers(
    init.headers ?? (input instanceof Request ? input.headers : undefined),
  );
  headers.set(FENCING_TOKEN_HEADER, checkToken(token).toString());
  if (mode === "shared") headers.set(FENCING_MODE_HEADER, "shared");
  else headers.delete(FENCING_MODE_HEADER);
  return fetch(input, { ...init, headers });
}
