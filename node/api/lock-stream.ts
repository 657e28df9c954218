// The Stream RPC: one bidirectional stream per client connection, carrying that client's
// LockService calls many to a message. Each request is decoded by the same codec and
// served by the same dispatcher as its unary RPC (stream-calls.ts, LockRequests.serve),
// and fails with the same CallFailure, carried as a StreamFailure. Frames travel as bytes
// (proto/stream-frames.ts): the requests of a frame are decoded and run one at a time, as
// many as the turn's budget allows (turn-budget.ts), and each answer is encoded once, when
// it is made, into frames bounded by the node's message limit; an answer too large for any
// frame fails its call alone.
//
// A stream handles its received requests keepalives first (stream-requests.ts), so however
// many calls a client queued, its keepalives wait at most a turn.
//
// Flow control: a stream stops reading once its running calls plus its queued answers
// (every answer, whether a call made it or not), or those answers' bytes, reach a cap, so a
// client that does not read its answers cannot grow the node's memory. An Acquire, which
// may wait for up to an hour, counts instead against a cap on the stream's Acquires, and
// one past it is refused: no number of waits holds up the client's keepalives, cancels and
// reads. Bad input ends only this stream, with a status.
import { ANONYMOUS, type Caller } from "../auth/caller.ts";
import { RequestFailure } from "../host/failures.ts";
import { callerOfCall } from "./callers.ts";
import type * as grpc from "@grpc/grpc-js";
import { keepAliveCountProblem } from "../../proto/codec/requests.ts";
import { specOf } from "../../proto/lock-calls.ts";
import { FrameError, frameEntries, packFrame } from "../../proto/stream-frames.ts";
import {
  MAX_KEEPALIVE_SESSION_IDS,
  STREAM_MAX_FRAME_BYTES,
  STREAM_MAX_REQUEST_BYTES,
  STREAM_MAX_REQUESTS_PER_FRAME,
} from "../../proto/wire.ts";
import type { ServiceContext } from "./context.ts";
import { rateKey, requestCost } from "./interceptors.ts";
import { statusError, type StatusError } from "./status.ts";
import {
  encodeStreamAnswer,
  failed,
  readStreamRequest,
  runCall,
  tooLarge,
  type Result,
  type Serve,
  type StreamRequestRead,
} from "./stream-calls.ts";
import { Backlog, callBytes, peekRequest, type Queued } from "./stream-requests.ts";
import { identityOf } from "../ops/tls.ts";
import type { StreamLimits, StreamOptions } from "./stream-options.ts";
import { TurnBudget } from "./turn-budget.ts";

export type { Serve } from "./stream-calls.ts";
export type { StreamLimits, StreamObserver, StreamOptions } from "./stream-options.ts";

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxInFlight: 4_096,
  // Well above the waits of one process's 10,000 sessions each waiting for a lock, and of 64
  // sessions waiting for 64 each.
  maxWaits: 65_536,
  maxRequestsPerFrame: STREAM_MAX_REQUESTS_PER_FRAME,
  maxFrameBytes: STREAM_MAX_FRAME_BYTES,
  maxRequestBytes: STREAM_MAX_REQUEST_BYTES,
  maxAnswerFrameBytes: 4 * 1024 * 1024,
};

/**
 * Work one event-loop turn takes from the node's client streams, in units: a request is one,
 * a KeepAlive one per session id, and a request's bytes one per BYTES_PER_UNIT. So a
 * turn handles at most this many keepalive ids, requests, and 64 KiB of requests.
 */
export const STREAM_TURN_UNITS = 4_096;
const BYTES_PER_UNIT = 16;

/** The budget every client stream of this process shares, unless given its own. */
const sharedTurns = new TurnBudget(STREAM_TURN_UNITS);

const RATE_LIMITED: Result = failed(
  "ERROR_REASON_RATE_LIMITED",
  "request rate limit of this client exceeded; retry later with backoff",
);

/** The stream's frames are bytes: the node reads requests one at a time and encodes its answers itself. */
export type StreamCall = grpc.ServerDuplexStream<Uint8Array, Uint8Array>;

/** The caller of a stream, authenticated once as it opens (a token's revoke still applies per request). */
function streamCaller(ctx: ServiceContext, call: StreamCall): Caller | RequestFailure {
  try {
    return callerOfCall(ctx.locks.gate, call, "Stream");
  } catch (error) {
    if (error instanceof RequestFailure) return error;
    throw error;
  }
}

