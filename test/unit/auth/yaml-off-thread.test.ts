// ApplyPolicy reads a YAML policy on a worker thread and checks the values it gets: the
// policy must be the one the text parsed here gives, and a text with errors must still be
// refused by the parse that names their lines.
import { describe, expect, it } from "vitest";
import { Policy } from "../../../node/auth/policy.ts";
import { parseYamlOffThread } from "../../../node/auth/yaml-off-thread.ts";

const TEXT = `
roles:
  rw:
    grants:
      - { prefix: "orders/", actions: [acquire, read] }
    quotas: { sessions: 3 }
  ops: { admin: true }
identities:
  team-a: { roles: [rw], quotas: { sessions: 1 } }
  boss: { roles: [ops] }
`;

describe("a policy's YAML read on a worker thread", () => {
  it("gives the policy the text parsed on this thread gives", async () => {
    const read = await parseYamlOffThread(TEXT);
    expect(read.kind).toBe("value");
    const policy = read.kind === "value" ? Policy.fromValue(TEXT, read.value) : null;
    expect(policy?.canonical()).toBe(Policy.parse(TEXT).canonical());
  });

  it("says a text does not parse, and values that are no policy give none", async () => {
    expect(await parseYamlOffThread("roles: [unclosed")).toEqual({ kind: "errors" });
    expect(await parseYamlOffThread("a: 1\na: 2\n")).toEqual({ kind: "errors" });
    const bad = await parseYamlOffThread("roles:\n  rw:\n    grants:\n");
    expect(bad.kind).toBe("value");
    // A role whose grants are left empty is refused by the parse that names the line.
    expect(bad.kind === "value" ? Policy.fromValue("x", bad.value) : "no value").toBeNull();
    expect(() => Policy.parse("roles:\n  rw:\n    grants:\n")).toThrow(/line 3/);
  });
});
