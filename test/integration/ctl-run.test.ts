// `palisadectl run` against a real cluster: the command runs only while the lock is held,
// and when the CLI freezes past its TTL the watchdog kills the command's whole process
// group before anyone else can be granted the lock.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { CTL, REPO_ROOT } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;
let dir: string;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "run-test" });
  dir = mkdtempSync(join(tmpdir(), "palisade-run-"));
  return () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function env(): NodeJS.ProcessEnv {
  return { ...process.env, PALISADE_ENDPOINTS: cluster.endpoints.join(","), DIR: dir };
}

function ctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CTL, ...args],
      { cwd: REPO_ROOT, env: env() },
      (err, stdout, stderr) =>
        done({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * The pid a command wrote to `path`. The command runs once the CLI has started and taken
 * the lock, however long that takes here; if the CLI exits first, the file never comes.
 */
async function pidFrom(path: string, cliExited?: Promise<unknown>): Promise<number> {
  let exited = false;
  void cliExited?.then(() => (exited = true));
  for (;;) {
    if (existsSync(path) && readFileSync(path, "utf8").trim() !== "")
      return Number(readFileSync(path, "utf8").trim());
    if (exited) throw new Error(`${path} never appeared: the CLI exited first`);
    await sleep(10);
  }
}

describe("palisadectl run", () => {
  it("gives the command PALISADE_LOCK and PALISADE_TOKEN, returns its exit code, then releases", async () => {
    const run = await ctl(
      "run",
      "r/env",
      "--",
      "sh",
      "-c",
      'echo "$PALISADE_LOCK $PALISADE_TOKEN"; exit 7',
    );
    expect(run.code).toBe(7);
    const [lock, token] = run.stdout.trim().split(" ");
    expect(lock).toBe("r/env");
    const history = await client.read.history("r/env");
    expect(history.map((r) => [r.token.toString(), r.reason])).toEqual([[token, "released"]]);
  });

  it("exits 2 without running the command when the lock is held", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    await session.acquire("r/busy");
    const marker = join(dir, "ran");
    const run = await ctl("run", "r/busy", "--", "sh", "-c", `touch ${marker}`);
    expect(run.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
    await session.close();
  });

  it("kills what the command left in its group before releasing", async () => {
    const run = await ctl(
      "run",
      "r/leftover",
      "--",
      "sh",
      "-c",
      'sleep 600 & echo $! > "$DIR/leftover"; exit 0',
    );
    expect(run.code).toBe(0);
    const leftover = await pidFrom(join(dir, "leftover"));
    for (let i = 0; i < 100 && alive(leftover); i++) await sleep(20);
    expect(alive(leftover)).toBe(false);
  });

  it("forwards Ctrl-C (SIGINT) to the command's group, returns its code and releases", async () => {
    const cli = spawn(
      process.execPath,
      [
        CTL,
        "run",
        "r/int",
        "--",
        "sh",
        "-c",
        'trap "exit 42" INT; echo $$ > "$DIR/int"; while :; do sleep 0.05; done',
      ],
      { cwd: REPO_ROOT, env: env(), stdio: ["ignore", "ignore", "pipe"] },
    );
    const exited = new Promise<number | null>((r) => cli.once("exit", (code) => r(code)));
    await pidFrom(join(dir, "int"), exited);
    cli.kill("SIGINT");
    expect(await exited).toBe(42);
    expect((await client.read.history("r/int")).map((r) => r.reason)).toEqual(["released"]);
  });

  for (const freeze of ["SIGSTOP", "SIGKILL"] as const) {
    it(`${freeze} of the CLI past its TTL: the whole group is dead before another client's acquire returns`, async () => {
      const name = `r/frozen-${freeze}`;
      const tag = freeze.toLowerCase();
      const cli = spawn(
        process.execPath,
        [
          // A TTL the CLI's own stalls on a loaded machine do not outlast: only the freeze does.
          CTL,
          "run",
          name,
          "--ttl",
          "5s",
          "--",
          "sh",
          "-c",
          `sleep 600 & echo $! > "$DIR/${tag}-grandchild"; echo $$ > "$DIR/${tag}-child"; wait`,
        ],
        { cwd: REPO_ROOT, env: env(), stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      cli.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => cli.once("exit", (code) => r(code)));
      const child = await pidFrom(join(dir, `${tag}-child`), exited);
      const grandchild = await pidFrom(join(dir, `${tag}-grandchild`), exited);
      expect(alive(child) && alive(grandchild)).toBe(true);
      const holder = (await client.read.getLock(name)).holder;
      expect(holder).toBeDefined();

      cli.kill(freeze);
      try {
        const other = cluster.client({ clientName: "second" });
        const handle = await other.lock(name, { waitMs: 30_000 });
        // Right as the second client holds the lock, nothing of the first command runs.
        const childAlive = alive(child);
        const grandchildAlive = alive(grandchild);
        expect(handle.token).toBeGreaterThan(holder?.token ?? 0n);
        expect(childAlive).toBe(false);
        expect(grandchildAlive).toBe(false);
        await handle.release();
      } finally {
        if (freeze === "SIGSTOP") cli.kill("SIGCONT");
      }
      if (freeze === "SIGSTOP") {
        // Thawed, the CLI finds its session lost and exits 3.
        expect(await exited).toBe(3);
        expect(stderr).toMatch(/lost/);
      } else {
        expect(await exited).toBeNull();
      }
    });
  }
});
