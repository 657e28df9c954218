// Calls to a set of node endpoints: one grpc-js channel per endpoint, a preferred
// endpoint (the last one that answered, or the leader named by a hint), and retries on
// the answers that mean "try again elsewhere" (UNAVAILABLE, DEADLINE_EXCEEDED). A node
// that lets an attempt run out without a word (stopped, not dead: its connections stay
// open) is passed over for a while, and the other attempts waiting on it move on at once.
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import type { UnaryMethod } from "../proto/grpc.ts";
import { monotonicMs } from "./clock.ts";
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
  /** Deadline of one attempt (asked before each one when a function); defaults to the connection's callTimeoutMs. */
  attemptTimeoutMs?: number | (() => number);
  /** Overall retry budget, on the monotonic clock; defaults to the connection's retryBudgetMs. */
  budgetMs?: number;
  /**
   * Time left before an answer is of no use (such as a session's deadline), asked before
   * each attempt: no attempt outlasts it, and the call gives up once it is gone.
   */
  timeLeftMs?: () => number;
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

/** One attempt in flight on an endpoint; `moved` when it was cancelled to try another node. */
interface Attempt {
  moved: boolean;
  cancel: () => void;
}

export class Connection {
  private readonly endpoints: string[];
  private readonly clients = new Map<string, grpc.Client>();
  private preferred = 0;
  private closed = false;
  private readonly inFlight = new Map<string, Set<Attempt>>();
  /** Endpoints that let an attempt run out unanswered, until when (monotonic ms): passed over, and their hints not followed. */
  private readonly silentUntil = new Map<string, number>();

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
  callOnce<Req, Res>(
    endpoint: string, method: UnaryMethod<Req, Res>, request: Req, timeoutMs: number, waitForReady = false, attempt?: Attempt,
  ): Promise<Res> {
    if (this.closed) return Promise.reject(new UnavailableError("client is closed"));
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
   * DEADLINE_EXCEEDED until the budget runs out. `build` is called per attempt so a
   * write can carry its latest acknowledgements; a retry keeps the same seq.
   */
  async invoke<Req, Res>(method: UnaryMethod<Req, Res>, build: () => Req, opts: InvokeOptions): Promise<Res> {
    const attemptTimeout = (): number => {
      const t = opts.attemptTimeoutMs;
      return typeof t === "function" ? t() : t ?? this.options.callTimeoutMs;
    };
    if (opts.endpoint !== undefined) {
      try {
        return await this.callOnce(opts.endpoint, method, build(), attemptTimeout(), true);
      } catch (err) {
        throw this.translate(err, opts.kind, method.path);
      }
    }
    const giveUpAt = monotonicMs() + (opts.budgetMs ?? this.options.retryBudgetMs);
    let failuresInRow = 0;
    let lastError: unknown;
    for (;;) {
      const left = opts.timeLeftMs?.() ?? Infinity;
      if (left <= 0) break;
      const endpoint = this.current;
      const timeoutMs = Math.max(1, Math.min(attemptTimeout(), left));
      const attempt: Attempt = { moved: false, cancel: () => undefined };
      this.track(endpoint, attempt, true);
      try {
        const response = await this.callOnce(endpoint, method, build(), timeoutMs, false, attempt);
        this.silentUntil.delete(endpoint);
        return response;
      } catch (err) {
        this.track(endpoint, attempt, false);
        if (!attempt.moved) {
          if (!isServiceError(err) || !RETRIABLE.has(err.code)) throw this.translate(err, opts.kind, method.path);
          if (err.code === grpc.status.DEADLINE_EXCEEDED) this.silenced(endpoint, timeoutMs);
          else this.silentUntil.delete(endpoint);
        }
        lastError = err;
        failuresInRow += 1;
        const hinted = isServiceError(err) && !attempt.moved ? this.endpointFromHint(err.metadata) : undefined;
        if (hinted !== undefined && hinted !== endpoint && !this.isSilent(hinted)) {
          this.preferred = this.endpoints.indexOf(hinted);
        } else if (this.current === endpoint) {
          this.preferred = this.nextAnswering(endpoint);
        }
      } finally {
        this.track(endpoint, attempt, false);
      }
      if (this.closed || monotonicMs() >= giveUpAt) break;
      // Once every endpoint failed in a row, back off (an election is probably under way).
      if (failuresInRow >= this.endpoints.length) {
        const rounds = Math.floor(failuresInRow / this.endpoints.length);
        const pause = Math.min(50 * 2 ** (rounds - 1), 500, Math.max(0, giveUpAt - monotonicMs()), opts.timeLeftMs?.() ?? Infinity);
        if (pause > 0) await sleep(pause);
      }
    }
    const detail = isServiceError(lastError) ? lastError.details : lastError === undefined ? "no time left to try" : String(lastError);
    const what = `${method.path}: no answer within the time given (last: ${detail})`;
    throw opts.kind === "write" ? new OutcomeUnknownError(what) : new UnavailableError(what);
  }

  private track(endpoint: string, attempt: Attempt, add: boolean): void {
    let set = this.inFlight.get(endpoint);
    if (add) {
      if (!set) this.inFlight.set(endpoint, (set = new Set()));
      set.add(attempt);
    } else if (set) {
      set.delete(attempt);
      if (set.size === 0) this.inFlight.delete(endpoint);
    }
  }

  /**
   * `endpoint` let an attempt of `forMs` run out without answering: pass it over for as
   * long, and move the other attempts waiting on it (a waiting Acquire among them) to the
   * next node now. A write moved keeps its seq, so moving it is safe.
   */
  private silenced(endpoint: string, forMs: number): void {
    this.silentUntil.set(endpoint, monotonicMs() + forMs);
    for (const other of this.inFlight.get(endpoint) ?? []) {
      if (other.moved) continue;
      other.moved = true;
      other.cancel();
    }
  }

  private isSilent(endpoint: string): boolean {
    const until = this.silentUntil.get(endpoint);
    if (until === undefined) return false;
    if (until > monotonicMs()) return true;
    this.silentUntil.delete(endpoint);
    return false;
  }

  /** The index of the next endpoint after `endpoint` that is not passed over (the next one if all are). */
  private nextAnswering(endpoint: string): number {
    const from = this.endpoints.indexOf(endpoint);
    const n = this.endpoints.length;
    for (let i = 1; i <= n; i++) {
      const j = (from + i) % n;
      if (!this.isSilent(this.endpoints[j])) return j;
    }
    return (from + 1) % n;
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
