// GetSession under a policy: a session is shown to its owner and to admins; to anyone else,
// another identity's session (live or ended) and an id that never existed answer alike, so
// session ids cannot be probed; one's own ended session is NOT_FOUND.
import { describe, expect, it } from "vitest";
import { RequestFailure } from "../../../node/host/failures.ts";
import { LockRequests } from "../../../node/host/lock-requests.ts";
import type { NodeHost } from "../../../node/host/node-host.ts";
import type { Caller } from "../../../node/auth/caller.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

const POLICY = `roles:
  a-rw:
    grants:
      - prefix: a/
        actions: [acquire, read]
  b-rw:
    grants:
      - prefix: b/
        actions: [acquire, read]
identities:
  team-a: { roles: [a-rw] }
  team-b: { roles: [b-rw] }
`;

const TEAM_A: Caller = { kind: "certificate", name: "team-a", tokenId: "" };
const ADMIN: Caller = { kind: "admin", name: "ops", tokenId: "" };

function cluster(): { locks: LockRequests; run: (cmd: Command, caller: string) => unknown } {
  const state = new LockStateMachine();
  let index = 0;
  const host = {
    state,
    wallMs: () => 0,
    linearizable: async () => state.appliedIndex,
    logger: { warn: () => undefined },
  } as unknown as NodeHost;
  return {
    locks: new LockRequests(host),
    run: (cmd, caller) => state.apply(++index, cmd, caller).result,
  };
}

function openedId(answer: unknown): bigint {
  const opened = answer as { kind: string; sessionId: bigint };
  if (opened.kind !== "sessionOpened") throw new Error(`not opened: ${String(opened.kind)}`);
  return opened.sessionId;
}

async function refusal(promise: Promise<unknown>): Promise<{ reason: string; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestFailure);
  const { reason, message } = error as RequestFailure;
  return { reason, message };
}

describe("GetSession under a policy", () => {
  it("answers another identity's sessions, live or ended, as an id that never existed", async () => {
    const { locks, run } = cluster();
    run({ type: "setPolicy", text: POLICY, wallMs: 0 }, "a:ops");
    const open = (caller: string) =>
      openedId(
        run(
          { type: "openSession", requestId: "", ttlMs: 10_000, clientName: caller, wallMs: 0 },
          caller,
        ),
      );
    const own = open("c:team-a");
    const live = open("c:team-b");
    const ended = open("c:team-b");
    const ownEnded = open("c:team-a");
    for (const [id, caller] of [
      [ended, "c:team-b"],
      [ownEnded, "c:team-a"],
    ] as const)
      run(
        { type: "closeSession", sessionId: id, seq: 1, ackedUpTo: 0, held: [], wallMs: 0 },
        caller,
      );
    const never = 987_654_321n;
    const get = (sessionId: bigint, caller = TEAM_A) =>
      locks.serve("GetSession", { sessionId }, undefined, undefined, caller);

    expect(await get(own)).toMatchObject({ session: { sessionId: own } });
    const denied = (id: bigint) => ({
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: `session ${id} is not a session of identity team-a`,
    });
    expect(await refusal(get(live))).toEqual(denied(live));
    expect(await refusal(get(ended))).toEqual(denied(ended));
    expect(await refusal(get(never))).toEqual(denied(never));
    expect(await refusal(get(ownEnded))).toMatchObject({
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
    // An admin sees every session, and is told which do not exist.
    expect(await get(live, ADMIN)).toMatchObject({ session: { sessionId: live } });
    expect(await refusal(get(never, ADMIN))).toMatchObject({
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
  });
});
