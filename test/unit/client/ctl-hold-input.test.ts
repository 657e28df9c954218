// The lines `palisadectl acquire --hold` reads on its stdin: each command parsed or refused
// in one line, input split into lines whatever its pieces, an overlong line skipped whole,
// and whether the process is its terminal's foreground job.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  foregroundOfStat,
  LineSplitter,
  parseHoldLine,
  readHoldLines,
} from "../../../client/ctl/hold-input.ts";

describe("palisadectl hold lines", () => {
  it("parses upgrade with or without a duration, downgrade to shared or upgradeable, and release", () => {
    expect(parseHoldLine("upgrade")).toEqual({ verb: "upgrade" });
    expect(parseHoldLine("  upgrade   30s ")).toEqual({ verb: "upgrade", waitMs: 30_000 });
    expect(parseHoldLine("upgrade 250ms")).toEqual({ verb: "upgrade", waitMs: 250 });
    expect(parseHoldLine("Upgrade 1m")).toEqual({ verb: "upgrade", waitMs: 60_000 });
    expect(parseHoldLine("downgrade shared")).toEqual({ verb: "downgrade", mode: "shared" });
    expect(parseHoldLine("downgrade\tupgradeable")).toEqual({
      verb: "downgrade",
      mode: "upgradeable",
    });
    expect(parseHoldLine("release")).toEqual({ verb: "release" });
    expect(parseHoldLine("")).toBeNull();
    expect(parseHoldLine("   \t")).toBeNull();
  });

  it("refuses anything else with a one-line message that says what was expected", () => {
    const refusals: Array<[string, RegExp]> = [
      ["upgrade 30", /^upgrade: expected a duration with its unit/],
      ["upgrade soon", /^upgrade: expected a duration/],
      ["upgrade 1s 2s", /^upgrade takes at most one DURATION/],
      ["downgrade", /^downgrade takes shared or upgradeable \(got "downgrade"\)$/],
      ["downgrade exclusive", /^downgrade takes shared or upgradeable/],
      ["downgrade shared now", /^downgrade takes shared or upgradeable/],
      ["release now", /^release takes nothing more/],
      [
        "promote",
        /^unknown command "promote": expected upgrade \[DURATION\], downgrade shared\|upgradeable or release$/,
      ],
    ];
    for (const [line, message] of refusals) {
      expect(() => parseHoldLine(line), line).toThrow(message);
      try {
        parseHoldLine(line);
      } catch (err) {
        expect((err as Error).message).not.toContain("\n");
      }
    }
    // User input in a message is quoted and cut short.
    expect(() => parseHoldLine(`x${"y".repeat(500)}`)).toThrow(/^unknown command "xy{59}…"/);
    expect(() => parseHoldLine('say "\n"')).toThrow(/^unknown command "say"/);
  });

  it("splits text into lines whatever its pieces, CRLF included, with a last line at the end", () => {
    const lines: string[] = [];
    const splitter = new LineSplitter(
      (l) => lines.push(l),
      () => lines.push("<too long>"),
    );
    splitter.push("upg");
    splitter.push("rade 1s\r\ndowngrade sh");
    splitter.push("ared\n\nrel");
    expect(lines).toEqual(["upgrade 1s", "downgrade shared", ""]);
    splitter.end();
    expect(lines).toEqual(["upgrade 1s", "downgrade shared", "", "rel"]);
  });

  it("skips a line longer than its bound whole, saying so once, and goes on after it", () => {
    const lines: string[] = [];
    let tooLong = 0;
    const splitter = new LineSplitter(
      (l) => lines.push(l),
      () => tooLong++,
      8,
    );
    splitter.push("123456789");
    splitter.push("0123456789");
    splitter.push("abc\nrelease\n");
    splitter.push("0123456789\n");
    expect(lines).toEqual(["release"]);
    expect(tooLong).toBe(2);
  });

  it("reads the lines of a stream until stopped", async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const stop = readHoldLines(
      input,
      (l) => lines.push(l),
      () => undefined,
    );
    input.write("upgrade 1s\ndowngrade ");
    input.write("shared\n");
    await new Promise((r) => setImmediate(r));
    stop();
    input.write("release\n");
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual(["upgrade 1s", "downgrade shared"]);
  });

  it("knows the foreground job from /proc/PID/stat, whatever the command name holds", () => {
    // pid (comm) state ppid pgrp session tty_nr tpgid ...
    expect(foregroundOfStat("4242 (node) S 4000 4242 4000 34816 4242 4194560 1 2 3")).toBe(true);
    expect(foregroundOfStat("4242 (node) S 4000 4242 4000 34816 4000 4194560 1 2 3")).toBe(false);
    expect(foregroundOfStat("4242 (a) b (c) R 4000 77 4000 34816 77 0")).toBe(true);
    // No terminal: tpgid is -1.
    expect(foregroundOfStat("4242 (node) S 1 4242 4242 0 -1 0")).toBe(false);
  });
});
