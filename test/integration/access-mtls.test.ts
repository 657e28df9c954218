// Access control over mutual TLS on real processes: a caller's identity is its client
// certificate's CN (the default auth.certIdentity). Under a two-team policy team-a's
// certificate can use neither team-b's sessions nor its prefix; an admin certificate, and
// a certificate the cluster file names as an admin, always may apply a policy, even one
// that gives them nothing (the way back from a policy that locks everyone out); a bearer
// token sent over a certificate speaks for the token's identity; and a certificate of
// another CA, whatever its CN, is refused in the handshake.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tlsCredentials } from "../../client/connection.ts";
import {
  adminServiceDefinition as adminApi,
  lockServiceDefinition as lockApi,
} from "../../proto/grpc.ts";
import { u64 } from "../../proto/wire.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";
import { answered, pb, RawCaller, refused, requests, type Refusal } from "./access-raw.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const TWO_TEAMS = `roles:
  team-a-rw:
    grants:
      - prefix: team-a/
        actions: [acquire, read]
  team-b-rw:
    grants:
      - prefix: team-b/
        actions: [acquire, read]
identities:
  team-a: { roles: [team-a-rw] }
  team-b: { roles: [team-b-rw] }
`;
/** A policy that gives nobody anything, the admins it names included. */
const NOBODY = `roles:
  nothing:
    grants: []
identities:
  admin: { roles: [nothing] }
  ops-lead: { roles: [nothing] }
