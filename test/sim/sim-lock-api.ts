// The real client library's LockApi over the simulated network: each call runs through the
// very failover rules the gRPC client uses (client/failover.ts: preferred node, leader
// hints, retries with the same request, back-off, silent nodes passed over) on the client
// process's own clock, and each failure becomes the client error its reason maps to
// (client/status-errors.ts, proto/wire.ts), as over gRPC. What the nodes answer is also
// reported to the run's checkers.
import { Metadata, status as Status } from "@grpc/grpc-js";
import { REASON_METADATA_KEY, WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import { UnavailableError } from "../../client/errors.ts";
import { Failover, type Attempt, type AttemptFailure, type CallDefaults } from "../../client/failover.ts";
import type { CallOptions, LockApi } from "../../client/lock-api.ts";
import { errorFromStatus } from "../../client/status-errors.ts";
import type { AnswerOf, CallName, RequestOf } from "../../proto/lock-calls.ts";
import type {
  AcquireAnswer, AcquireRequest, CancelWaitRequest, CancelWaitResult, CloseSessionRequest, Done, KeptAlive, OpenedSession,
  OpenSessionRequest, ReleaseRequest,
} from "../../proto/lock-values.ts";
import type { Answer } from "../../node/lock/answers.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { SeededRandom } from "../../node/util/rng.ts";
import type { SimClientProcess } from "./client-process.ts";
import type { ReadQuery, Reply, Request } from "./lock-host.ts";

/** How the simulation carries a request to a node and its reply back (null: no reply in time). */
export type SimRpc = (from: number, to: NodeId, req: Request, timeoutVirtualMs: number) => Promise<Reply | null>;

/** What a node's answers to one client's writes are reported to. */
export interface AnswerObserver {
  /** An attempt of the write (session, seq) is being sent. */
  writeSent(session: bigint, seq: number): void;
  /** A node answered the write (session, seq), in the state machine's terms. */
  writeAnswered(session: bigint, seq: number, answer: Answer): void;
}

/** A CancelWait answered that the Acquire it names had been granted (the library then releases that grant). */
export type LateGrantSeen = (lock: string, acquireSeq: number, token: bigint) => void;

export interface SimLockApiOptions {
  readonly callTimeoutMs: number;
  readonly retryBudgetMs: number;
}

type Outcome =
  | { readonly kind: "timeout" }
  | { readonly kind: "refused" }
  | { readonly kind: "cancelled" }
  | { readonly kind: "failure"; readonly reason: ErrorReasonName; readonly message: string; readonly leader: NodeId };

/** Why one attempt got no answer it could use. */
class AttemptError extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome.kind === "failure" ? `${outcome.reason}: ${outcome.message}` : outcome.kind);
  }
}

const RETRIABLE = new Set<Status>([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED]);

function classify(err: unknown): AttemptFailure {
  if (!(err instanceof AttemptError)) {
    const error = err instanceof Error ? err : new Error(String(err));
    return { retriable: false, timedOut: false, detail: error.message, error };
  }
  const o = err.outcome;
  switch (o.kind) {
    case "timeout":
      return { retriable: true, timedOut: true, detail: "deadline exceeded", error: new UnavailableError("deadline exceeded", Status.DEADLINE_EXCEEDED), code: Status.DEADLINE_EXCEEDED };
    case "refused":
      return { retriable: true, timedOut: false, detail: "connection refused", error: new UnavailableError("connection refused", Status.UNAVAILABLE), code: Status.UNAVAILABLE };
    case "cancelled":
      return { retriable: false, timedOut: false, detail: "cancelled", error: new UnavailableError("cancelled", Status.CANCELLED), code: Status.CANCELLED };
    case "failure": {
      const code = WIRE_ERRORS[o.reason].code;
      const md = new Metadata();
      md.set(REASON_METADATA_KEY, o.reason);
      return {
        retriable: RETRIABLE.has(code),
        timedOut: false,
        leaderHint: o.leader > 0 ? String(o.leader) : undefined,
        detail: o.message,
        error: errorFromStatus(code, o.message, md),
        code,
        reason: o.reason,
      };
    }
  }
}

