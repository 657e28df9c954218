// A keepalive under access control: each id is answered for the caller alone. A session of
// another identity, or one that never existed, is refused alike and its TTL is not touched;
// one's own ended session is gone; a session the leader has not applied yet when the
// keepalive arrives is decided once it has (a new leader's state may lag its log).
import { describe, expect, it } from "vitest";
import type { Caller } from "../../../node/auth/caller.ts";
import { AccessGate } from "../../../node/host/access-gate.ts";
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

/** A leader over a real state machine; `onApplied` runs while a keepalive waits for this term's entries. */
function leader(state: LockStateMachine, onApplied: () => void = () => undefined) {
  const arrivals: bigint[] = [];
  const host = {
    state,
    isLeader: true,
    term: 2,
    electionTimeoutMs: 1_000,
    requireLeader: () => undefined,
    leaderHint: () => "",
    wallMs: () => 0,
    logger: { warn: () => undefined },
    confirmLeadership: async () => undefined,
    leadershipApplied: async () => onApplied(),
    keeper: { expiryProposed: () => false },
    keepAliveArrived: (id: bigint) => {
      if (!state.hasSession(id)) return "notFound";
      arrivals.push(id);
      return "ok";
    },
  } as unknown as NodeHost;
  const gate = new AccessGate({
    tls: true,
    certIdentity: "cn",
    admins: [],
    state: () => state.accessState,
    wallMs: () => 0,
    logger: { warn: () => undefined },
  });
  return { locks: new LockRequests(host, gate), arrivals };
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

describe("a keepalive under access control", () => {
  it("keeps the caller's session alive and refuses another identity's, or an id that never existed, without touching it", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    const b = opened(state, "c:team-b", 3);
    const { locks, arrivals } = leader(state);
    expect(await locks.keepAlive([a, b, 999n], A)).toEqual([5_000, "denied", "denied"]);
    expect(arrivals).toEqual([a]);
    expect(await locks.keepAlive([b], B)).toEqual([5_000]);
  });

  it("answers the caller's own ended session as gone, not refused", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    state.apply(3, { type: "expireSession", sessionId: a, wallMs: 0 });
    const { locks } = leader(state);
    expect(await locks.keepAlive([a], A)).toEqual([null]);
    expect(await locks.keepAlive([a], B)).toEqual(["denied"]);
  });

  it("decides an id the leader had not applied on arrival once it has: the caller's new session is kept alive", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    // The session opens at index 2, applied only while the keepalive waits for the term's entries.
    const id = 2n;
    const { locks, arrivals } = leader(state, () => {
      if (!state.hasSession(id)) opened(state, "c:team-a", 2);
    });
    expect(await locks.keepAlive([id], A)).toEqual([5_000]);
    expect(arrivals).toEqual([id]);
  });

  it("refuses a session whose identity lost every right it uses, and does not restart its TTL", async () => {
    const state = new LockStateMachine();
    state.apply(1, { type: "setPolicy", text: POLICY, wallMs: 0 }, "a:root");
    const a = opened(state, "c:team-a", 2);
    state.apply(
      3,
      {
        type: "setPolicy",
        text: POLICY.replace("team-a: { roles: [a] }", "team-a: { roles: [] }"),
        wallMs: 0,
      },
      "a:root",
    );
    const { locks, arrivals } = leader(state);
    expect(await locks.keepAlive([a], A)).toEqual(["denied"]);
    expect(arrivals).toEqual([]);
  });
});
