// The Python client (clients/python) without a cluster: its generated stubs are exactly
// what scripts/gen-python.sh makes from proto/, its error table is proto/wire.ts's, it
// type-checks under mypy --strict, its own unit tests pass under Debian's Python, and it
// installs as a package the way its README says: no network, Debian's grpcio and protobuf.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status as Status } from "@grpc/grpc-js";
import { afterAll, describe, expect, it } from "vitest";
import { WIRE_ERRORS } from "../../../proto/wire.ts";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const clientDir = join(repoRoot, "clients", "python");
const PYTHON = "/usr/bin/python3";
const outDir = mkdtempSync(join(tmpdir(), "palisade-python-stubs-"));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function python(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(PYTHON, args, {
    cwd: clientDir,
    env: { ...process.env, PYTHONPATH: clientDir, PYTHONDONTWRITEBYTECODE: "1" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The test methods defined in clients/python/tests/unit, sorted. */
function unitTestNames(): string[] {
  const dir = join(clientDir, "tests", "unit");
  return readdirSync(dir)
    .filter((f) => /^test_\w+\.py$/.test(f))
    .flatMap((f) =>
      [...readFileSync(join(dir, f), "utf8").matchAll(/^\s+def (test_\w+)\(/gm)].map(
        (m) => m[1] as string,
      ),
    )
    .sort();
}

describe("Python client", () => {
  it("the committed stubs are byte-identical to a fresh run of scripts/gen-python.sh", () => {
    execFileSync("bash", [join(repoRoot, "scripts", "gen-python.sh"), "--out", outDir], {
      stdio: "pipe",
    });
    const committedDir = join(clientDir, "palisade", "v1");
    const freshDir = join(outDir, "palisade", "v1");
    const committed = readdirSync(committedDir)
      .filter((f) => f !== "__pycache__")
      .sort();
    expect(readdirSync(freshDir).sort(), "files in clients/python/palisade/v1").toEqual(committed);
    expect(committed).toContain("lock_pb2_grpc.py");
    for (const file of committed) {
      const fresh = readFileSync(join(freshDir, file), "utf8");
      const kept = readFileSync(join(committedDir, file), "utf8");
      expect(
        fresh === kept,
        `clients/python/palisade/v1/${file} is stale: run scripts/gen-python.sh`,
      ).toBe(true);
    }
  }, 60_000);

  it("every error reason has the status code and error class that proto/wire.ts gives it", () => {
    const dump = python([
      "-c",
      [
        "import json",
        "from palisade.wire import WIRE_ERRORS",
        "print(json.dumps({name: [code.value[0], cls.__name__] for name, (code, cls) in WIRE_ERRORS.items()}))",
      ].join("\n"),
    ]);
    expect(dump.status, dump.stderr).toBe(0);
    const table = JSON.parse(dump.stdout) as Record<string, [number, string]>;
    const expected = Object.fromEntries(
      Object.entries(WIRE_ERRORS).map(([name, e]) => [name, [e.code, e.errorClass]]),
    );
    expect(table).toEqual(expected);
    expect(table.ERROR_REASON_NOT_LEADER).toEqual([Status.UNAVAILABLE, "UnavailableError"]);
  }, 60_000);

  it("type-checks under mypy --strict", () => {
    const run = python([
      "-m",
      "mypy",
      "--config-file",
      "mypy.ini",
      "--cache-dir",
      join(outDir, "mypy-cache"),
      "palisade",
      "tests",
    ]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^Success: no issues found in \d+ source files/m);
  }, 120_000);

  it("passes its own unit tests under Debian's Python, every one of them run", () => {
    const run = python(["-m", "unittest", "discover", "-s", "tests/unit", "-t", ".", "-v"]);
    const report = `${run.stdout}\n${run.stderr}`;
    expect(run.status, report).toBe(0);
    expect(run.stderr, report).toMatch(/^OK$/m);
    expect(run.stderr, report).not.toMatch(/skipped/);
    // A module that fails to load, or a test discovery passes over, must not go unnoticed.
    const ran = [...run.stderr.matchAll(/^(test_\w+) \(tests\.unit\.[\w.]+\)/gm)]
      .map((m) => m[1])
      .sort();
    expect(ran, report).toEqual(unitTestNames());
    expect(ran).toContain(
      "test_a_cancel_wait_refused_by_a_limit_or_a_server_error_is_sent_again_until_the_cluster_answers_it",
    );
  }, 120_000);

  it("installs from its folder into a virtualenv with Debian's grpcio, without network, and imports from outside the repository", () => {
    // A copy, so the build's leftovers (build/, *.egg-info) never land in the repository.
    const source = join(outDir, "src", "python");
    cpSync(clientDir, source, {
      recursive: true,
      filter: (from) => !from.includes("__pycache__") && !from.includes(".mypy_cache"),
    });
    const venv = join(outDir, "venv");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PYTHONDONTWRITEBYTECODE: "1",
    };
    delete env.PYTHONPATH;
    const step = (file: string, args: string[]): string => {
      const run = spawnSync(file, args, { cwd: outDir, env, encoding: "utf8", timeout: 120_000 });
      if (run.error) throw run.error;
      expect(run.status, `${file} ${args.join(" ")}\n${run.stdout}\n${run.stderr}`).toBe(0);
      return run.stdout;
    };
    step(PYTHON, ["-m", "venv", "--system-site-packages", venv]);
    step(join(venv, "bin", "pip"), ["install", "--no-build-isolation", "--no-index", source]);
    const probe = step(join(venv, "bin", "python"), [
      "-c",
      [
        "import json, importlib.metadata as md, pathlib, palisade",
        "here = pathlib.Path(palisade.__file__).parent",
        "print(json.dumps({'file': str(here), 'requires': sorted(md.requires('palisade-lock') or []),",
        "  'typed': (here / 'py.typed').exists(), 'stubs': (here / 'v1' / 'lock_pb2.pyi').exists(),",
        "  'client': palisade.PalisadeClient.__name__}))",
      ].join("\n"),
    ]);
    const got = JSON.parse(probe) as Record<string, unknown>;
    expect(String(got.file).startsWith(join(venv, "lib"))).toBe(true);
    // Older setuptools write "grpcio (>=1.51)" in the metadata, newer "grpcio>=1.51".
    const requires = (got.requires as string[]).map((r) => r.replace(/[ ()]/g, ""));
    expect(requires).toEqual(["grpcio>=1.51", "protobuf>=3.21"]);
    expect(got).toMatchObject({
      typed: true,
      stubs: true,
      client: "PalisadeClient",
    });
  }, 240_000);
});