/** A failure a node answered for a write, as the state machine's error answer (null: no answer, only a failure to serve). */
function answerOfFailure(o: Outcome): Answer | null {
  if (o.kind !== "failure" || WIRE_ERRORS[o.reason].code === Status.UNAVAILABLE) return null;
  return { kind: "error", reason: o.reason, message: o.message };
}

/** The calls the simulated clients make, each as its Request to a node. */
type SimCall = "OpenSession" | "KeepAlive" | "Acquire" | "Release" | "CancelWait" | "CloseSession";
type Routes = { [K in SimCall]: (build: () => RequestOf<K>, options: CallOptions) => Promise<AnswerOf<K>> };

export class SimLockApi implements LockApi {
  private readonly failover: Failover;
  private readonly routes: Routes = {
    OpenSession: (build, options) => this.openSession(build(), options),
    KeepAlive: (build, options) => this.keepAlive(build().sessionIds, options),
    Acquire: (build, options) => this.acquire(build, options),
    Release: (build, options) => this.release(build, options),
    CancelWait: (build, options) => this.cancelWait(build(), options),
    CloseSession: (build, options) => this.closeSession(build, options),
  };

  constructor(
    private readonly rpc: SimRpc,
    private readonly proc: SimClientProcess,
    private readonly nodes: () => readonly NodeId[],
    private readonly options: SimLockApiOptions,
    private readonly observer: AnswerObserver,
    private readonly rng: SeededRandom,
    private readonly lateGrantSeen: LateGrantSeen = () => undefined,
  ) {
    this.failover = new Failover(nodes().map(String), proc.clock, classify);
  }

  call<N extends CallName>(name: N, build: () => RequestOf<N>, options: CallOptions = {}): Promise<AnswerOf<N>> {
    const route = (this.routes as unknown as Partial<Record<CallName, (b: () => RequestOf<N>, o: CallOptions) => Promise<AnswerOf<N>>>>)[name];
    if (route === undefined) return Promise.reject(new Error(`the simulation does not carry ${name}`));
    return route(build, options);
  }

  private openSession(call: OpenSessionRequest, options: CallOptions): Promise<OpenedSession> {
    return this.send({ kind: "openSession", req: { ttlMs: call.ttlMs, clientName: call.clientName, requestId: call.requestId } }, "write", options, (r) => {
      if (r.kind !== "opened") throw new Error(`unexpected reply ${r.kind} to OpenSession`);
      return { sessionId: r.sessionId, ttlMs: r.ttlMs };
    });
  }

  private keepAlive(sessionIds: readonly bigint[], options: CallOptions): Promise<KeptAlive> {
    return this.send({ kind: "keepAlive", sessions: [...sessionIds] }, "read", options, (r) => {
      if (r.kind !== "keptAlive" || r.ttls.length !== sessionIds.length) throw new Error(`unexpected reply ${r.kind} to KeepAlive`);
      return { sessions: r.ttls.map((ttlMs, i) => ({ sessionId: sessionIds[i] as bigint, ttlMs })) };
    });
  }

  private acquire(call: () => AcquireRequest, options: CallOptions): Promise<AcquireAnswer> {
    const first = call();
    const build = (): Request => ({ kind: "acquire", cmd: { type: "acquire", ...call(), wallMs: 0 } });
    return this.write(first.sessionId, first.seq, build, options, (r) => {
      if (r.kind !== "acquired") throw new Error(`unexpected reply ${r.kind} to Acquire`);
      return { value: r.result, answer: r.result };
    });
  }

  private release(call: () => ReleaseRequest, options: CallOptions): Promise<Done> {
    const first = call();
    const build = (): Request => ({ kind: "release", cmd: { type: "release", ...call(), wallMs: 0 } });
    return this.write(first.sessionId, first.seq, build, options, (r) => {
      if (r.kind !== "released") throw new Error(`unexpected reply ${r.kind} to Release`);
      return { value: {}, answer: { kind: "released" } };
    });
  }

