// The client API on the simulated network, carried as bytes: a simulated client's calls
// leave the real client library (Connection: the codec, the failover rules, one failure
// shape) as encoded StreamRequests in ClientFrames, cross the simulated network (delayed,
// lost, duplicated, cut), and each node reads them as its client streams do
// (node/api/stream-calls.ts: the frame's entries, the request, the codec's field checks,
// the node's dispatcher, the answer's encoding and framing) and sends back a ServerFrame.
// So every seed runs the shipped decoding, validation, encoding and framing on both ends.
// The stream's own state (flow control, the turn budget, the rate budget) is not simulated:
// each attempt travels as a frame of its own and is answered as one.
import { status as Status } from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import { decodeFailure, type CallFailure } from "../../proto/codec/answers.ts";
import {
  decodeAnswer,
  decodeRequest,
  specOf,
  type AnswerOf,
  type CallName,
  type RequestOf,
  type WireAnswerOf,
  type WireRequestOf,
} from "../../proto/lock-calls.ts";
import {
  STREAM_MAX_FRAME_BYTES,
  STREAM_MAX_REQUEST_BYTES,
  STREAM_MAX_REQUESTS_PER_FRAME,
} from "../../proto/limits.ts";
import { frameEntries, packFrame } from "../../proto/stream-frames.ts";
import { StreamCallError } from "../../client/call-stream.ts";
import type { CallTransport } from "../../client/connection.ts";
import type { Attempt } from "../../client/failover.ts";
import { ANONYMOUS, type Caller } from "../../node/auth/caller.ts";
import { LockRequests } from "../../node/host/lock-requests.ts";
import type { LockReader, NodeHost } from "../../node/host/node-host.ts";
import type { LockLimits } from "../../node/lock/limits.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import type { NodeId } from "../../node/raft/types.ts";
import {
  encodeStreamAnswer,
  readStreamRequest,
  runCall,
  tooLarge,
  type CallContext,
  type Result,
} from "../../node/api/stream-calls.ts";
import { callBytes, peekRequest } from "../../node/api/stream-requests.ts";
import type { Logger } from "../../node/util/logger.ts";
import type { SimClientProcess } from "./client-process.ts";
import type { SimNode } from "./cluster.ts";

const pb = palisade.v1;

export type LockResult = ApplyOutcome | null;

/** The lock limits of the simulated cluster files: TTLs below a second so sessions expire within a short run. */
export const SIM_LOCK_LIMITS: Partial<LockLimits> = { minTtlMs: 100, minHoldMs: 100 };

/** A simulated node's client address (what a leader hint names, and a client's endpoint). */
export const simClientAddress = (id: NodeId): string => `node-${id}.sim:7000`;

export function nodeOfAddress(address: string): NodeId {
  const m = /^node-(\d+)\.sim:7000$/.exec(address);
  if (m === null) throw new Error(`${address} is not a simulated node's address`);
  return Number(m[1]);
}

/** A node's answers to frames: what its message limit allows in one ServerFrame. */
const ANSWER_FRAME_BYTES = 4 * 1024 * 1024;

/** How the simulation carries a frame to a node and its answer back (null: no answer in time; "refused": the node is down). */
export type SimNetwork = (
  from: number,
  to: NodeId,
  frame: Uint8Array,
  timeoutVirtualMs: number,
) => Promise<Uint8Array | "refused" | null>;

/**
 * A simulated node's client port: each ClientFrame's requests read, served and answered as
 * the node's client streams do, by the node's real host, as sent by the caller `callerOf`
 * names for the frame's sender (as a node establishes it from the connection's certificate
 * or a bearer token). An answer made after the node restarted is not sent (the connection
 * it came on is gone).
 */
export class SimNodeServer {
  private readonly locks: LockRequests;
  private readonly ctx: CallContext;

  constructor(
    private readonly node: SimNode<LockResult>,
    private readonly instance: number,
    readonly host: NodeHost,
    internalError: (message: string) => void,
    private readonly callerOf: (endpoint: number) => Caller = () => ANONYMOUS,
  ) {
    this.locks = new LockRequests(host);
    const logger = {
      error: (_obj: unknown, message: string) => internalError(`node ${node.id}: ${message}`),
    } as unknown as Logger;
    this.ctx = { host, logger };
  }

  get sm(): LockReader {
    return this.host.state;
  }

  /**
   * Answers one ClientFrame from endpoint `from`; `reply` is called at most once (never if
   * the node dies first).
   */
  handle(frame: Uint8Array, reply: (frame: Uint8Array) => void, from: number): void {
    const alive = (): boolean => this.node.up && this.node.instance === this.instance;
    if (!alive()) return;
    const entries = frameEntries(frame, STREAM_MAX_REQUESTS_PER_FRAME);
    if (entries === null)
      throw new Error("a simulated client sent more requests than a frame may carry");
    const caller = this.callerOf(from);
    void Promise.all(entries.map((bytes) => this.answer(bytes, caller))).then((answers) => {
      const sent = answers.filter((a): a is Uint8Array => a !== null);
      if (sent.length > 0 && alive())
        reply(packFrame(sent, 0, ANSWER_FRAME_BYTES, sent.length).frame);
    });
  }

