// The Stream RPC: one bidirectional stream per client connection, carrying that client's
// LockService calls many to a message. Each request runs through the same handler as its
// unary RPC (LockCalls), and the answers of one event-loop turn leave together in one
// frame. Bad input ends only this stream, with a status; a client that stops reading its
// answers is held back by flow control (the stream stops reading once its requests and
// unsent answers reach a cap), so it cannot make the node's memory grow.
import type * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import { LEADER_METADATA_KEY, REASON_METADATA_KEY, u64, type ErrorReasonName } from "../../proto/wire.ts";
import type { ServiceContext } from "./context.ts";
import { toStatus } from "./handler.ts";
import { rateKey } from "./interceptors.ts";
import type { LockCalls } from "./lock-service.ts";
import { statusError, type StatusError } from "./status.ts";
import { identityOf } from "./tls.ts";
import { malformedReason } from "./tolerant.ts";

const pb = palisade.v1;

export interface StreamLimits {
  /** Requests of one stream not answered yet, or answered but not yet written, before it stops reading. */
  readonly maxInFlight: number;
  /** Requests one frame may carry; more ends the stream with RESOURCE_EXHAUSTED. */
  readonly maxRequestsPerFrame: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxInFlight: 4_096, maxRequestsPerFrame: 4_096 };

/** What the stream needs beyond the calls: the per-client request budget, under TLS the caller's identity. */
export interface StreamOptions {
  readonly limits?: StreamLimits;
  /** Takes one request from the budget of `key` (see rateKey); false: over the rate. */
  readonly takeBudget?: (key: string) => boolean;
  /** Certificates carry the caller's identity (mTLS). */
  readonly tls?: boolean;
  /** Counts what the streams carry (the node's metrics). */
  readonly observer?: StreamObserver;
}

export interface StreamObserver {
  /** A stream opened (+1) or closed (-1). */
  streamsChanged(delta: 1 | -1): void;
  /** A frame arrived carrying `requests`, or left carrying `answers`. */
  frameIn(requests: number): void;
  frameOut(answers: number): void;
}

type Call = NonNullable<palisade.v1.StreamRequest["call"]>;
type Answerable = Exclude<Call, "forget">;

/** The LockCalls method of each request field (and the field its answer goes in). */
const METHODS: Readonly<Record<Answerable, keyof LockCalls>> = {
  openSession: "OpenSession",
  keepAlive: "KeepAlive",
  keepAliveSessions: "KeepAliveSessions",
  closeSession: "CloseSession",
  acquire: "Acquire",
  cancelWait: "CancelWait",
  release: "Release",
  getLock: "GetLock",
  listLocks: "ListLocks",
  getSession: "GetSession",
  listSessions: "ListSessions",
  getLockHistory: "GetLockHistory",
  validateToken: "ValidateToken",
};

/** A status as the stream carries it: code, reason, message and the leader's address. */
export function streamFailure(status: StatusError): palisade.v1.StreamFailure.$Properties {
  const reasonName = String(status.metadata.get(REASON_METADATA_KEY)[0] ?? "") as ErrorReasonName;
  const leader = status.metadata.get(LEADER_METADATA_KEY)[0];
  return {
    code: status.code,
    reason: pb.ErrorReason[reasonName] ?? pb.ErrorReason.ERROR_REASON_UNSPECIFIED,
    message: status.details,
    leader: typeof leader === "string" ? leader : "",
  };
}

export function lockStream(ctx: ServiceContext, calls: LockCalls, options: StreamOptions = {}): grpc.handleBidiStreamingCall<palisade.v1.ClientFrame, palisade.v1.ServerFrame> {
  return (call) => {
    new ClientStream(ctx, calls, call, options).start();
  };
}

type WireId = palisade.v1.StreamRequest.$Properties["id"];

interface InFlight {
  /** The id as the client sent it, echoed in the answer. */
  readonly wireId: WireId;
  readonly detach: AbortController;
  /** The client forgot it: its answer is not sent. */
  forgotten: boolean;
}

