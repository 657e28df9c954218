// Calls to a set of node endpoints over gRPC: one grpc-js channel per endpoint, and the
// failover rules of client/failover.ts (the preferred endpoint, leader hints, retries on
// UNAVAILABLE and DEADLINE_EXCEEDED, nodes that stopped answering passed over). The
// LockService calls (proto/lock-calls.ts) are encoded by the codec for each attempt and
// travel on one bidirectional stream per endpoint (client/call-stream.ts), many to a
// message; a call pinned to one node, or too large for the stream, goes as its unary call.
// Either way a failed attempt is one CallFailure, so failover treats both paths alike.
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import type { CallFailure } from "../proto/codec/answers.ts";
import { lockServiceDefinition, type UnaryMethod } from "../proto/grpc.ts";
import { tlsChannelCredentials } from "../proto/tls-channel.ts";
import {
  decodeAnswer,
  encodeRequest,
  specOf,
  type AnswerOf,
  type CallName,
  type RequestOf,
  type WireAnswerOf,
  type WireRequestOf,
} from "../proto/lock-calls.ts";
import { systemClock, type ClientClock } from "./clock.ts";
import {
  attemptFailureOf,
  Failover,
  type Attempt,
  type AttemptFailure,
  type CallDefaults,
  type CallOptions,
} from "./failover.ts";
import { OutcomeUnknownError, UnavailableError } from "./errors.ts";
import type { LockApi } from "./lock-api.ts";
import { errorOf, failureOfStatus } from "./status-errors.ts";
import { CallStream, StreamCallError } from "./call-stream.ts";
import { checkBearerToken, nodeClient } from "./bearer.ts";

export interface ConnectionOptions {
  endpoints: readonly string[];
  /** Deadline of one attempt in milliseconds (a waiting Acquire adds its wait). */
  callTimeoutMs: number;
  /** Total time a request keeps retrying before it gives up. */
  retryBudgetMs: number;
  /** Optional channel credentials (plaintext when absent). */
  credentials?: grpc.ChannelCredentials;
  /** A bearer token every call presents (`authorization` metadata), if given. */
  token?: string;
}

/**
 * How one attempt of a LockService call reaches one endpoint, its request and answer in
 * protobuf form; it rejects with a StreamCallError (or a gRPC status) when the attempt
 * fails. `pinned`: the call is made to this endpoint alone (no failover), and may wait for
 * it to come up. By default the attempts go over gRPC; a simulator gives its own network.
 */
export interface CallTransport {
  attempt<N extends CallName>(
    endpoint: string,
    name: N,
    request: WireRequestOf<N>,
    timeoutMs: number,
    pinned: boolean,
    attempt?: Attempt,
  ): Promise<WireAnswerOf<N>>;
}

/** What a Connection runs on besides its options: the transport of its calls and the clock of its retries. */
export interface ConnectionWiring {
  transport?: CallTransport;
  /** Times the retries and back-offs (default: the system's, whose back-offs keep a process alive). */
  clock?: ClientClock;
}

/** PEM files for TLS: the cluster CA, and for mutual TLS a client (or admin) certificate and its key. */
export interface TlsFileOptions {
  /** CA bundle that signed the nodes' certificates. */
  ca: string;
  /** This client's certificate (role client or admin); nodes with mTLS require one. */
  cert?: string;
  /** The private key of `cert`. */
  key?: string;
}

