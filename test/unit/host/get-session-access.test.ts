// GetSession under access control answers as the session calls do: another identity's
// session and an id that never existed are refused alike (PERMISSION_DENIED), so a caller
// cannot tell which ids are live sessions of others; the caller's own ended session is
// NOT_FOUND; admins see every session.
import { describe, expect, it } from "vitest";
import type { Caller } from "../../../node/auth/caller.ts";
import { AccessGate } from "../../../node/host/access-gate.ts";
import { RequestFailure } from "../../../node/host/failures.ts";
import { LockRequests } from "../../../node/host/lock-requests.ts";
import type { NodeHost } from "../../../node/host/node-host.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

const POLICY = `
roles:
  a: { grants: [{ prefix: "a/", actions: [acquire, read] }] }
  b: { grants: [{ prefix: "b/", actions: [acquire, read] }] }
identities:
  team-a: { roles: [a] }
  team-b: { roles: [b] }
`;

const A: Caller = { kind: "certificate", name: "team-a", tokenId: "" };
const B: Caller = { kind: "certificate", name: "team-b", tokenId: "" };
const ROOT: Caller = { kind: "admin", name: "root", tokenId: "" };

/** A node whose linearizable reads are answered from `state` at once. */
function node(state: LockStateMachine): LockRequests {
  const host = {
    state,
    wallMs: () => 0,
    logger: { warn: () => undefined },
    linearizable: async () => state.appliedIndex,
  } as unknown as NodeHost;
  const gate = new AccessGate({
    tls: true,
    certIdentity: "cn",
    admins: [],
    state: () => state.accessState,
    wallMs: () => 0,
    logger: { warn: () => undefined },
  });
  return new LockRequests(host, gate);
}

function opened(state: LockStateMachine, caller: string, index: number): bigint {
  const cmd: Command = {
    type: "openSession",
    requestId: `r${index}`,
    ttlMs: 5_000,
    clientName: caller,
    wallMs: 0,
  };
  const out = state.apply(index, cmd, caller);
  if (out.result.kind !== "sessionOpened") throw new Error(JSON.stringify(out.result));
  return out.result.sessionId;
}

/** The reason GetSession of `id` by `caller` fails with, or "ok". */
async function getSession(locks: LockRequests, id: bigint, caller: Caller): Promise<string> {
  try {
    await locks.serve("GetSession", { sessionId: id }, undefined, undefined, caller);
    return "ok";
  } catch (error) {
    if (error instanceof RequestFailure) return `${error.reason}: ${error.message}`;
    throw error;
  }
}

describe("GetSession under access control", () => {
  it("refuses another identity's live session and an id that never existed alike", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    const locks = node(state);
    expect(await getSession(locks, a, A)).toBe("ok");
    const foreign = await getSession(locks, a, B);
    const unknown = await getSession(locks, 999n, B);
    expect(foreign).toBe(
      `ERROR_REASON_PERMISSION_DENIED: session ${a} is not a session of identity team-b`,
    );
    expect(unknown).toBe(
      "ERROR_REASON_PERMISSION_DENIED: session 999 is not a session of identity team-b",
    );
  });

  it("answers the caller's own ended session NOT_FOUND, another's ended one PERMISSION_DENIED", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    state.apply(3, { type: "expireSession", sessionId: a, wallMs: 0 });
    const locks = node(state);
    expect(await getSession(locks, a, A)).toMatch(/^ERROR_REASON_SESSION_NOT_FOUND: /);
    expect(await getSession(locks, a, B)).toMatch(/^ERROR_REASON_PERMISSION_DENIED: /);
  });

  it("shows an admin every session, and answers it NOT_FOUND for an id that never existed", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    const locks = node(state);
    expect(await getSession(locks, a, ROOT)).toBe("ok");
    expect(await getSession(locks, 999n, ROOT)).toMatch(/^ERROR_REASON_SESSION_NOT_FOUND: /);
  });
});
