// A write whose answer came another way while it is still being retried: an Acquire whose
// wait the caller gave up is answered by its CancelWait, but the Acquire call itself may
// still be between attempts. It must stop, and no attempt may acknowledge its own seq (the
// node would refuse that as INVALID_ARGUMENT, a different answer for the same seq).
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { LimitError, ServerError } from "../../../client/errors.ts";
import { AckTracker } from "../../../client/acks.ts";
import type { CallOptions, LockApi } from "../../../client/lock-api.ts";
import { Session } from "../../../client/session.ts";
import { systemClock } from "../../../client/clock.ts";
import type { AcquireRequest, CancelWaitResult } from "../../../proto/lock-values.ts";
import { eventually } from "../eventually.ts";
import { scriptedApi } from "./lock-api-kit.ts";

/**
 * A LockApi whose Acquire never answers (the test inspects what a retry would send) and
 * whose CancelWait fails with `refusals` in turn, then answers "cancelled".
 */
function scripted(refusals: Error[] = []): {
  api: LockApi;
  lastAcquire?: { build: () => AcquireRequest; options: CallOptions };
  cancels: number;
} {
  const state: {
    api: LockApi;
    lastAcquire?: { build: () => AcquireRequest; options: CallOptions };
    cancels: number;
  } = {
    cancels: 0,
    api: scriptedApi({
      KeepAlive: async ({ sessionIds }) => ({
        sessions: sessionIds.map((sessionId) => ({ sessionId, ttlMs: 60_000 })),
      }),
      Acquire: (_request, options, build) => {
        state.lastAcquire = { build, options };
        return new Promise(() => undefined);
      },
      Release: async () => ({}),
      CloseSession: async () => ({}),
      CancelWait: async (): Promise<CancelWaitResult> => {
        state.cancels++;
        const refusal = refusals.shift();
        if (refusal) throw refusal;
        return { outcome: "cancelled" };
      },
    }),
  };
  return state;
}

describe("a write answered another way while it is retried", () => {
  it("an Acquire whose wait was cancelled stops retrying and never acknowledges its own seq", async () => {
    const script = scripted();
    const session = new Session(
      script.api,
      {
        id: 1n,
        ttlMs: 60_000,
        clientName: "t",
        openedSentAt: systemClock.monotonicMs(),
        callTimeoutMs: 1_000,
        retryBudgetMs: 10_000,
        driftBound: 0.01,
        deadlineTickMs: 50,
      },
      systemClock,
    );
    try {
      const giveUp = new AbortController();
      const pending = session.startAcquire("L", { waitMs: 30_000, signal: giveUp.signal });
      expect(script.lastAcquire).toBeDefined();
      const { build, options } = script.lastAcquire!;
      giveUp.abort();
      expect(await pending.result).toMatchObject({ acquired: false, cancelled: true });
      // The answer of its seq is held now (the CancelWait's): a retry must not go out...
      expect(options.timeLeftMs?.()).toBe(0);
      // ...and anything built for it still acknowledges only seqs below its own.
      const retry = build();
      expect(retry.ackedUpTo).toBeLessThan(retry.seq);
      expect(retry.held.every((s) => s < retry.seq)).toBe(true);
    } finally {
      await session.close().catch(() => undefined);
    }
  });

  it("the acknowledgements of a write never reach its own seq", () => {
    const acks = new AckTracker();
    const first = acks.allocate();
    const second = acks.allocate();
    acks.answered(first);
    acks.answered(second);
    expect(acks.acksFor(second)).toEqual({ ackedUpTo: 1, held: [] });
    expect(acks.isAnswered(second)).toBe(true);
  });
});

describe("a CancelWait that the cluster did not answer about its seq", () => {
  for (const [what, refusal] of [
    [
      "refused by a rate limit",
      () => new LimitError("rate limited", status.RESOURCE_EXHAUSTED, "ERROR_REASON_RATE_LIMITED"),
    ],
    [
      "failed by a server error",
      () => new ServerError("internal", status.INTERNAL, "ERROR_REASON_INTERNAL"),
    ],
  ] as const) {
    it(`is sent again when ${what}, until an answer about the seq arrives`, async () => {
      const script = scripted([refusal(), refusal()]);
      const session = new Session(
        script.api,
        {
          id: 1n,
          ttlMs: 60_000,
          clientName: "t",
          openedSentAt: systemClock.monotonicMs(),
          callTimeoutMs: 1_000,
          retryBudgetMs: 10_000,
          driftBound: 0.01,
          deadlineTickMs: 50,
        },
        systemClock,
      );
      try {
        const giveUp = new AbortController();
        const pending = session.startAcquire("L", { waitMs: 30_000, signal: giveUp.signal });
        giveUp.abort();
        await pending.result.catch(() => undefined);
        // Settled in the background: the name is claimed until the cluster answered the cancel.
        await eventually(() => expect(script.cancels).toBeGreaterThanOrEqual(3));
        expect(script.cancels).toBe(3);
      } finally {
        await session.close().catch(() => undefined);
      }
    });
  }
});
