// The access policy: parsing (every error with its line, the whole text refused) and the
// rights it gives an identity (grants by prefix, admin, quotas, a token's extra roles).
import { describe, expect, it } from "vitest";
import {
  ADMIN_RIGHTS,
  NO_RIGHTS,
  OPEN_RIGHTS,
  Policy,
  PolicyParseError,
  PREFIX_ACTIONS,
  type PolicyError,
  type PrefixAction,
} from "../../../node/auth/policy.ts";

/** The errors a policy text is refused with (fails if it is accepted). */
function errorsOf(text: string): PolicyError[] {
  try {
    Policy.parse(text);
  } catch (err) {
    if (err instanceof PolicyParseError) return [...err.errors];
    throw err;
  }
  throw new Error("the policy was accepted");
}

/** The actions granted on `name`. */
function actionsOn(policy: Policy, identity: string, name: string, roles: string[] = []) {
  const rights = policy.rightsOf(identity, roles);
  return PREFIX_ACTIONS.filter((a) => rights.allows(a, name));
}

const TWO_TEAMS = `version: 1
roles:
  orders-rw:
    grants:
      - prefix: orders/
        actions: [acquire, read, revoke]
      - prefix: catalog/
        actions: [acquire:shared, read]
    quotas: { sessions: 5, heldLocks: 10, waits: 2, holderDataBytes: 100, requestRate: 50 }
  billing-rw:
    grants:
      - prefix: billing/
        actions: [acquire:exclusive, acquire:upgradeable, read]
    quotas: { sessions: 2 }
  ops:
    admin: true
identities:
  team-a: { roles: [orders-rw], quotas: { sessions: 3 } }
  team-b: { roles: [billing-rw] }
  boss: { roles: [admin] }
  oncall: { roles: [ops] }
`;

