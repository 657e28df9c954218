// The HTTP/JSON gateway: every call of the table (proto/lock-calls.ts) as POST /v1/<Call>
// with a body in proto3's JSON mapping (proto/json-mapping.ts), and Watch as server-sent
// events at GET /v1/Watch. It is one more adapter over the node's dispatcher, as the unary
// gRPC handlers are: the request is checked by the same contract codec, its protobuf
// encoding is what a write's log entry carries, and it meets the same certificate roles,
// rate budget, limits and error reasons.
//
// Errors answer with an HTTP status mapped from the gRPC code (HTTP_STATUS_OF) and a body
// {code, reason, message, leader}. A call that needs the leader, made on another node that
// knows the leader's gateway, is answered 307 with that gateway's URL in Location (the
// same method and body apply there); clients such as `curl -L` follow it.
import type { Caller } from "../auth/caller.ts";
import { stillReads, tokenCatchUp } from "./callers.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { status as Status } from "@grpc/grpc-js";
import { encodeElectionEvent, type CallFailure } from "../../proto/codec/answers.ts";
import { decodeObserve } from "../../proto/codec/requests.ts";
import type { ElectionEvent } from "../../proto/lock-values.ts";
import {
  CALL_NAMES,
  decodeRequest,
  encodeAnswer,
  specOf,
  type CallName,
  type WireRequestOf,
} from "../../proto/lock-calls.ts";
import {
  encodeFromJson,
  JsonMappingError,
  jsonFromEncoded,
  messageType,
} from "../../proto/json-mapping.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { REASON_METADATA_KEY, WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import { RequestFailure } from "../host/failures.ts";
import { accessRefusal, identityOf, type PeerIdentity } from "../ops/tls.ts";
import type { ServiceContext } from "./context.ts";
import { callFailure } from "./handler.ts";
import {
  codeName as rejectedCodeName,
  keepAliveIdsOf,
  rateKey,
  requestCost,
} from "./interceptors.ts";
import { parseWatch } from "./lock-service.ts";
import { startObserve } from "./observe.ts";
import type { RateLimiter } from "../host/rate-limiter.ts";
import { CURRENT_INDEX_METADATA_KEY, type StatusError } from "./status.ts";
import type { WatchCall } from "./watch-hub.ts";

/** HTTP status of each gRPC code (the mapping grpc-gateway uses, which etcd's users know). */
export const HTTP_STATUS_OF: Readonly<Record<Status, number>> = {
  [Status.OK]: 200,
  [Status.CANCELLED]: 499,
  [Status.UNKNOWN]: 500,
  [Status.INVALID_ARGUMENT]: 400,
  [Status.DEADLINE_EXCEEDED]: 504,
  [Status.NOT_FOUND]: 404,
  [Status.ALREADY_EXISTS]: 409,
  [Status.PERMISSION_DENIED]: 403,
  [Status.RESOURCE_EXHAUSTED]: 429,
  [Status.FAILED_PRECONDITION]: 400,
  [Status.ABORTED]: 409,
  [Status.OUT_OF_RANGE]: 400,
  [Status.UNIMPLEMENTED]: 501,
  [Status.INTERNAL]: 500,
  [Status.UNAVAILABLE]: 503,
  [Status.DATA_LOSS]: 500,
  [Status.UNAUTHENTICATED]: 401,
};

/** Where the gateway's calls live. */
export const GATEWAY_PREFIX = "/v1/";
/** Milliseconds between the comments that keep an idle event stream open through proxies. */
const HEARTBEAT_MS = 15_000;

export interface GatewayOptions {
  readonly ctx: ServiceContext;
  /** Mutual TLS: callers present a certificate of the cluster CA, whose role is checked. */
  readonly tls: boolean;
  readonly limiter: RateLimiter;
  /** Largest request body, in bytes (the node's message size limit). */
  readonly maxBodyBytes: number;
  /** scheme://host:port of the leader's gateway, when a leader other than this node is known and has one. */
  readonly leaderOrigin: () => string | null;
  /** A request answered with an error: call name and reason (status code name, or rate_limited). */
  readonly onRejected?: (method: string, reason: string) => void;
}

/** A failure the gateway makes itself, before a call reaches the dispatcher. */
class GatewayRefusal extends Error {
  constructor(
    readonly httpStatus: number,
    readonly failure: CallFailure,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(failure.message);
  }
}

function refusal(
  reason: ErrorReasonName,
  message: string,
  httpStatus?: number,
  headers?: Record<string, string>,
): GatewayRefusal {
  const code = WIRE_ERRORS[reason].code;
  return new GatewayRefusal(
    httpStatus ?? HTTP_STATUS_OF[code],
    { code, reason, message, leader: null },
    headers,
  );
}

