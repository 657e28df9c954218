// The script format of the golden interaction files: commands, their outputs, comments.
import { describe, expect, it } from "vitest";
import { parseCommand, parseScript, renderScript, ScriptError } from "./datadriven.ts";

describe("the interaction script format", () => {
  const file =
    "# what it shows\n\nadd-nodes 3 voters=(1,2,3) learners=()\n----\nold output\nmore\n\nstatus 1\n----\nok\n";

  it("gives back the same text when every command prints what it printed before", () => {
    const chunks = parseScript(file);
    const outputs = chunks.flatMap((c) => (c.kind === "command" ? [c.output] : []));
    expect(outputs).toEqual([["old output", "more"], ["ok"]]);
    let i = 0;
    expect(renderScript(chunks, () => [...outputs[i++]!])).toBe(file);
  });

  it("replaces each command's output and keeps the comments and blank lines", () => {
    const out = renderScript(parseScript(file), (c) => [`ran ${c.name}`]);
    expect(out).toBe(
      "# what it shows\n\nadd-nodes 3 voters=(1,2,3) learners=()\n----\nran add-nodes\n\nstatus 1\n----\nran status\n",
    );
  });

  it("reads bare words, key=value and key=(list), telling an empty list from a bare word", () => {
    expect(parseCommand("add-nodes 3 voters=(1,2) learners=() prevote=true").args).toEqual([
      { key: "3", assigned: false, values: [] },
      { key: "voters", assigned: true, values: ["1", "2"] },
      { key: "learners", assigned: true, values: [] },
      { key: "prevote", assigned: true, values: ["true"] },
    ]);
  });

  it("refuses a command without its ---- line, and an output that is empty or has a blank line", () => {
    expect(() => parseScript("status 1\nok\n")).toThrow(ScriptError);
    expect(() => renderScript(parseScript("status 1\n----\nok\n"), () => [])).toThrow(
      /printed nothing/,
    );
    expect(() => renderScript(parseScript("status 1\n----\nok\n"), () => ["a", "", "b"])).toThrow(
      /blank line/,
    );
  });
});
