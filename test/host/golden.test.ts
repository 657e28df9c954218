// Golden runs of NodeHost in a simulated three-node cluster: each testdata/*.txt is a script
// of calls and cluster steps, each followed by what came back (host-script.ts). After a
// deliberate change of behaviour, `npx vitest run test/host -u` writes the new outputs (read
// the diff: it is the change).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand, ScriptError } from "../raft/datadriven.ts";
import { goldenFiles } from "../raft/golden-files.ts";
import { HostScriptEnv } from "./host-script.ts";

describe("golden scripts of NodeHost in a simulated cluster", () => {
  it("fails a script on an unknown command or call, a call before start, or an unknown session", async () => {
    const env = new HostScriptEnv();
    await expect(env.run(parseCommand("call 1 GetLock lock=x"))).rejects.toThrow(/start/);
    await env.run(parseCommand("start seed=3"));
    await expect(env.run(parseCommand("cal 1 GetLock"))).rejects.toThrow(ScriptError);
    await expect(env.run(parseCommand("call 1 GetLok lock=x"))).rejects.toThrow(/unknown call/);
    await expect(env.run(parseCommand("call 1 KeepAlive sessions=(A)"))).rejects.toThrow(
      /no session A/,
    );
    await expect(env.run(parseCommand("call 9 GetLock lock=x"))).rejects.toThrow(/no node 9/);
  });

  goldenFiles(join(import.meta.dirname, "testdata"), () => new HostScriptEnv());
});
