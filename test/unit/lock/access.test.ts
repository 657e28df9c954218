// Access control in the lock state machine: the policy takes effect at its entry's index;
// sessions belong to the identity that opened them; acquire and revoke need the policy's
// actions on the lock; per-identity quotas; bearer tokens (revoked, expired); admin calls;
// and all of it kept by snapshots and by a restore into a new cluster.
import { describe, expect, it } from "vitest";
import type { Answer } from "../../../node/lock/answers.ts";
import type { AcquireCommand, Command } from "../../../node/lock/commands.ts";
import { encodeEntry } from "../../../node/lock/codec/entries.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { restoreFromBackup } from "../../../node/lock/restore.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { LogRunner } from "../../lock/log-runner.ts";
import { bigintSafe, tokenOf } from "./kit.ts";
import { LIMITS, randomLog } from "./random-log.ts";

const ADMIN = "a:ops";
const A = "c:team-a";
const B = "c:team-b";
const ANON = "";

/** Team A and team B, each on its own prefix; both may read-share `shared/`; no quotas. */
const TENANTS = `roles:
  a-rw:
    grants:
      - prefix: a/
        actions: [acquire, read, revoke]
      - prefix: shared/
        actions: [acquire:shared, read]
  b-rw:
    grants:
      - prefix: b/
        actions: [acquire, read]
      - prefix: shared/
        actions: [acquire, read, revoke]
identities:
  team-a: { roles: [a-rw] }
  team-b: { roles: [b-rw] }
`;

/** The same teams, team A with a quota of each kind; team B has none. */
const QUOTAS = TENANTS.replace(
  "  b-rw:",
  "    quotas: { sessions: 2, heldLocks: 3, waits: 1, holderDataBytes: 10 }\n  b-rw:",
);

let requests = 0;

function reasonOf(answer: Answer): string {
  return answer.kind === "error" ? answer.reason : answer.kind;
}

function show(answer: Answer): string {
  return JSON.stringify(answer, bigintSafe);
}

/** A session numbering its writes, every entry of it sent by `caller`. */
class Tenant {
  readonly id: bigint;
  seq = 0;

  constructor(
    readonly r: LogRunner,
    readonly caller: string,
    readonly wallMs = 0,
  ) {
    const out = openSession(r, caller, wallMs);
    if (out.result.kind !== "sessionOpened") throw new Error(`not opened: ${show(out.result)}`);
    this.id = out.result.sessionId;
  }

  write(): { sessionId: bigint; seq: number; ackedUpTo: number; held: number[]; wallMs: number } {
    return { sessionId: this.id, seq: ++this.seq, ackedUpTo: 0, held: [], wallMs: this.wallMs };
  }

  run(cmd: Command): ApplyOutcome {
    return this.r.run(cmd, this.caller);
  }

  acquire(lock: string, extra: Partial<AcquireCommand> = {}): Answer {
    return this.run({ type: "acquire", ...this.write(), lock, waitMs: 0, ...extra }).result;
  }

  waitFor(lock: string, extra: Partial<AcquireCommand> = {}): Answer {
    return this.acquire(lock, { waitMs: 5_000, ...extra });
  }

  release(lock: string, token: bigint): Answer {
    return this.run({ type: "release", ...this.write(), lock, token }).result;
  }

  close(): Answer {
    return this.run({ type: "closeSession", ...this.write() }).result;
  }

  cancel(lock: string, acquireSeq: number): Answer {
    return this.run({
      type: "cancelWait",
      sessionId: this.id,
      lock,
      acquireSeq,
      reason: "client",
      wallMs: this.wallMs,
    }).result;
  }

  upgrade(lock: string, token: bigint, waitMs = 0): Answer {
    return this.run({ type: "upgrade", ...this.write(), lock, token, waitMs }).result;
  }

  proclaim(lock: string, token: bigint, value: string): Answer {
    return this.run({ type: "proclaim", ...this.write(), lock, token, value }).result;
  }
}

function openSession(r: LogRunner, caller: string, wallMs = 0): ApplyOutcome {
  return r.run(
    {
      type: "openSession",
      requestId: `req-${++requests}`,
      ttlMs: 10_000,
      clientName: caller === "" ? "anonymous" : caller,
      wallMs,
    },
    caller,
  );
}

function setPolicy(r: LogRunner, text: string, caller = ADMIN): ApplyOutcome {
  return r.run({ type: "setPolicy", text, wallMs: 0 }, caller);
}

/** A cluster whose first entry applied `policy`. */
function cluster(policy: string): LogRunner {
  const r = new LogRunner(new LockStateMachine());
  expect(setPolicy(r, policy).result.kind).toBe("policySet");
  return r;
}

const TOKEN_ID = "0123456789abcdef";
const HASH = "ab".repeat(32);

function createToken(
  r: LogRunner,
  id: string,
  identity: string,
  roles: string[] = [],
  expiresAtMs = 0,
  caller = ADMIN,
): Answer {
  return r.run(
    { type: "createToken", id, identity, roles, hash: HASH, expiresAtMs, wallMs: 0 },
    caller,
  ).result;
}

