// The real client library's LockApi over the simulated network: each call runs through the
// very failover rules the gRPC client uses (client/failover.ts: preferred node, leader
// hints, retries with the same request, back-off, silent nodes passed over) on the client
// process's own clock, and each failure becomes the client error its reason maps to
// (client/status-errors.ts, proto/wire.ts), as over gRPC. What the nodes answer is also
// reported to the run's checkers.
import { Metadata, status as Status } from "@grpc/grpc-js";
import { REASON_METADATA_KEY, WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import { UnavailableError } from "../../client/errors.ts";
import { Failover, type Attempt, type AttemptFailure } from "../../client/failover.ts";
import type {
  AcquireAnswer, AcquireCall, CallOptions, CancelWaitCall, CloseSessionCall, KeptAlive, LockApi, OpenedSession, OpenSessionCall, ReleaseCall,
} from "../../client/lock-api.ts";
import { errorFromStatus } from "../../client/status-errors.ts";
import type { CancelWaitResult } from "../../client/types.ts";
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

export class SimLockApi implements LockApi {
  private readonly failover: Failover;

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

  openSession(call: OpenSessionCall, options: CallOptions = {}): Promise<OpenedSession> {
    return this.call({ kind: "openSession", req: { ttlMs: call.ttlMs, clientName: call.clientName, requestId: call.requestId } }, "write", options, (r) => {
      if (r.kind !== "opened") throw new Error(`unexpected reply ${r.kind} to OpenSession`);
      return { sessionId: r.sessionId, ttlMs: r.ttlMs };
    });
  }

  async keepAlive(sessionId: bigint, options: CallOptions = {}): Promise<void> {
    await this.call({ kind: "keepAlive", session: sessionId }, "read", options, (r) => {
      if (r.kind !== "keptAlive") throw new Error(`unexpected reply ${r.kind} to KeepAlive`);
    });
  }

  keepAliveSessions(sessionIds: readonly bigint[], options: CallOptions = {}): Promise<KeptAlive[]> {
    return this.call({ kind: "keepAliveSessions", sessions: [...sessionIds] }, "read", options, (r) => {
      if (r.kind !== "keptAliveSessions" || r.ttls.length !== sessionIds.length) throw new Error(`unexpected reply ${r.kind} to KeepAliveSessions`);
      return r.ttls.map((ttl) => (ttl === null ? "notFound" : "ok"));
    });
  }

  acquire(call: AcquireCall, options: CallOptions = {}): Promise<AcquireAnswer> {
    const build = (): Request => {
      const acks = call.acks();
      return {
        kind: "acquire",
        cmd: {
          type: "acquire", sessionId: call.sessionId, seq: call.seq, ackedUpTo: acks.ackedUpTo, held: [...acks.held], lock: call.lock, waitMs: call.waitMs, wallMs: 0,
          ...(call.mode !== undefined ? { mode: call.mode } : {}), ...(call.permits !== undefined ? { permits: call.permits } : {}),
          ...(call.more && call.more.length > 0 ? { more: call.more.map((t) => ({ ...t })) } : {}),
          ...(call.holderData ? { holderData: call.holderData } : {}), ...(call.holdMs ? { holdMs: call.holdMs } : {}),
        },
      };
    };
    return this.write(call.sessionId, call.seq, build, options, (r) => {
      if (r.kind !== "acquired") throw new Error(`unexpected reply ${r.kind} to Acquire`);
      return { value: r.result, answer: r.result };
    });
  }

  async release(call: ReleaseCall, options: CallOptions = {}): Promise<void> {
    const build = (): Request => {
      const acks = call.acks();
      return { kind: "release", cmd: { type: "release", sessionId: call.sessionId, seq: call.seq, ackedUpTo: acks.ackedUpTo, held: [...acks.held], lock: call.lock, token: call.token, wallMs: 0 } };
    };
    await this.write(call.sessionId, call.seq, build, options, (r) => {
      if (r.kind !== "released") throw new Error(`unexpected reply ${r.kind} to Release`);
      return { value: undefined, answer: { kind: "released" } };
    });
  }

  cancelWait(call: CancelWaitCall, options: CallOptions = {}): Promise<CancelWaitResult> {
    const req: Request = { kind: "cancelWait", cmd: { type: "cancelWait", sessionId: call.sessionId, lock: call.lock, acquireSeq: call.acquireSeq, reason: "client", wallMs: 0 } };
    return this.call(req, "write", options, (r) => {
      if (r.kind !== "cancelWait") throw new Error(`unexpected reply ${r.kind} to CancelWait`);
      if (r.result.outcome === "granted") this.lateGrantSeen(call.lock, call.acquireSeq, r.result.token);
      return r.result;
    });
  }

  async closeSession(call: CloseSessionCall, options: CallOptions = {}): Promise<void> {
    const build = (): Request => {
      const acks = call.acks();
      return { kind: "closeSession", cmd: { type: "closeSession", sessionId: call.sessionId, seq: call.seq, ackedUpTo: acks.ackedUpTo, held: [...acks.held], wallMs: 0 } };
    };
    await this.write(call.sessionId, call.seq, build, options, (r) => {
      if (r.kind !== "closed") throw new Error(`unexpected reply ${r.kind} to CloseSession`);
      return { value: undefined, answer: { kind: "sessionClosed" } };
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
      }), { kind: "read", attemptTimeoutMs: this.options.callTimeoutMs, budgetMs: giveUpMs, what: "read" });
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
    return this.failover.call(attemptFn, this.callOptions("write", options));
  }

  private call<T>(req: Request, kind: "write" | "read", options: CallOptions, decode: (r: Reply) => T): Promise<T> {
    return this.failover.call(this.attempt(req, decode), this.callOptions(kind, options));
  }

  private callOptions(kind: "write" | "read", options: CallOptions) {
    return {
      kind: options.kind ?? kind,
      attemptTimeoutMs: options.attemptTimeoutMs ?? this.options.callTimeoutMs,
      budgetMs: options.budgetMs ?? this.options.retryBudgetMs,
      timeLeftMs: options.timeLeftMs,
      answerMayWait: options.answerMayWait,
      what: "call",
    };
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
