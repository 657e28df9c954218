// A policy entry is parsed once per node, not at each of the places that look at its text
// (validation where it is proposed, validation before apply, apply): a policy of a thousand
// roles takes a good part of a second to parse, and three parses in a row held a leader's
// event loop past an election timeout.
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as yaml from "yaml";
import { Policy, PolicyParseError } from "../../../node/auth/policy.ts";
import { resolveLimits } from "../../../node/lock/limits.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { validateCommand } from "../../../node/lock/validate.ts";

vi.mock("yaml", async (importOriginal) => {
  const real = await importOriginal<typeof import("yaml")>();
  return { ...real, parseDocument: vi.fn(real.parseDocument) };
});

const parses = vi.mocked(yaml.parseDocument);

/** A text no other test parses, so the count starts from nothing. */
const policyText = (tag: string): string => `
roles:
  r-${tag}: { grants: [{ prefix: "${tag}/", actions: [acquire, read] }] }
identities:
  team-${tag}: { roles: [r-${tag}] }
`;

beforeEach(() => {
  parses.mockClear();
});

describe("parsing a policy", () => {
  it("parses an entry's text once where it is proposed, validated and applied", () => {
    const text = policyText("once");
    const cmd = { type: "setPolicy", text, wallMs: 0 } as const;
    expect(validateCommand(cmd, resolveLimits({}))).toBeNull();
    const machine = new LockStateMachine();
    expect(machine.apply(1, cmd, "a:root").result.kind).toBe("policySet");
    expect(parses).toHaveBeenCalledTimes(1);
    expect(machine.accessState.policy?.rightsOf("team-once").allows("read", "once/x")).toBe(true);
  });

  it("parses another text anew, and refuses a bad text every time", () => {
    Policy.parse(policyText("first"));
    Policy.parse(policyText("second"));
    expect(parses).toHaveBeenCalledTimes(2);
    const bad = "roles:\n  x: { grants: [{ prefix: a/, actions: [write] }] }\n";
    expect(() => Policy.parse(bad)).toThrow(PolicyParseError);
    expect(() => Policy.parse(bad)).toThrow(PolicyParseError);
  });
});
