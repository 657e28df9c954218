// palisadectl's access verbs without a cluster: a refused policy's message split into its
// errors by line, and a bearer token that cannot be sent refused before any call, from the
// option or from PALISADE_AUTH_TOKEN, without being echoed.
import { afterEach, describe, expect, it } from "vitest";
import { policyErrorsOf } from "../../../client/ctl/access-verbs.ts";
import { main } from "../../../client/ctl/main.ts";

async function ctl(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const saved = process.env.PALISADE_AUTH_TOKEN;
afterEach(() => {
  if (saved === undefined) delete process.env.PALISADE_AUTH_TOKEN;
  else process.env.PALISADE_AUTH_TOKEN = saved;
});

describe("palisadectl access verbs", () => {
  it("reads a refused policy's errors one per line, a message with a semicolon of its own kept whole", () => {
    expect(
      policyErrorsOf(
        'policy refused: line 3: unknown action "aquire"; expected acquire, read or revoke; line 9: role "ops" is not defined',
      ),
    ).toEqual([
      { line: 3, message: 'unknown action "aquire"; expected acquire, read or revoke' },
      { line: 9, message: 'role "ops" is not defined' },
    ]);
    expect(policyErrorsOf("identity must be 1 to 128 letters")).toBeNull();
  });

  it("refuses a bearer token that cannot be sent before calling anything, from the option or the variable", async () => {
    const bad = "pal_0123456789abcdef_not a token";
    // Port 1: nothing listens, so only a refusal before any call answers quickly.
    const byOption = await ctl("--endpoints", "127.0.0.1:1", "--auth-token", bad, "whoami");
    expect(byOption.code).toBe(1);
    expect(byOption.err).toMatch(/^error: InvalidArgumentError: token: expected a bearer token/);
    expect(byOption.err).not.toContain(bad);
    process.env.PALISADE_AUTH_TOKEN = bad;
    const byVariable = await ctl("--endpoints", "127.0.0.1:1", "whoami");
    expect(byVariable.code).toBe(1);
    expect(byVariable.err).toMatch(/token: expected a bearer token/);
  });
});