`;

/** Makes a CA in `dir` (the cluster's when `nodes` > 0) with scripts/dev-certs.sh. */
function devCerts(dir: string, nodes: number): void {
  execFileSync("bash", [join(REPO_ROOT, "scripts/dev-certs.sh"), dir, String(nodes)], {
    stdio: "ignore",
  });
}

/** A client certificate `name`.crt/.key in `dir`, OU=client and CN=`cn`, signed by dir's CA. */
function clientCert(dir: string, name: string, cn: string): void {
  const file = (ext: string): string => join(dir, `${name}.${ext}`);
  writeFileSync(
    file("ext"),
    [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature,keyEncipherment",
      "extendedKeyUsage=clientAuth",
      "",
    ].join("\n"),
  );
  const run = (args: string[]): void => void execFileSync("openssl", args, { stdio: "ignore" });
  run([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-sha256",
    "-keyout",
    file("key"),
    "-out",
    file("csr"),
    "-subj",
    `/O=palisade/OU=client/CN=${cn}`,
  ]);
  run([
    "x509",
    "-req",
    "-in",
    file("csr"),
    "-CA",
    join(dir, "ca.crt"),
    "-CAkey",
    join(dir, "ca.key"),
    "-CAcreateserial",
    "-sha256",
    "-days",
    "2",
    "-extfile",
    file("ext"),
    "-out",
    file("crt"),
  ]);
}

ensureRoot();
const work = mkdtempSync(join(IT_ROOT, "access-mtls-"));
const certs = join(work, "certs");
const stranger = join(work, "stranger");
const callers: RawCaller[] = [];
let cluster: Cluster;

/** A caller presenting certificate `name` of `dir` (trusting the cluster CA). */
function withCert(name: string, dir = certs): RawCaller {
  const caller = RawCaller.connect(
    cluster.endpoints,
    tlsCredentials({
      ca: join(certs, "ca.crt"),
      cert: join(dir, `${name}.crt`),
      key: join(dir, `${name}.key`),
    }),
  );
  callers.push(caller);
  return caller;
}

beforeAll(async () => {
  devCerts(certs, 3);
  clientCert(certs, "team-a", "team-a");
  clientCert(certs, "team-b", "team-b");
  clientCert(certs, "ops-lead", "ops-lead");
  devCerts(stranger, 0);
  clientCert(stranger, "team-a", "team-a");
  cluster = await startCluster({
    clusterId: "palisade-acl-tls",
    tls: {
      ca: join(certs, "ca.crt"),
      cert: join(certs, "node-{id}.crt"),
      key: join(certs, "node-{id}.key"),
    },
    auth: { admins: ["ops-lead"] },
    credentials: tlsCredentials({
      ca: join(certs, "ca.crt"),
      cert: join(certs, "admin.crt"),
      key: join(certs, "admin.key"),
    }),
  });
}, 120_000);

afterAll(async () => {
  for (const caller of callers) caller.close();
  await cluster?.stop();
  rmSync(work, { recursive: true, force: true });
});

const whoAmI = async (caller: RawCaller) => {
  const who = await caller.call(adminApi.WhoAmI, pb.WhoAmIRequest.create({}));
  return { identity: who.identity, via: who.via, admin: who.admin };
};

const denied = (message: string): Refusal => ({
  code: grpc.status.PERMISSION_DENIED,
  reason: "ERROR_REASON_PERMISSION_DENIED",
  message,
});

describe("access control over mutual TLS", () => {
  it("names each caller by its certificate's CN; admin calls need an admin", async () => {
    const admin = withCert("admin");
    const teamA = withCert("team-a");
    expect(await whoAmI(teamA)).toEqual({ identity: "team-a", via: "certificate", admin: false });
    expect(await whoAmI(admin)).toEqual({
      identity: "admin",
      via: "admin",
      admin: true,
    });
    expect(await whoAmI(withCert("ops-lead"))).toEqual({
      identity: "ops-lead",
      via: "admin",
      admin: true,
    });
    // Before any policy a client certificate may use the locks, but not apply a policy.
    const open = await teamA.openSession(5_000);
    answered(await open.close(), "CloseSession");
    expect(await teamA.refusal(adminApi.ApplyPolicy, requests.applyPolicy(TWO_TEAMS))).toEqual(
      denied("ApplyPolicy needs the admin role; identity team-a does not have it"),
    );
    const applied = await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(TWO_TEAMS));
    expect(u64(applied.version)).toBeGreaterThan(0n);
  });

  it("team-a's certificate can use neither team-b's session nor its prefix", async () => {
    const teamA = withCert("team-a");
    const teamB = withCert("team-b");
    const a = await teamA.openSession(10_000);
    const b = await teamB.openSession(10_000);
    const held = await b.hold("team-b/x");
    expect(answered(await a.acquire("team-a/x"), "team-a's Acquire").acquired).toBe(true);

    expect(refused(await a.acquire("team-b/x"), "Acquire on team-b's prefix")).toEqual(
      denied("identity team-a lacks permission acquire:exclusive on team-b/x"),
    );
    const misused = teamA.session(b.id);
    expect(refused(await misused.acquire("team-a/y"), "Acquire in team-b's session")).toEqual(
      denied(`session ${b.id} is not a session of identity team-a`),
    );
    expect(refused(await misused.release("team-b/x", held), "Release of team-b's lock")).toEqual(
      denied(`session ${b.id} is not a session of identity team-a`),
    );
    expect(refused(await misused.close(), "CloseSession of team-b's session")).toEqual(
      denied(`session ${b.id} is not a session of identity team-a`),
    );
    expect(await teamA.refusal(lockApi.GetLock, requests.getLock("team-b/x"))).toEqual(
      denied("identity team-a lacks permission read on team-b/x"),
    );
    const kept = await teamA.call(lockApi.KeepAlive, requests.keepAlive(a.id, b.id));
    expect(kept.sessions.map((s) => [u64(s.sessionId), s.permissionDenied])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);
    // team-b's grant is untouched.
    const lock = await teamB.call(lockApi.GetLock, requests.getLock("team-b/x"));
    expect([u64(lock.holder?.sessionId), u64(lock.holder?.token)]).toEqual([b.id, held]);
    answered(await a.close(), "team-a closes");
    answered(await b.close(), "team-b closes");
  });

  it("a bearer token sent over a certificate speaks for the token's identity", async () => {
    const admin = withCert("admin");
    const token = await admin.call(adminApi.CreateToken, requests.createToken("team-b"));
    const teamAWithB = withCert("team-a").as(token.secret);
    expect(await whoAmI(teamAWithB)).toEqual({ identity: "team-b", via: "token", admin: false });
    const session = await teamAWithB.openSession(5_000);
    expect(refused(await session.acquire("team-a/z"), "Acquire as team-b")).toEqual(
      denied("identity team-b lacks permission acquire:exclusive on team-a/z"),
    );
    answered(await session.close(), "CloseSession");
  });

  it("an admin certificate, and the cluster file's admin, apply a policy that gives them nothing", async () => {
    const admin = withCert("admin");
    const opsLead = withCert("ops-lead");
    const locked = await admin.call(adminApi.ApplyPolicy, requests.applyPolicy(NOBODY));
    // Every other caller is locked out; an admin keeps every right.
    expect(
      answered(await admin.attempt(lockApi.GetLock, requests.getLock("team-a/x")), "read"),
    ).toMatchObject({
      lock: "team-a/x",
    });
    const teamA = withCert("team-a");
    expect(await teamA.refusal(lockApi.OpenSession, requests.openSession(5_000))).toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
    });
    const read = await opsLead.call(adminApi.GetPolicy, requests.getPolicy());
    expect([read.text, u64(read.version)]).toEqual([NOBODY, u64(locked.version)]);
    const status = await admin.status(cluster.endpoints[0] as string);
    expect(status.clusterId).toBe("palisade-acl-tls");
    const restored = await opsLead.call(adminApi.ApplyPolicy, requests.applyPolicy(TWO_TEAMS));
    expect(u64(restored.version)).toBeGreaterThan(u64(locked.version));
    const session = await teamA.openSession(5_000);
    expect(answered(await session.acquire("team-a/back"), "Acquire").acquired).toBe(true);
    answered(await session.close(), "CloseSession");
  });

  it("a certificate of another CA is refused in the handshake, whatever its CN", async () => {
    const outsider = withCert("team-a", stranger);
    for (const endpoint of cluster.endpoints) {
      const answer = await outsider.once(endpoint, adminApi.WhoAmI, pb.WhoAmIRequest.create({}));
      expect(answer.ok, endpoint).toBe(false);
      expect(answer, endpoint).toMatchObject({ code: grpc.status.UNAVAILABLE, reason: "" });
    }
    // The same CN from the cluster CA is served.
    expect((await whoAmI(withCert("team-a"))).identity).toBe("team-a");
  });
});
