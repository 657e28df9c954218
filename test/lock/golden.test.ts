// Golden runs of the lock state machine: each testdata/*.txt is a script of commands, each
// followed by what its entry produced (lock-script.ts). The file as a whole must come out
// the same; after a deliberate change of behaviour, `npx vitest run test/lock -u` writes the
// new outputs (read the diff: it is the change).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand, ScriptError } from "../raft/datadriven.ts";
import { LockScriptEnv } from "./lock-script.ts";
import { goldenFiles } from "../raft/golden-files.ts";

describe("golden scripts of the lock state machine", () => {
  it("fails a script on an unknown command, an unknown argument or a session that does not exist", () => {
    const env = new LockScriptEnv();
    env.run(parseCommand("open A"));
    expect(() => env.run(parseCommand("aquire A lock=x"))).toThrow(ScriptError);
    expect(() => env.run(parseCommand("acquire A lock=x wiat=5"))).toThrow(/unknown argument wiat/);
    expect(() => env.run(parseCommand("acquire B lock=x"))).toThrow(/no session B/);
  });

  goldenFiles(join(import.meta.dirname, "testdata"), () => new LockScriptEnv());
});