class ClientStream {
  private readonly limits: StreamLimits;
  /** By request id: from arrival until its answer is written (or dropped). */
  private readonly inFlight = new Map<string, InFlight>();
  private outbox: palisade.v1.StreamAnswer.$Properties[] = [];
  /** Ids of the answers in the outbox, to be counted out once written. */
  private outboxIds: string[] = [];
  private flushScheduled = false;
  private waitingForDrain = false;
  private paused = false;
  private clientDone = false;
  private closed = false;
  private readonly who;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly calls: LockCalls,
    private readonly call: grpc.ServerDuplexStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>,
    private readonly options: StreamOptions,
  ) {
    this.limits = options.limits ?? DEFAULT_STREAM_LIMITS;
    this.who = options.tls ? identityOf(call.getAuthContext()) : null;
  }

  start(): void {
    const call = this.call;
    this.options.observer?.streamsChanged(1);
    call.on("data", (frame: palisade.v1.ClientFrame) => this.frame(frame));
    call.on("end", () => {
      this.clientDone = true;
      this.maybeEnd();
    });
    call.on("cancelled", () => this.close());
    call.on("error", () => this.close());
    call.on("close", () => this.close());
  }

  private frame(frame: palisade.v1.ClientFrame): void {
    if (this.closed) return;
    const malformed = malformedReason(frame);
    if (malformed !== null) {
      this.fail(statusError("ERROR_REASON_MALFORMED_REQUEST", `the message is not a valid ClientFrame: ${malformed}`));
      return;
    }
    const requests = frame.requests ?? [];
    this.options.observer?.frameIn(requests.length);
    if (requests.length > this.limits.maxRequestsPerFrame) {
      this.fail(statusError("ERROR_REASON_TOO_MANY_IN_FLIGHT", `a frame carried ${requests.length} requests; at most ${this.limits.maxRequestsPerFrame} are allowed`));
      return;
    }
    for (const request of requests) {
      this.request(request);
      if (this.closed) return;
    }
    this.applyBackPressure();
  }

  private request(request: palisade.v1.StreamRequest.$Properties): void {
    let id: string;
    try {
      id = String(u64(request.id, "id"));
    } catch {
      this.fail(statusError("ERROR_REASON_MALFORMED_REQUEST", "a request id is not a uint64"));
      return;
    }
    const kind = request.call;
    if (kind === "forget") {
      const pending = this.inFlight.get(id);
      if (pending && !pending.forgotten) {
        pending.forgotten = true;
        pending.detach.abort();
      }
      return;
    }
    if (this.inFlight.has(id)) {
      this.fail(statusError("ERROR_REASON_MALFORMED_REQUEST", `request id ${id} is already in flight on this stream`));
      return;
    }
    if (kind === undefined || kind === null) {
      this.answer(id, request.id, { failure: streamFailure(statusError("ERROR_REASON_MALFORMED_REQUEST", `request ${id} carries no call`)) });
      return;
    }
    const method = METHODS[kind];
    const body = request[kind] as never;
    if (this.options.takeBudget && !this.options.takeBudget(rateKey(this.who, body, this.call.getPeer()))) {
      this.answer(id, request.id, { failure: streamFailure(statusError("ERROR_REASON_RATE_LIMITED", "request rate limit of this client exceeded; retry later with backoff")) });
      return;
    }
    const pending: InFlight = { wireId: request.id, detach: new AbortController(), forgotten: false };
    this.inFlight.set(id, pending);
    let result: Promise<unknown>;
    try {
      result = (this.calls[method] as (req: never, detached: AbortSignal) => Promise<unknown>)(body, pending.detach.signal);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (response) => this.settled(id, pending, { [kind]: response }),
      (error: unknown) => this.settled(id, pending, { failure: streamFailure(toStatus(this.ctx, method, error)) }),
    );
  }

  private settled(id: string, pending: InFlight, result: Omit<palisade.v1.StreamAnswer.$Properties, "id">): void {
    if (pending.forgotten || this.closed) {
      this.inFlight.delete(id);
      this.applyBackPressure();
      this.maybeEnd();
      return;
    }
    this.answer(id, pending.wireId, result, true);
  }

  /** Queues an answer for this turn's frame; `counted`: its request is in `inFlight` until written. */
  private answer(id: string, wireId: WireId, result: Omit<palisade.v1.StreamAnswer.$Properties, "id">, counted = false): void {
    if (this.closed) return;
    this.outbox.push({ id: wireId, ...result });
    if (counted) this.outboxIds.push(id);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.waitingForDrain || this.outbox.length === 0) return;
    const answers = this.outbox;
    const ids = this.outboxIds;
    this.outbox = [];
    this.outboxIds = [];
    const more = this.call.write(pb.ServerFrame.create({ answers }));
    this.options.observer?.frameOut(answers.length);
    for (const id of ids) this.inFlight.delete(id);
    if (!more) {
      // The client is not reading fast enough: hold further answers (and, past the cap,
      // further requests) until the transport has room again.
      this.waitingForDrain = true;
      this.call.once("drain", () => {
        this.waitingForDrain = false;
        if (this.outbox.length > 0) this.flush();
        this.applyBackPressure();
      });
    }
    this.applyBackPressure();
    this.maybeEnd();
  }

  /** Stops reading requests while the stream holds too many, and reads again once half have left. */
  private applyBackPressure(): void {
    if (this.closed) return;
    const held = this.inFlight.size;
    if (!this.paused && held >= this.limits.maxInFlight) {
      this.paused = true;
      this.call.pause();
    } else if (this.paused && held <= this.limits.maxInFlight / 2 && !this.waitingForDrain) {
      this.paused = false;
      this.call.resume();
    }
  }

  /** The client finished sending and every answer left: end the stream. */
  private maybeEnd(): void {
    if (!this.clientDone || this.closed || this.inFlight.size > 0 || this.outbox.length > 0) return;
    this.close();
    this.call.end();
  }

  /** Ends this stream (only it) with a status. */
  private fail(status: StatusError): void {
    if (this.closed) return;
    this.close();
    this.call.emit("error", status);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.observer?.streamsChanged(-1);
    for (const pending of this.inFlight.values()) pending.detach.abort();
    this.inFlight.clear();
    this.outbox = [];
    this.outboxIds = [];
  }
}
