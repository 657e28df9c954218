// Script files in the style of cockroachdb/datadriven: a command line, a `----` line, then
// the command's output up to the next blank line. Blank lines and `#` comments between
// commands are kept, so running a file and writing every actual output back under its
// command gives the file itself when nothing changed.

export interface Command {
  /** 1-based line of the command in its file, for error messages. */
  readonly line: number;
  readonly text: string;
  readonly name: string;
  readonly args: readonly Arg[];
}

/** A bare word (`key`, not `assigned`), `key=value` or `key=(v1,v2,...)`. */
export interface Arg {
  readonly key: string;
  readonly assigned: boolean;
  readonly values: readonly string[];
}

export type Chunk =
  | { readonly kind: "text"; readonly line: string }
  | { readonly kind: "command"; readonly command: Command; readonly output: readonly string[] };

export class ScriptError extends Error {}

export function parseScript(text: string): Chunk[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const chunks: Chunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "" || line.startsWith("#")) {
      chunks.push({ kind: "text", line });
      i++;
      continue;
    }
    const command = parseCommand(line, i + 1);
    if (lines[i + 1] !== "----")
      throw new ScriptError(`line ${i + 2}: expected ---- after the command "${line}"`);
    i += 2;
    const output: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== "") output.push(lines[i++]!);
    chunks.push({ kind: "command", command, output });
  }
  return chunks;
}

export function parseCommand(text: string, line = 0): Command {
  const words = text.trim().split(/\s+/);
  const name = words[0]!;
  const args = words.slice(1).map((w): Arg => {
    const eq = w.indexOf("=");
    if (eq < 0) return { key: w, assigned: false, values: [] };
    const key = w.slice(0, eq);
    let value = w.slice(eq + 1);
    if (value.startsWith("(") && value.endsWith(")")) {
      value = value.slice(1, -1);
      return { key, assigned: true, values: value === "" ? [] : value.split(",") };
    }
    return { key, assigned: true, values: [value] };
  });
  return { line, text: text.trim(), name, args };
}

/** The file text with each command's output replaced by `run`'s (which must be non-empty and have no blank line). */
export function renderScript(chunks: readonly Chunk[], run: (c: Command) => string[]): string {
  const out: string[] = [];
  for (const c of chunks) {
    if (c.kind === "text") {
      out.push(c.line);
      continue;
    }
    const actual = run(c.command);
    if (actual.length === 0)
      throw new ScriptError(`line ${c.command.line}: "${c.command.text}" printed nothing`);
    if (actual.some((l) => l.trim() === ""))
      throw new ScriptError(`line ${c.command.line}: "${c.command.text}" printed a blank line`);
    out.push(c.command.text, "----", ...actual);
  }
  return `${out.join("\n")}\n`;
}
