// The access policy and tokens as replicated state, on real processes: a policy applies on
// every node at one log index (its version), and it and the tokens survive a restart of
// every node, a snapshot installed on a node whose log was behind, and a backup restored
// into a new cluster, where an old token keeps its rights and anonymous callers stay out.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restoreMain } from "../../node/cli/restore.ts";
import { writeBackupFile } from "../../proto/backup-format.ts";
import {
  adminServiceDefinition as adminApi,
  lockServiceDefinition as lockApi,
} from "../../proto/grpc.ts";
import { u64 } from "../../proto/wire.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";
import { answered, pb, RawCaller, refused, requests } from "./access-raw.ts";

const policy = (extra: string): string => `roles:
  team-a-rw:
    grants:
      - prefix: team-a/
        actions: [acquire, read]${extra}
identities:
  team-a: { roles: [team-a-rw] }
`;
const FIRST = policy("");
const SECOND = policy(`
      - prefix: shared/
        actions: [read]`);

ensureRoot();
const work = mkdtempSync(join(IT_ROOT, "access-replication-"));
const clusters: Cluster[] = [];
const callers: RawCaller[] = [];
let cluster: Cluster;
let anonymous: RawCaller;
let admin: RawCaller;
let teamA: RawCaller;
let adminSecret: string | undefined;
let teamASecret = "";
const authorization = (): string | undefined => (adminSecret ? `Bearer ${adminSecret}` : undefined);

beforeAll(async () => {
  cluster = await startCluster({ clusterId: "palisade-acl-old", authorization });
  clusters.push(cluster);
  anonymous = RawCaller.connect(cluster.endpoints);
  callers.push(anonymous);
  const token = await anonymous.call(adminApi.CreateToken, requests.createToken("ops", ["admin"]));
  adminSecret = token.secret;
  admin = anonymous.as(token.secret);
  teamASecret = (await admin.call(adminApi.CreateToken, requests.createToken("team-a"))).secret;
  teamA = anonymous.as(teamASecret);
});