  private cancelWait(call: CancelWaitRequest, options: CallOptions): Promise<CancelWaitResult> {
    const req: Request = { kind: "cancelWait", cmd: { type: "cancelWait", ...call, reason: "client", wallMs: 0 } };
    return this.send(req, "write", options, (r) => {
      if (r.kind !== "cancelWait") throw new Error(`unexpected reply ${r.kind} to CancelWait`);
      if (r.result.outcome === "granted") this.lateGrantSeen(call.lock, call.acquireSeq, r.result.token);
      return r.result;
    });
  }

  private closeSession(call: () => CloseSessionRequest, options: CallOptions): Promise<Done> {
    const first = call();
    const build = (): Request => ({ kind: "closeSession", cmd: { type: "closeSession", ...call(), wallMs: 0 } });
    return this.write(first.sessionId, first.seq, build, options, (r) => {
      if (r.kind !== "closed") throw new Error(`unexpected reply ${r.kind} to CloseSession`);
      return { value: {}, answer: { kind: "sessionClosed" } };
    });
  }

  /**
   * A linearizable read, starting at a node picked at random (so followers serve reads
   * through the leader's read index too), retried through the failover rules until
   * answered or `giveUpMs` passed; null if unanswered.
   */
  async read(query: ReadQuery, giveUpMs: number): Promise<Extract<Reply, { kind: "read" }> | null> {
    const order = [...this.nodes()];
    for (let i = order.length - 1; i > 0; i--) {
      const j = this.rng.int(0, i);
      [order[i], order[j]] = [order[j] as NodeId, order[i] as NodeId];
    }
    const failover = new Failover(order.map(String), this.proc.clock, classify);
    try {
      return await failover.call(this.attempt({ kind: "read", query }, (r) => {
        if (r.kind !== "read") throw new Error(`unexpected reply ${r.kind} to a read`);
        return r;
      }), "read", {}, { kind: "read", attemptTimeoutMs: this.options.callTimeoutMs, budgetMs: giveUpMs });
    } catch {
      return null;
    }
  }

  /** A sequenced write: each attempt is reported as sent, each answer (or answered failure) as answered. */
  private write<T>(
    session: bigint, seq: number, build: () => Request, options: CallOptions, decode: (r: Reply) => { value: T; answer: Answer },
  ): Promise<T> {
    const attemptFn = (endpoint: string, timeoutMs: number, a: Attempt): Promise<T> => {
      this.observer.writeSent(session, seq);
      return this.attempt(build(), (r) => {
        const { value, answer } = decode(r);
        this.observer.writeAnswered(session, seq, answer);
        return value;
      }, (o) => {
        const answer = answerOfFailure(o);
        if (answer) this.observer.writeAnswered(session, seq, answer);
      })(endpoint, timeoutMs, a);
    };
    return this.failover.call(attemptFn, "call", options, this.defaults("write"));
  }

  private send<T>(req: Request, kind: "write" | "read", options: CallOptions, decode: (r: Reply) => T): Promise<T> {
    return this.failover.call(this.attempt(req, decode), "call", options, this.defaults(kind));
  }

  private defaults(kind: "write" | "read"): CallDefaults {
    return { kind, attemptTimeoutMs: this.options.callTimeoutMs, budgetMs: this.options.retryBudgetMs };
  }

  /** One attempt at one node: its reply, delayed, lost or cut like any message; seen by the client process only when it runs. */
  private attempt<T>(req: Request, decode: (r: Reply) => T, failed?: (o: Outcome) => void) {
    return (endpoint: string, timeoutMs: number, a: Attempt): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        let settled = false;
        const finish = (fn: () => void): void => {
          if (settled) return;
          settled = true;
          fn();
        };
        const fail = (o: Outcome): void => finish(() => {
          failed?.(o);
          reject(new AttemptError(o));
        });
        a.cancel = () => fail({ kind: "cancelled" });
        void this.rpc(this.proc.endpoint, Number(endpoint), req, this.proc.virtualOf(timeoutMs)).then((reply) => this.proc.run(() => {
          if (reply === null) fail({ kind: "timeout" });
          else if (reply.kind === "refused") fail({ kind: "refused" });
          else if (reply.kind === "failure") fail(reply);
          else {
            let value: T;
            try {
              value = decode(reply);
            } catch (err) {
              finish(() => reject(err));
              return;
            }
            finish(() => resolve(value));
          }
        }));
      });
  }
}
