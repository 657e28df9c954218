// Access control on a plaintext cluster of real processes, with bearer tokens: an anonymous
// caller bootstraps an admin token while the cluster is open, a two-team policy closes it,
// and then team-a can neither use nor see team-b's sessions and locks (an id that never
// existed answers alike), meets each of its quotas while team-b in the same run does not,
// and forged, expired, revoked and malformed credentials, names outside every grant and a
// policy with errors are refused with their reasons. The JSON gateway takes the same tokens.
import { request as httpRequest } from "node:http";
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import {
  adminServiceDefinition as adminApi,
  lockServiceDefinition as lockApi,
} from "../../proto/grpc.ts";
import { toU64, u64 } from "../../proto/wire.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import {
  answered,
  pb,
  RawCaller,
  refused,
  requests,
  type Outcome,
  type RawSession,
  type Refusal,
} from "./access-raw.ts";

const POLICY = `roles:
  team-a-rw:
    grants:
      - prefix: team-a/
        actions: [acquire, read, revoke]
  team-b-rw:
    grants:
      - prefix: team-b/
        actions: [acquire, read, revoke]
identities:
  team-a:
    roles: [team-a-rw]
    quotas: { sessions: 2, heldLocks: 4, waits: 1, holderDataBytes: 16 }
  team-b: { roles: [team-b-rw] }
`;

/** An id no session ever had (ids are epoch * 2^48 + the index that opened them). */
const NEVER = 987_654_321n;

let cluster: Cluster;
let anonymous: RawCaller;
let admin: RawCaller;
let a: RawCaller;
let b: RawCaller;
let adminSecret: string | undefined;
let teamASecret = "";
let policyVersion = 0n;

clusterForTests(
  { http: true, authorization: () => (adminSecret ? `Bearer ${adminSecret}` : undefined) },
  (started) => {
    cluster = started;
    anonymous = RawCaller.connect(cluster.endpoints);
    return () => anonymous.close();
  },
);

/** The refusal with the session id in its message replaced, to compare two ids' answers. */
const withoutId = (r: Refusal, id: bigint): Refusal => ({
  ...r,
  message: r.message.replaceAll(String(id), "<id>"),
});

const notYours = (id: bigint): Refusal => ({
  code: grpc.status.PERMISSION_DENIED,
  reason: "ERROR_REASON_PERMISSION_DENIED",
  message: `session ${id} is not a session of identity team-a`,
});

const lacks = (action: string, name: string): Refusal => ({
  code: grpc.status.PERMISSION_DENIED,
  reason: "ERROR_REASON_PERMISSION_DENIED",
  message: `identity team-a lacks permission ${action} on ${name}`,
});

const unauthenticated = (message: string | RegExp) => ({
  code: grpc.status.UNAUTHENTICATED,
  reason: "ERROR_REASON_UNAUTHENTICATED",
  message: typeof message === "string" ? message : expect.stringMatching(message),
});

const quota = (message: string): Refusal => ({
  code: grpc.status.RESOURCE_EXHAUSTED,
  reason: "ERROR_REASON_QUOTA_EXCEEDED",
  message,
});

async function closeAll(sessions: RawSession[]): Promise<void> {
  for (const s of sessions) answered(await s.close(), `CloseSession ${s.id}`);
}

/** Sessions a test opened: closed after it (again, or when it failed before it could). */
const opened: RawSession[] = [];

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function open(caller: RawCaller, ttlMs = 30_000): Promise<RawSession> {
  const session = await caller.openSession(ttlMs);
  opened.push(session);
  return session;
}

