// The node bundle (dist/bundle/node.mjs, made by `npm run build`, which `npm ci` runs) as
// V8 holds it: a script's source stays in the heap for the life of the process, one byte per
// character only if every character is Latin-1 (one other character makes it UTF-16, twice
// the size), and without comments it is
// also about a third smaller.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const bundle = new URL("../../dist/bundle/node.mjs", import.meta.url);

describe("the node bundle", () => {
  it("is Latin-1 only, so V8 keeps its source at one byte per character", () => {
    expect(existsSync(bundle), "dist/bundle/node.mjs is missing: run `npm run build`").toBe(true);
    const text = readFileSync(bundle, "utf8");
    // Latin-1 is U+0000 to U+00FF, C0 controls included: the YAML parser's markers ("\x02",
    // "\x18", "\x1f") are one byte each, as V8 keeps them.
    const wide = [...text.matchAll(/[\u0100-\u{10ffff}]/gu)]
      .slice(0, 3)
      .map((m) => text.slice(Math.max(0, m.index - 40), m.index + 10));
    expect(wide).toEqual([]);
  });
});
