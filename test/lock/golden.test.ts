// Golden runs of the lock state machine: each testdata/*.txt is a script of commands, each
// followed by what its entry produced (lock-script.ts). The file as a whole must come out
// the same; after a deliberate change of behaviour, `npx vitest run test/lock -u` writes the
// new outputs (read the diff: it is the change).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand, parseScript, renderScript, ScriptError } from "../raft/datadriven.ts";
import { LockScriptEnv } from "./lock-script.ts";

const dir = join(import.meta.dirname, "testdata");
const files = readdirSync(dir).filter((f) => f.endsWith(".txt")).sort();

describe("golden scripts of the lock state machine", () => {
  it("has scripts to run", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it("fails a script on an unknown command, an unknown argument or a session that does not exist", () => {
    const env = new LockScriptEnv();
    env.run(parseCommand("open A"));
    expect(() => env.run(parseCommand("aquire A lock=x"))).toThrow(ScriptError);
    expect(() => env.run(parseCommand("acquire A lock=x wiat=5"))).toThrow(/unknown argument wiat/);
    expect(() => env.run(parseCommand("acquire B lock=x"))).toThrow(/no session B/);
  });

  for (const file of files) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    const title = text.split("\n")[0]!.replace(/^#\s*/, "");
    it(`${file}: ${title}`, async () => {
      const env = new LockScriptEnv();
      const actual = renderScript(parseScript(text), (c) => env.run(c));
      await expect(actual).toMatchFileSnapshot(path);
    });
  }
});
