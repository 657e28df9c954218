// Runs every script of a golden-test folder as one test: the file's first line is the
// test's title, and the file as a whole must come out the same (`-u` writes it anew). An
// environment may answer a command at once or, when it runs a simulation, later.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parseScript, renderScript, type Command } from "./datadriven.ts";

export interface ScriptEnv {
  run(command: Command): string[] | Promise<string[]>;
}

/** The scripts of `dir` (`*.txt`, sorted), each run on a fresh environment from `newEnv`. */
export function goldenFiles(dir: string, newEnv: () => ScriptEnv): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".txt"))
    .sort();
  it("has scripts to run", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    const title = text.split("\n")[0]!.replace(/^#\s*/, "");
    it(`${file}: ${title}`, async () => {
      const env = newEnv();
      const chunks = parseScript(text);
      const outputs: string[][] = [];
      for (const chunk of chunks)
        if (chunk.kind === "command") outputs.push(await env.run(chunk.command));
      const actual = renderScript(chunks, () => outputs.shift()!);
      await expect(actual).toMatchFileSnapshot(path);
    });
  }
}