afterAll(async () => {
  for (const caller of callers) caller.close();
  await Promise.allSettled(clusters.map((c) => c.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** GetPolicy at one node (a linearizable read: a follower asks the leader for its read point). */
async function policyAt(caller: RawCaller, endpoint: string): Promise<[string, bigint]> {
  const answer = await caller.call(adminApi.GetPolicy, requests.getPolicy(), { endpoint });
  return [answer.text, u64(answer.version)];
}

/** What team-a's token may do at one node, as WhoAmI says. */
async function rightsAt(caller: RawCaller, endpoint: string) {
  const who = await caller.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}), { endpoint });
  return {
    identity: who.identity,
    grants: who.grants.map((g) => [g.prefix, g.actions]),
    version: u64(who.policyVersion),
  };
}

/** Waits until every node serves and follows one leader (the harness asks with the admin token). */
async function settled(c: Cluster): Promise<number> {
  return c.leaderId(60_000);
}

describe("the policy and tokens as replicated state", () => {
  let firstVersion = 0n;
  let secondVersion = 0n;

  it("a policy applies on every node at the log index ApplyPolicy answers, and survives a restart of every node", async () => {
    firstVersion = u64(
      (await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(FIRST))).version,
    );
    for (const endpoint of cluster.endpoints) {
      expect(await policyAt(admin, endpoint), endpoint).toEqual([FIRST, firstVersion]);
      expect(await rightsAt(teamA, endpoint), endpoint).toEqual({
        identity: "team-a",
        grants: [
          ["team-a/", ["acquire:exclusive", "acquire:shared", "acquire:upgradeable", "read"]],
        ],
        version: firstVersion,
      });
    }

    for (const id of cluster.ids) await cluster.kill(id);
    for (const id of cluster.ids) await cluster.restart(id);
    await settled(cluster);
    for (const endpoint of cluster.endpoints) {
      expect(await policyAt(admin, endpoint), endpoint).toEqual([FIRST, firstVersion]);
      expect((await rightsAt(teamA, endpoint)).version, endpoint).toBe(firstVersion);
    }
    expect(await anonymous.refusal(adminApi.GetPolicy, requests.getPolicy())).toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
    });
  });

  it("a node whose log was behind a snapshot gets the policy and tokens by InstallSnapshot", async () => {
    const leader = await settled(cluster);
    const behind = cluster.ids.find((id) => id !== leader) as number;
    const behindLast = (await cluster.status(behind)).lastIndex;
    await cluster.kill(behind);

    // While it is down: a new policy, a new token, and a snapshot on every running node
    // that compacts the log past all it has.
    secondVersion = u64(
      (await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(SECOND))).version,
    );
    expect(secondVersion).toBeGreaterThan(firstVersion);
    const later = await admin.call(adminApi.CreateToken, requests.createToken("team-a"));
    const running = cluster.ids.filter((id) => id !== behind);
    let snapshotIndex = 0n;
    for (const id of running) {
      const taken = await admin.call(adminApi.SnapshotSave, pb.SnapshotSaveRequest.create({}), {
        endpoint: cluster.endpoint(id),
      });
      expect(u64(taken.index)).toBeGreaterThanOrEqual(secondVersion);
      snapshotIndex = u64(taken.index);
    }
    expect(snapshotIndex).toBeGreaterThan(behindLast + 1n);

    await cluster.restart(behind);
    const endpoint = cluster.endpoint(behind);
    // A snapshot past its log's end reached it only by InstallSnapshot.
    await cluster.waitFor(`node ${behind} to install a snapshot`, async () => {
      const s = await cluster.status(behind);
      return s.snapshotIndex >= secondVersion && s.appliedIndex >= snapshotIndex;
    });
    expect(await policyAt(admin, endpoint)).toEqual([SECOND, secondVersion]);
    const viaLater = anonymous.as(later.secret);
    expect(await rightsAt(viaLater, endpoint)).toMatchObject({
      identity: "team-a",
      grants: [
        ["shared/", ["read"]],
        ["team-a/", ["acquire:exclusive", "acquire:shared", "acquire:upgradeable", "read"]],
      ],
      version: secondVersion,
    });
    for (const e of cluster.endpoints)
      expect(await policyAt(admin, e), e).toEqual([SECOND, secondVersion]);
  });

  it("a backup restored into a new cluster keeps the policy and the tokens: an old token works with its rights, anonymous callers are refused", async () => {
    const revoked = await admin.call(adminApi.CreateToken, requests.createToken("team-a"));
    await admin.call(
      adminApi.RevokeToken,
      pb.RevokeTokenRequest.create({ tokenId: revoked.tokenId }),
    );
    const tokensBefore = (
      await admin.call(adminApi.ListTokens, pb.ListTokensRequest.create({}))
    ).tokens.map((t) => [t.tokenId, t.identity, t.roles]);
    const backupFile = join(work, "acl.backup");
    writeBackupFile(backupFile, await admin.backup(cluster.endpoint(await settled(cluster))));
    await cluster.stop();

    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
    const restored = await startCluster({
      clusterId: "palisade-acl-new",
      authorization,
      beforeStart: async ({ configPath }) => {
        const rc = await restoreMain(["--backup", backupFile, "--config", configPath], io);
        expect(rc, lines.join("\n")).toBe(0);
      },
    });
    clusters.push(restored);
    const fresh = RawCaller.connect(restored.endpoints);
    callers.push(fresh);
    const freshAdmin = fresh.as(adminSecret as string);
    const freshA = fresh.as(teamASecret);

    for (const endpoint of restored.endpoints)
      expect(await policyAt(freshAdmin, endpoint), endpoint).toEqual([SECOND, secondVersion]);
    const tokensAfter = (
      await freshAdmin.call(adminApi.ListTokens, pb.ListTokensRequest.create({}))
    ).tokens.map((t) => [t.tokenId, t.identity, t.roles]);
    expect(tokensAfter).toEqual(tokensBefore);

    // The old tenant token, with the same rights.
    expect(await rightsAt(freshA, restored.endpoints[0] as string)).toMatchObject({
      identity: "team-a",
      version: secondVersion,
    });
    const session = await freshA.openSession(10_000);
    expect(answered(await session.acquire("team-a/after-restore"), "Acquire").acquired).toBe(true);
    expect(refused(await session.acquire("shared/x"), "Acquire shared/x")).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "identity team-a lacks permission acquire:exclusive on shared/x",
    });
    answered(await session.close(), "CloseSession");

    // Anonymous callers and the revoked token stay out.
    expect(await fresh.refusal(lockApi.OpenSession, requests.openSession(5_000))).toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
    });
    expect(await fresh.refusal(adminApi.GetPolicy, requests.getPolicy())).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      reason: "ERROR_REASON_PERMISSION_DENIED",
      message: "GetPolicy needs the admin role; an anonymous caller does not have it",
    });
    expect(
      await fresh.as(revoked.secret).refusal(adminApi.WhoAmI, pb.WhoAmIRequest.create({})),
    ).toEqual({
      code: grpc.status.UNAUTHENTICATED,
      reason: "ERROR_REASON_UNAUTHENTICATED",
      message: `token ${revoked.tokenId} is unknown or revoked`,
    });
  });
});
