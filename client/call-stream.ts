// The client's end of the Stream RPC to one node: LockService calls travel on one
// bidirectional stream, the calls of an event-loop turn in as few frames as the node's
// limits allow (requests and bytes per frame, proto/limits.ts), and their answers come back
// many to a frame, matched by the request id. A call answered with a failure, one that ran
// out of time, and every call in flight when the stream broke fail with a StreamCallError
// carrying the CallFailure the unary call would have ended with, so the failover rules
// treat both paths alike; a request too large for the stream fails as
// StreamCallError.tooLargeForStream, for the caller to send as a unary call. The stream
// opens on first use and closes when idle for a while.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { decodeFailure, type CallFailure } from "../proto/codec/answers.ts";
import { asBuffer, lockServiceDefinition } from "../proto/grpc.ts";
import {
  specOf,
  type CallName,
  type StreamField,
  type WireAnswerOf,
  type WireRequestOf,
} from "../proto/lock-calls.ts";
import { packFrame } from "../proto/stream-frames.ts";
import { TurnBatcher } from "../proto/turn-batcher.ts";
import {
  STREAM_MAX_FRAME_BYTES,
  STREAM_MAX_REQUEST_BYTES,
  STREAM_MAX_REQUESTS_PER_FRAME,
} from "../proto/limits.ts";
import type { Attempt } from "./failover.ts";

const pb = palisade.v1;
const STREAM = lockServiceDefinition.Stream;

/** Frames are written as the bytes flush() packed from requests encoded one by one. */
function openDuplex(client: grpc.Client) {
  return client.makeBidiStreamRequest(STREAM.path, asBuffer, STREAM.responseDeserialize);
}
type Duplex = ReturnType<typeof openDuplex>;

/** A call that failed on the stream, with the failure its unary call would have ended with. */
export class StreamCallError extends Error {
  /** The request was not sent: it is larger than one stream request may be (it can go as a unary call). */
  tooLargeForStream = false;
  constructor(readonly failure: CallFailure) {
    super(`${grpc.status[failure.code] ?? failure.code}: ${failure.message}`);
  }
}

function failedWith(code: grpc.status, message: string): StreamCallError {
  return new StreamCallError({ code, reason: null, message, leader: null });
}

interface Pending {
  readonly field: StreamField;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: StreamCallError) => void;
  readonly timer: NodeJS.Timeout;
}

/** How long an open stream with no call in flight stays open. */
const IDLE_CLOSE_MS = 2_000;

export class CallStream {
  private call: Duplex | null = null;
  private readonly pending = new Map<string, Pending>();
  /** Requests encoded and not yet sent: this turn's go out together. */
  private readonly outbox = new TurnBatcher<Uint8Array>(
    (flush) => setImmediate(flush),
    (requests) => this.write(requests),
  );
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly client: grpc.Client,
    private readonly endpoint: string,
  ) {}

  /** One call on the stream; rejects with a StreamCallError. */
  send<N extends CallName>(
    name: N,
    request: WireRequestOf<N>,
    timeoutMs: number,
    attempt?: Attempt,
  ): Promise<WireAnswerOf<N>> {
    const field = specOf(name).field;
    if (this.closed) return Promise.reject(failedWith(grpc.status.UNAVAILABLE, "client is closed"));
    const id = String(this.nextId++);
    const bytes = pb.StreamRequest.encode({
      id: id as unknown as palisade.v1.StreamRequest.$Properties["id"],
      [field]: request,
    }).finish();
    if (bytes.byteLength > STREAM_MAX_REQUEST_BYTES) {
      const error = failedWith(
        grpc.status.RESOURCE_EXHAUSTED,
        `the request is ${bytes.byteLength} bytes, more than the ${STREAM_MAX_REQUEST_BYTES} a stream request may have`,
      );
      error.tooLargeForStream = true;
      return Promise.reject(error);
    }
    return new Promise<WireAnswerOf<N>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(id);
        reject(
          failedWith(
            grpc.status.DEADLINE_EXCEEDED,
            `no answer from ${this.endpoint} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { field, resolve: resolve as (answer: unknown) => void, reject, timer });
      if (attempt) {
        attempt.cancel = () => {
          if (!this.pending.has(id)) return;
          this.forget(id);
          reject(failedWith(grpc.status.CANCELLED, "moved to another node"));
        };
      }
      this.queue(bytes);
    });
  }

  /** Stops waiting for `id`, and tells the node (a wait goes on there, as after a cancelled unary call). */
  private forget(id: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (this.call !== null)
      this.queue(
        pb.StreamRequest.encode({
          id: id as unknown as palisade.v1.StreamRequest.$Properties["id"],
          forget: {},
        }).finish(),
      );
    this.maybeIdle();
  }

  private queue(request: Uint8Array): void {
    if (this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    this.outbox.add(request);
  }

  /** Sends this turn's requests, in frames within a node's limits (opening the stream if needed). */
  private write(requests: readonly Uint8Array[]): void {
    if (this.closed) return;
    const call = this.open();
    for (let at = 0; at < requests.length;) {
      const { frame, next } = packFrame(
        requests,
        at,
        STREAM_MAX_FRAME_BYTES,
        STREAM_MAX_REQUESTS_PER_FRAME,
      );
      call.write(frame);
      at = next;
    }
  }

  private open(): Duplex {
    if (this.call !== null) return this.call;
    const call = openDuplex(this.client);
    this.call = call;
    call.on("data", (frame: palisade.v1.ServerFrame) => this.answers(frame));
    const broken = (detail: string): void => {
      if (this.call !== call) return;
      this.call = null;
      this.failAll(detail);
    };
    call.on("error", (err: grpc.ServiceError) => broken(err.details || err.message));
    call.on("end", () => broken("the node ended the stream"));
    return call;
  }

  private answers(frame: palisade.v1.ServerFrame): void {
    for (const answer of frame.answers) {
      const id = String(answer.id);
      const p = this.pending.get(id);
      if (!p) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      if (answer.result === "failure" && answer.failure)
        p.reject(new StreamCallError(decodeFailure(answer.failure)));
      else if (answer.result === p.field) p.resolve(answer[p.field]);
      else
        p.reject(
          failedWith(
            grpc.status.INTERNAL,
            `the answer to a ${p.field} call carried ${answer.result ?? "nothing"}`,
          ),
        );
    }
    this.maybeIdle();
  }

  /** Every call in flight fails as UNAVAILABLE (retried elsewhere, writes with the same seq). */
  private failAll(detail: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(
        failedWith(grpc.status.UNAVAILABLE, `the stream to ${this.endpoint} broke: ${detail}`),
      );
    }
  }

  /** With nothing in flight for a while the stream closes (it reopens on the next call). */
  private maybeIdle(): void {
    if (this.pending.size > 0 || this.call === null || this.idleTimer !== null) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size > 0 || this.outbox.size > 0 || this.call === null) return;
      const call = this.call;
      this.call = null;
      call.end();
    }, IDLE_CLOSE_MS);
    this.idleTimer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.failAll("client is closed");
    const call = this.call;
    this.call = null;
    call?.end();
  }
}
