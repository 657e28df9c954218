// A write that reaches a follower is refused as not led here before any check against the
// limits: a follower's applied state may lag the limits the write was applied under on the
// leader, and a retry refused by stale limits would stand in for its first answer (the
// client would take INVALID_ARGUMENT for the write's outcome and never learn of its grant).
import { describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { toU64 } from "../../proto/wire.ts";
import { DEFAULT_LOCK_LIMITS, type LockLimits } from "../../node/lock/limits.ts";
import { notLeader, type RequestFailure } from "../../node/host/failures.ts";
import type { ServiceContext } from "../../node/server/context.ts";
import { lockCalls } from "../../node/server/lock-service.ts";

const pb = palisade.v1;
const LEADER = "127.0.0.1:7001";

/** A follower whose applied limits predate the leader's: holds of at most 2 s, TTLs of at least 5 s. */
function follower(): { calls: ReturnType<typeof lockCalls>; asked: string[] } {
  const stale: LockLimits = { ...DEFAULT_LOCK_LIMITS, minHoldMs: 1_000, maxHoldMs: 2_000, minTtlMs: 5_000 };
  const asked: string[] = [];
  const refuse = (what: string) => async (): Promise<never> => {
    asked.push(what);
    throw notLeader(LEADER);
  };
  const ctx = {
    host: {
      limitsForRequests: () => stale,
      requireLeader: () => {
        throw notLeader(LEADER);
      },
      wallMs: () => 0,
      leaderHint: () => LEADER,
    },
    locks: { acquire: refuse("acquire"), release: refuse("release"), openSession: refuse("openSession"), closeSession: refuse("closeSession") },
  } as unknown as ServiceContext;
  return { calls: lockCalls(ctx), asked };
}

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as RequestFailure).reason ?? (err as Error).message;
  }
  return "answered";
}

describe("a write at a follower whose limits lag the leader's", () => {
  it("a retried Acquire with a hold limit the follower's stale limits refuse answers NOT_LEADER, not INVALID_ARGUMENT", async () => {
    const { calls } = follower();
    const request = pb.AcquireRequest.create({ sessionId: toU64(7), lock: "a", seq: toU64(1), holdMs: toU64(60_000) });
    expect(await reasonOf(calls.Acquire(request, new AbortController().signal))).toBe("ERROR_REASON_NOT_LEADER");
  });

  it("an OpenSession with a TTL the follower's stale limits refuse answers NOT_LEADER", async () => {
    const { calls } = follower();
    const request = pb.OpenSessionRequest.create({ ttlMs: toU64(1_000), requestId: "r1" });
    expect(await reasonOf(calls.OpenSession(request))).toBe("ERROR_REASON_NOT_LEADER");
  });
});
