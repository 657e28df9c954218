// Sessions opened before callers had identities (their entries name no caller, as an older
// version's leader wrote them) keep working for the callers of an open cluster, so a
// rolling upgrade of a TLS cluster loses no session; once a policy is applied they are the
// anonymous caller's alone.
import { describe, expect, it } from "vitest";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

const POLICY = `
roles:
  a: { grants: [{ prefix: "a/", actions: [acquire] }] }
identities:
  team-a: { roles: [a] }
`;

function acquire(sessionId: bigint, seq: number, lock: string) {
  return {
    type: "acquire",
    sessionId,
    seq,
    ackedUpTo: 0,
    held: [],
    lock,
    waitMs: 0,
    wallMs: 0,
  } as const;
}

describe("sessions without an owner", () => {
  it("serve any caller while the cluster is open, and only the anonymous caller once a policy is applied", () => {
    const sm = new LockStateMachine();
    const opened = sm.apply(
      1,
      { type: "openSession", requestId: "r", ttlMs: 5_000, clientName: "old", wallMs: 0 },
      "",
    );
    if (opened.result.kind !== "sessionOpened") throw new Error("not opened");
    const id = opened.result.sessionId;
    expect(sm.apply(2, acquire(id, 1, "a/1"), "c:team-a").result).toMatchObject({
      kind: "granted",
    });
    sm.apply(3, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    expect(sm.apply(4, acquire(id, 2, "a/2"), "c:team-a").result).toMatchObject({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: `session ${id} is not a session of identity team-a`,
    });
  });
});
