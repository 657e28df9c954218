// A stand-in for the client's Connection in unit tests: every LockService call is parsed
// by the server's request parsers and applied at once to a real LockStateMachine (one log
// entry per write), and answered as the server would. A fault chosen per call can drop it
// (never applied), lose its answer (applied, no answer) or leave it hanging, the way a
// call fails when no leader answers for a whole retry budget.
import { palisade } from "../../proto/gen/palisade.js";
import { LockStateMachine, tokenIndex, type Answer, type Command } from "../../node/lock/index.ts";
import { toU64 } from "../../proto/wire.ts";
import {
  parseAcquire, parseCancelWait, parseCloseSession, parseKeepAliveSessions, parseOpenSession, parseRelease, RequestError, sessionIdField,
} from "../../node/server/requests.ts";
import { answerStatus, invalidArgument, type StatusError } from "../../node/server/status.ts";
import type { InvokeOptions } from "../../client/connection.ts";
import { OutcomeUnknownError, UnavailableError } from "../../client/errors.ts";
import type { LockCallInvoker } from "../../client/lock-api.ts";
import { errorFromStatus } from "../../client/status-errors.ts";

const pb = palisade.v1;

/** What happens to one call. */
export type Fault = "deliver" | "drop" | "lose answer" | "hang";

export interface SentCall {
  /** The method's name, such as "Acquire". */
  method: string;
  request: Record<string, unknown>;
  fault: Fault;
}

export class FakeCluster implements LockCallInvoker {
  readonly machine = new LockStateMachine({ minTtlMs: 1 });
  readonly sent: SentCall[] = [];
  /** Off for long runs, whose calls would fill `sent`. */
  recordCalls = true;
  /** Decides the fate of each call (default: delivered). */
  fault: (call: { method: string; request: Record<string, unknown> }) => Fault = () => "deliver";
  private index = 0;
  /** Waiting Acquires by "session/seq", settled by the completion a later entry makes. */
  private readonly waiting = new Map<string, (answer: Answer) => void>();

  close(): void {
    // Nothing to close: no channels.
  }

  /** The writes of `method` sent so far, as the requests that carried them. */
  requests(method: string): Array<Record<string, unknown>> {
    return this.sent.filter((c) => c.method === method).map((c) => c.request);
  }

  invoke<Req, Res>(method: { path: string }, build: () => Req, opts: InvokeOptions): Promise<Res> {
    return this.call(method, build, opts) as Promise<Res>;
  }

  private call(method: { path: string }, build: () => unknown, opts: InvokeOptions): Promise<unknown> {
    const name = method.path.slice(method.path.lastIndexOf("/") + 1);
    const request = build() as Record<string, unknown>;
    const fault = this.fault({ method: name, request });
    if (this.recordCalls) this.sent.push({ method: name, request, fault });
    if (fault === "hang") return new Promise(() => undefined);
    const noAnswer = (): Error => opts.kind === "write"
      ? new OutcomeUnknownError(`${method.path}: no answer (fault)`)
      : new UnavailableError(`${method.path}: no answer (fault)`);
    if (fault === "drop") return Promise.reject(noAnswer());
    let answered: Promise<unknown>;
    try {
      answered = this.handle(name, request);
    } catch (err) {
      // A request the server refuses as malformed is answered INVALID_ARGUMENT.
      answered = Promise.reject(err instanceof RequestError ? clientError(invalidArgument(err.message)) : err);
    }
    if (fault === "lose answer") {
      answered.catch(() => undefined);
      return Promise.reject(noAnswer());
    }
    return answered;
  }

  /** Applies a command as the next log entry and settles the Acquires it completed. */
  apply(cmd: Command): Answer {
    const outcome = this.machine.apply(++this.index, cmd);
    for (const c of outcome.completions) {
      const key = `${c.sessionId}/${c.seq}`;
      this.waiting.get(key)?.(c.answer);
      this.waiting.delete(key);
    }
    return outcome.result;
  }

