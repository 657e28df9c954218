// palisadectl loads only what the verb it runs needs, so that a command starts fast:
// `--help` loads neither gRPC nor the client library, and `status` loads neither the fence
// kit (pg, LevelDB) nor `run`'s supervisor nor the backup code. The modules a real
// palisadectl process loads are recorded by a module resolve hook.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../../scripts/free-ports.ts";
import { CTL, REPO_ROOT } from "./ctl-process.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "palisade-ctl-imports-"));
  writeFileSync(
    join(dir, "hooks.mjs"),
    [
      `import { appendFileSync } from "node:fs";`,
      `let out;`,
      `export function initialize(data) { out = data.out; }`,
      `export async function resolve(specifier, context, next) {`,
      `  const result = await next(specifier, context);`,
      `  appendFileSync(out, result.url + "\\n");`,
      `  return result;`,
      `}`,
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "register.mjs"),
    [
      `import { register } from "node:module";`,
      `register(new URL("./hooks.mjs", import.meta.url), { data: { out: process.env.PALISADE_LOAD_TRACE } });`,
    ].join("\n"),
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs palisadectl with `args`; the URLs of every module it resolved, and its exit code. */
function loadedBy(
  name: string,
  ...args: string[]
): Promise<{ code: number; urls: string[]; stderr: string }> {
  const trace = join(dir, `${name}.txt`);
  writeFileSync(trace, "");
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", pathToFileURL(join(dir, "register.mjs")).href, CTL, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, PALISADE_LOAD_TRACE: trace } },
      (err, _stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        done({
          code,
          stderr,
          urls: [
            ...new Set(
              readFileSync(trace, "utf8")
                .split("\n")
                .filter((u) => u !== ""),
            ),
          ],
        });
      },
    );
  });
}

const matching = (urls: string[], pattern: RegExp): string[] => urls.filter((u) => pattern.test(u));

describe("palisadectl module loading", () => {
  it("--help loads neither gRPC, protobuf nor the client library", async () => {
    const run = await loadedBy("help", "--help");
    expect(run.code).toBe(0);
    expect(matching(run.urls, /\/client\/ctl\/main\.(js|ts)$/)).toHaveLength(1);
    expect(
      matching(
        run.urls,
        /@grpc\/grpc-js|\/protobufjs\/|\/proto\/gen\/palisade|\/client\/client\.(js|ts)$/,
      ),
    ).toEqual([]);
  });

  it("status loads the client but not the fence kit, pg, LevelDB, the run supervisor or the backup code", async () => {
    const [closed] = await freePorts(1);
    const run = await loadedBy(
      "status",
      "--endpoints",
      `127.0.0.1:${closed}`,
      "--timeout",
      "300ms",
      "status",
    );
    // Nothing listens there: the row says unreachable and palisadectl exits 1.
    expect(run.code, run.stderr).toBe(1);
    expect(matching(run.urls, /\/client\/client\.(js|ts)$/)).toHaveLength(1);
    expect(
      matching(
        run.urls,
        /\/node_modules\/(pg|level|classic-level)\/|\/client\/fence\/|\/client\/run\/|\/client\/backup\.(js|ts)$|\/proto\/backup-format\.(js|ts)$/,
      ),
    ).toEqual([]);
  });
});