export function lockStream(
  ctx: ServiceContext,
  serve: Serve,
  options: StreamOptions = {},
): grpc.handleBidiStreamingCall<Uint8Array, Uint8Array> {
  return (call) => {
    new ClientStream(ctx, serve, call, options).start();
  };
}

interface InFlight {
  /** Aborted when the call goes away; only calls that wait listen for it (null for the others). */
  readonly detach: AbortController | null;
  /** An Acquire: counted against the waits, not the in-flight cap. */
  readonly wait: boolean;
  /** The session ids of a KeepAlive (0 for other calls). */
  readonly keepAliveIds: number;
  /** Its call has settled (its answer is queued, or was dropped). */
  settled: boolean;
  /** The client forgot it: its answer is not sent. */
  forgotten: boolean;
}

class ClientStream {
  private readonly limits: StreamLimits;
  private readonly turns: TurnBudget;
  /** By request id: from arrival until its answer is written (or dropped). */
  private readonly inFlight = new Map<string, InFlight>();
  /** Calls running that are not Acquires, and Acquires running. */
  private running = 0;
  private waits = 0;
  /**
   * Session ids of the stream's KeepAlives running: at most one request's worth at a
   * time (the first always starts), as their answers are all made in the turn a quorum round
   * confirms them.
   */
  private keepAliveIds = 0;
  /** Requests received and not yet handled. */
  private readonly backlog = new Backlog();
  /** Encoded answers not yet written, with the request id of each (counted out of inFlight once written). */
  private outbox: Uint8Array[] = [];
  private outboxIds: string[] = [];
  private outboxBytes = 0;
  private flushScheduled = false;
  private waitingForDrain = false;
  /** At the cap: no request is handled or read until half the cap has left. */
  private full = false;
  private paused = false;
  private working = false;
  private workScheduled = false;
  private clientDone = false;
  private closed = false;
  private readonly who;
  private peerName: string | null = null;
  /** Who the stream's requests come from (its token or certificate), or why it has no caller. */
  private readonly caller: Caller | RequestFailure;
  /** The node's dispatcher, serving as this stream's caller. */
  private readonly serve: Serve;

  constructor(
    private readonly ctx: ServiceContext,
    serve: Serve,
    private readonly call: StreamCall,
    private readonly options: StreamOptions,
  ) {
    this.limits = options.limits ?? DEFAULT_STREAM_LIMITS;
    this.turns = options.turns ?? sharedTurns;
    this.who = options.tls ? identityOf(call.getAuthContext()) : null;
    this.caller = streamCaller(ctx, call);
    const caller = this.caller instanceof RequestFailure ? ANONYMOUS : this.caller;
    this.serve = (name, request, detached, sent) => serve(name, request, detached, sent, caller);
  }

  start(): void {
    const call = this.call;
    this.options.observer?.streamsChanged(1);
    if (this.caller instanceof RequestFailure) {
      this.fail(statusError(this.caller.reason, this.caller.message));
      return;
    }
    call.on("data", (frame: Uint8Array) => this.frame(frame));
    call.on("end", () => {
      this.clientDone = true;
      this.maybeEnd();
    });
    call.on("cancelled", () => this.close());
    call.on("error", () => this.close());
    call.on("close", () => this.close());
  }

  private frame(bytes: Uint8Array): void {
    if (this.closed) return;
    if (bytes.byteLength > this.limits.maxFrameBytes) {
      this.fail(
        statusError(
          "ERROR_REASON_TOO_MANY_IN_FLIGHT",
          `a frame of ${bytes.byteLength} bytes; at most ${this.limits.maxFrameBytes} are allowed (send fewer requests per frame)`,
        ),
      );
      return;
    }
    let requests: Uint8Array[] | null;
    try {
      requests = frameEntries(bytes, this.limits.maxRequestsPerFrame);
    } catch (error) {
      this.fail(
        statusError(
          "ERROR_REASON_MALFORMED_REQUEST",
          `the message is not a valid ClientFrame: ${(error as Error).message}`,
        ),
      );
      return;
    }
    if (requests === null) {
      this.fail(
        statusError(
          "ERROR_REASON_TOO_MANY_IN_FLIGHT",
          `a frame carried more than ${this.limits.maxRequestsPerFrame} requests, the most allowed`,
        ),
      );
      return;
    }
    this.options.observer?.frameIn(requests.length);
    const queued: Queued[] = [];
    for (const bytes of requests) {
      try {
        queued.push({ bytes, ...peekRequest(bytes) });
      } catch (error) {
        this.fail(
          statusError(
            "ERROR_REASON_MALFORMED_REQUEST",
            `a request is not a valid StreamRequest: ${(error as FrameError).message}`,
          ),
        );
        return;
      }
    }
    for (const item of queued) this.backlog.push(item);
    this.work();
  }