/** A failure without a reason of our table (an oversized body, a route that does not exist). */
function plainRefusal(httpStatus: number, code: Status, message: string, headers = {}) {
  return new GatewayRefusal(httpStatus, { code, reason: null, message, leader: null }, headers);
}

function codeName(code: Status): string {
  return Status[code] ?? String(code);
}

/** The body of an error answer. */
export function failureJson(failure: CallFailure): Record<string, unknown> {
  return {
    code: codeName(failure.code),
    reason: failure.reason,
    message: failure.message,
    ...(failure.leader ? { leader: failure.leader } : {}),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = `${JSON.stringify(body)}\n`;
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    })
    .end(text);
}

/** The caller's identity from its certificate, or null (no TLS, no certificate, or one the CA did not sign). */
function callerOf(req: IncomingMessage): PeerIdentity | null {
  const socket = req.socket as TLSSocket;
  if (!socket.encrypted || !socket.authorized) return null;
  return identityOf({
    transportSecurityType: "ssl",
    sslPeerCertificate: socket.getPeerCertificate(),
  });
}

/** The request body, at most `max` bytes; larger bodies are refused without reading them whole. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  const tooLarge = (size: string): GatewayRefusal =>
    plainRefusal(
      413,
      Status.RESOURCE_EXHAUSTED,
      `the request body (${size}) is larger than this node's limit of ${max} bytes (limits.maxMessageBytes)`,
      { connection: "close" },
    );
  if (Number.isFinite(declared) && declared > max)
    return Promise.reject(tooLarge(`${declared} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.pause();
        reject(tooLarge(`more than ${max} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function isJsonContent(req: IncomingMessage): boolean {
  const type = req.headers["content-type"] ?? "";
  return /^application\/json\s*(?:;|$)/i.test(type);
}

/** Bodies are UTF-8 JSON; bytes that are not UTF-8 are refused, not replaced. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The routes a caller may use, for the answer to any other. */
const ROUTES = `POST ${GATEWAY_PREFIX}<Call> for ${CALL_NAMES.join(", ")}; GET ${GATEWAY_PREFIX}Watch, ${GATEWAY_PREFIX}Observe`;

export class Gateway {
  constructor(private readonly o: GatewayOptions) {}

