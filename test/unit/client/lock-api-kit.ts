// A LockApi made of one handler per call, for client tests that script what the cluster
// answers: each handler gets the request built for the attempt, the call's options and the
// builder (which a retry would call again); a call without a handler never answers.
import type { AnswerOf, CallName, RequestOf } from "../../../proto/lock-calls.ts";
import type { CallOptions, LockApi } from "../../../client/lock-api.ts";

export type ScriptedCalls = Partial<{
  [K in CallName]: (
    request: RequestOf<K>,
    options: CallOptions,
    build: () => RequestOf<K>,
  ) => Promise<AnswerOf<K>>;
}>;

export function scriptedApi(calls: ScriptedCalls): LockApi {
  return {
    call<N extends CallName>(
      name: N,
      build: () => RequestOf<N>,
      options: CallOptions = {},
    ): Promise<AnswerOf<N>> {
      const handler = calls[name];
      if (handler === undefined) return new Promise(() => undefined);
      try {
        return handler(build(), options, build);
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}
