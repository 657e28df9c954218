// What a session's calls to the cluster go through: one method for every LockService call
// of the table (proto/lock-calls.ts), in domain values (bigint ids and tokens, numbers for
// seqs and durations, typed answers) with the typed errors of errors.ts. Session and
// LockHandle speak only this, so a test or a simulator can put its own cluster under them;
// Connection is the one over gRPC.
import type { AnswerOf, CallName, RequestOf } from "../proto/lock-calls.ts";
import {
  OutcomeUnknownError,
  PalisadeError,
  SessionLostError,
  UnavailableError,
} from "./errors.ts";
import type { CallOptions } from "./failover.ts";

export type { CallOptions } from "./failover.ts";
export type { AcquireAnswer, AcquireKinds, WriteAcks } from "../proto/lock-values.ts";

/**
 * Each call resolves with the cluster's answer or rejects with the typed error it answered
 * (SessionNotFoundError, StaleTokenError, LimitError, ...); when no answer came in time, a
 * write rejects with OutcomeUnknownError and a read with UnavailableError. `build` is asked
 * for the request at each attempt, so a write carries the acknowledgements of that moment.
 */
export interface LockApi {
  call<N extends CallName>(
    name: N,
    build: () => RequestOf<N>,
    options?: CallOptions,
  ): Promise<AnswerOf<N>>;
}

/**
 * Whether a call's failure is the cluster's answer (so the write's effect, or that it had
 * none, is known) rather than the lack of one.
 */
export function isAnswer(err: unknown): boolean {
  return (
    err instanceof PalisadeError &&
    !(err instanceof OutcomeUnknownError) &&
    !(err instanceof UnavailableError) &&
    !(err instanceof SessionLostError)
  );
}
