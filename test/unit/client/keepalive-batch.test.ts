// KeepaliveBatcher: the keepalives of one turn leave as one KeepAlive request, and each
// session gets its own outcome; a session the cluster refuses to keep alive is lost at once.
import { status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { monotonicMs, systemClock } from "../../../client/clock.ts";
import {
  PermissionDeniedError,
  SessionLostError,
  SessionNotFoundError,
  UnavailableError,
} from "../../../client/errors.ts";
import {
  combinedOptions,
  KeepaliveBatcher,
  MAX_SESSIONS_PER_REQUEST,
} from "../../../client/keepalive-batch.ts";
import type { CallOptions } from "../../../client/lock-api.ts";
import { Session } from "../../../client/session.ts";
import { scriptedApi } from "./lock-api-kit.ts";

type KeptAlive = "ok" | "notFound" | "denied";

/** A LockApi's keepalive half that records each request and answers as `answer` says. */
function recordingApi(answer: (ids: readonly bigint[]) => Promise<KeptAlive[]>) {
  const batches: Array<{ ids: bigint[]; options: CallOptions }> = [];
  return {
    batches,
    api: scriptedApi({
      KeepAlive: async ({ sessionIds }, options) => {
        batches.push({ ids: [...sessionIds], options });
        const outcomes = await answer(sessionIds);
        return {
          sessions: sessionIds.map((sessionId, i) => ({
            sessionId,
            ttlMs: outcomes[i] === "ok" ? 10_000 : null,
            ...(outcomes[i] === "denied" ? { denied: true as const } : {}),
          })),
        };
      },
    }),
  };
}

const settle = (p: Promise<void>): Promise<string> =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof Error ? e.constructor.name : String(e)),
  );

describe("KeepaliveBatcher", () => {
  it("sends the keepalives of many sessions made in one turn as one request, and gives each session its own outcome", async () => {
    const { api, batches } = recordingApi((ids) =>
      Promise.resolve(ids.map((id) => (id === 2n ? "notFound" : "ok"))),
    );
    const batcher = new KeepaliveBatcher(api, systemClock);
    const outcomes = await Promise.all(
      [1n, 2n, 3n].map((id) => settle(batcher.keepAlive(id, { kind: "read" }))),
    );
    expect(batches.map((b) => b.ids)).toEqual([[1n, 2n, 3n]]);
    expect(outcomes).toEqual(["ok", "SessionNotFoundError", "ok"]);
    const next = await settle(batcher.keepAlive(4n));
    expect(next).toBe("ok");
    expect(batches.map((b) => b.ids)).toEqual([[1n, 2n, 3n], [4n]]);
  });

  it("a session the cluster no longer has gets SessionNotFoundError with the NOT_FOUND code and reason", async () => {
    const { api } = recordingApi((ids) => Promise.resolve(ids.map(() => "notFound")));
    const error = await new KeepaliveBatcher(api, systemClock)
      .keepAlive(9n)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionNotFoundError);
    expect(error).toMatchObject({
      code: Status.NOT_FOUND,
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
  });

  it("a session the cluster refuses to keep alive gets PermissionDeniedError with the PERMISSION_DENIED code and reason", async () => {
    const { api } = recordingApi((ids) =>
      Promise.resolve(ids.map((id) => (id === 2n ? "denied" : "ok"))),
    );
    const batcher = new KeepaliveBatcher(api, systemClock);
    const [first, second] = await Promise.all(
      [1n, 2n].map((id) =>
        batcher.keepAlive(id).then(
          () => "ok",
          (e: unknown) => e,
        ),
      ),
    );
    expect(first).toBe("ok");
    expect(second).toBeInstanceOf(PermissionDeniedError);
    expect(second).toMatchObject({
      code: Status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
    });
    expect((second as Error).message).toMatch(/session 2 refused: PERMISSION_DENIED/);
  });

  it("a session whose keepalive is refused is lost at once, its loss naming PERMISSION_DENIED", async () => {
    const { api, batches } = recordingApi((ids) => Promise.resolve(ids.map(() => "denied")));
    const session = new Session(
      api,
      {
        id: 7n,
        ttlMs: 30_000,
        clientName: "t",
        openedSentAt: monotonicMs(),
        callTimeoutMs: 1_000,
        retryBudgetMs: 1_000,
        driftBound: 0.01,
        deadlineTickMs: 50,
      },
      systemClock,
      new KeepaliveBatcher(api, systemClock),
    );
    const reason = await new Promise<string>((resolve) => session.onLost(resolve));
    expect(batches).toHaveLength(1);
    expect(reason).toMatch(/^session 7 lost: keepalive of session 7 refused: PERMISSION_DENIED/);
    expect(session.state).toBe("lost");
    const lost = session.signal.reason as SessionLostError;
    expect(lost).toBeInstanceOf(SessionLostError);
    expect(lost.code).toBe(Status.PERMISSION_DENIED);
    expect(lost.reason).toBe("ERROR_REASON_PERMISSION_DENIED");
  });

  it("splits more sessions than one request may carry into several requests", async () => {
    const { api, batches } = recordingApi((ids) => Promise.resolve(ids.map(() => "ok")));
    const batcher = new KeepaliveBatcher(api, systemClock);
    const count = MAX_SESSIONS_PER_REQUEST + 10;
    await Promise.all(Array.from({ length: count }, (_, i) => batcher.keepAlive(BigInt(i + 1))));
    expect(batches.map((b) => b.ids.length)).toEqual([MAX_SESSIONS_PER_REQUEST, 10]);
    expect(batches.flatMap((b) => b.ids)).toEqual(
      Array.from({ length: count }, (_, i) => BigInt(i + 1)),
    );
  });

  it("fails every session's keepalive with the request's failure when no node answered in time", async () => {
    const { api } = recordingApi(() => Promise.reject(new UnavailableError("no leader answered")));
    const batcher = new KeepaliveBatcher(api, systemClock);
    const outcomes = await Promise.all([1n, 2n].map((id) => settle(batcher.keepAlive(id))));
    expect(outcomes).toEqual(["UnavailableError", "UnavailableError"]);
  });

  it("sizes each attempt by the most pressed session still in time, and keeps the call going while any session has time left", () => {
    let leftA = 900;
    let leftB = 3_000;
    const options = combinedOptions([
      {
        options: {
          kind: "read",
          budgetMs: 9_000,
          attemptTimeoutMs: () => leftA / 3,
          timeLeftMs: () => leftA,
        },
      },
      {
        options: {
          kind: "read",
          budgetMs: 6_000,
          attemptTimeoutMs: () => leftB / 3,
          timeLeftMs: () => leftB,
        },
      },
    ]);
    const attempt = (): number =>
      typeof options.attemptTimeoutMs === "function" ? options.attemptTimeoutMs() : NaN;
    expect(options.budgetMs).toBe(9_000);
    expect(attempt()).toBe(300);
    expect(options.timeLeftMs?.()).toBe(3_000);
    leftA = 0; // A's deadline passed: B alone sizes the attempts now
    leftB = 1_500;
    expect(attempt()).toBe(500);
    expect(options.timeLeftMs?.()).toBe(1_500);
  });
});
