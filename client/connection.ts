// Calls to a set of node endpoints over gRPC: one grpc-js channel per endpoint, and the
// failover rules of client/failover.ts (the preferred endpoint, leader hints, retries on
// UNAVAILABLE and DEADLINE_EXCEEDED, nodes that stopped answering passed over). LockService
// calls travel on one bidirectional stream per endpoint (client/call-stream.ts), many to a
// message, unless the connection is told to use the unary RPCs; either way an attempt fails
// with the same status, so failover treats both alike.
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import type { UnaryMethod } from "../proto/grpc.ts";
import { systemClock, type ClientClock } from "./clock.ts";
import { Failover, type Attempt, type AttemptFailure } from "./failover.ts";
import { OutcomeUnknownError, UnavailableError } from "./errors.ts";
import { LEADER_METADATA_KEY, reasonOf } from "../proto/wire.ts";
import { errorFromStatus } from "./status-errors.ts";
import { CallStream, carriedByStream, StreamCallError } from "./call-stream.ts";

export interface ConnectionOptions {
  endpoints: readonly string[];
  /** Deadline of one attempt in milliseconds (a waiting Acquire adds its wait). */
  callTimeoutMs: number;
  /** Total time a request keeps retrying before it gives up. */
  retryBudgetMs: number;
  /** Optional channel credentials (plaintext when absent). */
  credentials?: grpc.ChannelCredentials;
  /**
   * "stream" (default): LockService calls share one Stream RPC per endpoint. "unary": one
   * RPC per call (for nodes that predate the Stream RPC, or to compare the two).
   */
  transport?: "stream" | "unary";
}

export interface InvokeOptions {
  /** Writes end in OutcomeUnknownError when the budget runs out, reads in UnavailableError. */
  kind: "write" | "read";
  /** Deadline of one attempt (asked before each one when a function); defaults to the connection's callTimeoutMs. */
  attemptTimeoutMs?: number | (() => number);
  /** Overall retry budget, on the monotonic clock; defaults to the connection's retryBudgetMs. */
  budgetMs?: number;
  /**
   * Time left before an answer is of no use (such as a session's deadline), asked before
   * each attempt: no attempt outlasts it, and the call gives up once it is gone.
   */
  timeLeftMs?: () => number;
  /** The node may hold its answer on purpose (a waiting Acquire); see FailoverCallOptions. */
  answerMayWait?: boolean;
  /** Ask this endpoint only (no leader following, no retry). */
  endpoint?: string;
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
  if ((files.cert === undefined) !== (files.key === undefined)) throw new Error("a client certificate needs its key, and a key its certificate");
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`cannot read the TLS ${what} ${path}: ${(err as Error).message}`, { cause: err });
    }
  };
  const ca = read(files.ca, "CA bundle");
  if (files.cert === undefined || files.key === undefined) return grpc.credentials.createSsl(ca);
  return grpc.credentials.createSsl(ca, read(files.key, "key"), read(files.cert, "certificate"));
}

const RETRIABLE = new Set<grpc.status>([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED]);

const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // Reconnect quickly to a node that restarts; the default backoff starts at 1 s.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1_000,
  "grpc.max_receive_message_length": 4 * 1024 * 1024,
};

function isServiceError(err: unknown): err is grpc.ServiceError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === "number" && "metadata" in err;
}

/** The endpoint a leader hint names: a host:port, or a node id we cannot map (ignored). */
function hintOf(metadata: grpc.Metadata | undefined): string | undefined {
  const value = metadata?.get(LEADER_METADATA_KEY)[0];
  if (typeof value !== "string" || !/^[^\s]+:\d+$/.test(value)) return undefined;
  return value;
}

export class Connection {
  private readonly clients = new Map<string, grpc.Client>();
  private readonly streams = new Map<string, CallStream>();
  private readonly failover: Failover;

