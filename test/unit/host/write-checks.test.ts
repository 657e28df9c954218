// A write is checked against the replicated limits only on the leader: a node that does not
// lead answers NOT_LEADER (the client retries at the leader) before it looks at any limit,
// since its own state may lag the limits the write was applied under, and a retry refused
// by stale limits would take the place of the write's first answer.
import { describe, expect, it } from "vitest";
import { notLeader, RequestFailure } from "../../../node/host/failures.ts";
import { LockRequests } from "../../../node/host/lock-requests.ts";
import type { NodeHost } from "../../../node/host/node-host.ts";
import { DEFAULT_LOCK_LIMITS } from "../../../node/lock/index.ts";
import { AccessState } from "../../../node/auth/access-state.ts";

function follower(): NodeHost {
  return {
    requireLeader: () => {
      throw notLeader("127.0.0.1:7001");
    },
    // Its state has not applied the cluster's limits yet: hold limits below 1 s look invalid.
    limitsForRequests: () => DEFAULT_LOCK_LIMITS,
    wallMs: () => 0,
    // No policy: the cluster is open.
    state: { accessState: new AccessState() },
  } as unknown as NodeHost;
}

async function failureOf(promise: Promise<unknown>): Promise<RequestFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestFailure);
  return error as RequestFailure;
}

describe("the checks of a write against the limits", () => {
  it("a node that does not lead refuses a retried Acquire as NOT_LEADER, not by its stale limits", async () => {
    const locks = new LockRequests(follower());
    const retry = {
      sessionId: 5n,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "rw-2",
      waitMs: 0,
      holdMs: 243,
    };
    const failure = await failureOf(locks.serve("Acquire", retry));
    expect(failure).toMatchObject({ reason: "ERROR_REASON_NOT_LEADER", leader: "127.0.0.1:7001" });
  });

  it("so does it for an OpenSession, a Release and a CloseSession", async () => {
    const locks = new LockRequests(follower());
    const write = {
      sessionId: 5n,
      seq: 2,
      ackedUpTo: 0,
      held: Array.from({ length: 100 }, (_, i) => i + 3),
    };
    for (const failure of [
      await failureOf(locks.serve("OpenSession", { ttlMs: 500, clientName: "", requestId: "r" })),
      await failureOf(locks.serve("Release", { ...write, lock: "a", token: 7n })),
      await failureOf(locks.serve("CloseSession", write)),
    ])
      expect(failure.reason).toBe("ERROR_REASON_NOT_LEADER");
  });

  it("a leader proposes a write its limits refuse when it may retry one the log holds, and refuses it otherwise", async () => {
    const proposed: unknown[] = [];
    const leader = (mayRetry: boolean): NodeHost =>
      ({
        requireLeader: () => undefined,
        // The limits changed since the first attempt: its held list is now too long.
        limitsForRequests: () => ({ ...DEFAULT_LOCK_LIMITS, maxHeldList: 1 }),
        mayRetryLogged: () => mayRetry,
        wallMs: () => 0,
        // No policy: the cluster is open.
        state: { accessState: new AccessState() },
        propose: (cmd: unknown) => {
          proposed.push(cmd);
          return Promise.resolve({ index: 9, outcome: { result: { kind: "released" } } });
        },
      }) as unknown as NodeHost;
    const retry = { sessionId: 5n, seq: 4, ackedUpTo: 0, held: [2, 3], lock: "a", token: 7n };
    const refused = await failureOf(new LockRequests(leader(false)).serve("Release", retry));
    expect(refused.reason).toBe("ERROR_REASON_INVALID_ARGUMENT");
    expect(proposed).toEqual([]);
    // The log's answer stands: the state machine answers a repeated seq with its first answer.
    await expect(new LockRequests(leader(true)).serve("Release", retry)).resolves.toEqual({});
    expect(proposed).toMatchObject([{ type: "release", seq: 4, held: [2, 3] }]);
  });
});