describe("bearer tokens and a two-team policy", () => {
  it("an anonymous caller creates the first admin token while the cluster is open; the policy then closes it", async () => {
    const open = await anonymous.call(adminApi.GetPolicy, requests.getPolicy());
    expect(open.text).toBe("");
    expect(u64(open.version)).toBe(0n);
    const whoAnonymous = await anonymous.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}));
    expect(whoAnonymous).toMatchObject({ identity: "", via: "anonymous", admin: true });

    const adminToken = await anonymous.call(
      adminApi.CreateToken,
      requests.createToken("ops", ["admin"]),
    );
    expect(adminToken.secret).toMatch(/^pal_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(adminToken.secret.startsWith(`pal_${adminToken.tokenId}_`)).toBe(true);
    adminSecret = adminToken.secret;
    admin = anonymous.as(adminToken.secret);
    const forA = await admin.call(adminApi.CreateToken, requests.createToken("team-a"));
    const forB = await admin.call(adminApi.CreateToken, requests.createToken("team-b"));
    teamASecret = forA.secret;
    a = anonymous.as(forA.secret);
    b = anonymous.as(forB.secret);

    const applied = await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(POLICY));
    policyVersion = u64(applied.version);
    expect(policyVersion).toBeGreaterThan(0n);
    const policy = await admin.call(adminApi.GetPolicy, requests.getPolicy());
    expect(policy.text).toBe(POLICY);
    expect(u64(policy.version)).toBe(policyVersion);

    // Under the policy an anonymous caller may do nothing, an admin call included.
    expect(await anonymous.refusal(adminApi.GetPolicy, requests.getPolicy())).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "GetPolicy needs the admin role; an anonymous caller does not have it",
    });
    expect(
      await anonymous.refusal(adminApi.CreateToken, requests.createToken("intruder", ["admin"])),
    ).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    expect(await anonymous.refusal(lockApi.OpenSession, requests.openSession(5_000))).toMatchObject(
      { code: grpc.status.PERMISSION_DENIED },
    );
    // Nor may a tenant make itself a token.
    expect(
      await a.refusal(adminApi.CreateToken, requests.createToken("team-a", ["admin"])),
    ).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "CreateToken needs the admin role; identity team-a does not have it",
    });

    const whoA = await a.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}));
    expect(whoA).toMatchObject({
      identity: "team-a",
      via: "token",
      tokenId: forA.tokenId,
      roles: ["team-a-rw"],
      admin: false,
      grants: [
        {
          prefix: "team-a/",
          actions: ["acquire:exclusive", "acquire:shared", "acquire:upgradeable", "read", "revoke"],
        },
      ],
    });
    expect(u64(whoA.policyVersion)).toBe(policyVersion);
    expect(whoA.quotas.map((q) => [q.name, Number(u64(q.limit)), Number(u64(q.used))])).toEqual([
      ["sessions", 2, 0],
      ["heldLocks", 4, 0],
      ["waits", 1, 0],
      ["holderDataBytes", 16, 0],
    ]);
    const tokens = await admin.call(adminApi.ListTokens, pb.ListTokensRequest.create({}));
    expect(tokens.tokens.map((t) => [t.tokenId, t.identity, t.roles]).sort()).toEqual(
      [
        [adminToken.tokenId, "ops", ["admin"]],
        [forA.tokenId, "team-a", []],
        [forB.tokenId, "team-b", []],
      ].sort(),
    );
  });

  it("a node that has not applied a new token yet takes it once CreateToken has answered", async () => {
    // A follower, paused, misses the token's entry; the requests that present the token
    // reach it before the entry does. It must look the token up at a linearizable read
    // point (the entry committed before CreateToken answered), not refuse it.
    const leader = await cluster.leaderId();
    for (const follower of cluster.ids.filter((id) => id !== leader)) {
      const endpoint = cluster.endpoint(follower);
      await admin.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}), { endpoint });
      const pid = cluster.pid(follower) as number;
      process.kill(pid, "SIGSTOP");
      let answers;
      try {
        const token = await admin.call(adminApi.CreateToken, requests.createToken("team-b"));
        const fresh = anonymous.as(token.secret);
        answers = Promise.all([
          fresh.attempt(adminApi.WhoAmI, pb.WhoAmIRequest.create({}), { endpoint }),
          fresh.attempt(lockApi.GetLock, requests.getLock("team-b/fresh"), { endpoint }),
        ]);
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        process.kill(pid, "SIGCONT");
      }
      const [whoAmI, getLock] = await answers;
      expect(answered(whoAmI, `WhoAmI at node ${follower}`).identity).toBe("team-b");
      expect(answered(getLock, `GetLock at node ${follower}`).lock).toBe("team-b/fresh");
    }
  });

  it("team-a can neither use nor see team-b's sessions and locks, and an id that never existed answers alike", async () => {
    // team-b: a session holding an exclusive and an upgradeable lock and leading an
    // election, and a second session waiting for the exclusive lock.
    const b1 = await open(b, 30_000);
    const b2 = await open(b, 30_000);
    const held = await b1.hold("team-b/res");
    const upgradeable = await b1.hold("team-b/up", { mode: pb.LockMode.LOCK_MODE_UPGRADEABLE });
    const campaign = await b.call(
      lockApi.Campaign,
      pb.CampaignRequest.create({
        sessionId: toU64(b1.id),
        election: "team-b/leader",
        value: Buffer.from("b1"),
        seq: toU64(b1.next()),
      }),
    );
    expect(campaign.elected).toBe(true);
    const waitSeq = b2.next();
    const waiting = b.attempt(
      lockApi.Acquire,
      requests.acquire(b2.id, "team-b/res", waitSeq, { waitMs: 60_000 }),
    );
    await cluster.waitFor("team-b's wait to be queued", async () => {
      const lock = await b.call(lockApi.GetLock, requests.getLock("team-b/res"));
      return lock.waiters.length === 1;
    });
    const a1 = await open(a, 30_000);

    // A session call naming B's session, or one that never existed, by team-a.
    const sessionCalls: Array<[string, (id: bigint) => Promise<Outcome<unknown>>]> = [
      ["Acquire", (id) => a.session(id).acquire("team-a/x")],
      ["Release", (id) => a.session(id).release("team-b/res", held)],
      ["CloseSession", (id) => a.session(id).close()],
      [
        "CancelWait",
        (id) =>
          a.attempt(
            lockApi.CancelWait,
            pb.CancelWaitRequest.create({
              sessionId: toU64(id),
              lock: "team-b/res",
              acquireSeq: toU64(waitSeq),
            }),
          ),
      ],
      [
        "Upgrade",
        (id) =>
          a.attempt(
            lockApi.Upgrade,
            pb.UpgradeRequest.create({
              sessionId: toU64(id),
              lock: "team-b/up",
              token: toU64(upgradeable),
              seq: toU64(50),
            }),
          ),
      ],
      [
        "Downgrade",
        (id) =>
          a.attempt(
            lockApi.Downgrade,
            pb.DowngradeRequest.create({
              sessionId: toU64(id),
              lock: "team-b/res",
              token: toU64(held),
              mode: pb.LockMode.LOCK_MODE_SHARED,
              seq: toU64(51),
            }),
          ),
      ],
      [
        "Proclaim",
        (id) =>
          a.attempt(
            lockApi.Proclaim,
            pb.ProclaimRequest.create({
              sessionId: toU64(id),
              election: "team-b/leader",
              token: toU64(u64(campaign.token)),
              value: Buffer.from("a"),
              seq: toU64(52),
            }),
          ),
      ],
      ["GetSession", (id) => a.attempt(lockApi.GetSession, requests.getSession(id))],
    ];
    for (const [name, call] of sessionCalls) {
      const foreign = refused(await call(b1.id), `${name} of team-b's session`);
      expect(foreign, name).toEqual(notYours(b1.id));
      const never = refused(await call(NEVER), `${name} of a session that never existed`);
      expect(withoutId(never, NEVER), name).toEqual(withoutId(foreign, b1.id));
    }

    // Acquire on team-b's prefix with team-a's own session; revoke and reads of team-b's names.
    expect(refused(await a1.acquire("team-b/res"), "Acquire")).toEqual(
      lacks("acquire:exclusive", "team-b/res"),
    );
    expect(
      refused(
        await a1.acquire("team-b/other", { mode: pb.LockMode.LOCK_MODE_SHARED }),
        "Acquire shared",
      ),
    ).toEqual(lacks("acquire:shared", "team-b/other"));
    expect(await a.refusal(adminApi.RevokeLock, requests.revokeLock("team-b/res", held))).toEqual(
      lacks("revoke", "team-b/res"),
    );
    expect(await a.refusal(lockApi.GetLock, requests.getLock("team-b/res"))).toEqual(
      lacks("read", "team-b/res"),
    );
    expect(await a.refusal(lockApi.GetLockHistory, requests.history("team-b/res"))).toEqual(
      lacks("read", "team-b/res"),
    );
    expect(
      await a.refusal(
        lockApi.ValidateToken,
        pb.ValidateTokenRequest.create({ lock: "team-b/res", token: toU64(held) }),
      ),
    ).toEqual(lacks("read", "team-b/res"));
    expect(await a.refusal(lockApi.ListLocks, requests.listLocks("team-b/"))).toEqual(
      lacks("read", "team-b/"),
    );
    // A prefix wider than its grant: every name.
    expect(await a.refusal(lockApi.ListLocks, requests.listLocks(""))).toEqual({
      ...lacks("read", ""),
      message: "identity team-a lacks permission read on every lock name",
    });
    expect(
      await a.refusal(lockApi.Leader, pb.LeaderRequest.create({ election: "team-b/leader" })),
    ).toEqual(lacks("read", "team-b/leader"));
    const watch = a.watch("team-b/", cluster.endpoints[0] as string);
    const watchEnd = await watch.ended;
    expect(watchEnd).toMatchObject({ ok: false, ...lacks("read", "team-b/") });
    expect(watch.events).toEqual([]);

    // KeepAlive answers per id: team-a's own kept, team-b's and a never-existing one denied.
    const kept = await a.call(lockApi.KeepAlive, requests.keepAlive(a1.id, b1.id, NEVER));
    expect(kept.sessions.map((s) => [u64(s.sessionId), s.notFound, s.permissionDenied])).toEqual([
      [a1.id, false, false],
      [b1.id, false, true],
      [NEVER, false, true],
    ]);
    expect(Number(u64(kept.sessions[0]?.ttlMs))).toBe(30_000);
    expect(Number(u64(kept.sessions[1]?.ttlMs))).toBe(0);

    // Each identity lists its own sessions; an admin lists all.
    const listed = async (caller: RawCaller): Promise<bigint[]> =>
      (await caller.call(lockApi.ListSessions, pb.ListSessionsRequest.create({}))).sessions
        .map((s) => u64(s.sessionId))
        .sort();
    expect(await listed(a)).toEqual([a1.id]);
    expect(await listed(b)).toEqual([b1.id, b2.id].sort());
    expect(await listed(admin)).toEqual([a1.id, b1.id, b2.id].sort());

    // team-b's state is as it was: its grants, its election, its waiter.
    const lock = await b.call(lockApi.GetLock, requests.getLock("team-b/res"));
    expect([u64(lock.holder?.sessionId), u64(lock.holder?.token)]).toEqual([b1.id, held]);
    expect(lock.waiters.map((w) => u64(w.sessionId))).toEqual([b2.id]);
    const up = await b.call(lockApi.GetLock, requests.getLock("team-b/up"));
    expect([u64(up.holder?.token), up.holder?.mode]).toEqual([
      upgradeable,
      pb.LockMode.LOCK_MODE_UPGRADEABLE,
    ]);
    const leader = await b.call(
      lockApi.Leader,
      pb.LeaderRequest.create({ election: "team-b/leader" }),
    );
    expect(Buffer.from(leader.leader?.value ?? []).toString()).toBe("b1");
    const kb = await b.call(lockApi.KeepAlive, requests.keepAlive(b1.id, b2.id));
    expect(kb.sessions.map((s) => [s.notFound, s.permissionDenied])).toEqual([
      [false, false],
      [false, false],
    ]);

    // team-b's own calls on the same sessions go through.
    const cancelled = await b.call(
      lockApi.CancelWait,
      pb.CancelWaitRequest.create({
        sessionId: toU64(b2.id),
        lock: "team-b/res",
        acquireSeq: toU64(waitSeq),
      }),
    );
    expect(cancelled.outcome).toBe(pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_CANCELLED);
    expect(answered(await waiting, "team-b's wait").cancelled).toBe(true);
    answered(await b1.release("team-b/res", held), "Release by team-b");
    await closeAll([a1, b1, b2]);
  });

  it("team-a is refused at each quota, naming it, while every request of team-b succeeds", async () => {
    let bAnswered = 0;
    const byB = async <T>(outcome: Promise<Outcome<T>>, what: string): Promise<T> => {
      const answer = answered(await outcome, `team-b: ${what}`);
      bAnswered++;
      return answer;
    };
    const refusals: Refusal[] = [];
    const refusedA = async (outcome: Promise<Outcome<unknown>>, what: string): Promise<void> => {
      refusals.push(refused(await outcome, `team-a: ${what}`));
    };
    const openB = async (): Promise<RawSession> => {
      const s = await open(b);
      bAnswered++;
      return s;
    };
    const openSession = (caller: RawCaller) =>
      caller.attempt(lockApi.OpenSession, requests.openSession(30_000));

    // sessions: 2
    const a1 = await open(a, 30_000);
    const b1 = await openB();
    const a2 = await open(a, 30_000);
    const b2 = await openB();
    await refusedA(openSession(a), "a third session");
    const b3 = await openB();

    // holderDataBytes: 16
    await a1.hold("team-a/q1", { holderData: "0123456789" });
    await byB(b1.acquire("team-b/q1", { holderData: "01234567890123456789" }), "data");
    await refusedA(a1.acquire("team-a/q2", { holderData: "0123456789" }), "more holder data");
    await byB(b1.acquire("team-b/q2", { holderData: "01234567890123456789" }), "more data");

    // waits: 1 (a wait counts in heldLocks as well: 3 of 4 after it)
    await a1.hold("team-a/q2");
    const aWaitSeq = a2.next();
    const aWait = a.attempt(
      lockApi.Acquire,
      requests.acquire(a2.id, "team-a/q1", aWaitSeq, { waitMs: 60_000 }),
    );
    const bWaits = [
      b.attempt(
        lockApi.Acquire,
        requests.acquire(b2.id, "team-b/q1", b2.next(), { waitMs: 60_000 }),
      ),
      b.attempt(
        lockApi.Acquire,
        requests.acquire(b3.id, "team-b/q2", b3.next(), { waitMs: 60_000 }),
      ),
    ];
    await cluster.waitFor("the waits to be queued", async () => {
      const [qa, qb1, qb2] = await Promise.all([
        a.call(lockApi.GetLock, requests.getLock("team-a/q1")),
        b.call(lockApi.GetLock, requests.getLock("team-b/q1")),
        b.call(lockApi.GetLock, requests.getLock("team-b/q2")),
      ]);
      return qa.waiters.length + qb1.waiters.length + qb2.waiters.length === 3;
    });
    await refusedA(a2.acquire("team-a/q2", { waitMs: 60_000 }), "a second wait");

    // heldLocks: 4
    await a1.hold("team-a/q3");
    await refusedA(a1.acquire("team-a/q4"), "a fifth lock");
    for (const name of ["team-b/q3", "team-b/q4", "team-b/q5"]) await byB(b1.acquire(name), name);

    expect(refusals).toEqual([
      quota("quota sessions of identity team-a is 2; it uses 2 and asks for 1 more"),
      quota("quota holderDataBytes of identity team-a is 16; it uses 10 and asks for 10 more"),
      quota("quota waits of identity team-a is 1; it uses 1 and asks for 1 more"),
      quota("quota heldLocks of identity team-a is 4; it uses 4 and asks for 1 more"),
    ]);
    const usage = async (caller: RawCaller) =>
      (await caller.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}))).quotas.map((q) => [
        q.name,
        Number(u64(q.used)),
      ]);
    expect(await usage(a)).toEqual([
      ["sessions", 2],
      ["heldLocks", 4],
      ["waits", 1],
      ["holderDataBytes", 10],
    ]);

    // Ending team-a's first session grants its wait and gives the quota back.
    answered(await a1.close(), "team-a closes its first session");
    expect(answered(await aWait, "team-a's wait").acquired).toBe(true);
    expect(await usage(a)).toEqual([
      ["sessions", 1],
      ["heldLocks", 1],
      ["waits", 0],
      ["holderDataBytes", 0],
    ]);
    const a3 = await open(a, 30_000);
    answered(await b1.close(), "team-b closes its first session");
    bAnswered++;
    for (const [i, wait] of bWaits.entries())
      expect((await byB(wait, `wait ${i}`)).acquired).toBe(true);
    // 3 sessions, 2 with holder data, 3 more locks, the close and the 2 waits.
    expect(bAnswered).toBe(11);
    await closeAll([a2, a3, b2, b3]);
  });

  it("refuses forged, expired, revoked and malformed credentials, names outside every grant, and a policy with errors", async () => {
    const openRefused = (caller: RawCaller) =>
      caller.refusal(lockApi.OpenSession, requests.openSession(5_000));
    // One character of team-a's secret changed.
    const last = teamASecret.at(-1) === "A" ? "B" : "A";
    const forged = `${teamASecret.slice(0, -1)}${last}`;
    const tokenId = teamASecret.slice(4, 20);
    expect(await openRefused(anonymous.as(forged))).toEqual(
      unauthenticated(`token ${tokenId} is unknown or revoked`),
    );

    const expiring = await admin.call(adminApi.CreateToken, requests.createToken("team-a", [], 1));
    const expiresAt = Number(u64(expiring.expiresAtMs));
    expect(expiresAt).toBeGreaterThan(0);
    while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 5));
    expect(await openRefused(anonymous.as(expiring.secret))).toEqual(
      unauthenticated(`token ${expiring.tokenId} expired at ${new Date(expiresAt).toISOString()}`),
    );

    const revocable = await admin.call(adminApi.CreateToken, requests.createToken("team-b"));
    const revoked = anonymous.as(revocable.secret);
    const s = await open(revoked, 5_000);
    const at = await admin.call(
      adminApi.RevokeToken,
      pb.RevokeTokenRequest.create({ tokenId: revocable.tokenId }),
    );
    expect(u64(at.index)).toBeGreaterThan(policyVersion);
    expect(await openRefused(revoked)).toEqual(
      unauthenticated(`token ${revocable.tokenId} is unknown or revoked`),
    );
    expect(await revoked.refusal(lockApi.KeepAlive, requests.keepAlive(s.id))).toEqual(
      unauthenticated(`token ${revocable.tokenId} is unknown or revoked`),
    );
    const listed = await admin.call(adminApi.ListTokens, pb.ListTokensRequest.create({}));
    expect(listed.tokens.map((t) => t.tokenId)).not.toContain(revocable.tokenId);

    for (const header of [
      "Bearer not-a-token",
      "Basic dGVhbS1hOnNlY3JldA==",
      teamASecret,
      `Bearer ${teamASecret}x`,
    ])
      expect(await openRefused(anonymous.withAuthorization(header)), header).toEqual(
        unauthenticated(
          "the authorization header is not a Palisade bearer token (Bearer pal_<id>_<secret>)",
        ),
      );

    const a1 = await open(a, 5_000);
    for (const name of ["elsewhere/x", "team-a", "team-ab/x", "TEAM-A/x"])
      expect(refused(await a1.acquire(name), name)).toEqual(lacks("acquire:exclusive", name));
    answered(await a1.close(), "CloseSession");

    const broken = [
      "roles:",
      "  ok-role:",
      "    grants:",
      "      - prefix: team-a/",
      "        actions: [acquire, fly]",
      "  other:",
      "    grants:",
      "      - actions: [read]",
      "identities:",
      "  team-a: { roles: [ok-role, missing-role] }",
      "",
    ].join("\n");
    const refusal = await admin.refusal(adminApi.ApplyPolicy, requests.applyPolicy(broken));
    expect(refusal).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    expect(refusal.message).toBe(
      [
        'policy refused: line 5: unknown action "fly" (acquire, acquire:exclusive, acquire:shared, acquire:upgradeable, read, revoke)',
        'line 8: a grant needs a prefix ("" for every name)',
        'line 10: role "missing-role" is not defined',
      ].join("; "),
    );
    const after = await admin.call(adminApi.GetPolicy, requests.getPolicy());
    expect(after.text).toBe(POLICY);
    expect(u64(after.version)).toBe(policyVersion);
  });

  it("the JSON gateway takes a bearer token: team-a acquires on its prefix and is refused 403 on team-b's", async () => {
    const origin = cluster.httpOrigin(await cluster.leaderId());
    const post = (call: string, body: unknown, authorization?: string) =>
      new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const raw = JSON.stringify(body);
        const req = httpRequest(
          `${origin}/v1/${call}`,
          {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "content-length": String(Buffer.byteLength(raw)),
              ...(authorization !== undefined ? { authorization } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
              }),
            );
          },
        );
        req.on("error", reject);
        req.end(raw);
      });
    const bearer = `Bearer ${teamASecret}`;
    const opened = await post("OpenSession", { ttlMs: "10000", requestId: "gw-a" }, bearer);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const sessionId = opened.body.sessionId as string;
    const own = await post("Acquire", { sessionId, lock: "team-a/http", seq: "1" }, bearer);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.acquired).toBe(true);
    const other = await post("Acquire", { sessionId, lock: "team-b/http", seq: "2" }, bearer);
    expect(other).toEqual({
      status: 403,
      body: {
        code: "PERMISSION_DENIED",
        reason: "ERROR_REASON_PERMISSION_DENIED",
        message: "identity team-a lacks permission acquire:exclusive on team-b/http",
      },
    });
    // Without the token the same session is not the caller's; a malformed token is 401.
    const anonymousCall = await post("Acquire", { sessionId, lock: "team-a/http2", seq: "3" });
    expect(anonymousCall.status).toBe(403);
    expect(anonymousCall.body.message).toBe(
      `session ${sessionId} is not a session of an anonymous caller`,
    );
    const garbage = await post(
      "Acquire",
      { sessionId, lock: "team-a/http2", seq: "3" },
      "Bearer nonsense",
    );
    expect(garbage.status).toBe(401);
    expect(garbage.body.reason).toBe("ERROR_REASON_UNAUTHENTICATED");
    // Only the first Acquire took effect.
    const listed = await a.call(lockApi.ListLocks, requests.listLocks("team-a/http"));
    expect(listed.locks.map((l) => [l.lock, String(u64(l.holder?.sessionId))])).toEqual([
      ["team-a/http", sessionId],
    ]);
    const closed = await post("CloseSession", { sessionId, seq: "4" }, bearer);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  });
});
