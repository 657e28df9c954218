// Golden step-by-step runs of the Raft core: each testdata/*.txt is a script of commands,
// each followed by what it printed. The file as a whole must come out the same; after a
// deliberate change of behaviour, `npx vitest run test/raft -u` writes the new outputs
// (read the diff: it is the change).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand, ScriptError } from "./datadriven.ts";
import { InteractionEnv } from "./interaction.ts";
import { goldenFiles } from "./golden-files.ts";

describe("golden interaction scripts of the Raft core", () => {
  it("fails a script on an unknown command, an unknown argument or a node that does not exist", () => {
    const env = new InteractionEnv();
    env.run(parseCommand("log-level none"));
    env.run(parseCommand("add-nodes 3 checkquorum=true"));
    expect(() => env.run(parseCommand("campaing 1"))).toThrow(ScriptError);
    expect(() => env.run(parseCommand("add-nodes 1 checkquorom=true"))).toThrow(
      /unknown argument checkquorom/,
    );
    expect(() => env.run(parseCommand("tick-election 9"))).toThrow(/no node 9/);
  });

  goldenFiles(join(import.meta.dirname, "testdata"), () => new InteractionEnv());
});
