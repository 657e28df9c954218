// The `palisadectl run` watchdog on its own: it kills the command's whole process group at
// the deadline, honours extensions that come in time, ignores one that comes late, and
// reports how the command ended.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const WATCHDOG = resolve(fileURLToPath(new URL("../../client/run/watchdog.mjs", import.meta.url)));

interface ExitMessage { type: "exit"; code: number | null; signal: string | null; killedFor: string | null }

const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of started.splice(0)) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const nowNs = (): bigint => process.hrtime.bigint();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function waitForFile(path: string): Promise<number> {
  for (let i = 0; i < 1_000; i++) {
    if (existsSync(path) && readFileSync(path, "utf8").trim() !== "") return Number(readFileSync(path, "utf8").trim());
    await sleep(10);
  }
  throw new Error(`${path} never appeared`);
}

async function sleepUntil(ns: bigint): Promise<void> {
  while (nowNs() < ns) await sleep(Math.max(1, Number((ns - nowNs()) / 1_000_000n)));
}

/** A watchdog running `sh -c script` (with $DIR set) under `deadline`. */
function startWatchdog(script: string, deadline: bigint): { wd: ChildProcess; dir: string; exit: Promise<ExitMessage> } {
  const dir = mkdtempSync(join(tmpdir(), "palisade-wd-"));
  dirs.push(dir);
  const wd = fork(WATCHDOG, [], { detached: true, stdio: ["ignore", "ignore", "inherit", "ipc"], execArgv: [] });
  started.push(wd);
  const exit = new Promise<ExitMessage>((done) => {
    wd.on("message", (m: { type: string }) => {
      if (m.type === "exit") done(m as ExitMessage);
    });
  });
  wd.send({ type: "start", deadline: deadline.toString(), command: "sh", args: ["-c", script], cwd: dir, env: { ...process.env, DIR: dir } });
  return { wd, dir, exit };
}

const FAMILY = 'sleep 600 & echo $! > "$DIR/grandchild"; echo $$ > "$DIR/child"; wait';

describe("run watchdog", { timeout: 20_000 }, () => {
  it("kills the command and its grandchild with SIGKILL when the deadline passes", async () => {
    const { dir, exit } = startWatchdog(FAMILY, nowNs() + 1_000_000_000n);
    const child = await waitForFile(join(dir, "child"));
    const grandchild = await waitForFile(join(dir, "grandchild"));
    const answer = await exit;
    expect(answer).toMatchObject({ killedFor: "deadline", signal: "SIGKILL" });
    expect(alive(child)).toBe(false);
    // The grandchild was in the same group; give init a moment to reap it, then look.
    for (let i = 0; i < 50 && alive(grandchild); i++) await sleep(20);
    expect(alive(grandchild)).toBe(false);
  });

  it("honours an extension sent before the deadline and ignores one sent after it", async () => {
    const first = nowNs() + 1_000_000_000n;
    const extended = startWatchdog(FAMILY, first);
    await waitForFile(join(extended.dir, "child"));
    extended.wd.send({ type: "extend", deadline: (first + 60_000_000_000n).toString() });
    await sleepUntil(first + 300_000_000n);
    // Had the extension been ignored, the deadline would have killed the group already.
    extended.wd.send({ type: "kill" });
    expect((await extended.exit).killedFor).toBe("lost");

    const deadline = nowNs() + 1_000_000_000n;
    const late = startWatchdog(FAMILY, deadline);
    await waitForFile(join(late.dir, "child"));
    await sleepUntil(deadline + 1n);
    late.wd.send({ type: "extend", deadline: (nowNs() + 60_000_000_000n).toString() });
    expect((await late.exit).killedFor).toBe("deadline");
  });

  it("reports the command's own exit code and kills what it left in its group", async () => {
    const { dir, exit } = startWatchdog('sleep 600 & echo $! > "$DIR/grandchild"; exit 7', nowNs() + 60_000_000_000n);
    const answer = await exit;
    expect(answer).toMatchObject({ code: 7, killedFor: null });
    const grandchild = await waitForFile(join(dir, "grandchild"));
    for (let i = 0; i < 50 && alive(grandchild); i++) await sleep(20);
    expect(alive(grandchild)).toBe(false);
  });

  it("kills at once on a loss, and ends the grace period of a forwarded SIGTERM at the deadline", async () => {
    const lost = startWatchdog(FAMILY, nowNs() + 60_000_000_000n);
    await waitForFile(join(lost.dir, "child"));
    lost.wd.send({ type: "kill" });
    expect((await lost.exit).killedFor).toBe("lost");

    // The command ignores SIGTERM; the grace (60 s) is cut at the deadline (1 s away).
    const stubborn = startWatchdog(`trap "" TERM; ${FAMILY}`, nowNs() + 1_000_000_000n);
    await waitForFile(join(stubborn.dir, "child"));
    stubborn.wd.send({ type: "terminate", signal: "SIGTERM", graceMs: 60_000 });
    expect((await stubborn.exit).killedFor).toBe("deadline");
  });
});
