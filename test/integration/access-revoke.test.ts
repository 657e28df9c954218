// Taking rights away from a caller that is using them, on real processes: a revoked token's
// keepalives are refused, so its session ends within a TTL and a waiter of another identity
// gets the lock; a policy that takes away every acquire right of an identity denies its
// session's next keepalive, and a policy that takes away its read right ends its Watch.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  adminServiceDefinition as adminApi,
  lockServiceDefinition as lockApi,
} from "../../proto/grpc.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { u64 } from "../../proto/wire.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import {
  answered,
  pb,
  RawCaller,
  refused,
  requests,
  type Outcome,
  type Refusal,
} from "./access-raw.ts";

const policy = (teamA: string): string => `roles:
  jobs-rw:
    grants:
      - prefix: jobs/
        actions: [acquire, read]
  jobs-read:
    grants:
      - prefix: jobs/
        actions: [read]
identities:
  standby: { roles: [jobs-rw] }
${teamA}`;
const TEAM_A_ACQUIRES = policy("  team-a: { roles: [jobs-rw] }\n");
const TEAM_A_READS = policy("  team-a: { roles: [jobs-read] }\n");
const TEAM_A_NOTHING = policy("");

/** The TTL of the sessions whose end the tests wait for. */
const TTL_MS = 2_000;

let cluster: Cluster;
let anonymous: RawCaller;
let admin: RawCaller;
let adminSecret: string | undefined;

clusterForTests(
  { authorization: () => (adminSecret ? `Bearer ${adminSecret}` : undefined) },
  async (started) => {
    cluster = started;
    anonymous = RawCaller.connect(cluster.endpoints);
    const token = await anonymous.call(
      adminApi.CreateToken,
      requests.createToken("ops", ["admin"]),
    );
    adminSecret = token.secret;
    admin = anonymous.as(token.secret);
    await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(TEAM_A_ACQUIRES));
    return () => anonymous.close();
  },
);

async function tokenFor(identity: string): Promise<{ id: string; caller: RawCaller }> {
  const token = await admin.call(adminApi.CreateToken, requests.createToken(identity));
  return { id: token.tokenId, caller: anonymous.as(token.secret) };
}

/** Admin's GetSession of `id`: the session, or the refusal once it is gone. */
const sessionSeenByAdmin = (id: bigint) =>
  admin.attempt(lockApi.GetSession, requests.getSession(id));

describe("rights taken from a caller in use", () => {
  it("a revoked token's keepalives are refused: its session ends within a TTL and another identity's waiter gets the lock", async () => {
    const tenant = await tokenFor("team-a");
    const standby = await tokenFor("standby");
    const held = await tenant.caller.openSession(TTL_MS);
    const token = await held.hold("jobs/main");
    const waiter = await standby.caller.openSession(30_000);
    const waiting = standby.caller.attempt(
      lockApi.Acquire,
      requests.acquire(waiter.id, "jobs/main", waiter.next(), { waitMs: 60_000 }),
    );
    await cluster.waitFor("the standby's wait to be queued", async () => {
      const lock = await admin.call(lockApi.GetLock, requests.getLock("jobs/main"));
      return lock.waiters.length === 1;
    });

    // The tenant keeps its session alive, one keepalive after another, until one is refused.
    const answers: Array<Outcome<palisade.v1.ISessionKeptAlive>> = [];
    const keeping = (async () => {
      for (;;) {
        const answer = await held.keepAlive();
        answers.push(answer);
        if (!answer.ok) return;
        await new Promise((r) => setTimeout(r, TTL_MS / 8));
      }
    })();
    await cluster.waitFor("two keepalives answered", async () => answers.length >= 2);
    const revoke = await admin.call(
      adminApi.RevokeToken,
      pb.RevokeTokenRequest.create({ tokenId: tenant.id }),
    );
    expect(u64(revoke.index)).toBeGreaterThan(0n);
    const revokedAt = answers.length;
    await keeping;

    const kept = answers.filter((a) => a.ok);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const k of kept) expect(k.ok && Number(u64(k.answer.ttlMs))).toBe(TTL_MS);
    // Every keepalive sent once the revoke had answered was refused (at most one was under
    // way while it applied), and the first refusal ended the loop.
    expect(answers.length - revokedAt).toBeLessThanOrEqual(2);
    expect(answers.slice(0, -1).every((a) => a.ok)).toBe(true);
    expect(refused(answers.at(-1) as Outcome<unknown>, "the last keepalive")).toEqual({
      code: grpc.status.UNAUTHENTICATED,
      reason: "ERROR_REASON_UNAUTHENTICATED",
      message: `token ${tenant.id} is unknown or revoked`,
    });

    // Without keepalives the session ends, and its grant passes to the waiter.
    await cluster.waitFor("the tenant's session to end", async () => {
      const seen = await sessionSeenByAdmin(held.id);
      return !seen.ok && seen.reason === "ERROR_REASON_SESSION_NOT_FOUND";
    });
    const listed = await admin.call(lockApi.ListSessions, pb.ListSessionsRequest.create({}));
    expect(listed.sessions.map((s) => u64(s.sessionId))).toEqual([waiter.id]);
    const granted = answered(await waiting, "the standby's Acquire");
    expect(granted.acquired).toBe(true);
    expect(u64(granted.token)).toBeGreaterThan(token);
    const history = await admin.call(lockApi.GetLockHistory, requests.history("jobs/main"));
    expect(history.records.map((r) => [u64(r.sessionId), r.reason])).toEqual([
      [held.id, pb.EndReason.END_REASON_SESSION_EXPIRED],
      [waiter.id, pb.EndReason.END_REASON_UNSPECIFIED],
    ]);
    answered(await waiter.close(), "the standby closes its session");
  });

  it("a policy without team-a's acquire rights denies its session's next keepalive; one without its read right ends its Watch", async () => {
    const tenant = await tokenFor("team-a");
    const session = await tenant.caller.openSession(TTL_MS);
    await session.hold("jobs/two");
    const kept = answered(await session.keepAlive(), "keepalive before the change");
    expect([kept.notFound, kept.permissionDenied]).toEqual([false, false]);
    // The Watch runs at a follower: the change ends it there, where it applies.
    const leader = await cluster.leaderId();
    const follower = cluster.endpoint(cluster.ids.find((id) => id !== leader) as number);
    const watch = tenant.caller.watch("jobs/", follower);

    const reads = u64(
      (await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(TEAM_A_READS))).version,
    );
    const denied = answered(await session.keepAlive(), "keepalive after the change");
    expect([u64(denied.sessionId), denied.notFound, denied.permissionDenied]).toEqual([
      session.id,
      false,
      true,
    ]);
    expect(Number(u64(denied.ttlMs))).toBe(0);
    // Not kept alive, the session ends; the Watch, whose read right is left, sees it end.
    await cluster.waitFor("the Watch to see the session expire", async () =>
      watch.events.some(
        (e) =>
          e.kind === pb.WatchEventKind.WATCH_EVENT_KIND_SESSION_EXPIRED &&
          e.lock === "jobs/two" &&
          u64(e.sessionId) === session.id,
      ),
    );
    expect(u64(watch.events.at(-1)?.index)).toBeGreaterThan(reads);

    await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(TEAM_A_NOTHING));
    const ended = await watch.ended;
    expect(ended.ok ? null : refused(ended, "the Watch")).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "identity team-a lacks permission read on jobs/",
    } satisfies Refusal);
    // And a new Watch is refused outright.
    const again = await tenant.caller.watch("jobs/", follower).ended;
    expect(again).toMatchObject({ ok: false, code: grpc.status.PERMISSION_DENIED });
  });
});
