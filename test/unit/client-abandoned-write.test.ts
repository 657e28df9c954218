// A write whose answer came another way while it is still being retried: an Acquire whose
// wait the caller gave up is answered by its CancelWait, but the Acquire call itself may
// still be between attempts. It must stop, and no attempt may acknowledge its own seq (the
// node would refuse that as INVALID_ARGUMENT, a different answer for the same seq).
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { LimitError, ServerError } from "../../client/errors.ts";
import { AckTracker } from "../../client/acks.ts";
import type {
  AcquireAnswer, AcquireCall, CallOptions, CancelWaitCall, LockApi, OpenedSession, ReleaseCall, WriteAcks,
} from "../../client/lock-api.ts";
import { Session } from "../../client/session.ts";
import { systemClock } from "../../client/clock.ts";
import type { CancelWaitResult } from "../../client/types.ts";
import { eventually } from "./eventually.ts";

/** A LockApi whose Acquire never answers (the test inspects what a retry would send) and whose CancelWait answers "cancelled". */
class ScriptedApi implements LockApi {
  lastAcquire?: { call: AcquireCall; options: CallOptions };
  async openSession(): Promise<OpenedSession> {
    return { sessionId: 1n, ttlMs: 60_000 };
  }
  async keepAlive(): Promise<void> {}
  acquire(call: AcquireCall, options: CallOptions = {}): Promise<AcquireAnswer> {
    this.lastAcquire = { call, options };
    return new Promise(() => undefined);
  }
  async release(_call: ReleaseCall): Promise<void> {}
  async cancelWait(_call: CancelWaitCall): Promise<CancelWaitResult> {
    return { outcome: "cancelled" };
  }
  async closeSession(): Promise<void> {}
}

describe("a write answered another way while it is retried", () => {
  it("an Acquire whose wait was cancelled stops retrying and never acknowledges its own seq", async () => {
    const api = new ScriptedApi();
    const session = new Session(api, {
      id: 1n, ttlMs: 60_000, clientName: "t", openedSentAt: systemClock.monotonicMs(), callTimeoutMs: 1_000, retryBudgetMs: 10_000,
      driftBound: 0.01, deadlineTickMs: 50,
    }, systemClock);
    try {
      const giveUp = new AbortController();
      const pending = session.startAcquire("L", { waitMs: 30_000, signal: giveUp.signal });
      expect(api.lastAcquire).toBeDefined();
      const { call, options } = api.lastAcquire!;
      giveUp.abort();
      expect(await pending.result).toMatchObject({ acquired: false, cancelled: true });
      // The answer of its seq is held now (the CancelWait's): a retry must not go out...
      expect(options.timeLeftMs?.()).toBe(0);
      // ...and anything built for it still acknowledges only seqs below its own.
      const acks: WriteAcks = call.acks();
      expect(acks.ackedUpTo).toBeLessThan(call.seq);
      expect(acks.held.every((s) => s < call.seq)).toBe(true);
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

/** A LockApi whose Acquire never answers and whose CancelWait fails with `refusals` in turn, then answers "cancelled". */
class RefusingApi extends ScriptedApi {
  cancels = 0;
  constructor(private readonly refusals: Error[]) {
    super();
  }
  override async cancelWait(_call: CancelWaitCall): Promise<CancelWaitResult> {
    this.cancels++;
    const refusal = this.refusals.shift();
    if (refusal) throw refusal;
    return { outcome: "cancelled" };
  }
}

describe("a CancelWait that the cluster did not answer about its seq", () => {
  for (const [what, refusal] of [
    ["refused by a rate limit", () => new LimitError("rate limited", status.RESOURCE_EXHAUSTED, "ERROR_REASON_RATE_LIMITED")],
    ["failed by a server error", () => new ServerError("internal", status.INTERNAL, "ERROR_REASON_INTERNAL")],
  ] as const) {
    it(`is sent again when ${what}, until an answer about the seq arrives`, async () => {
      const api = new RefusingApi([refusal(), refusal()]);
      const session = new Session(api, {
        id: 1n, ttlMs: 60_000, clientName: "t", openedSentAt: systemClock.monotonicMs(), callTimeoutMs: 1_000, retryBudgetMs: 10_000,
        driftBound: 0.01, deadlineTickMs: 50,
      }, systemClock);
      try {
        const giveUp = new AbortController();
        const pending = session.startAcquire("L", { waitMs: 30_000, signal: giveUp.signal });
        giveUp.abort();
        await pending.result.catch(() => undefined);
        // Settled in the background: the name is claimed until the cluster answered the cancel.
        await eventually(() => expect(api.cancels).toBeGreaterThanOrEqual(3));
        expect(api.cancels).toBe(3);
      } finally {
        await session.close().catch(() => undefined);
      }
    });
  }
});