  /** Handles the backlog's requests while the turn's budget and the stream's cap allow, then reads on or waits. */
  private work(): void {
    if (this.working || this.workScheduled) return;
    this.working = true;
    try {
      const mayStart = (keepAlive: Queued): boolean =>
        this.keepAliveIds === 0 ||
        this.keepAliveIds + keepAlive.keepAliveIds <= MAX_KEEPALIVE_SESSION_IDS;
      for (
        let item = this.backlog.peek(mayStart);
        item !== undefined && !this.closed && !this.full;
        item = this.backlog.peek(mayStart)
      ) {
        const units = Math.max(
          1,
          item.keepAliveIds,
          Math.ceil(item.bytes.byteLength / BYTES_PER_UNIT),
        );
        if (!this.turns.take(units)) {
          this.workScheduled = true;
          this.turns.later(() => {
            this.workScheduled = false;
            this.work();
          });
          break;
        }
        this.backlog.take(item);
        this.request(item);
        this.refreshFull();
      }
    } finally {
      this.working = false;
    }
    this.setReading();
  }

  private request(item: Queued): void {
    const { bytes, id, keepAliveIds } = item;
    // Refused before being decoded: decoding is the cost these limits bound.
    const refusal = this.refusalBeforeDecoding(item);
    if (refusal !== null) {
      if (this.inFlight.has(id)) this.duplicate(id);
      else this.answer(null, id, refusal);
      return;
    }
    let read: StreamRequestRead;
    try {
      read = readStreamRequest(bytes, id);
    } catch (error) {
      this.fail(
        statusError(
          "ERROR_REASON_MALFORMED_REQUEST",
          `a request is not a valid StreamRequest: ${(error as Error).message}`,
        ),
      );
      return;
    }
    if (read.kind === "forget") {
      const pending = this.inFlight.get(id);
      if (pending && !pending.forgotten) {
        pending.forgotten = true;
        pending.detach?.abort();
      }
      return;
    }
    if (this.inFlight.has(id)) {
      this.duplicate(id);
      return;
    }
    if (read.kind === "answer") {
      this.answer(null, id, read.result);
      return;
    }
    const { name, field: kind, body } = read;
    if (
      !item.keepAlive &&
      !this.takeBudget(rateKey(this.who, body ?? null, this.peer()), keepAliveIds)
    ) {
      this.answer(null, id, RATE_LIMITED);
      return;
    }
    const wait = specOf(name).waits;
    if (wait && this.waits >= this.limits.maxWaits) {
      this.answer(
        null,
        id,
        failed(
          "ERROR_REASON_TOO_MANY_WAITS_ON_STREAM",
          `this stream already carries ${this.waits} Acquires, the most one stream may; the Acquire was not proposed (retry once some have ended)`,
        ),
      );
      return;
    }
    const pending: InFlight = {
      detach: wait ? new AbortController() : null,
      wait,
      keepAliveIds: kind === "keepAlive" ? keepAliveIds : 0,
      settled: false,
      forgotten: false,
    };
    this.inFlight.set(id, pending);
    this.keepAliveIds += pending.keepAliveIds;
    if (wait) this.waits++;
    else this.running++;
    // The request message's own bytes, for a write's log entry (a view: nothing copied).
    const sent = callBytes(bytes, item);
    void runCall(this.ctx, this.serve, name, kind, body, pending.detach?.signal, sent).then(
      (result) => this.settled(id, pending, result),
    );
  }

  private refusalBeforeDecoding({ bytes, id, keepAlive, keepAliveIds }: Queued): Result | null {
    if (bytes.byteLength > this.limits.maxRequestBytes) {
      return tooLarge(
        `request ${id} is ${bytes.byteLength} bytes; a stream request may have at most ${this.limits.maxRequestBytes} (send it as a unary call)`,
      );
    }
    const problem = keepAlive ? keepAliveCountProblem(keepAliveIds) : null;
    if (problem !== null) return failed("ERROR_REASON_INVALID_ARGUMENT", problem);
    // A keepalive names no session of its own: its budget is the caller's, known undecoded.
    if (keepAlive && !this.takeBudget(rateKey(this.who, null, this.peer()), keepAliveIds))
      return RATE_LIMITED;
    return null;
  }