/** Each session call of the LockService, naming session `id` with locks and tokens that exist. */
function sessionCalls(
  id: bigint,
  held: { exclusive: [string, bigint]; upgradeable: [string, bigint]; lead: [string, bigint] },
): Array<[string, Command]> {
  // Acknowledgements that would drop the session's kept answers if they were applied.
  const write = { sessionId: id, seq: 9, ackedUpTo: 3, held: [4, 5, 6, 7], wallMs: 0 };
  const [x, xt] = held.exclusive;
  const [u, ut] = held.upgradeable;
  const [e, et] = held.lead;
  return [
    ["Acquire", { type: "acquire", ...write, lock: "b/new", waitMs: 0 }],
    ["Release", { type: "release", ...write, lock: x, token: xt }],
    ["CloseSession", { type: "closeSession", ...write }],
    [
      "CancelWait",
      {
        type: "cancelWait",
        sessionId: id,
        lock: "b/q",
        acquireSeq: 4,
        reason: "client",
        wallMs: 0,
      },
    ],
    ["Upgrade", { type: "upgrade", ...write, lock: u, token: ut, waitMs: 0 }],
    ["Downgrade", { type: "downgrade", ...write, lock: x, token: xt, mode: "shared" }],
    ["Proclaim", { type: "proclaim", ...write, lock: e, token: et, value: "mine" }],
    ["Resign", { type: "release", ...write, lock: e, token: et, election: true }],
  ];
}

describe("an open cluster (no policy applied)", () => {
  it("answers an anonymous caller as before identities: every right, NOT_FOUND for unknown ids", () => {
    const r = new LogRunner(new LockStateMachine());
    const a = new Tenant(r, ANON);
    const t = tokenOf(a.acquire("any/lock"));
    expect(a.acquire("other", { mode: "upgradeable" }).kind).toBe("granted");
    expect(
      reasonOf(r.run({ type: "revoke", lock: "any/lock", token: t, wallMs: 0 }, ANON).result),
    ).toBe("revoked");
    expect(reasonOf(a.close())).toBe("sessionClosed");
    // Its own closed session: NOT_FOUND, and a retried close succeeds.
    expect(reasonOf(a.acquire("x"))).toBe("ERROR_REASON_SESSION_NOT_FOUND");
    expect(reasonOf(a.close())).toBe("sessionClosed");
    // An id that never existed: NOT_FOUND, as it always was.
    const stranger = r.run(
      { type: "closeSession", sessionId: 999_999n, seq: 1, ackedUpTo: 0, held: [], wallMs: 0 },
      ANON,
    );
    expect(stranger.result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
      message: "session 999999 not found (unknown, closed or expired)",
    });
    // An anonymous caller is an admin while the cluster is open.
    expect(setPolicy(r, TENANTS, ANON).result.kind).toBe("policySet");
  });

  it("gives a certificate every action on every name, but no admin call", () => {
    const r = new LogRunner(new LockStateMachine());
    const a = new Tenant(r, A);
    for (const mode of ["exclusive", "shared", "upgradeable"] as const)
      expect(a.acquire(`x/${mode}`, { mode }).kind).toBe("granted");
    const lead = tokenOf(a.acquire("e", { mode: "leader", holderData: "me" }));
    expect(a.proclaim("e", lead, "still me").kind).toBe("proclaimed");
    expect(a.acquire("s", { permits: 2 }).kind).toBe("granted");
    const t = tokenOf(a.acquire("r"));
    expect(r.run({ type: "revoke", lock: "r", token: t, wallMs: 0 }, B).result.kind).toBe(
      "revoked",
    );
    expect(setPolicy(r, TENANTS, A).result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "identity team-a lacks permission admin on the cluster",
    });
    expect(reasonOf(createToken(r, TOKEN_ID, "team-a", [], 0, A))).toBe(
      "ERROR_REASON_PERMISSION_DENIED",
    );
    expect(r.machine.accessState.policy).toBeNull();
  });

  it("applies a random log carried in entries (anonymous writes) as it applies the commands", () => {
    for (const seed of [1, 2, 3, 4]) {
      const { log, outcomes } = randomLog(seed, 400, undefined, { upgrades: true });
      const machine = new LockStateMachine(LIMITS, { epoch: seed % 2 });
      const again: ApplyOutcome[] = [];
      for (const entry of log) {
        if (entry.cmd === null) machine.skip(entry.index);
        else again.push(machine.applyBytes(entry.index, encodeEntry(entry.cmd)));
      }
      expect(again).toEqual(outcomes);
    }
  });
});

describe("a policy", () => {
  it("takes effect at its entry's index: allowed at N - 1, refused at N + 1", () => {
    const r = new LogRunner(new LockStateMachine());
    const b = new Tenant(r, B);
    const anonBefore = openSession(r, ANON);
    const before = b.run({ type: "acquire", ...b.write(), lock: "a/1", waitMs: 0 });
    const beforePolicy = r.machine.snapshot();
    const n = setPolicy(r, TENANTS).index;
    const after = b.run({ type: "acquire", ...b.write(), lock: "a/2", waitMs: 0 });
    const anonAfter = openSession(r, ANON);
    expect([anonBefore.index, before.index, after.index, anonAfter.index]).toEqual([
      n - 2,
      n - 1,
      n + 1,
      n + 2,
    ]);
    expect(r.machine.accessState.policyIndex).toBe(n);
    // Before it, a certificate may take any lock and an anonymous caller open a session.
    expect(before.result.kind).toBe("granted");
    expect(anonBefore.result.kind).toBe("sessionOpened");
    expect(after.result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "identity team-b lacks permission acquire:exclusive on a/2",
    });
    expect(anonAfter.result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message:
        "an anonymous caller lacks permission acquire on any lock (a session would be of no use)",
    });
    // What was granted before stays granted; its release is a session call, allowed.
    expect(b.release("a/1", tokenOf(before.result)).kind).toBe("released");
    // From a snapshot taken just before it, the log applies the same way.
    const replayed = LockStateMachine.restore(beforePolicy);
    const results = r.log
      .filter((e) => e.index >= n)
      .map((e) => replayed.apply(e.index, e.cmd as Command, e.caller).result);
    expect(results.slice(1, 3)).toEqual([after.result, anonAfter.result]);
    expect(replayed.snapshot()).toEqual(r.machine.snapshot());
  });

  it("is refused whole when its text has an error, and the one before stays", () => {
    const r = cluster(TENANTS);
    const index = r.machine.accessState.policyIndex;
    const bad = setPolicy(r, "roles: [").result;
    expect(reasonOf(bad)).toBe("ERROR_REASON_INVALID_ARGUMENT");
    expect(r.machine.accessState.policyIndex).toBe(index);
    expect(r.machine.accessState.policy?.text).toBe(TENANTS);
  });
});