  constructor(private readonly options: ConnectionOptions, clock: ClientClock = systemClock) {
    // A call waiting out a back-off keeps the process alive, as the call itself does.
    const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    this.failover = new Failover(options.endpoints, clock, (err) => this.classify(err), pause);
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
      client = new grpc.Client(endpoint, this.options.credentials ?? grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
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
   * One attempt on one endpoint; rejects with the grpc ServiceError. `waitForReady` makes a
   * call on a channel that is between reconnect attempts wait for it (up to the deadline)
   * instead of failing at once: right for calls pinned to one node, wrong for failover.
   */
  callOnce<Req, Res>(
    endpoint: string, method: UnaryMethod<Req, Res>, request: Req, timeoutMs: number, waitForReady = false, attempt?: Attempt,
  ): Promise<Res> {
    if (this.failover.isClosed) return Promise.reject(new UnavailableError("client is closed"));
    // A call pinned to one node waits for its channel; the stream fails at once when the
    // channel is down, so pinned calls stay unary.
    if (this.options.transport !== "unary" && !waitForReady && carriedByStream(method)) {
      // A request too large for the stream goes as a unary call, where the message limit is the node's.
      return this.stream(endpoint).send(method, request, timeoutMs, attempt).catch((err: unknown) => {
        if (err instanceof StreamCallError && err.tooLargeForStream) return this.unaryOnce(endpoint, method, request, timeoutMs, waitForReady, attempt);
        throw err;
      });
    }
    return this.unaryOnce(endpoint, method, request, timeoutMs, waitForReady, attempt);
  }

  private unaryOnce<Req, Res>(
    endpoint: string, method: UnaryMethod<Req, Res>, request: Req, timeoutMs: number, waitForReady: boolean, attempt?: Attempt,
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
          else if (response === undefined) reject(new UnavailableError(`empty answer from ${endpoint}`));
          else resolve(response);
        },
      );
      if (attempt) attempt.cancel = () => call.cancel();
    });
  }

  /**
   * Sends a request, following leader hints and retrying on UNAVAILABLE and
   * DEADLINE_EXCEEDED until the budget runs out (client/failover.ts). `build` is called per
   * attempt so a write can carry its latest acknowledgements; a retry keeps the same seq.
   */
  async invoke<Req, Res>(method: UnaryMethod<Req, Res>, build: () => Req, opts: InvokeOptions): Promise<Res> {
    const attemptTimeoutMs = opts.attemptTimeoutMs ?? this.options.callTimeoutMs;
    if (opts.endpoint !== undefined) {
      const timeoutMs = typeof attemptTimeoutMs === "function" ? attemptTimeoutMs() : attemptTimeoutMs;
      try {
        return await this.callOnce(opts.endpoint, method, build(), timeoutMs, true);
      } catch (err) {
        throw this.translate(err, opts.kind, method.path);
      }
    }
    return this.failover.call(
      (endpoint, timeoutMs, attempt) => this.callOnce(endpoint, method, build(), timeoutMs, false, attempt),
      { kind: opts.kind, attemptTimeoutMs, budgetMs: opts.budgetMs ?? this.options.retryBudgetMs, timeLeftMs: opts.timeLeftMs, answerMayWait: opts.answerMayWait, what: method.path },
    );
  }

  /** What the failover rules need to know of a failed gRPC attempt. */
  private classify(err: unknown): AttemptFailure {
    if (!isServiceError(err)) {
      const error = err instanceof Error ? err : new Error(String(err));
      return { retriable: false, timedOut: false, detail: error.message, error };
    }
    return {
      retriable: RETRIABLE.has(err.code),
      timedOut: err.code === grpc.status.DEADLINE_EXCEEDED,
      leaderHint: hintOf(err.metadata),
      detail: err.details,
      error: errorFromStatus(err.code, err.details, err.metadata),
      code: err.code,
      reason: reasonOf(err.metadata),
    };
  }

  /** A retriable failure on a single-endpoint call becomes Unavailable/OutcomeUnknown; others map by status. */
  private translate(err: unknown, kind: "write" | "read", path: string): Error {
    if (!isServiceError(err)) return err instanceof Error ? err : new Error(String(err));
    if (RETRIABLE.has(err.code)) {
      const what = `${path}: ${err.details}`;
      const reason = reasonOf(err.metadata);
      return kind === "write" ? new OutcomeUnknownError(what, err.code, reason) : new UnavailableError(what, err.code, reason);
    }
    return errorFromStatus(err.code, err.details, err.metadata);
  }

  close(): void {
    this.failover.close();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