  /** The client's address: read once, as a stream stays on its connection. */
  private peer(): string {
    return (this.peerName ??= this.call.getPeer());
  }

  private takeBudget(key: string, keepAliveIds: number): boolean {
    return (
      this.options.takeBudget === undefined ||
      this.options.takeBudget(key, requestCost(keepAliveIds))
    );
  }

  private duplicate(id: string): void {
    this.fail(
      statusError(
        "ERROR_REASON_MALFORMED_REQUEST",
        `request id ${id} is already in flight on this stream`,
      ),
    );
  }

  private settled(id: string, pending: InFlight, result: Result): void {
    if (pending.settled) return;
    pending.settled = true;
    if (pending.wait) this.waits--;
    else this.running--;
    this.keepAliveIds -= pending.keepAliveIds;
    if (this.closed) return;
    if (pending.keepAliveIds > 0) this.updateReading(); // a keepalive held back may start now
    if (pending.forgotten) {
      this.inFlight.delete(id);
      this.updateReading();
      this.maybeEnd();
      return;
    }
    this.answer(id, id, result);
  }

  /**
   * Encodes an answer into this turn's outbox. `key`: the request's entry in inFlight, left
   * once the answer is written (null for a request that never ran).
   */
  private answer(key: string | null, id: string, result: Result): void {
    if (this.closed) return;
    const bytes = encodeStreamAnswer(this.ctx, id, result, this.limits.maxAnswerFrameBytes);
    this.outbox.push(bytes);
    this.outboxIds.push(key ?? "");
    this.outboxBytes += bytes.byteLength;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes the outbox as frames under the message limit, until the transport has no room. */
  private flush(): void {
    this.flushScheduled = false;
    while (!this.closed && !this.waitingForDrain && this.outbox.length > 0) {
      const { frame, next } = packFrame(
        this.outbox,
        0,
        this.limits.maxAnswerFrameBytes,
        Number.POSITIVE_INFINITY,
      );
      const ids = this.outboxIds.splice(0, next);
      for (const written of this.outbox.splice(0, next)) this.outboxBytes -= written.byteLength;
      const more = this.call.write(frame);
      this.options.observer?.frameOut(next);
      for (const id of ids) if (id !== "") this.inFlight.delete(id);
      if (!more) {
        // The client is not reading fast enough: hold further answers (and, past the cap,
        // further requests) until the transport has room again.
        this.waitingForDrain = true;
        this.call.once("drain", () => {
          this.waitingForDrain = false;
          this.flush();
        });
      }
    }
    this.updateReading();
    this.maybeEnd();
  }

  /** At the cap once the calls running plus the answers queued (or their bytes) reach it; below it again at half. */
  private refreshFull(): void {
    const held = this.running + this.outbox.length;
    const maxBytes = 4 * this.limits.maxAnswerFrameBytes;
    if (!this.full) {
      this.full = held >= this.limits.maxInFlight || this.outboxBytes >= maxBytes;
    } else if (
      held <= this.limits.maxInFlight / 2 &&
      this.outboxBytes <= maxBytes / 2 &&
      !this.waitingForDrain
    ) {
      this.full = false;
    }
  }

  /** Reads the client only while the stream is below its cap and its backlog below a frame's worth; handles the backlog when it may. */
  private updateReading(): void {
    if (this.closed) return;
    this.refreshFull();
    if (!this.full && this.backlog.size > 0) this.work();
    else this.setReading();
  }

  /** Pauses or resumes reading the client as the cap and the backlog say. */
  private setReading(): void {
    if (this.closed) return;
    this.refreshFull();
    // Reading on while less than a frame's worth waits lets a keepalive sent now overtake them.
    const read = !this.full && this.backlog.size < this.limits.maxRequestsPerFrame;
    if (read && this.paused) {
      this.paused = false;
      this.call.resume();
    } else if (!read && !this.paused) {
      this.paused = true;
      this.call.pause();
    }
  }

  /** The client finished sending and every answer left: end the stream. */
  private maybeEnd(): void {
    if (
      !this.clientDone ||
      this.closed ||
      this.inFlight.size > 0 ||
      this.outbox.length > 0 ||
      this.backlog.size > 0
    )
      return;
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
    for (const pending of this.inFlight.values()) pending.detach?.abort();
    this.inFlight.clear();
    this.outbox = [];
    this.outboxIds = [];
    this.outboxBytes = 0;
    this.backlog.clear();
  }
}
