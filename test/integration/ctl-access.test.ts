// palisadectl's access control on a real plaintext cluster: tokens made with `token create`,
// a two-team policy applied from a file, `whoami` and `can`, Acquires of each team's token
// inside and outside its prefix, a policy file with errors refused whole, a revoked token
// refused, and a session whose identity loses its rights lost with PERMISSION_DENIED.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionLostError, type PalisadeClient } from "../../client/index.ts";
import { runCtlHere, runJson as json } from "./ctl-in-process.ts";
import { runCtl, type Run } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { ensureRoot, IT_ROOT } from "./pidfiles.ts";

ensureRoot();
const work = mkdtempSync(join(IT_ROOT, "ctl-access-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let cluster: Cluster;
clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
});

/** palisadectl in this process, presenting `token` (none: anonymous). */
const ctlAs = (token: string | undefined, ...args: string[]): Promise<Run> =>
  runCtlHere(cluster.endpoints, ...(token !== undefined ? ["--auth-token", token] : []), ...args);

/** palisadectl as its own process, with `token` in PALISADE_AUTH_TOKEN. */
async function ctlProcessAs(token: string, ...args: string[]): Promise<Run> {
  const before = process.env.PALISADE_AUTH_TOKEN;
  process.env.PALISADE_AUTH_TOKEN = token;
  try {
    return await runCtl(cluster.endpoints, ...args);
  } finally {
    if (before === undefined) delete process.env.PALISADE_AUTH_TOKEN;
    else process.env.PALISADE_AUTH_TOKEN = before;
  }
}

const POLICY = `# two teams, each on its own prefix
roles:
  orders-rw:
    grants:
      - prefix: orders/
        actions: [acquire, read, revoke]
    quotas: { sessions: 5 }
  billing-rw:
    grants:
      - prefix: billing/
        actions: [acquire, read, revoke]
identities:
  team-a: { roles: [orders-rw] }
  team-b: { roles: [billing-rw] }
`;

const BAD_POLICY = `roles:
  orders-rw:
    grants:
      - prefix: orders/
        actions: [aquire, read]
identities:
  team-a: { roles: [no-such-role] }
`;

/** What the tests pass on: the tokens' secrets and ids, and the policy's version. */
const t = { admin: "", a: "", b: "", aId: "", version: "" };

interface Created {
  tokenId: string;
  secret: string;
  identity: string;
  roles: string[];
  expiresAtMs: number;
}

interface Rights {
  identity: string;
  via: string;
  tokenId: string;
  roles: string[];
  admin: boolean;
  grants: Array<{ prefix: string; actions: string[] }>;
  quotas: Array<{ name: string; limit: number; used: number }>;
  policyVersion: string;
}

