// A write refused by a reason the log keeps no answer for (too many in flight, the rate
// limit, the disk reserve): as the answer to a first attempt, or after attempts refused as
// not led there, it is final, since no other copy of the write can be logged. After an
// attempt that went unanswered it is not: that copy may still be logged and take effect,
// so the write is sent again with the same seq until an answer comes, or its outcome is
// reported unknown.
import { status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { manualClock } from "./manual-clock.ts";
import { LimitError, OutcomeUnknownError } from "../../../client/errors.ts";
import { attemptFailureOf, Failover } from "../../../client/failover.ts";
import type { CallFailure } from "../../../proto/codec/answers.ts";

const timedOut: CallFailure = {
  code: Status.DEADLINE_EXCEEDED,
  reason: null,
  message: "deadline exceeded",
  leader: null,
};
const tooManyInFlight: CallFailure = {
  code: Status.RESOURCE_EXHAUSTED,
  reason: "ERROR_REASON_TOO_MANY_IN_FLIGHT",
  message: "session 7 has 64 unacknowledged answers and pending waits (limit 64)",
  leader: null,
};
const tooManyWaiters: CallFailure = {
  code: Status.RESOURCE_EXHAUSTED,
  reason: "ERROR_REASON_TOO_MANY_WAITERS",
  message: "lock a has 10000 waiters",
  leader: null,
};

/** A failover over one node that answers each attempt with the next of `answers`. */
function rig(answers: Array<CallFailure | string>) {
  const clock = manualClock();
  const pauses: number[] = [];
  const failover = new Failover(
    ["a"],
    clock,
    (err) => attemptFailureOf(err as CallFailure, undefined),
    (ms) => {
      pauses.push(ms);
      clock.advance(ms);
      return Promise.resolve();
    },
  );
  let attempts = 0;
  const call = (kind: "write" | "read", budgetMs = 10_000): Promise<string> =>
    failover.call(
      () => {
        const answer = answers[Math.min(attempts, answers.length - 1)] as CallFailure | string;
        attempts += 1;
        if (typeof answer === "string") return Promise.resolve(answer);
        if (answer.code === Status.DEADLINE_EXCEEDED) clock.advance(500);
        return Promise.reject(answer);
      },
      "Acquire",
      {},
      { kind, attemptTimeoutMs: 500, budgetMs },
    );
  return { call, attempts: () => attempts, pauses };
}

describe("a write refused by a reason the log keeps no answer for", () => {
  it("is sent again after an unanswered attempt, and the answer of the copy that was logged comes back", async () => {
    const { call, attempts, pauses } = rig([timedOut, tooManyInFlight, tooManyInFlight, "granted"]);
    await expect(call("write")).resolves.toBe("granted");
    expect(attempts()).toBe(4);
    // The back-off after the unanswered attempt, then a pause before each resend, longer
    // each time.
    expect(pauses).toEqual([50, 50, 100]);
  });

  it("is final as the answer to a first attempt: no other copy of the write exists", async () => {
    const { call, attempts } = rig([tooManyInFlight, "granted"]);
    await expect(call("write")).rejects.toBeInstanceOf(LimitError);
    expect(attempts()).toBe(1);
  });

  it("is final after attempts refused as not led there: none of them was logged", async () => {
    const notLeader: CallFailure = {
      code: Status.UNAVAILABLE,
      reason: "ERROR_REASON_NOT_LEADER",
      message: "not the leader",
      leader: null,
    };
    const { call, attempts } = rig([notLeader, tooManyInFlight, "granted"]);
    await expect(call("write")).rejects.toBeInstanceOf(LimitError);
    expect(attempts()).toBe(2);
  });

  it("leaves the outcome unknown when the budget runs out while it is refused", async () => {
    const { call } = rig([timedOut, tooManyInFlight]);
    const error = await call("write", 3_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).reason).toBe("ERROR_REASON_TOO_MANY_IN_FLIGHT");
  });

  it("a refusal the state machine records is final after an unanswered attempt too", async () => {
    const { call, attempts } = rig([timedOut, tooManyWaiters, "granted"]);
    await expect(call("write")).rejects.toBeInstanceOf(LimitError);
    expect(attempts()).toBe(2);
  });

  it("a read refused so is not sent again (a read changes nothing)", async () => {
    const { call, attempts } = rig([timedOut, tooManyInFlight, "found"]);
    await expect(call("read")).rejects.toBeInstanceOf(LimitError);
    expect(attempts()).toBe(2);
  });
});