  private handle(name: string, request: Record<string, unknown>): Promise<unknown> {
    const limits = this.machine.limits;
    switch (name) {
      case "OpenSession": {
        const params = parseOpenSession(request as unknown as palisade.v1.OpenSessionRequest, limits);
        const answer = ok(this.apply({ type: "openSession", ...params, wallMs: 0 }));
        if (answer.kind !== "sessionOpened") throw new Error(`unexpected ${answer.kind}`);
        return Promise.resolve(pb.OpenSessionResponse.create({ sessionId: toU64(answer.sessionId), ttlMs: toU64(params.ttlMs) }));
      }
      case "KeepAlive": {
        const id = sessionIdField(request.sessionId as palisade.v1.KeepAliveRequest["sessionId"]);
        if (!this.machine.hasSession(id)) throw clientError(answerStatus({ code: "NOT_FOUND", kind: "error", reason: "session not found", message: `session ${id} not found` }));
        return Promise.resolve(pb.KeepAliveResponse.create({}));
      }
      case "KeepAliveSessions": {
        // What a client sends for all its sessions: each id answered with its TTL, or not found.
        const ids = parseKeepAliveSessions(request as unknown as palisade.v1.KeepAliveSessionsRequest);
        return Promise.resolve(pb.KeepAliveSessionsResponse.create({
          sessions: ids.map((id) => {
            const ttlMs = this.machine.sessionTtl(id);
            return { sessionId: toU64(id), ttlMs: toU64(ttlMs ?? 0), notFound: ttlMs === null };
          }),
        }));
      }
      case "Acquire": {
        const cmd = parseAcquire(request as unknown as palisade.v1.AcquireRequest, limits, 0);
        const first = this.apply(cmd);
        if (first.kind !== "waiting") return Promise.resolve(acquireResponse(cmd.sessionId, ok(first)));
        return new Promise((resolve, reject) => {
          this.waiting.set(`${cmd.sessionId}/${cmd.seq}`, (answer) => {
            try {
              resolve(acquireResponse(cmd.sessionId, ok(answer)));
            } catch (err) {
              reject(err);
            }
          });
        });
      }
      case "Release":
        ok(this.apply(parseRelease(request as unknown as palisade.v1.ReleaseRequest, limits, 0)));
        return Promise.resolve(pb.ReleaseResponse.create({}));
      case "CloseSession":
        ok(this.apply(parseCloseSession(request as unknown as palisade.v1.CloseSessionRequest, limits, 0)));
        return Promise.resolve(pb.CloseSessionResponse.create({}));
      case "CancelWait": {
        const answer = ok(this.apply(parseCancelWait(request as unknown as palisade.v1.CancelWaitRequest, 0)));
        const Outcome = pb.CancelWaitOutcome;
        if (answer.kind === "granted") return Promise.resolve(pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_GRANTED, token: toU64(answer.token) }));
        if (answer.kind === "notAcquired") return Promise.resolve(pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED }));
        return Promise.resolve(pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_CANCELLED }));
      }
      default:
        throw new Error(`the fake cluster does not serve ${name}`);
    }
  }
}

/** The answer, or the typed error the client makes of the status the server would send. */
function ok(answer: Answer): Exclude<Answer, { kind: "error" }> {
  if (answer.kind === "error") throw clientError(answerStatus(answer));
  return answer;
}

function clientError(status: StatusError): Error {
  return errorFromStatus(status.code, status.details, status.metadata);
}

function acquireResponse(sessionId: bigint, answer: Exclude<Answer, { kind: "error" }>): palisade.v1.AcquireResponse {
  if (answer.kind === "granted") {
    return pb.AcquireResponse.create({
      acquired: true,
      token: toU64(answer.token),
      holder: { sessionId: toU64(sessionId), clientName: "", token: toU64(answer.token), grantedIndex: toU64(tokenIndex(answer.token)) },
    });
  }
  if (answer.kind === "notAcquired") {
    return pb.AcquireResponse.create({
      acquired: false,
      holder: answer.holderSessionId === 0n ? null : {
        sessionId: toU64(answer.holderSessionId), clientName: "", token: toU64(answer.holderToken), grantedIndex: toU64(tokenIndex(answer.holderToken)),
      },
    });
  }
  return pb.AcquireResponse.create({ acquired: false });
}