/** Channel credentials from PEM files, for `credentials` of PalisadeClient. Throws naming a file it cannot read. */
export function tlsCredentials(files: TlsFileOptions): grpc.ChannelCredentials {
  if ((files.cert === undefined) !== (files.key === undefined))
    throw new Error("a client certificate needs its key, and a key its certificate");
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`cannot read the TLS ${what} ${path}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  };
  const ca = read(files.ca, "CA bundle");
  if (files.cert === undefined || files.key === undefined) return tlsChannelCredentials({ ca });
  return tlsChannelCredentials({
    ca,
    key: read(files.key, "key"),
    cert: read(files.cert, "certificate"),
  });
}

const RETRIABLE = new Set<grpc.status>([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED]);

const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // Reconnect quickly to a node that restarts; the default backoff starts at 1 s.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1_000,
  "grpc.max_receive_message_length": 4 * 1024 * 1024,
};

function isServiceError(err: unknown): err is grpc.ServiceError {
  return (
    err instanceof Error &&
    typeof (err as { code?: unknown }).code === "number" &&
    "metadata" in err
  );
}

/** The endpoint a leader hint names: a host:port, or a node id we cannot map (ignored). */
function hintOf(leader: string | null): string | undefined {
  if (leader === null || !/^[^\s]+:\d+$/.test(leader)) return undefined;
  return leader;
}

/** The failure a failed attempt carries: a stream answer's, or a unary status's; null for anything else. */
function failureOfAttempt(err: unknown): CallFailure | null {
  if (err instanceof StreamCallError) return err.failure;
  if (isServiceError(err)) return failureOfStatus(err.code, err.details, err.metadata);
  return null;
}

export class Connection implements LockApi {
  private readonly clients = new Map<string, grpc.Client>();
  private readonly streams = new Map<string, CallStream>();
  private readonly failover: Failover;
  private readonly transport: CallTransport;

  constructor(
    private readonly options: ConnectionOptions,
    wiring: ConnectionWiring = {},
  ) {
    if (options.token !== undefined) checkBearerToken(options.token);
    // A call waiting out a back-off keeps the process alive, as the call itself does; on a
    // clock of its own, a back-off waits on that clock.
    const pause = wiring.clock
      ? undefined
      : (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    this.failover = new Failover(
      options.endpoints,
      wiring.clock ?? systemClock,
      (err) => this.classify(err),
      pause,
    );
    this.transport = wiring.transport ?? { attempt: (...args) => this.grpcAttempt(...args) };
  }

  /** The endpoint requests go to first. */
  get current(): string {
    return this.failover.current;
  }

  get allEndpoints(): readonly string[] {
    return this.failover.allEndpoints;
  }

  private client(endpoint: string): grpc.Client {
    let client = this.clients.get(endpoint);
    if (!client) {
      client = nodeClient(endpoint, this.options, CHANNEL_OPTIONS);
      this.clients.set(endpoint, client);
    }
    return client;
  }

  private stream(endpoint: string): CallStream {
    let stream = this.streams.get(endpoint);
    if (!stream) {
      stream = new CallStream(this.client(endpoint), endpoint);
      this.streams.set(endpoint, stream);
    }
    return stream;
  }

  /**
   * One attempt of a LockService call on one endpoint: on the stream, or as the unary call
   * when pinned to the node or too large for the stream. `waitForReady` makes a call on a
   * channel that is between reconnect attempts wait for it (up to the deadline) instead of
   * failing at once: right for calls pinned to one node, wrong for failover (the stream
   * fails at once when the channel is down, so pinned calls go unary).
   */
  private grpcAttempt<N extends CallName>(
    endpoint: string,
    name: N,
    request: WireRequestOf<N>,
    timeoutMs: number,
    waitForReady: boolean,
    attempt?: Attempt,
  ): Promise<WireAnswerOf<N>> {
    const method = lockServiceDefinition[name] as unknown as UnaryMethod<
      WireRequestOf<N>,
      WireAnswerOf<N>
    >;
    if (waitForReady) return this.unaryOnce(endpoint, method, request, timeoutMs, true, attempt);
    return this.stream(endpoint)
      .send(name, request, timeoutMs, attempt)
      .catch((err: unknown) => {
        if (err instanceof StreamCallError && err.tooLargeForStream)
          return this.unaryOnce(endpoint, method, request, timeoutMs, false, attempt);
        throw err;
      });
  }

  /**
   * A LockService call, following leader hints and retrying on UNAVAILABLE and
   * DEADLINE_EXCEEDED until the budget runs out (client/failover.ts). `build` is called per
   * attempt so a write can carry its latest acknowledgements; a retry keeps the same seq.
   */
  async call<N extends CallName>(
    name: N,
    build: () => RequestOf<N>,
    opts: CallOptions = {},
  ): Promise<AnswerOf<N>> {
    return decodeAnswer(name, await this.callWire(name, () => encodeRequest(name, build()), opts));
  }

  /** `call` with the request and answer in their protobuf form, as built and read by the caller. */
  callWire<N extends CallName>(
    name: N,
    build: () => WireRequestOf<N>,
    opts: CallOptions = {},
  ): Promise<WireAnswerOf<N>> {
    const attemptOnce = (
      endpoint: string,
      timeoutMs: number,
      waitForReady: boolean,
      attempt?: Attempt,
    ): Promise<WireAnswerOf<N>> =>
      this.failover.isClosed
        ? Promise.reject(new UnavailableError("client is closed"))
        : this.transport.attempt(endpoint, name, build(), timeoutMs, waitForReady, attempt);
    return this.run(attemptOnce, lockServiceDefinition[name].path, opts, specOf(name).kind);
  }

  /** An AdminService call (unary), as `call` runs a LockService one. */
  invoke<Req, Res>(
    method: UnaryMethod<Req, Res>,
    build: () => Req,
    opts: CallOptions & { kind: "write" | "read" },
  ): Promise<Res> {
    const attemptOnce = (
      endpoint: string,
      timeoutMs: number,
      waitForReady: boolean,
      attempt?: Attempt,
    ): Promise<Res> => {
      if (this.failover.isClosed) return Promise.reject(new UnavailableError("client is closed"));
      return this.unaryOnce(endpoint, method, build(), timeoutMs, waitForReady, attempt);
    };
    return this.run(attemptOnce, method.path, opts, opts.kind);
  }

  private async run<Res>(
    attemptOnce: (
      endpoint: string,
      timeoutMs: number,
      waitForReady: boolean,
      attempt?: Attempt,
    ) => Promise<Res>,
    what: string,
    opts: CallOptions,
    kind: "write" | "read",
  ): Promise<Res> {
    const defaults: CallDefaults = {
      kind,
      attemptTimeoutMs: this.options.callTimeoutMs,
      budgetMs: this.options.retryBudgetMs,
    };
    if (opts.endpoint !== undefined) {
      const timeout = opts.attemptTimeoutMs ?? defaults.attemptTimeoutMs;
      try {
        return await attemptOnce(
          opts.endpoint,
          typeof timeout === "function" ? timeout() : timeout,
          true,
        );
      } catch (err) {
        throw this.translate(err, opts.kind ?? kind, what);
      }
    }
    return this.failover.call(
      (endpoint, timeoutMs, attempt) => attemptOnce(endpoint, timeoutMs, false, attempt),
      what,
      opts,
      defaults,
    );
  }

  /** One unary call on one endpoint, as other languages and grpcurl make it; rejects with the grpc ServiceError. */
  unaryOnce<Req, Res>(
    endpoint: string,
    method: UnaryMethod<Req, Res>,
    request: Req,
    timeoutMs: number,
    waitForReady: boolean,
    attempt?: Attempt,
  ): Promise<Res> {
    const client = this.client(endpoint);
    return new Promise<Res>((resolve, reject) => {
      const call = client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        new grpc.Metadata({ waitForReady }),
        { deadline: Date.now() + timeoutMs },
        (err, response) => {
          if (err) reject(err);
          else if (response === undefined)
            reject(new UnavailableError(`empty answer from ${endpoint}`));
          else resolve(response);
        },
      );
      if (attempt) attempt.cancel = () => call.cancel();
    });
  }

  /** What the failover rules need to know of a failed attempt. */
  private classify(err: unknown): AttemptFailure {
    const failure = failureOfAttempt(err);
    if (failure === null) {
      const error = err instanceof Error ? err : new Error(String(err));
      return { retriable: false, timedOut: false, detail: error.message, error };
    }
    return attemptFailureOf(failure, hintOf(failure.leader));
  }

  /** A retriable failure on a single-endpoint call becomes Unavailable/OutcomeUnknown; others map by their reason. */
  private translate(err: unknown, kind: "write" | "read", path: string): Error {
    const failure = failureOfAttempt(err);
    if (failure === null) return err instanceof Error ? err : new Error(String(err));
    if (RETRIABLE.has(failure.code)) {
      const what = `${path}: ${failure.message}`;
      const reason = failure.reason ?? undefined;
      return kind === "write"
        ? new OutcomeUnknownError(what, failure.code, reason)
        : new UnavailableError(what, failure.code, reason);
    }
    return errorOf(failure);
  }

  close(): void {
    this.failover.close();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