  /** Serves one request of the gateway's listener (any path: the calls are under /v1/). */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://gateway.invalid");
    const name = url.pathname.startsWith(GATEWAY_PREFIX)
      ? url.pathname.slice(GATEWAY_PREFIX.length)
      : url.pathname;
    if (name === "Watch" || name === "Observe") {
      if (req.method !== "GET") this.refuseMethod(req, res, name, "GET");
      else
        (name === "Watch" ? this.watch(req, res, url) : this.observe(req, res, url)).catch(
          (error: unknown) => {
            this.o.ctx.logger.error(
              { err: error, method: name },
              "gateway call failed unexpectedly",
            );
            if (!res.headersSent) res.writeHead(500).end();
            else res.end();
          },
        );
    } else if ((CALL_NAMES as readonly string[]).includes(name)) {
      if (req.method !== "POST") this.refuseMethod(req, res, name, "POST");
      else
        this.call(req, res, name as CallName).catch((error: unknown) => {
          this.o.ctx.logger.error({ err: error, method: name }, "gateway call failed unexpectedly");
          if (!res.headersSent) res.writeHead(500).end();
          else res.end();
        });
    } else {
      this.fail(
        req,
        res,
        name,
        plainRefusal(404, Status.NOT_FOUND, `no call ${JSON.stringify(name)}: ${ROUTES}`),
      );
    }
  }

  private refuseMethod(
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    allowed: string,
  ): void {
    this.fail(
      req,
      res,
      name,
      plainRefusal(
        405,
        Status.UNIMPLEMENTED,
        `${name} is served as ${allowed} ${GATEWAY_PREFIX}${name}`,
        {
          allow: allowed,
        },
      ),
    );
  }

  /**
   * The caller of a request (its bearer token, else its certificate); refuses one whose
   * certificate may not use LockService (under mTLS) or whose token is not valid now (a
   * token this node has not applied yet is looked up at a read point first: tokenCatchUp).
   */
  private async admit(
    req: IncomingMessage,
    name: string,
  ): Promise<{ who: PeerIdentity | null; caller: Caller }> {
    const header = req.headers.authorization;
    await tokenCatchUp(this.o.ctx.locks.gate, this.o.ctx.host, header);
    if (!this.o.tls)
      return { who: null, caller: this.o.ctx.locks.gate.callerOf(null, header, name) };
    const who = callerOf(req);
    const refused = accessRefusal(`/palisade.v1.LockService/${name}`, who);
    if (refused === null) return { who, caller: this.o.ctx.locks.gate.callerOf(who, header, name) };
    const socket = req.socket as TLSSocket;
    const why =
      who === null && socket.authorizationError
        ? `${refused.details} (${String(socket.authorizationError)})`
        : refused.details;
    throw refused.code === Status.UNAUTHENTICATED
      ? refusal("ERROR_REASON_CERTIFICATE_REQUIRED", why)
      : refusal("ERROR_REASON_PERMISSION_DENIED", why);
  }

  /** Spends the caller's rate budget for one request, or refuses it. */
  private spend(req: IncomingMessage, who: PeerIdentity | null, message: unknown): void {
    // HTTP clients open connections freely: without a certificate or a session, the
    // budget is the caller's host's.
    const key = rateKey(who, message, `http ${req.socket.remoteAddress ?? "?"}`);
    if (this.o.limiter.take(key, requestCost(keepAliveIdsOf(message)))) return;
    throw refusal(
      "ERROR_REASON_RATE_LIMITED",
      "request rate limit of this client exceeded; retry later with backoff",
    );
  }

  private async call<N extends CallName>(
    req: IncomingMessage,
    res: ServerResponse,
    name: N,
  ): Promise<void> {
    const detached = new AbortController();
    const onGone = (): void => {
      if (!res.writableEnded) detached.abort();
    };
    res.on("close", onGone);
    try {
      const { who, caller } = await this.admit(req, name);
      if (!isJsonContent(req))
        throw refusal(
          "ERROR_REASON_MALFORMED_REQUEST",
          `send the ${name} request as JSON, with the header content-type: application/json`,
          415,
        );
      const body = await readBody(req, this.o.maxBodyBytes);
      const spec = specOf(name);
      let sent: Uint8Array;
      try {
        const json: unknown = JSON.parse(body.length === 0 ? "{}" : STRICT_UTF8.decode(body));
        sent = encodeFromJson(messageType(`palisade.v1.${name}Request`), json);
      } catch (error) {
        throw refusal(
          "ERROR_REASON_MALFORMED_REQUEST",
          `the body is not a valid ${name} request: ${(error as Error).message}`,
        );
      }
      const wire = spec.request.type.decode(sent) as WireRequestOf<N>;
      this.spend(req, who, wire);
      const answer = await this.o.ctx.locks.serve(
        name,
        decodeRequest(name, wire),
        detached.signal,
        sent,
        caller,
      );
      const encoded = spec.answer.type.encode(encodeAnswer(name, answer)).finish();
      sendJson(res, 200, jsonFromEncoded(messageType(`palisade.v1.${name}Response`), encoded));
    } catch (error) {
      this.fail(req, res, name, error);
    } finally {
      res.removeListener("close", onGone);
    }
  }

  /**
   * Answers a failed call: a redirect to the leader's gateway, or the failure with its
   * status. What is left of the request body is read and dropped, so the connection can
   * carry the caller's next request; after an oversized body it is closed instead.
   */
  private fail(req: IncomingMessage, res: ServerResponse, name: string, error: unknown): void {
    if (error instanceof GatewayRefusal && error.headers.connection === "close")
      res.once("finish", () => req.destroy());
    else req.resume();
    if (error instanceof JsonMappingError)
      error = new RequestFailure("ERROR_REASON_INVALID_ARGUMENT", error.message);
    const refused = error instanceof GatewayRefusal ? error : null;
    const failure = refused?.failure ?? callFailure(this.o.ctx, name, error);
    this.o.onRejected?.(
      name,
      failure.reason === "ERROR_REASON_RATE_LIMITED"
        ? "rate_limited"
        : rejectedCodeName(failure.code),
    );
    const leader = failure.reason === "ERROR_REASON_NOT_LEADER" ? this.o.leaderOrigin() : null;
    if (leader !== null && name !== "Watch") {
      const location = `${leader}${GATEWAY_PREFIX}${name}`;
      sendJson(res, 307, { ...failureJson(failure), location }, { location });
      return;
    }
    sendJson(
      res,
      refused?.httpStatus ?? HTTP_STATUS_OF[failure.code] ?? 500,
      failureJson(failure),
      refused?.headers,
    );
  }

  /**
   * Watch as server-sent events: `id:` is each event's index, so an EventSource that
   * reconnects resumes after the last event it saw (Last-Event-ID); `fromIndex` (or
   * `from_index`) and `prefix` come from the query. An error ends the stream with an
   * `error` event whose data is the failure's body.
   */
  private async watch(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      const { who, caller } = await this.admit(req, "Watch");
      const wire = palisade.v1.WatchRequest.decode(streamQuery(req, url, "Watch"));
      this.spend(req, who, wire);
      const { prefix, fromIndex } = parseWatch(wire);
      const gate = this.o.ctx.locks.gate;
      gate.require(caller, "Watch", "read", prefix);
      const applied = this.o.ctx.host.state.appliedIndex;
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        [`x-${CURRENT_INDEX_METADATA_KEY}`]: String(applied),
      });
      res.write(`: watching ${JSON.stringify(prefix)}; current index ${applied}\n\n`);
      this.o.ctx.watch.attach(
        new EventStream(res, watchEventJson),
        prefix,
        fromIndex,
        applied,
        () => stillReads(gate, caller, prefix),
      );
    } catch (error) {
      this.fail(req, res, "Watch", error);
    }
  }

  /**
   * Observe as server-sent events, as Watch: `election` and `fromIndex` from the query (or
   * Last-Event-ID), each event's `id:` its index; from now, the state comes first.
   */
  private async observe(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      const { who, caller } = await this.admit(req, "Observe");
      const wire = palisade.v1.ObserveRequest.decode(streamQuery(req, url, "Observe"));
      this.spend(req, who, wire);
      const { election, fromIndex } = decodeObserve(wire);
      const sink = new EventStream(res, electionEventJson);
      await startObserve(
        this.o.ctx,
        sink,
        election,
        fromIndex,
        (applied: number) => {
          res.writeHead(200, {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
            [`x-${CURRENT_INDEX_METADATA_KEY}`]: String(applied),
          });
          res.write(`: observing ${JSON.stringify(election)}; current index ${applied}\n\n`);
        },
        caller,
      );
    } catch (error) {
      this.fail(req, res, "Observe", error);
    }
  }
}

