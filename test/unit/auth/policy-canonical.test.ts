// A policy entry carries the policy as JSON in a fixed form (Policy.canonical), which every
// replica reads with JSON.parse instead of the YAML parser; it must mean exactly what the
// text an admin applied means, and a JSON text with errors must still be refused with lines.
import { describe, expect, it } from "vitest";
import { Policy, PolicyParseError, PREFIX_ACTIONS } from "../../../node/auth/policy.ts";

const YAML = `
roles:
  rw:
    grants:
      - { prefix: "orders/", actions: [acquire, read] }
      - { prefix: "", actions: [read] }
    quotas: { sessions: 3, requestRate: 10 }
  ops: { admin: true }
identities:
  team-a: { roles: [rw], quotas: { sessions: 1 } }
  boss: { roles: [ops, admin] }
`;

function errorsOf(text: string): Array<{ line: number; message: string }> {
  try {
    Policy.parse(text);
  } catch (err) {
    if (err instanceof PolicyParseError) return [...err.errors];
    throw err;
  }
  return [];
}

describe("a policy's canonical JSON", () => {
  it("gives every identity the rights the applied text gives it, and is its own canonical form", () => {
    const applied = Policy.parse(YAML);
    const canonical = applied.canonical();
    const read = Policy.parse(canonical);
    expect(read.canonical()).toBe(canonical);
    for (const who of ["team-a", "boss", "nobody"]) {
      const a = applied.rightsOf(who);
      const b = read.rightsOf(who);
      expect(b.admin).toBe(a.admin);
      expect(b.quotas).toEqual(a.quotas);
      expect(b.grants()).toEqual(a.grants());
      for (const action of PREFIX_ACTIONS)
        for (const name of ["orders/1", "other", "orders"])
          expect(b.allows(action, name), `${who} ${action} ${name}`).toBe(a.allows(action, name));
    }
  });

  it("refuses a JSON text with errors with their lines, as the YAML path does", () => {
    const json = `{
  "roles": {
    "rw": { "grants": [ { "prefix": "a/", "actions": ["fly"] } ] }
  },
  "identities": { "x": { "roles": ["missing"] } }
}`;
    expect(errorsOf(json)).toEqual([
      { line: 3, message: expect.stringContaining('unknown action "fly"') },
      { line: 5, message: 'role "missing" is not defined' },
    ]);
  });
});
