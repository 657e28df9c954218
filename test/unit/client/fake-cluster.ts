// A stand-in for the client's Connection in unit tests: every LockService call goes through
// the codec both ways (its request encoded to bytes and decoded as a node decodes it, its
// answer likewise) and is applied at once to a real LockStateMachine (one log entry per
// write), and answered as the node would. A fault chosen per call can drop it (never
// applied), lose its answer (applied, no answer) or leave it hanging, the way a call fails
// when no leader answers for a whole retry budget.
import { acquireAnswerOf, upgradeAnswerOf } from "../../../node/host/lock-requests.ts";
import { DEFAULT_TTL_MS } from "../../../node/lock/commands.ts";
import { LockStateMachine, type Answer, type Command } from "../../../node/lock/index.ts";
import {
  decodeAnswer,
  encodeAnswer,
  specOf,
  type AnswerOf,
  type CallName,
  type RequestOf,
} from "../../../proto/lock-calls.ts";
import { CodecError, WIRE_ERRORS } from "../../../proto/wire.ts";
import type { CallOptions, LockApi } from "../../../client/lock-api.ts";
import { OutcomeUnknownError, UnavailableError } from "../../../client/errors.ts";
import { errorOf } from "../../../client/status-errors.ts";

/** What happens to one call. */
export type Fault = "deliver" | "drop" | "lose answer" | "hang";

export interface SentCall {
  /** The call's name, such as "Acquire". */
  method: string;
  /** The request as the node decoded it. */
  request: Record<string, unknown>;
  fault: Fault;
}

/** A value through its protobuf bytes and back. */
function throughBytes<T, W>(
  codec: {
    type: { encode(w: W): { finish(): Uint8Array }; decode(b: Uint8Array): W };
    encode(v: T): W;
    decode(w: W): T;
  },
  value: T,
): T {
  return codec.decode(codec.type.decode(codec.type.encode(codec.encode(value)).finish()));
}

export class FakeCluster implements LockApi {
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

  /** The requests of `method` sent so far, as the node decoded them. */
  requests(method: string): Array<Record<string, unknown>> {
    return this.sent.filter((c) => c.method === method).map((c) => c.request);
  }

  call<N extends CallName>(
    name: N,
    build: () => RequestOf<N>,
    options: CallOptions = {},
  ): Promise<AnswerOf<N>> {
    const spec = specOf(name);
    let request: RequestOf<N>;
    try {
      request = throughBytes(spec.request, build());
    } catch (err) {
      // A request the node refuses as malformed is answered INVALID_ARGUMENT.
      return Promise.reject(
        err instanceof CodecError ? refusal("ERROR_REASON_INVALID_ARGUMENT", err.message) : err,
      );
    }
    const record = request as unknown as Record<string, unknown>;
    const fault = this.fault({ method: name, request: record });
    if (this.recordCalls) this.sent.push({ method: name, request: record, fault });
    if (fault === "hang") return new Promise(() => undefined);
    const noAnswer = (): Error =>
      (options.kind ?? spec.kind) === "write"
        ? new OutcomeUnknownError(`${name}: no answer (fault)`)
        : new UnavailableError(`${name}: no answer (fault)`);
    if (fault === "drop") return Promise.reject(noAnswer());
    const answered = this.serve(name, request).then((answer) =>
      decodeAnswer(name, encodeAnswer(name, answer)),
    );
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

  private serve<N extends CallName>(name: N, request: RequestOf<N>): Promise<AnswerOf<N>> {
    const handler = this.handlers[name];
    if (handler === undefined)
      return Promise.reject(new Error(`the fake cluster does not serve ${name}`));
    try {
      return handler(request);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Each call answered as the node would, now or (a waiting Acquire) when a later entry completes it. */
  private readonly handlers: Partial<{
    [K in CallName]: (request: RequestOf<K>) => Promise<AnswerOf<K>>;
  }> = {
    OpenSession: async (req) => {
      const answer = ok(
        this.apply({ type: "openSession", ...req, ttlMs: req.ttlMs || DEFAULT_TTL_MS, wallMs: 0 }),
      );
      if (answer.kind !== "sessionOpened") throw new Error(`unexpected ${answer.kind}`);
      return { sessionId: answer.sessionId, ttlMs: answer.ttlMs };
    },
    // What a client sends for all its sessions: each id answered with its TTL, or not found.
    KeepAlive: async (req) => ({
      sessions: req.sessionIds.map((sessionId) => ({
        sessionId,
        ttlMs: this.machine.sessionTtl(sessionId),
      })),
    }),
    Acquire: (req) => {
      const first = this.apply({ type: "acquire", ...req, wallMs: 0 });
      if (first.kind !== "waiting") return Promise.resolve(acquireAnswerOf(first));
      return new Promise((resolve, reject) => {
        this.waiting.set(`${req.sessionId}/${req.seq}`, (answer) => {
          try {
            resolve(acquireAnswerOf(answer));
          } catch (err) {
            reject(err);
          }
        });
      });
    },
    // An Upgrade that waits is answered, as an Acquire, by the entry that completes it.
    Upgrade: (req) => {
      const first = this.apply({ type: "upgrade", ...req, wallMs: 0 });
      if (first.kind !== "waiting") return Promise.resolve(upgradeAnswerOf(acquireOk(first)));
      return new Promise((resolve, reject) => {
        this.waiting.set(`${req.sessionId}/${req.seq}`, (answer) => {
          try {
            resolve(upgradeAnswerOf(acquireOk(answer)));
          } catch (err) {
            reject(err);
          }
        });
      });
    },
    Downgrade: async (req) => {
      const answer = ok(this.apply({ type: "downgrade", ...req, wallMs: 0 }));
      if (answer.kind !== "granted") throw new Error(`unexpected ${answer.kind}`);
      return { token: answer.token, mode: req.mode };
    },
    Release: async (req) => {
      ok(this.apply({ type: "release", ...req, wallMs: 0 }));
      return {};
    },
    CloseSession: async (req) => {
      ok(this.apply({ type: "closeSession", ...req, wallMs: 0 }));
      return {};
    },
    CancelWait: async (req) => {
      const answer = ok(this.apply({ type: "cancelWait", ...req, reason: "client", wallMs: 0 }));
      if (answer.kind === "granted") return { outcome: "granted", token: answer.token };
      return { outcome: answer.kind === "notAcquired" ? "notAcquired" : "cancelled" };
    },
  };
}

function refusal(reason: keyof typeof WIRE_ERRORS, message: string): Error {
  return errorOf({ code: WIRE_ERRORS[reason].code, reason, message, leader: null });
}

function errorOfAnswer(answer: Extract<Answer, { kind: "error" }>): Error {
  return refusal(answer.reason, answer.message);
}

/** An Acquire-shaped answer (granted, not acquired, cancelled), or the typed error of a failure. */
function acquireOk(answer: Answer): ReturnType<typeof acquireAnswerOf> {
  return acquireAnswerOf(ok(answer));
}

/** The answer, or the typed error the client makes of the failure the node would send. */
function ok(answer: Answer): Exclude<Answer, { kind: "error" }> {
  if (answer.kind === "error") throw errorOfAnswer(answer);
  return answer;
}
