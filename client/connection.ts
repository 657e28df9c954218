// Calls to a set of node endpoints: one grpc-js channel per endpoint, a preferred
// endpoint (the last one that answered, or the leader named by a hint), and retries on
// the answers that mean "try again elsewhere" (UNAVAILABLE, DEADLINE_EXCEEDED).
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import type { UnaryMethod } from "../proto/grpc.ts";
import { OutcomeUnknownError, UnavailableError } from "./errors.ts";
import { LEADER_METADATA_KEY, reasonOf } from "../proto/wire.ts";
import { errorFromStatus } from "./status-errors.ts";

export interface ConnectionOptions {
  endpoints: readonly string[];
  /** Deadline of one attempt in milliseconds (a waiting Acquire adds its wait). */
  callTimeoutMs: number;
  /** Total time a request keeps retrying before it gives up. */
  retryBudgetMs: number;
  /** Optional channel credentials (plaintext when absent). */
  credentials?: grpc.ChannelCredentials;
}

export interface InvokeOptions {
  /** Writes end in OutcomeUnknownError when the budget runs out, reads in UnavailableError. */
  kind: "write" | "read";
  /** Deadline of one attempt; defaults to the connection's callTimeoutMs. */
  attemptTimeoutMs?: number;
  /** Overall retry budget; defaults to the connection's retryBudgetMs. */
  budgetMs?: number;
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

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class Connection {
  private readonly endpoints: string[];
  private readonly clients = new Map<string, grpc.Client>();
  private preferred = 0;
  private closed = false;

  constructor(private readonly options: ConnectionOptions) {
    if (options.endpoints.length === 0) throw new Error("at least one endpoint is needed");
    this.endpoints = [...options.endpoints];
  }

  /** The endpoint requests go to first. */
  get current(): string {
    return this.endpoints[this.preferred];
  }

  get allEndpoints(): readonly string[] {
    return this.endpoints;
  }

  private client(endpoint: string): grpc.Client {
    let client = this.clients.get(endpoint);
    if (!client) {
      client = new grpc.Client(endpoint, this.options.credentials ?? grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
      this.clients.set(endpoint, client);
    }
    return client;
  }

  /**
   * One attempt on one endpoint; rejects with the grpc ServiceError. `waitForReady` makes a
   * call on a channel that is between reconnect attempts wait for it (up to the deadline)
   * instead of failing at once: right for calls pinned to one node, wrong for failover.
   */
  callOnce<Req, Res>(endpoint: string, method: UnaryMethod<Req, Res>, request: Req, timeoutMs: number, waitForReady = false): Promise<Res> {
    if (this.closed) return Promise.reject(new UnavailableError("client is closed"));
    const client = this.client(endpoint);
    return new Promise<Res>((resolve, reject) => {
      client.makeUnaryRequest(
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
    });
  }

  /**
   * Sends a request, following leader hints and retrying on UNAVAILABLE and
   * DEADLINE_EXCEEDED until the budget runs out. `build` is called per attempt so a
   * write can carry its latest acknowledgements; a retry keeps the same seq.
   */
  async invoke<Req, Res>(method: UnaryMethod<Req, Res>, build: () => Req, opts: InvokeOptions): Promise<Res> {
    const timeoutMs = opts.attemptTimeoutMs ?? this.options.callTimeoutMs;
    if (opts.endpoint !== undefined) {
      try {
        return await this.callOnce(opts.endpoint, method, build(), timeoutMs, true);
      } catch (err) {
        throw this.translate(err, opts.kind, method.path);
      }
    }
    const giveUpAt = Date.now() + (opts.budgetMs ?? this.options.retryBudgetMs);
    let failuresInRow = 0;
    let lastError: unknown;
    for (;;) {
      const endpoint = this.current;
      try {
        const response = await this.callOnce(endpoint, method, build(), timeoutMs);
        return response;
      } catch (err) {
        if (!isServiceError(err) || !RETRIABLE.has(err.code)) throw this.translate(err, opts.kind, method.path);
        lastError = err;
        failuresInRow += 1;
        const hinted = this.endpointFromHint(err.metadata);
        if (hinted !== undefined && hinted !== endpoint) {
          this.preferred = this.endpoints.indexOf(hinted);
        } else {
          this.preferred = (this.preferred + 1) % this.endpoints.length;
        }
      }
      if (this.closed || Date.now() >= giveUpAt) break;
      // Once every endpoint failed in a row, back off (an election is probably under way).
      if (failuresInRow >= this.endpoints.length) {
        const rounds = Math.floor(failuresInRow / this.endpoints.length);
        const pause = Math.min(50 * 2 ** (rounds - 1), 500, Math.max(0, giveUpAt - Date.now()));
        await sleep(pause);
      }
    }
    const detail = isServiceError(lastError) ? lastError.details : String(lastError);
    const what = `${method.path}: no answer after retrying for the whole budget (last: ${detail})`;
    throw opts.kind === "write" ? new OutcomeUnknownError(what) : new UnavailableError(what);
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

  /** The endpoint named by a leader hint: a known or new host:port, or a node id we cannot map (ignored). */
  private endpointFromHint(metadata: grpc.Metadata | undefined): string | undefined {
    const value = metadata?.get(LEADER_METADATA_KEY)[0];
    if (typeof value !== "string" || value === "") return undefined;
    if (!/^[^\s]+:\d+$/.test(value)) return undefined;
    if (!this.endpoints.includes(value)) this.endpoints.push(value);
    return value;
  }

  close(): void {
    this.closed = true;
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