describe("a policy's text", () => {
  it("parses a worked policy of two teams into their rights", () => {
    const policy = Policy.parse(TWO_TEAMS);
    expect(policy.text).toBe(TWO_TEAMS);
    expect(policy.roleNames).toEqual(["orders-rw", "billing-rw", "ops"]);
    expect(policy.identityNames).toEqual(["team-a", "team-b", "boss", "oncall"]);
    expect(policy.hasRole("admin")).toBe(true);

    const a = policy.rightsOf("team-a");
    expect(a.admin).toBe(false);
    expect(a.mayAcquire).toBe(true);
    expect(a.roles).toEqual(["orders-rw"]);
    expect(a.grants()).toEqual([
      { prefix: "catalog/", actions: ["acquire:shared", "read"] },
      {
        prefix: "orders/",
        actions: ["acquire:exclusive", "acquire:shared", "acquire:upgradeable", "read", "revoke"],
      },
    ]);
    // The identity's own quota replaces its role's; the others are the role's.
    expect(a.quotas).toEqual({
      sessions: 3,
      heldLocks: 10,
      waits: 2,
      holderDataBytes: 100,
      requestRate: 50,
    });
    expect(actionsOn(policy, "team-a", "orders/17")).toEqual([...PREFIX_ACTIONS]);
    expect(actionsOn(policy, "team-a", "catalog/shoes")).toEqual(["acquire:shared", "read"]);
    expect(actionsOn(policy, "team-a", "billing/q1")).toEqual([]);

    const b = policy.rightsOf("team-b");
    expect(b.quotas).toEqual({ sessions: 2 });
    expect(actionsOn(policy, "team-b", "billing/q1")).toEqual([
      "acquire:exclusive",
      "acquire:upgradeable",
      "read",
    ]);
    expect(actionsOn(policy, "team-b", "orders/17")).toEqual([]);

    // The built-in admin role: the admin calls, and every action on every name.
    expect(policy.rightsOf("boss").admin).toBe(true);
    expect(actionsOn(policy, "boss", "anything/at/all")).toEqual([...PREFIX_ACTIONS]);
    // A role of the policy that says admin gives the admin calls, and on names only its grants.
    expect(policy.rightsOf("oncall").admin).toBe(true);
    expect(policy.rightsOf("oncall").mayAcquire).toBe(false);
    expect(actionsOn(policy, "oncall", "anything/at/all")).toEqual([]);
  });

  it("reads the same policy written as JSON", () => {
    const json = JSON.stringify({
      roles: { r: { grants: [{ prefix: "x/", actions: ["read"] }], quotas: { waits: 1 } } },
      identities: { i: { roles: ["r"] } },
    });
    const policy = Policy.parse(json);
    expect(actionsOn(policy, "i", "x/1")).toEqual(["read"]);
    expect(policy.rightsOf("i").quotas).toEqual({ waits: 1 });
  });

  it("reports an unknown key, in the policy, a role, a grant or an identity, on its line", () => {
    expect(
      errorsOf(`roles:
  r:
    grants:
      - prefix: a/
        actions: [read]
        colour: red
    colour: red
identities:
  i: { roles: [r], colour: red }
teams: {}
`),
    ).toEqual([
      { line: 6, message: 'unknown key "colour" in a grant (prefix, actions)' },
      { line: 7, message: 'unknown key "colour" in a role (grants, admin, quotas)' },
      { line: 9, message: 'unknown key "colour" in an identity (roles, quotas)' },
      { line: 10, message: 'unknown key "teams" (a policy has version, roles and identities)' },
    ]);
  });

  it("reports an unknown action on the line of its list", () => {
    expect(
      errorsOf(`roles:
  r:
    grants:
      - prefix: a/
        actions:
          - read
          - write
`),
    ).toEqual([
      {
        line: 7,
        message:
          'unknown action "write" (acquire, acquire:exclusive, acquire:shared, acquire:upgradeable, read, revoke)',
      },
    ]);
  });

  it("reports a prefix with a control character, and one longer than a lock name may be", () => {
    const long = "p".repeat(257);
    expect(
      errorsOf(`roles:
  r:
    grants:
      - prefix: "orders/\\u0007"
        actions: [read]
      - prefix: "tab\\there"
        actions: [read]
      - prefix: ${long}
        actions: [read]
`),
    ).toEqual([
      { line: 4, message: "prefix has a control character at 7" },
      { line: 6, message: "prefix has a control character at 3" },
      { line: 8, message: "prefix is longer than a lock name may be (256 bytes)" },
    ]);
  });

  it("refuses a grant whose prefix is left empty, rather than granting every name", () => {
    // `prefix:` with no value is YAML's null: a slip, not the empty prefix (which is written "").
    expect(
      errorsOf(`roles:
  r:
    grants:
      - prefix:
        actions: [read]
`),
    ).toEqual([{ line: 4, message: 'prefix must be a string ("" for every name)' }]);
    const everything = Policy.parse(`roles:
  r:
    grants:
      - prefix: ""
        actions: [read]
identities:
  i: { roles: [r] }
`);
    expect(actionsOn(everything, "i", "any/name")).toEqual(["read"]);
  });

  it("reports a reference to a role the policy does not define, on the line of the reference", () => {
    expect(
      errorsOf(`roles:
  r:
    admin: false
identities:
  i:
    roles:
      - r
      - ghost
`),
    ).toEqual([{ line: 8, message: 'role "ghost" is not defined' }]);
  });

  it('refuses to redefine the built-in role "admin"', () => {
    expect(
      errorsOf(`roles:
  ops:
    admin: true
  admin:
    grants: []
`),
    ).toEqual([{ line: 4, message: 'role "admin" is built in' }]);
  });

  it("reports a quota that is not a non-negative integer, or not a quota", () => {
    expect(
      errorsOf(`roles:
  r:
    quotas:
      sessions: -1
      heldLocks: 1.5
      waits: "2"
      holderDataBytes: 100
      bogus: 3
identities:
  i: { quotas: { requestRate: lots } }
`),
    ).toEqual([
      { line: 4, message: "quota sessions must be a non-negative integer" },
      { line: 5, message: "quota heldLocks must be a non-negative integer" },
      { line: 6, message: "quota waits must be a non-negative integer" },
      {
        line: 8,
        message: 'unknown quota "bogus" (sessions, heldLocks, waits, holderDataBytes, requestRate)',
      },
      { line: 10, message: "quota requestRate must be a non-negative integer" },
    ]);
  });

  it("reports a YAML syntax error on its line", () => {
    expect(
      errorsOf(`version: 1
roles:
  r:
\tgrants: []
`),
    ).toEqual([{ line: 4, message: "Tabs are not allowed as indentation" }]);
    expect(
      errorsOf(`roles:
  r:
    grants:
      - prefix: a/
       actions: [read]
`),
    ).toEqual([{ line: 5, message: "Sequence item without - indicator" }]);
    // A key given twice is an error, not the last one winning.
    expect(
      errorsOf(`roles:
  r:
    admin: true
  r:
    admin: false
`),
    ).toEqual([{ line: 4, message: "Map keys must be unique" }]);
  });

  it("refuses a text that is not a mapping: a top-level list, a scalar, nothing", () => {
    const message = "a policy is a mapping with `roles` and `identities`";
    expect(errorsOf("# the policy\n\n- roles\n- identities\n")).toEqual([{ line: 3, message }]);
    expect(errorsOf("roles")).toEqual([{ line: 1, message }]);
    expect(errorsOf("")).toEqual([{ line: 1, message }]);
  });

  it("reports every error at once, sorted by line, and refuses the whole text", () => {
    // The undefined role is found last (once every role is known) but comes first by line.
    const text = `identities:
  i: { roles: [ghost] }
  "bad name": {}
roles:
  r:
    grants:
      - prefix: a/
        actions: [read, write]
    quotas: { sessions: -1 }
  admin: {}
version: 2
`;
    const errors = errorsOf(text);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 8, 9, 10, 11]);
    expect(errors.map((e) => e.message)).toEqual([
      'role "ghost" is not defined',
      'identity name "bad name" must be 1 to 128 letters, digits or . _ : @ / = + -',
      'unknown action "write" (acquire, acquire:exclusive, acquire:shared, acquire:upgradeable, read, revoke)',
      "quota sessions must be a non-negative integer",
      'role "admin" is built in',
      "version must be 1",
    ]);
    // The error's message names every one of them with its line.
    expect(() => Policy.parse(text)).toThrow(
      /^line 2: role "ghost" is not defined; line 3: .*; line 11: version must be 1$/,
    );
  });
});

