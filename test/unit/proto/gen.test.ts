// The committed generated code must be exactly what the generator produces from proto/:
// a change to a .proto file without `npm run proto` fails here.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const outDir = mkdtempSync(join(tmpdir(), "palisade-proto-"));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("generated protobuf code", () => {
  it("is byte-identical to a fresh generation", () => {
    execFileSync(process.execPath, [join(repoRoot, "scripts", "gen-proto.mjs"), "--out", outDir], {
      stdio: "pipe",
    });
    for (const file of ["palisade.js", "palisade.d.ts", "descriptor.ts"]) {
      const fresh = readFileSync(join(outDir, file), "utf8");
      const committed = readFileSync(join(repoRoot, "proto", "gen", file), "utf8");
      expect(fresh.length).toBeGreaterThan(1000);
      // Compare as a boolean first so a mismatch does not print a megabyte of diff.
      expect(fresh === committed, `proto/gen/${file} is stale: run npm run proto`).toBe(true);
    }
  }, 60_000);
});