describe("palisadectl access control", () => {
  it("token create: the secret alone on stdout, said to be shown once, with its id and expiry", async () => {
    // An open cluster: the anonymous caller is an admin until a policy is applied.
    const admin = await runCtl(cluster.endpoints, "token", "create", "ops", "--role", "admin");
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/^pal_[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    expect(admin.stderr).toMatch(
      /^token [0-9a-f]{16} for identity ops with roles admin, expires never\n/,
    );
    expect(admin.stderr).toContain("shown this once");
    t.admin = admin.stdout.trim();

    const a = await ctlAs(t.admin, "--json", "token", "create", "team-a", "--ttl", "1h");
    expect(a.code, a.stderr).toBe(0);
    const created = json<Created>(a);
    expect(created.identity).toBe("team-a");
    expect(created.roles).toEqual([]);
    expect(created.secret.startsWith(`pal_${created.tokenId}_`)).toBe(true);
    expect(created.expiresAtMs).toBeGreaterThan(Date.now() + 3_500_000);
    t.a = created.secret;
    t.aId = created.tokenId;

    const b = await ctlAs(t.admin, "token", "create", "team-b");
    expect(b.code, b.stderr).toBe(0);
    t.b = b.stdout.trim();

    const list = await ctlAs(t.admin, "--json", "token", "list");
    expect(list.code, list.stderr).toBe(0);
    const tokens = json<Array<{ tokenId: string; identity: string; roles: string[] }>>(list);
    expect(tokens.map((k) => k.identity).sort()).toEqual(["ops", "team-a", "team-b"]);
    expect(list.stdout).not.toContain("pal_");
    const table = await ctlAs(t.admin, "token", "list");
    expect(table.stdout).toMatch(/^ID\s+IDENTITY\s+ROLES\s+CREATED INDEX\s+CREATED AT\s+EXPIRES$/m);
    expect(table.stdout).toMatch(
      new RegExp(`^${t.aId}\\s+team-a\\s+-\\s+\\d+\\s+\\S+\\s+20\\d\\d-`, "m"),
    );
  });

  it("acl show before any policy: the cluster is open", async () => {
    const shown = await ctlAs(t.admin, "acl", "show");
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe("");
    expect(shown.stderr).toContain("no policy: the cluster is open");
    expect(json<{ version: string }>(await ctlAs(t.admin, "--json", "acl", "show"))).toEqual({
      text: "",
      version: "0",
    });
  });

  it("acl apply of a two-team policy prints its version; acl show gives back its text", async () => {
    const file = join(work, "policy.yaml");
    writeFileSync(file, POLICY);
    const applied = await ctlAs(t.admin, "acl", "apply", file);
    expect(applied.code, applied.stderr).toBe(0);
    const version = /^policy applied: version (\d+)\n$/.exec(applied.stdout)?.[1];
    expect(version).toBeDefined();
    t.version = version as string;

    const shown = await ctlAs(t.admin, "acl", "show");
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(POLICY);
    expect(shown.stderr).toBe(`policy version ${t.version}\n`);
  });

  it("whoami: each token's identity, roles, grants and quotas under the policy's version", async () => {
    const a = await ctlAs(t.a, "--json", "whoami");
    expect(a.code, a.stderr).toBe(0);
    expect(json<Rights>(a)).toEqual({
      identity: "team-a",
      via: "token",
      tokenId: t.aId,
      roles: ["orders-rw"],
      admin: false,
      grants: [
        {
          prefix: "orders/",
          actions: ["acquire:exclusive", "acquire:shared", "acquire:upgradeable", "read", "revoke"],
        },
      ],
      quotas: [{ name: "sessions", limit: 5, used: 0 }],
      policyVersion: t.version,
    });
    const text = await ctlAs(t.a, "whoami");
    expect(text.stdout).toMatch(/^identity {2}team-a \(token [0-9a-f]{16}\)$/m);
    expect(text.stdout).toMatch(/^grants {4}orders\/ {2}acquire:exclusive, /m);
    expect(text.stdout).toMatch(/^quotas {4}sessions 0 of 5$/m);
    expect(text.stdout).toMatch(new RegExp(`^policy {4}version ${t.version}$`, "m"));

    // B from its own process, the token in PALISADE_AUTH_TOKEN.
    const b = await ctlProcessAs(t.b, "--json", "whoami");
    expect(b.code, b.stderr).toBe(0);
    expect(json<Rights>(b)).toMatchObject({ identity: "team-b", roles: ["billing-rw"] });

    const ops = json<Rights>(await ctlAs(t.admin, "--json", "whoami"));
    expect(ops).toMatchObject({ identity: "ops", via: "token", roles: ["admin"], admin: true });

    const nobody = await ctlAs(undefined, "--json", "whoami");
    expect(nobody.code, nobody.stderr).toBe(0);
    expect(json<Rights>(nobody)).toMatchObject({ identity: "", via: "anonymous", admin: false });
  });

  it("can: allowed exits 0, denied exits 2, each with the reason; only an admin may ask", async () => {
    const yes = await ctlAs(t.admin, "can", "team-a", "acquire:exclusive", "orders/42");
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout).toBe("allowed: granted by roles orders-rw\n");
    const no = await ctlAs(t.admin, "can", "team-a", "acquire:exclusive", "billing/42");
    expect(no.code, no.stderr).toBe(2);
    expect(no.stdout).toBe(
      "denied: no grant of acquire:exclusive on billing/42 in roles orders-rw\n",
    );
    const asJson = await ctlAs(t.admin, "--json", "can", "team-b", "admin", "any");
    expect(asJson.code).toBe(2);
    expect(json<{ allowed: boolean; policyVersion: string }>(asJson)).toMatchObject({
      allowed: false,
      policyVersion: t.version,
    });
    const notAdmin = await ctlAs(t.a, "can", "team-a", "read", "orders/42");
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toMatch(/^error: PermissionDeniedError: Can needs the admin role/);
  });

  it("acquire with team-a's token: its own prefix is granted, team-b's is refused naming the permission", async () => {
    const own = await ctlProcessAs(t.a, "acquire", "orders/42");
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toMatch(/^\d+\n$/);
    const other = await ctlProcessAs(t.a, "acquire", "billing/42");
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      "PermissionDeniedError: identity team-a lacks permission acquire:exclusive on billing/42",
    );
    const anonymous = await ctlAs(undefined, "acquire", "orders/43");
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain("PermissionDeniedError");
  });

  it("acl apply of a file with errors: refused whole with each error's line, exit 1, the policy in force stays", async () => {
    const file = join(work, "bad.yaml");
    writeFileSync(file, BAD_POLICY);
    const refused = await ctlAs(t.admin, "acl", "apply", file);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^policy refused: .*bad\.yaml has \d+ errors; the policy in force is unchanged$/m,
    );
    expect(refused.stderr).toMatch(/^ {2}.*bad\.yaml:5: .*aquire/m);
    expect(refused.stderr).toMatch(/^ {2}.*bad\.yaml:7: .*no-such-role/m);

    const asJson = await ctlAs(t.admin, "--json", "acl", "apply", file);
    expect(asJson.code).toBe(1);
    const answer = json<{ applied: boolean; errors: Array<{ line: number; message: string }> }>(
      asJson,
    );
    expect(answer.applied).toBe(false);
    expect(answer.errors.map((e) => e.line)).toEqual(expect.arrayContaining([5, 7]));

    const shown = json<{ text: string; version: string }>(
      await ctlAs(t.admin, "--json", "acl", "show"),
    );
    expect(shown).toEqual({ text: POLICY, version: t.version });
  });

  it("a session whose identity loses every right it uses is lost with PERMISSION_DENIED", async () => {
    const client: PalisadeClient = cluster.client({ token: t.b, retryBudgetMs: 5_000 });
    const session = await client.openSession({ ttlMs: 3_000 });
    expect((await session.acquire("billing/7")).acquired).toBe(true);
    const lost = new Promise<string>((resolve) => session.onLost(resolve));
    const file = join(work, "without-b.yaml");
    writeFileSync(file, POLICY.replace("  team-b: { roles: [billing-rw] }\n", ""));
    const applied = await ctlAs(t.admin, "acl", "apply", file);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await lost).toMatch(/PERMISSION_DENIED/);
    const reason = session.signal.reason as SessionLostError;
    expect(reason).toBeInstanceOf(SessionLostError);
    expect(reason.reason).toBe("ERROR_REASON_PERMISSION_DENIED");
  });

  it("token revoke: the revoked token's calls are refused UNAUTHENTICATED, the others' still answer", async () => {
    const revoked = await ctlAs(t.admin, "token", "revoke", t.aId);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^token ${t.aId} revoked at index \\d+\\n$`));
    const a = await ctlProcessAs(t.a, "whoami");
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(
      new RegExp(`^error: UnauthenticatedError: token ${t.aId} is unknown or revoked`),
    );
    expect(a.stderr).not.toContain(t.a);
    const ids = json<Array<{ tokenId: string }>>(await ctlAs(t.admin, "--json", "token", "list"));
    expect(ids.map((k) => k.tokenId)).not.toContain(t.aId);
    expect((await ctlAs(t.admin, "whoami")).code).toBe(0);
  });
});