describe("two tenants", () => {
  /** Team B with a session holding a lock of each kind, a kept answer, and a pending wait. */
  function tenants() {
    const r = cluster(TENANTS);
    const a = new Tenant(r, A);
    const b = new Tenant(r, B);
    const first = b.acquire("b/x");
    const held = {
      exclusive: ["b/x", tokenOf(first)] as [string, bigint],
      upgradeable: ["b/u", tokenOf(b.acquire("b/u", { mode: "upgradeable" }))] as [string, bigint],
      lead: ["b/e", tokenOf(b.acquire("b/e", { mode: "leader", holderData: "b" }))] as [
        string,
        bigint,
      ],
    };
    // A wait of B's (seq 4) behind another session of B's.
    const b2 = new Tenant(r, B);
    tokenOf(b2.acquire("b/q"));
    expect(b.waitFor("b/q").kind).toBe("waiting");
    return { r, a, b, b2, first, held };
  }

  it("refuses team A any mode of any lock under team B's prefix", () => {
    const { a } = tenants();
    const denied = (action: string, lock: string) => ({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: `identity team-a lacks permission ${action} on ${lock}`,
    });
    expect(a.acquire("b/1")).toEqual(denied("acquire:exclusive", "b/1"));
    expect(a.acquire("b/1", { mode: "shared" })).toEqual(denied("acquire:shared", "b/1"));
    expect(a.acquire("b/1", { mode: "upgradeable" })).toEqual(denied("acquire:upgradeable", "b/1"));
    // An election's lead and a semaphore's permit are exclusive grants.
    expect(a.acquire("b/e", { mode: "leader" })).toEqual(denied("acquire:exclusive", "b/e"));
    expect(a.acquire("b/s", { permits: 2 })).toEqual(denied("acquire:exclusive", "b/s"));
    // A set is refused whole for its one foreign lock, and nothing of it is granted.
    expect(a.acquire("a/1", { more: [{ lock: "b/2" }] })).toEqual(
      denied("acquire:exclusive", "b/2"),
    );
    expect(a.r.machine.getLock("a/1").holder).toBeNull();
    // Where team A may only share, it may not take the lock exclusive or upgradeable.
    expect(a.acquire("shared/1", { mode: "shared" }).kind).toBe("granted");
    expect(a.acquire("shared/2")).toEqual(denied("acquire:exclusive", "shared/2"));
    expect(a.acquire("a/1").kind).toBe("granted");
  });

  it("refuses every session call naming team B's session, alike for an id that never existed", () => {
    const { r, b, first, held } = tenants();
    const never = 987_654_321n;
    const sessionBefore = r.machine.getSession(b.id);
    const locksBefore = ["b/x", "b/u", "b/e", "b/q"].map((l) => r.machine.getLock(l));
    const live = sessionCalls(b.id, held);
    const unknown = sessionCalls(never, held);
    for (let i = 0; i < live.length; i++) {
      const [call, cmd] = live[i] as [string, Command];
      const onLive = r.run(cmd, A).result;
      const onUnknown = r.run((unknown[i] as [string, Command])[1], A).result;
      expect(onLive, call).toEqual({
        kind: "error",
        reason: "ERROR_REASON_PERMISSION_DENIED",
        message: `session ${b.id} is not a session of identity team-a`,
      });
      // The same answer but for the id: nothing tells a live session from none.
      expect(onUnknown.kind === "error" && onUnknown.message.replace(`${never}`, `${b.id}`)).toBe(
        (onLive as { message: string }).message,
      );
      expect(reasonOf(onUnknown), call).toBe("ERROR_REASON_PERMISSION_DENIED");
    }
    // Nothing of team B's changed: its session, its grants and wait, its kept answers.
    expect(r.machine.getSession(b.id)).toEqual(sessionBefore);
    expect(["b/x", "b/u", "b/e", "b/q"].map((l) => r.machine.getLock(l))).toEqual(locksBefore);
    expect(r.machine.answerFor(b.id, 1)).toEqual(first);
    const retry = r.run(
      {
        type: "acquire",
        sessionId: b.id,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        lock: "b/x",
        waitMs: 0,
        wallMs: 0,
      },
      B,
    );
    expect(retry.result).toEqual(first);
    expect(b.release(...held.exclusive).kind).toBe("released");
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("does not answer another identity's invalid write from the session's kept answers", () => {
    const { r, b, first } = tenants();
    // Invalid (an empty lock name): apply answers a retry of a kept seq with its kept answer,
    // but only to the session's own identity.
    const invalidRetry: Command = {
      type: "acquire",
      sessionId: b.id,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "",
      waitMs: 0,
      wallMs: 0,
    };
    const byA = r.run(invalidRetry, A).result;
    expect(reasonOf(byA), show(byA)).toBe("ERROR_REASON_INVALID_ARGUMENT");
    const pending = r.run({ ...invalidRetry, seq: 4 }, A).result;
    expect(reasonOf(pending), show(pending)).toBe("ERROR_REASON_INVALID_ARGUMENT");
    // An id that never existed gets the same.
    expect(reasonOf(r.run({ ...invalidRetry, sessionId: 5n }, A).result)).toBe(
      "ERROR_REASON_INVALID_ARGUMENT",
    );
    // Its own identity still gets the kept answer.
    expect(r.run(invalidRetry, B).result).toEqual(first);
    expect(r.run({ ...invalidRetry, seq: 4 }, B).result.kind).toBe("waiting");
  });

  it("answers team A's own ended sessions NOT_FOUND, and other identities PERMISSION_DENIED", () => {
    const r = cluster(TENANTS);
    const closed = new Tenant(r, A);
    const expired = new Tenant(r, A);
    expect(closed.close().kind).toBe("sessionClosed");
    expect(r.run({ type: "expireSession", sessionId: expired.id, wallMs: 0 }).result.kind).toBe(
      "sessionExpired",
    );
    for (const s of [closed, expired]) {
      expect(reasonOf(s.acquire("a/1"))).toBe("ERROR_REASON_SESSION_NOT_FOUND");
      expect(reasonOf(s.release("a/1", 1n))).toBe("ERROR_REASON_SESSION_NOT_FOUND");
      expect(reasonOf(s.cancel("a/1", 1))).toBe("ERROR_REASON_SESSION_NOT_FOUND");
      expect(reasonOf(s.upgrade("a/1", 1n))).toBe("ERROR_REASON_SESSION_NOT_FOUND");
    }
    // A retried close of its closed session succeeds; an expired session was not closed.
    expect(closed.close().kind).toBe("sessionClosed");
    expect(reasonOf(expired.close())).toBe("ERROR_REASON_SESSION_NOT_FOUND");
    // Another identity, or an anonymous caller, learns nothing of them.
    for (const caller of [B, ANON]) {
      for (const s of [closed, expired]) {
        const close = r.run(
          { type: "closeSession", sessionId: s.id, seq: 9, ackedUpTo: 0, held: [], wallMs: 0 },
          caller,
        ).result;
        expect(reasonOf(close), caller).toBe("ERROR_REASON_PERMISSION_DENIED");
      }
    }
  });

  it("lets every caller of one identity use its sessions: certificate, token, and its old anonymous ones", () => {
    const r = new LogRunner(new LockStateMachine());
    const anon = new Tenant(r, ANON);
    const anonToken = tokenOf(anon.acquire("b/old"));
    setPolicy(r, TENANTS);
    expect(createToken(r, TOKEN_ID, "team-a")).toEqual({ kind: "tokenCreated" });
    const viaToken = new Tenant(r, `t:${TOKEN_ID}:team-a`);
    expect(r.machine.sessionOwner(viaToken.id)).toBe("team-a");
    const t = tokenOf(viaToken.acquire("a/1"));
    // The certificate of the same identity releases the token's grant.
    expect(
      r.run(
        {
          type: "release",
          sessionId: viaToken.id,
          seq: 2,
          ackedUpTo: 1,
          held: [],
          lock: "a/1",
          token: t,
          wallMs: 0,
        },
        A,
      ).result.kind,
    ).toBe("released");
    // A session opened anonymously before the policy stays the anonymous caller's.
    expect(anon.release("b/old", anonToken).kind).toBe("released");
    expect(
      reasonOf(
        r.run(
          { type: "closeSession", sessionId: anon.id, seq: 9, ackedUpTo: 0, held: [], wallMs: 0 },
          B,
        ).result,
      ),
    ).toBe("ERROR_REASON_PERMISSION_DENIED");
    expect(anon.close().kind).toBe("sessionClosed");
  });
});

describe("quotas", () => {
  it("refuse team A's sessions past its quota while team B opens all it asks for", () => {
    const r = cluster(QUOTAS);
    const a1 = new Tenant(r, A);
    new Tenant(r, A);
    expect(openSession(r, A).result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_QUOTA_EXCEEDED",
      message: "quota sessions of identity team-a is 2; it uses 2 and asks for 1 more",
    });
    const b = Array.from({ length: 6 }, () => openSession(r, B).result.kind);
    expect(b).toEqual(Array(6).fill("sessionOpened"));
    expect(r.machine.accessState.usageOf("team-a").sessions).toBe(2);
    expect(r.machine.accessState.usageOf("team-b").sessions).toBe(6);
    // A closed session gives its share back; so does an expired one.
    expect(a1.close().kind).toBe("sessionClosed");
    const a3 = new Tenant(r, A);
    expect(openSession(r, A).result.kind).toBe("error");
    r.run({ type: "expireSession", sessionId: a3.id, wallMs: 0 });
    expect(openSession(r, A).result.kind).toBe("sessionOpened");
  });

  it("count held locks across team A's sessions, sets whole, and free them on release", () => {
    const r = cluster(QUOTAS);
    const a1 = new Tenant(r, A);
    const a2 = new Tenant(r, A);
    const b = new Tenant(r, B);
    const t1 = tokenOf(a1.acquire("a/1"));
    tokenOf(a2.acquire("a/2", { mode: "shared" }));
    // Two more would make four: the set is refused whole.
    expect(a1.acquire("a/3", { more: [{ lock: "a/4" }] })).toEqual({
      kind: "error",
      reason: "ERROR_REASON_QUOTA_EXCEEDED",
      message: "quota heldLocks of identity team-a is 3; it uses 2 and asks for 2 more",
    });
    expect(r.machine.getLock("a/3").holder).toBeNull();
    tokenOf(a2.acquire("a/3"));
    expect(reasonOf(a1.acquire("a/4"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    expect(reasonOf(a1.acquire("shared/1", { mode: "shared" }))).toBe(
      "ERROR_REASON_QUOTA_EXCEEDED",
    );
    // Team B in the same log: every one of its requests succeeds.
    const bAnswers = Array.from({ length: 8 }, (_, i) => b.acquire(`b/${i}`).kind);
    expect(bAnswers).toEqual(Array(8).fill("granted"));
    expect(r.machine.accessState.usageOf("team-b").heldLocks).toBe(8);
    // A release gives one back; so does the revoke of a grant.
    expect(a1.release("a/1", t1).kind).toBe("released");
    const t4 = tokenOf(a1.acquire("a/4"));
    expect(reasonOf(a1.acquire("a/5"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    expect(r.run({ type: "revoke", lock: "a/4", token: t4, wallMs: 0 }, ADMIN).result.kind).toBe(
      "revoked",
    );
    expect(a1.acquire("a/5").kind).toBe("granted");
    expect(r.machine.accessState.usageOf("team-a").heldLocks).toBe(3);
  });

  it("count pending waits, and reserve for each the locks and holder data it asks for", () => {
    const r = cluster(QUOTAS);
    const a1 = new Tenant(r, A);
    const a2 = new Tenant(r, A);
    const b = new Tenant(r, B);
    const bw = tokenOf(b.acquire("shared/w"));
    tokenOf(b.acquire("shared/v"));
    const usage = () => ({ ...r.machine.accessState.usageOf("team-a") });
    tokenOf(a1.acquire("a/1"));
    expect(a1.waitFor("shared/w", { mode: "shared", holderData: "1234" }).kind).toBe("waiting");
    expect(usage()).toEqual({ sessions: 2, heldLocks: 2, waits: 1, holderDataBytes: 4 });
    expect(a2.waitFor("shared/v", { mode: "shared" })).toEqual({
      kind: "error",
      reason: "ERROR_REASON_QUOTA_EXCEEDED",
      message: "quota waits of identity team-a is 1; it uses 1 and asks for 1 more",
    });
    // The wait holds a lock of the quota: one more held lock is the last.
    tokenOf(a2.acquire("a/2"));
    expect(reasonOf(a2.acquire("a/3"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    // Team B waits as often as it likes.
    const b2 = new Tenant(r, B);
    const b3 = new Tenant(r, B);
    expect([b2.waitFor("shared/w").kind, b3.waitFor("shared/w").kind]).toEqual([
      "waiting",
      "waiting",
    ]);
    // Granted, the wait's share becomes the grant's: counted once.
    expect(b.release("shared/w", bw).kind).toBe("released");
    expect(r.machine.getLock("shared/w").holder?.sessionId).toBe(a1.id);
    expect(usage()).toEqual({ sessions: 2, heldLocks: 3, waits: 0, holderDataBytes: 4 });
    expect(reasonOf(a2.acquire("a/3"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("give a cancelled wait's share back", () => {
    const r = cluster(QUOTAS);
    const a = new Tenant(r, A);
    const b = new Tenant(r, B);
    tokenOf(b.acquire("shared/w"));
    expect(a.waitFor("shared/w", { mode: "shared", holderData: "123456" }).kind).toBe("waiting");
    const seq = a.seq;
    expect(reasonOf(a.acquire("a/1", { holderData: "12345" }))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    expect(a.cancel("shared/w", seq).kind).toBe("cancelled");
    expect({ ...r.machine.accessState.usageOf("team-a") }).toEqual({
      sessions: 1,
      heldLocks: 0,
      waits: 0,
      holderDataBytes: 0,
    });
    expect(a.acquire("a/1", { holderData: "12345" }).kind).toBe("granted");
  });

  it("count an Upgrade's wait as a wait, without another lock", () => {
    const r = cluster(QUOTAS);
    const a1 = new Tenant(r, A);
    const a2 = new Tenant(r, A);
    const u = tokenOf(a1.acquire("a/u", { mode: "upgradeable" }));
    tokenOf(a2.acquire("a/u", { mode: "shared" }));
    expect(a1.upgrade("a/u", u, 5_000).kind).toBe("waiting");
    expect({ ...r.machine.accessState.usageOf("team-a") }).toEqual({
      sessions: 2,
      heldLocks: 2,
      waits: 1,
      holderDataBytes: 0,
    });
    const b = new Tenant(r, B);
    tokenOf(b.acquire("shared/w"));
    expect(reasonOf(a2.waitFor("shared/w", { mode: "shared" }))).toBe(
      "ERROR_REASON_QUOTA_EXCEEDED",
    );
    expect(tokenOf(a1.acquire("a/1"))).toBeGreaterThan(0n);
    expect(reasonOf(a1.acquire("a/2"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
  });

  it("count holder data in UTF-8 bytes per grant, a Proclaim's growth included", () => {
    const r = cluster(QUOTAS);
    const a = new Tenant(r, A);
    // Two locks of one set with 3 bytes each (é is two): 6 of 10.
    expect(a.acquire("a/1", { more: [{ lock: "a/2" }], holderData: "xé" }).kind).toBe("granted");
    expect(a.acquire("a/3", { holderData: "12345" })).toEqual({
      kind: "error",
      reason: "ERROR_REASON_QUOTA_EXCEEDED",
      message: "quota holderDataBytes of identity team-a is 10; it uses 6 and asks for 5 more",
    });
    const lead = tokenOf(a.acquire("a/e", { mode: "leader", holderData: "12" }));
    expect(r.machine.accessState.usageOf("team-a").holderDataBytes).toBe(8);
    // Growing the value by 3 (2 → 5 bytes) passes the quota; by 2 it fits, and shrinking always does.
    expect(reasonOf(a.proclaim("a/e", lead, "12345"))).toBe("ERROR_REASON_QUOTA_EXCEEDED");
    expect(a.proclaim("a/e", lead, "1234").kind).toBe("proclaimed");
    expect(r.machine.accessState.usageOf("team-a").holderDataBytes).toBe(10);
    expect(a.proclaim("a/e", lead, "").kind).toBe("proclaimed");
    expect(r.machine.accessState.usageOf("team-a").holderDataBytes).toBe(6);
    expect(a.proclaim("a/e", lead, "abcd").kind).toBe("proclaimed");
    expect(r.machine.checkInvariants()).toEqual([]);
  });
});

describe("tokens", () => {
  it("stop working at the entry after their revoke: UNAUTHENTICATED", () => {
    const r = cluster(TENANTS);
    expect(createToken(r, TOKEN_ID, "team-a")).toEqual({ kind: "tokenCreated" });
    const caller = `t:${TOKEN_ID}:team-a`;
    const a = new Tenant(r, caller);
    expect(a.acquire("a/1").kind).toBe("granted");
    expect(r.run({ type: "revokeToken", id: TOKEN_ID, wallMs: 0 }, ADMIN).result).toEqual({
      kind: "tokenRevoked",
    });
    const refused = {
      kind: "error",
      reason: "ERROR_REASON_UNAUTHENTICATED",
      message: `token ${TOKEN_ID} is revoked or unknown`,
    };
    expect(a.acquire("a/2")).toEqual(refused);
    expect(openSession(r, caller).result).toEqual(refused);
    // A token that never was is refused alike; revoking twice is no error.
    expect(openSession(r, "t:fedcba9876543210:team-a").result).toEqual({
      ...refused,
      message: "token fedcba9876543210 is revoked or unknown",
    });
    expect(r.run({ type: "revokeToken", id: TOKEN_ID, wallMs: 0 }, ADMIN).result.kind).toBe(
      "tokenRevoked",
    );
    // The identity's sessions stay its own: its certificate goes on with them.
    expect(
      r.run({ type: "closeSession", sessionId: a.id, seq: 9, ackedUpTo: 0, held: [], wallMs: 0 }, A)
        .result.kind,
    ).toBe("sessionClosed");
  });

  it("expire when an entry's leader clock reaches their expiry", () => {
    const r = cluster(TENANTS);
    createToken(r, TOKEN_ID, "team-a", [], 1_000);
    const caller = `t:${TOKEN_ID}:team-a`;
    expect(openSession(r, caller, 999).result.kind).toBe("sessionOpened");
    expect(openSession(r, caller, 1_000).result).toEqual({
      kind: "error",
      reason: "ERROR_REASON_UNAUTHENTICATED",
      message: `token ${TOKEN_ID} expired at 1970-01-01T00:00:01.000Z`,
    });
  });

  it("act as the token's identity with the token's roles, whatever name the envelope gives", () => {
    const r = cluster(TENANTS);
    createToken(r, TOKEN_ID, "robot", ["b-rw"]);
    const robot = new Tenant(r, `t:${TOKEN_ID}:team-a`);
    expect(r.machine.sessionOwner(robot.id)).toBe("robot");
    expect(robot.acquire("b/1").kind).toBe("granted");
    expect(reasonOf(robot.acquire("a/1"))).toBe("ERROR_REASON_PERMISSION_DENIED");
    // A token with the admin role makes admin calls.
    createToken(r, "1111111111111111", "robot", ["admin"]);
    expect(setPolicy(r, TENANTS, "t:1111111111111111:robot").result.kind).toBe("policySet");
    expect(reasonOf(setPolicy(r, TENANTS, `t:${TOKEN_ID}:robot`).result)).toBe(
      "ERROR_REASON_PERMISSION_DENIED",
    );
  });
});

describe("admin calls", () => {
  it("are refused to every caller but an admin once a policy is applied", () => {
    const r = cluster(TENANTS);
    const before = r.machine.accessState.policyIndex;
    for (const caller of [A, B, ANON]) {
      expect(reasonOf(setPolicy(r, QUOTAS, caller).result), caller).toBe(
        "ERROR_REASON_PERMISSION_DENIED",
      );
      expect(reasonOf(createToken(r, TOKEN_ID, "team-a", ["admin"], 0, caller))).toBe(
        "ERROR_REASON_PERMISSION_DENIED",
      );
      expect(reasonOf(r.run({ type: "revokeToken", id: TOKEN_ID, wallMs: 0 }, caller).result)).toBe(
        "ERROR_REASON_PERMISSION_DENIED",
      );
    }
    expect(r.machine.accessState.policyIndex).toBe(before);
    expect(r.machine.accessState.tokens.size).toBe(0);
    // Carried in its entry, the caller is checked the same.
    const entry = encodeEntry({ type: "setPolicy", text: QUOTAS, wallMs: 0 }, undefined, A);
    expect(reasonOf(r.runBytes(entry).result)).toBe("ERROR_REASON_PERMISSION_DENIED");
    const byAdmin = encodeEntry({ type: "setPolicy", text: QUOTAS, wallMs: 0 }, undefined, ADMIN);
    expect(r.runBytes(byAdmin).result.kind).toBe("policySet");
    expect(r.machine.accessState.policy?.text).toBe(QUOTAS);
  });
});

describe("revoke", () => {
  it("needs the revoke action on the lock", () => {
    const r = cluster(TENANTS);
    const a = new Tenant(r, A);
    const b = new Tenant(r, B);
    const tb = tokenOf(b.acquire("b/1"));
    const ta = tokenOf(a.acquire("a/1"));
    const ts = tokenOf(a.acquire("shared/1", { mode: "shared" }));
    const revoke = (lock: string, token: bigint, caller: string) =>
      r.run({ type: "revoke", lock, token, wallMs: 0 }, caller).result;
    expect(revoke("b/1", tb, A)).toEqual({
      kind: "error",
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "identity team-a lacks permission revoke on b/1",
    });
    // Team B may acquire under b/ but not revoke there; it may revoke under shared/.
    expect(reasonOf(revoke("b/1", tb, B))).toBe("ERROR_REASON_PERMISSION_DENIED");
    expect(revoke("shared/1", ts, B).kind).toBe("revoked");
    expect(revoke("a/1", ta, A).kind).toBe("revoked");
    expect(reasonOf(revoke("b/1", tb, ANON))).toBe("ERROR_REASON_PERMISSION_DENIED");
    expect(r.machine.getLock("b/1").holder?.token).toBe(tb);
    expect(revoke("b/1", tb, ADMIN).kind).toBe("revoked");
  });

  it("carries its caller in its entry, to be checked there", () => {
    const r = cluster(TENANTS);
    const b = new Tenant(r, B);
    const tb = tokenOf(b.acquire("b/1"));
    const cmd: Command = { type: "revoke", lock: "b/1", token: tb, wallMs: 0 };
    expect(reasonOf(r.runBytes(encodeEntry(cmd, undefined, A)).result)).toBe(
      "ERROR_REASON_PERMISSION_DENIED",
    );
    expect(r.machine.getLock("b/1").holder?.token).toBe(tb);
    expect(r.runBytes(encodeEntry(cmd, undefined, ADMIN)).result.kind).toBe("revoked");
  });
});

describe("snapshots", () => {
  const VIA_TOKEN = `t:${TOKEN_ID}:team-a`;
  const REVOKED = "2222222222222222";

  /**
   * A state with a policy, tokens (one revoked), sessions of both teams holding, waiting and
   * upgrading (team A at its held-lock and wait quotas), an anonymous session from before the
   * policy, and an ended session of team B's.
   */
  function busy() {
    const r = new LogRunner(new LockStateMachine({ rememberedClosedSessions: 4 }));
    const anon = new Tenant(r, ANON);
    tokenOf(anon.acquire("b/anon"));
    setPolicy(r, QUOTAS);
    createToken(r, TOKEN_ID, "team-a", ["b-rw"], 5_000);
    createToken(r, REVOKED, "team-b");
    r.run({ type: "revokeToken", id: REVOKED, wallMs: 0 }, ADMIN);
    const a1 = new Tenant(r, VIA_TOKEN);
    const a2 = new Tenant(r, A);
    const b1 = new Tenant(r, B);
    const b2 = new Tenant(r, B);
    const u = tokenOf(a1.acquire("a/u", { mode: "upgradeable", holderData: "u" }));
    tokenOf(a2.acquire("a/u", { mode: "shared", holderData: "ab" }));
    expect(a1.upgrade("a/u", u, 5_000).kind).toBe("waiting");
    tokenOf(b1.acquire("shared/w"));
    expect(b2.waitFor("shared/w", { holderData: "b2" }).kind).toBe("waiting");
    tokenOf(b1.acquire("b/e", { mode: "leader", holderData: "lead" }));
    const ended = new Tenant(r, B);
    ended.close();
    return { r, anon: anon.id, a1: a1.id, a2: a2.id, b1: b1.id, b2: b2.id, ended: ended.id };
  }

  it("keep the policy, tokens, owners and quota use: the restored machine answers alike", () => {
    const { r, anon, a1, a2, b1, b2, ended } = busy();
    const bytes = r.machine.snapshot();
    const restored = LockStateMachine.restore(bytes);
    expect(restored.snapshot()).toEqual(bytes);
    const access = (m: LockStateMachine) => ({
      policy: m.accessState.policy?.text,
      index: m.accessState.policyIndex,
      tokens: [...m.accessState.tokens.values()],
      usage: ["team-a", "team-b", ""].map((n) => ({ ...m.accessState.usageOf(n) })),
      owners: m.sessionIds().map((id) => m.sessionOwner(id)),
    });
    expect(access(restored)).toEqual(access(r.machine));
    expect(access(restored).tokens.map((t) => t.id)).toEqual([TOKEN_ID]);

    // The same entries applied to both machines: every outcome alike, and as expected.
    const w = (sessionId: bigint, seq: number) => ({
      sessionId,
      seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 4_000,
    });
    const next: Array<[string, string, Command]> = [
      // Team A's third held lock, then a fourth (the pending upgrade holds no other).
      ["granted", A, { type: "acquire", ...w(a2, 10), lock: "a/x", waitMs: 0 }],
      ["ERROR_REASON_QUOTA_EXCEEDED", A, { type: "acquire", ...w(a2, 11), lock: "a/y", waitMs: 0 }],
      [
        "ERROR_REASON_QUOTA_EXCEEDED",
        VIA_TOKEN,
        { type: "acquire", ...w(a1, 10), lock: "b/t", waitMs: 0, holderData: "1234567" },
      ],
      // Team B's sessions, live and ended, are its own.
      [
        "ERROR_REASON_PERMISSION_DENIED",
        A,
        { type: "acquire", ...w(b1, 10), lock: "b/z", waitMs: 5_000 },
      ],
      ["sessionClosed", B, { type: "closeSession", ...w(ended, 10) }],
      ["ERROR_REASON_PERMISSION_DENIED", A, { type: "closeSession", ...w(ended, 11) }],
      // The anonymous session from before the policy: usable, but nothing more is granted.
      [
        "ERROR_REASON_PERMISSION_DENIED",
        ANON,
        { type: "acquire", ...w(anon, 10), lock: "b/anon2", waitMs: 0 },
      ],
      ["sessionClosed", ANON, { type: "closeSession", ...w(anon, 11) }],
      [
        "ERROR_REASON_QUOTA_EXCEEDED",
        A,
        { type: "openSession", requestId: "p1", ttlMs: 10_000, clientName: "p", wallMs: 0 },
      ],
      [
        "ERROR_REASON_UNAUTHENTICATED",
        `t:${REVOKED}:team-b`,
        { type: "openSession", requestId: "p2", ttlMs: 10_000, clientName: "p", wallMs: 0 },
      ],
      ["granted", B, { type: "acquire", ...w(b2, 10), lock: "shared/v", waitMs: 5_000 }],
      // Team A's one wait is its pending upgrade.
      [
        "ERROR_REASON_QUOTA_EXCEEDED",
        A,
        { type: "acquire", ...w(a2, 12), lock: "shared/v", waitMs: 5_000, mode: "shared" },
      ],
      // The token expires at 5,000 ms.
      [
        "ERROR_REASON_UNAUTHENTICATED",
        VIA_TOKEN,
        { type: "acquire", ...w(a1, 11), lock: "b/late", waitMs: 0, wallMs: 5_000 },
      ],
      // Team B's first session ends: its grant of shared/w goes to its waiting second one.
      ["sessionClosed", B, { type: "closeSession", ...w(b1, 11) }],
      ["ERROR_REASON_QUOTA_EXCEEDED", A, { type: "acquire", ...w(a2, 13), lock: "a/z", waitMs: 0 }],
    ];
    const from = r.machine.appliedIndex;
    const answers = (m: LockStateMachine) =>
      next.map(([, caller, cmd], i) => m.apply(from + i + 1, cmd, caller));
    const original = answers(r.machine);
    expect(answers(restored)).toEqual(original);
    expect(original.map((o) => reasonOf(o.result))).toEqual(next.map(([expected]) => expected));
    expect(original[13]?.completions.map((c) => [c.sessionId, c.answer.kind])).toEqual([
      [b2, "granted"],
    ]);
    expect(restored.snapshot()).toEqual(r.machine.snapshot());
  });

  it("restored into a new cluster from a backup, keep the policy and the tokens", () => {
    const { r } = busy();
    const backup = r.machine.snapshot();
    const seeded = restoreFromBackup(backup, 1);
    const m = LockStateMachine.restore(seeded.data);
    expect(m.accessState.policy?.text).toBe(QUOTAS);
    expect(m.accessState.policyIndex).toBe(r.machine.accessState.policyIndex);
    expect([...m.accessState.tokens.values()]).toEqual([...r.machine.accessState.tokens.values()]);
    expect(m.sessionIds()).toEqual([]);
    expect({ ...m.accessState.usageOf("team-a") }).toEqual({
      sessions: 0,
      heldLocks: 0,
      waits: 0,
      holderDataBytes: 0,
    });
    const rr = new LogRunner(m);
    // Still closed to anonymous callers and to foreign prefixes; the token still works.
    expect(reasonOf(openSession(rr, ANON).result)).toBe("ERROR_REASON_PERMISSION_DENIED");
    const a = new Tenant(rr, `t:${TOKEN_ID}:team-a`);
    expect(a.acquire("b/1").kind).toBe("granted");
    expect(reasonOf(a.acquire("x/1"))).toBe("ERROR_REASON_PERMISSION_DENIED");
    expect(reasonOf(openSession(rr, `t:${REVOKED}:team-b`).result)).toBe(
      "ERROR_REASON_UNAUTHENTICATED",
    );
    // The quotas count from nothing: two sessions of team A fit again.
    expect(openSession(rr, A).result.kind).toBe("sessionOpened");
    expect(reasonOf(openSession(rr, A).result)).toBe("ERROR_REASON_QUOTA_EXCEEDED");
  });
});