/**
 * A stream's request from its query, as protobuf bytes: the query's fields as JSON, and
 * Last-Event-ID (an EventSource reconnecting) as the index after the last event seen.
 */
function streamQuery(req: IncomingMessage, url: URL, call: "Watch" | "Observe"): Uint8Array {
  const query: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  const resumeAfter = req.headers["last-event-id"];
  if (typeof resumeAfter === "string" && resumeAfter !== "") {
    if (!/^\d{1,15}$/.test(resumeAfter))
      throw refusal(
        "ERROR_REASON_MALFORMED_REQUEST",
        `Last-Event-ID ${JSON.stringify(resumeAfter)} is not an index`,
      );
    delete query.from_index;
    query.fromIndex = String(Number(resumeAfter) + 1);
  }
  try {
    return encodeFromJson(messageType(`palisade.v1.${call}Request`), query);
  } catch (error) {
    throw refusal(
      "ERROR_REASON_MALFORMED_REQUEST",
      `the query is not a valid ${call} request: ${(error as Error).message}`,
    );
  }
}

const ELECTION_EVENT = messageType("palisade.v1.ElectionEvent");

function watchEventJson(event: palisade.v1.WatchEvent): Record<string, unknown> {
  return jsonFromEncoded(WATCH_EVENT, palisade.v1.WatchEvent.encode(event).finish());
}

function electionEventJson(event: ElectionEvent): Record<string, unknown> {
  const wire = encodeElectionEvent(event);
  return jsonFromEncoded(ELECTION_EVENT, palisade.v1.ElectionEvent.encode(wire).finish());
}

const WATCH_EVENT = messageType("palisade.v1.WatchEvent");

/** A watcher's (or observer's) events as server-sent events on an HTTP response. */
class EventStream<M> implements WatchCall<M> {
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(
    private readonly res: ServerResponse,
    private readonly toJson: (event: M) => Record<string, unknown>,
  ) {
    this.heartbeat = setInterval(() => res.write(": still watching\n\n"), HEARTBEAT_MS);
    this.heartbeat.unref();
    res.once("close", () => clearInterval(this.heartbeat));
  }

  on(event: "cancelled" | "close" | "drain", listener: () => void): this {
    if (event === "drain") this.res.on("drain", listener);
    else if (event === "close") this.res.once("close", listener);
    return this;
  }

  write(event: M): boolean {
    const json = this.toJson(event);
    return this.res.write(`id: ${String(json.index)}\ndata: ${JSON.stringify(json)}\n\n`);
  }

  emit(_event: "error", status: StatusError): boolean {
    clearInterval(this.heartbeat);
    const reason = status.metadata.get(REASON_METADATA_KEY)[0];
    const current = status.metadata.get(CURRENT_INDEX_METADATA_KEY)[0];
    const body = {
      code: codeName(status.code),
      reason: typeof reason === "string" ? reason : null,
      message: status.details,
      ...(current !== undefined ? { currentIndex: String(current) } : {}),
    };
    this.res.end(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
    return true;
  }
}