  /** One request's encoded answer; null for a Forget. */
  private async answer(bytes: Uint8Array, caller: Caller): Promise<Uint8Array | null> {
    const peek = peekRequest(bytes);
    const { id } = peek;
    let result: Result;
    if (bytes.byteLength > STREAM_MAX_REQUEST_BYTES) {
      result = tooLarge(
        `request ${id} is ${bytes.byteLength} bytes; a stream request may have at most ${STREAM_MAX_REQUEST_BYTES}`,
      );
    } else {
      const read = readStreamRequest(bytes, id);
      if (read.kind === "forget") return null;
      // A call is never detached: a simulated connection does not go away while its call runs.
      result =
        read.kind === "answer"
          ? read.result
          : await runCall(
              this.ctx,
              (name, request, detached, sent) =>
                this.locks.serve(name, request, detached, sent, caller),
              read.name,
              read.field,
              read.body,
              new AbortController().signal,
              callBytes(bytes, peek),
            );
    }
    return encodeStreamAnswer(this.ctx, id, result, ANSWER_FRAME_BYTES);
  }
}

/** What the run's checkers learn from a client's calls: each attempt sent, and each answer or answered failure. */
export interface CallObserver {
  sent(name: CallName, request: unknown): void;
  answered(
    name: CallName,
    request: unknown,
    outcome: { answer: unknown } | { failure: CallFailure },
  ): void;
}

function failure(code: Status, message: string): StreamCallError {
  return new StreamCallError({ code, reason: null, message, leader: null });
}

/** One request as a ClientFrame of its own: its bytes and its id. */
function requestFrame<N extends CallName>(
  id: number,
  name: N,
  request: WireRequestOf<N>,
): Uint8Array {
  const entry = pb.StreamRequest.encode({
    id: String(id) as unknown as palisade.v1.StreamRequest.$Properties["id"],
    [specOf(name).field]: request,
  }).finish();
  return packFrame([entry], 0, STREAM_MAX_FRAME_BYTES, 1).frame;
}

/** The answer of request `id` in a ServerFrame: its answer field, or its failure. */
function answerIn<N extends CallName>(
  frame: Uint8Array,
  id: number,
  name: N,
): { wire: WireAnswerOf<N> } | { failure: CallFailure } | null {
  const answer = pb.ServerFrame.decode(frame).answers.find((a) => String(a.id) === String(id));
  if (answer === undefined) return null;
  if (answer.result === "failure" && answer.failure)
    return { failure: decodeFailure(answer.failure) };
  const field = specOf(name).field;
  if (answer.result !== field)
    return {
      failure: {
        code: Status.INTERNAL,
        reason: null,
        message: `the answer to a ${field} call carried ${answer.result ?? "nothing"}`,
        leader: null,
      },
    };
  return { wire: answer[field] as WireAnswerOf<N> };
}

/** A simulated client process's transport: each attempt a frame over the simulated network, seen by the process only when it runs. */
export class SimCallTransport implements CallTransport {
  private nextId = 1;

  constructor(
    private readonly network: SimNetwork,
    private readonly proc: SimClientProcess,
    private readonly observer?: CallObserver,
  ) {}

  attempt<N extends CallName>(
    endpoint: string,
    name: N,
    request: WireRequestOf<N>,
    timeoutMs: number,
    _pinned: boolean,
    attempt?: Attempt,
  ): Promise<WireAnswerOf<N>> {
    const id = this.nextId++;
    const frame = requestFrame(id, name, request);
    this.observer?.sent(name, request);
    return new Promise<WireAnswerOf<N>>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        fn();
      };
      if (attempt)
        attempt.cancel = () =>
          finish(() => reject(failure(Status.CANCELLED, "moved to another node")));
      void this.network(
        this.proc.endpoint,
        nodeOfAddress(endpoint),
        frame,
        this.proc.virtualOf(timeoutMs),
      ).then((reply) =>
        this.proc.run(() => {
          if (reply === null)
            return finish(() =>
              reject(
                failure(
                  Status.DEADLINE_EXCEEDED,
                  `no answer from ${endpoint} within ${timeoutMs} ms`,
                ),
              ),
            );
          if (reply === "refused")
            return finish(() =>
              reject(failure(Status.UNAVAILABLE, `connection to ${endpoint} refused`)),
            );
          const got = answerIn(reply, id, name);
          if (got === null)
            return finish(() =>
              reject(failure(Status.INTERNAL, `no answer to request ${id} in ${endpoint}'s frame`)),
            );
          if ("failure" in got) {
            finish(() => {
              this.observer?.answered(name, request, got);
              reject(new StreamCallError(got.failure));
            });
            return;
          }
          finish(() => {
            this.observer?.answered(name, request, { answer: got.wire });
            resolve(got.wire);
          });
        }),
      );
    });
  }
}

/** One attempt of a call from a client endpoint to a node, outside any client library: its answer, its failure, or null. */
export async function callOnce<N extends CallName>(
  network: SimNetwork,
  from: number,
  to: NodeId,
  name: N,
  request: RequestOf<N>,
  timeoutMs: number,
): Promise<{ answer: AnswerOf<N> } | { failure: CallFailure } | null> {
  const id = 1;
  const reply = await network(
    from,
    to,
    requestFrame(id, name, specOf(name).request.encode(request)),
    timeoutMs,
  );
  if (reply === null) return null;
  if (reply === "refused")
    return {
      failure: { code: Status.UNAVAILABLE, reason: null, message: "refused", leader: null },
    };
  const got = answerIn(reply, id, name);
  if (got === null) return null;
  return "failure" in got ? got : { answer: decodeAnswer(name, got.wire) };
}

/** A wire request's domain value (the observer's view of a call it saw leave). */
export function requestOf<N extends CallName>(name: N, wire: unknown): RequestOf<N> {
  return decodeRequest(name, wire as WireRequestOf<N>);
}