describe("rights", () => {
  const policy = Policy.parse(`roles:
  orders-read:
    grants:
      - prefix: orders/
        actions: [read]
  eu-writer:
    grants:
      - prefix: orders/eu/
        actions: [acquire:exclusive, revoke]
      - prefix: orders/
        actions: [acquire:shared]
    quotas: { sessions: 5, heldLocks: 10 }
  eu-extra:
    grants:
      - prefix: orders/eu/
        actions: [acquire:upgradeable]
    quotas: { sessions: 8, waits: 2 }
  catalog-ro:
    grants:
      - prefix: catalog/
        actions: [read]
identities:
  alice: { roles: [orders-read, eu-writer] }
  bob: { roles: [eu-writer, eu-extra] }
  carol: { roles: [eu-writer, eu-extra], quotas: { sessions: 3, holderDataBytes: 0 } }
`);

  it("are the union of every granted prefix of a name, overlapping ones included", () => {
    expect(actionsOn(policy, "alice", "orders/eu/1")).toEqual([
      "acquire:exclusive",
      "acquire:shared",
      "read",
      "revoke",
    ]);
    expect(actionsOn(policy, "alice", "orders/us/1")).toEqual(["acquire:shared", "read"]);
    // The same prefix granted by two roles has both roles' actions.
    expect(actionsOn(policy, "bob", "orders/eu/1")).toEqual([
      "acquire:exclusive",
      "acquire:shared",
      "acquire:upgradeable",
      "revoke",
    ]);
    expect(policy.rightsOf("alice").grants()).toEqual([
      { prefix: "orders/", actions: ["acquire:shared", "read"] },
      { prefix: "orders/eu/", actions: ["acquire:exclusive", "revoke"] },
    ]);
  });

  it("deny a name outside every granted prefix, a prefix of a grant included", () => {
    for (const name of ["catalog/1", "orders", "orders-eu/1", "Orders/1", "", "x/orders/1"])
      expect(actionsOn(policy, "alice", name), name).toEqual([]);
    // A prefix is a prefix of the name's characters, not of its path segments.
    expect(actionsOn(policy, "alice", "orders/eu")).toEqual(["acquire:shared", "read"]);
    expect(actionsOn(policy, "alice", "orders/eu-west/1")).toEqual(["acquire:shared", "read"]);
  });

  it("cover a List or Watch prefix only when a granted prefix is a prefix of it", () => {
    const alice = policy.rightsOf("alice");
    expect(alice.covers("read", "orders/")).toBe(true);
    expect(alice.covers("read", "orders/eu/")).toBe(true);
    expect(alice.covers("read", "orders/eu/1")).toBe(true);
    // Wider than the grant: names under it are not all granted.
    expect(alice.covers("read", "orders")).toBe(false);
    expect(alice.covers("read", "")).toBe(false);
    expect(alice.covers("revoke", "orders/")).toBe(false);
    expect(alice.covers("revoke", "orders/eu/")).toBe(true);
    expect(OPEN_RIGHTS.covers("read", "")).toBe(true);
    expect(NO_RIGHTS.covers("read", "orders/")).toBe(false);
  });

  it("take an identity's own quotas over its roles', and the largest of its roles' otherwise", () => {
    expect(policy.rightsOf("alice").quotas).toEqual({ sessions: 5, heldLocks: 10 });
    expect(policy.rightsOf("bob").quotas).toEqual({ sessions: 8, heldLocks: 10, waits: 2 });
    // Its own, even below every role's; a quota of 0 is a quota.
    expect(policy.rightsOf("carol").quotas).toEqual({
      sessions: 3,
      heldLocks: 10,
      waits: 2,
      holderDataBytes: 0,
    });
  });

  it("add a token's roles to its identity's", () => {
    expect(actionsOn(policy, "alice", "catalog/1", ["catalog-ro"])).toEqual(["read"]);
    expect(actionsOn(policy, "alice", "orders/eu/1", ["eu-extra"])).toContain(
      "acquire:upgradeable",
    );
    // The roles' quotas count as the identity's roles' do.
    expect(policy.rightsOf("alice", ["eu-extra"]).quotas).toEqual({
      sessions: 8,
      heldLocks: 10,
      waits: 2,
    });
    expect(policy.rightsOf("alice", ["catalog-ro"]).roles).toEqual([
      "orders-read",
      "eu-writer",
      "catalog-ro",
    ]);
    // The built-in admin role makes the bearer an admin.
    const admin = policy.rightsOf("alice", ["admin"]);
    expect(admin.admin).toBe(true);
    expect(actionsOn(policy, "alice", "anything", ["admin"])).toEqual([...PREFIX_ACTIONS]);
    // An identity the policy does not name has only the token's roles.
    expect(actionsOn(policy, "stranger", "catalog/1", ["catalog-ro"])).toEqual(["read"]);
    expect(policy.rightsOf("stranger", ["catalog-ro"]).mayAcquire).toBe(false);
    // The cached rights of the identity alone are not changed by a token's.
    expect(actionsOn(policy, "alice", "catalog/1")).toEqual([]);
  });

  it("give nothing for roles the policy does not define, or an identity it does not name", () => {
    expect(policy.rightsOf("alice", ["ghost"]).grants()).toEqual(policy.rightsOf("alice").grants());
    expect(policy.rightsOf("alice", ["ghost"]).roles).toEqual(["orders-read", "eu-writer"]);
    const stranger = policy.rightsOf("stranger", ["ghost"]);
    expect(stranger.grants()).toEqual([]);
    expect(stranger.admin).toBe(false);
    expect(stranger.mayAcquire).toBe(false);
    expect(stranger.quotas).toEqual({});
    expect(actionsOn(policy, "stranger", "orders/eu/1")).toEqual([]);
  });

  it("of the constants: open (every action, no admin), admin, and none", () => {
    for (const a of PREFIX_ACTIONS) {
      expect(OPEN_RIGHTS.allows(a, "x")).toBe(true);
      expect(ADMIN_RIGHTS.allows(a, "x")).toBe(true);
      expect(NO_RIGHTS.allows(a, "x")).toBe(false);
    }
    expect([OPEN_RIGHTS.admin, ADMIN_RIGHTS.admin, NO_RIGHTS.admin]).toEqual([false, true, false]);
    expect([OPEN_RIGHTS.mayAcquire, NO_RIGHTS.mayAcquire]).toEqual([true, false]);
  });

  it("of a policy of 1,000 prefixes answer for names in and out of each", () => {
    const actionsOf = (i: number): PrefixAction[] =>
      PREFIX_ACTIONS.filter((_, bit) => ((i % 31) + 1) & (1 << bit));
    const lines = ["roles:", "  many:", "    grants:"];
    for (let i = 0; i < 1000; i++)
      lines.push(`      - prefix: t${i}/`, `        actions: [${actionsOf(i).join(", ")}]`);
    lines.push("identities:", "  many: { roles: [many] }");
    const big = Policy.parse(lines.join("\n"));
    const rights = big.rightsOf("many");
    expect(rights.grants()).toHaveLength(1000);
    for (let i = 0; i < 1000; i++) {
      const granted = actionsOf(i);
      for (const a of PREFIX_ACTIONS) {
        expect(rights.allows(a, `t${i}/`), `${a} t${i}/`).toBe(granted.includes(a));
        expect(rights.allows(a, `t${i}/x/y`), `${a} t${i}/x/y`).toBe(granted.includes(a));
      }
      // Out of it: a prefix of the grant, and a sibling that shares all but the slash.
      expect(actionsOn(big, "many", `t${i}`)).toEqual([]);
      expect(actionsOn(big, "many", `t${i}0`)).toEqual([]);
      expect(actionsOn(big, "many", `u${i}/x`)).toEqual([]);
    }
  });
});
