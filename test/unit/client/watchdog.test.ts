// The `palisadectl run` watchdog on its own: it kills the command's whole process group at
// the deadline, honours extensions that come in time, ignores one that comes late, and
// reports how the command ended.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../eventually.ts";

const WATCHDOG = resolve(
  fileURLToPath(new URL("../../../client/run/watchdog.mjs", import.meta.url)),
);

interface ExitMessage {
  type: "exit";
  code: number | null;
  signal: string | null;
  killedFor: string | null;
}

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

/** The pid written to `path`, once it is; null if `ended` (the watchdog's end) comes first. */
async function waitForFile(path: string, ended: Promise<unknown>): Promise<number | null> {
  let over = false;
  void ended.then(() => (over = true));
  for (;;) {
    if (existsSync(path) && readFileSync(path, "utf8").trim() !== "")
      return Number(readFileSync(path, "utf8").trim());
    if (over) return null;
    await sleep(10);
  }
}

async function sleepUntil(ns: bigint): Promise<void> {
  while (nowNs() < ns) await sleep(Math.max(1, Number((ns - nowNs()) / 1_000_000n)));
}

interface Watched {
  wd: ChildProcess;
  dir: string;
  deadline: bigint;
  /** The watchdog's report of the command's end. */
  exit: Promise<ExitMessage>;
  /** Resolves when the watchdog is done: the command ended, or it could not be started. */
  ended: Promise<unknown>;
}

/** A watchdog running `sh -c script` (with $DIR set) under `deadline`. */
function startWatchdog(script: string, deadline: bigint): Watched {
  const dir = mkdtempSync(join(tmpdir(), "palisade-wd-"));
  dirs.push(dir);
  const wd = fork(WATCHDOG, [], {
    detached: true,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    execArgv: [],
  });
  started.push(wd);
  const exit = new Promise<ExitMessage>((done) => {
    wd.on("message", (m: { type: string }) => {
      if (m.type === "exit") done(m as ExitMessage);
    });
  });
  const ended = Promise.race([exit, new Promise((done) => wd.once("exit", done))]);
  wd.send({
    type: "start",
    deadline: deadline.toString(),
    command: "sh",
    args: ["-c", script],
    cwd: dir,
    env: { ...process.env, DIR: dir },
  });
  return { wd, dir, deadline, exit, ended };
}

/**
 * Sends `message` as the CLI does (client/run/supervise.ts): a watchdog that already ended
 * (its deadline passed first on a loaded machine) has closed its channel, and a write to
 * it would fail with EPIPE outside any test.
 */
function tell(run: Watched, message: object): void {
  if (run.wd.connected) run.wd.send(message, () => undefined);
}

/**
 * A watchdog whose command has written `file` (a pid) before its deadline, `marginMs` after
 * the start was asked for. The watchdog and the command take their time to start on a
 * loaded machine: a run whose deadline came first proves nothing and is started again with
 * twice the margin.
 */
async function startInTime(
  script: string,
  file: string,
  marginMs = 1_000,
): Promise<Watched & { pid: number }> {
  for (let margin = marginMs; ; margin *= 2) {
    const run = startWatchdog(script, nowNs() + BigInt(margin) * 1_000_000n);
    const pid = await waitForFile(join(run.dir, file), run.ended);
    if (pid !== null && nowNs() < run.deadline) return { ...run, pid };
    run.wd.kill("SIGKILL");
    if (margin >= 64_000)
      throw new Error(
        `the command never wrote ${file} before its deadline, even ${margin} ms away`,
      );
  }
}

/** Waits until the process is gone (a killed one is reaped by init a moment later). */
const dead = (pid: number): Promise<void> => eventually(() => expect(alive(pid)).toBe(false));

const FAMILY = 'sleep 600 & echo $! > "$DIR/grandchild"; echo $$ > "$DIR/child"; wait';

// The deadlines of a run double while a loaded machine starts its watchdog too late for them.
describe("run watchdog", () => {
  it("kills the command and its grandchild with SIGKILL when the deadline passes", async () => {
    const { dir, exit, ended, pid: child } = await startInTime(FAMILY, "child");
    const grandchild = await waitForFile(join(dir, "grandchild"), ended);
    const answer = await exit;
    expect(answer).toMatchObject({ killedFor: "deadline", signal: "SIGKILL" });
    expect(alive(child)).toBe(false);
    // The grandchild was in the same group; init reaps it a moment later.
    expect(grandchild).not.toBeNull();
    await dead(grandchild!);
  });

  it("honours an extension sent before the deadline and ignores one sent after it", async () => {
    // The extension must reach the watchdog before the deadline: one that a loaded machine
    // delivered too late is inconclusive, and the run is made again with a longer deadline.
    for (let margin = 1_000; ; margin *= 2) {
      const extended = await startInTime(FAMILY, "child", margin);
      tell(extended, {
        type: "extend",
        deadline: (extended.deadline + 60_000_000_000n).toString(),
      });
      await sleepUntil(extended.deadline + 300_000_000n);
      // Had the extension been ignored, the deadline would have killed the group already.
      tell(extended, { type: "kill" });
      const killedFor = (await extended.exit).killedFor;
      if (killedFor === "lost" || margin >= 16_000) {
        expect(killedFor).toBe("lost");
        break;
      }
    }

    const late = await startInTime(FAMILY, "child");
    await sleepUntil(late.deadline + 1n);
    tell(late, { type: "extend", deadline: (nowNs() + 60_000_000_000n).toString() });
    expect((await late.exit).killedFor).toBe("deadline");
  });

  it("reports the command's own exit code and kills what it left in its group", async () => {
    const { dir, exit, ended } = startWatchdog(
      'sleep 600 & echo $! > "$DIR/grandchild"; exit 7',
      nowNs() + 60_000_000_000n,
    );
    const answer = await exit;
    expect(answer).toMatchObject({ code: 7, killedFor: null });
    const grandchild = await waitForFile(join(dir, "grandchild"), ended);
    expect(grandchild).not.toBeNull();
    await dead(grandchild!);
  });

  it("kills at once on a loss, and ends the grace period of a forwarded SIGTERM at the deadline", async () => {
    const lost = await startInTime(FAMILY, "child", 60_000);
    tell(lost, { type: "kill" });
    expect((await lost.exit).killedFor).toBe("lost");

    // The command ignores SIGTERM; the grace (60 s) is cut at the deadline (a second or so away).
    const stubborn = await startInTime(`trap "" TERM; ${FAMILY}`, "child");
    tell(stubborn, { type: "terminate", signal: "SIGTERM", graceMs: 60_000 });
    expect((await stubborn.exit).killedFor).toBe("deadline");
  });
});
