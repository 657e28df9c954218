// palisadectl's help without a cluster: every verb, found by walking the help itself, shows
// at least one example of its own; --version prints the package's version; the old names of
// verbs (release --token, get, members, transfer-leader) are gone, not hidden.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../../../client/ctl/main.ts";

async function ctl(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The verbs a help text lists under "Commands:", without `help`. */
function verbsIn(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? "";
  return [...section.matchAll(/^ {2}([a-z-]+)/gm)]
    .map((m) => m[1] as string)
    .filter((v) => v !== "help");
}

/** Every runnable verb path: groups (a help with its own Commands section) are walked into. */
async function leafVerbs(path: string[] = []): Promise<string[][]> {
  const help = await ctl(...path, "--help");
  expect(help.code, help.err).toBe(0);
  const verbs = verbsIn(help.out);
  if (path.length > 0 && verbs.length === 0) return [path];
  const leaves: string[][] = [];
  for (const verb of verbs) leaves.push(...(await leafVerbs([...path, verb])));
  return leaves;
}

describe("palisadectl help", () => {
  it("every verb's help shows an example of that verb", async () => {
    const leaves = await leafVerbs();
    expect(leaves.map((p) => p.join(" "))).toEqual(
      expect.arrayContaining(["status", "acquire", "semaphore acquire", "revoke", "member list"]),
    );
    for (const path of leaves) {
      const help = await ctl(...path, "--help");
      const examples = help.out.split(/^Examples:$/m)[1] ?? "";
      expect(examples, path.join(" ")).toMatch(
        new RegExp(`^ {2}\\$ palisadectl (--\\S+ \\S+ )*${path.join(" ")}\\b`, "m"),
      );
    }
  });

  it("--version prints the package's version", async () => {
    const pkg = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    const version = await ctl("--version");
    expect(version.code).toBe(0);
    expect(version.out.trim()).toBe(pkg.version);
  });

  it("has one name per verb: the old names are unknown commands, exit 1", async () => {
    for (const old of [
      ["release", "x", "--token", "1"],
      ["get", "x"],
      ["members"],
      ["transfer-leader"],
    ]) {
      const run = await ctl(...old);
      expect(run.code, old.join(" ")).toBe(1);
      expect(run.err).toMatch(/^error: unknown command/);
    }
  });
});
