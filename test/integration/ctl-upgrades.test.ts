// palisadectl and upgradeable locks against a real cluster: `acquire --upgradeable --hold`
// upgraded, downgraded and released by lines on its stdin while readers come and go, an
// exclusive hold downgraded and upgraded back in text, `run --upgrade` running its command
// with the exclusive grant's token once the readers have left (or not at all), and what
// `lock`, `locks` and `history` print of it all.
import { afterEach, describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import {
  runCtl,
  spawnCtl,
  spawnCtlWithInput,
  type HeldCtl,
  type Run,
  type TalkingCtl,
} from "./ctl-process.ts";
import { runCtlHere } from "./ctl-in-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "ctl-upgrades-test" });
});

const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);
const ctlHere = (...args: string[]): Promise<Run> => runCtlHere(cluster.endpoints, ...args);

/** CLIs left holding a grant; killed after each test if still running. */
const holding: HeldCtl[] = [];
const hold = (...args: string[]): HeldCtl => {
  const run = spawnCtl(cluster.endpoints, ...args);
  holding.push(run);
  return run;
};
const holdTalking = (...args: string[]): TalkingCtl => {
  const run = spawnCtlWithInput(cluster.endpoints, ...args);
  holding.push(run);
  return run;
};

afterEach(() => {
  for (const run of holding.splice(0)) run.kill();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The first `count` lines the CLI printed on stdout, once it has printed them. */
async function linesOf(run: HeldCtl, count: number): Promise<string[]> {
  let exited = false;
  void run.done.then(() => (exited = true));
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const lines = run.stdoutSoFar().split("\n").slice(0, -1);
    if (lines.length >= count) return lines.slice(0, count);
    if (exited || Date.now() > giveUpAt)
      throw new Error(
        `expected ${count} lines, got ${JSON.stringify(run.stdoutSoFar())}; stderr ${JSON.stringify(run.stderrSoFar())}`,
      );
    await sleep(20);
  }
}

/** Line `n` (0 first) of the CLI's stdout as JSON, once printed. */
async function jsonLine<T>(run: HeldCtl, n: number): Promise<T> {
  return JSON.parse((await linesOf(run, n + 1))[n] as string) as T;
}

interface GrantLine {
  lock: string;
  token: string;
  mode: string;
  upgraded?: boolean;
  downgraded?: boolean;
}

/** Resolves once a holder of `lock` waits to upgrade; that wait's start index. */
async function upgradeWaiting(lock: string): Promise<bigint> {
  let since: bigint | undefined;
  await cluster.waitFor(`an upgrade of ${lock} to wait`, async () => {
    const info = await client.read.getLock(lock);
    since = (info.holders ?? (info.holder ? [info.holder] : [])).find(
      (h) => h.upgradingSince !== undefined,
    )?.upgradingSince;
    return since !== undefined;
  });
  return since as bigint;
}

describe("palisadectl and upgradeable locks", () => {
  it("acquire --upgradeable --hold upgrades, downgrades and releases on the lines of its stdin", async () => {
    const lock = "u/stdin";
    const reader = hold("acquire", lock, "--shared", "--hold");
    await reader.printed;
    const readerToken = BigInt(reader.stdoutSoFar().trim());
    const held = holdTalking("--json", "acquire", lock, "--upgradeable", "--hold");
    const first = await jsonLine<GrantLine & { acquired: boolean }>(held, 0);
    expect(first).toMatchObject({ lock, acquired: true, mode: "upgradeable" });
    const upgradeableToken = BigInt(first.token);
    expect(upgradeableToken).toBeGreaterThan(readerToken);

    // The reader stays: the upgrade runs out of time and the upgradeable grant goes on.
    held.send("upgrade 300ms");
    expect(await jsonLine<GrantLine>(held, 1)).toEqual({
      lock,
      token: first.token,
      mode: "upgradeable",
      upgraded: false,
    });
    expect(held.stderrSoFar()).toMatch(
      /^not upgraded: other holders did not leave within 300 ms; still held upgradeable, token \d+\n/,
    );
    const [lockText, locksText] = await Promise.all([
      ctlHere("lock", lock),
      ctlHere("locks", "u/"),
    ]);
    expect(lockText.stdout.split("\n")[0]).toBe(`${lock}: shared by 2 holders, one upgradeable`);
    expect(lockText.stdout).toMatch(
      new RegExp(
        `holder: session \\d+ \\(palisadectl\\), token ${upgradeableToken}, granted at index \\d+, upgradeable\\n`,
      ),
    );
    expect(locksText.stdout).toMatch(/u\/stdin\s+\d+\s+\d+\s+\d+\s+0\s+shared\+upgradeable\s+2/);

    // A bad line is said on stderr and changes nothing.
    held.send("promote now");
    held.send("downgrade exclusive");
    await cluster.waitFor("the bad lines refused", () =>
      Promise.resolve((held.stderrSoFar().match(/^error: /gm) ?? []).length === 2),
    );
    expect(held.stderrSoFar()).toMatch(/^error: unknown command "promote": expected upgrade/m);
    expect(held.stderrSoFar()).toMatch(/^error: downgrade takes shared or upgradeable/m);

    // An upgrade that waits is shown on the holder, and goes through once the reader leaves.
    held.send("upgrade 1m");
    const since = await upgradeWaiting(lock);
    expect((await ctlHere("lock", lock)).stdout).toMatch(
      new RegExp(
        `token ${upgradeableToken}, granted at index \\d+, upgradeable, upgrading since index ${since}\n`,
      ),
    );
    expect((await reader.interrupt()).code).toBe(0);
    const upgraded = await jsonLine<GrantLine>(held, 2);
    expect(upgraded).toMatchObject({ lock, mode: "exclusive", upgraded: true });
    const exclusiveToken = BigInt(upgraded.token);
    expect(exclusiveToken).toBeGreaterThan(upgradeableToken);
    expect(await client.read.validateToken(lock, exclusiveToken)).toBe(true);

    held.send("downgrade shared");
    const downgraded = await jsonLine<GrantLine>(held, 3);
    expect(downgraded).toMatchObject({ lock, mode: "shared", downgraded: true });
    const sharedToken = BigInt(downgraded.token);
    expect(sharedToken).toBeGreaterThan(exclusiveToken);

    held.send("release");
    const end = await held.done;
    expect(end.code, end.stderr).toBe(0);
    expect((await client.read.getLock(lock)).holder).toBeUndefined();
    const history = await client.read.history(lock);
    expect(history.map((r) => [r.token, r.mode ?? "exclusive", r.reason])).toEqual([
      [readerToken, "shared", "released"],
      [upgradeableToken, "upgradeable", "upgraded"],
      [exclusiveToken, "exclusive", "downgraded"],
      [sharedToken, "shared", "released"],
    ]);
    const historyText = await ctlHere("history", lock);
    expect(historyText.stdout.split("\n")[0]).toMatch(/\s+REASON\s+GRANTED\s+MODE$/);
    expect(historyText.stdout).toMatch(
      new RegExp(`^${upgradeableToken}\\s.*\\supgraded\\s.*\\supgradeable$`, "m"),
    );
    expect(historyText.stdout).toMatch(
      new RegExp(`^${exclusiveToken}\\s.*\\sdowngraded\\s.*\\sexclusive$`, "m"),
    );
  });

  it("an exclusive hold downgrades and upgrades back in text; the end of stdin changes nothing", async () => {
    const lock = "u/text";
    const held = holdTalking("acquire", lock, "--hold");
    const [first] = await linesOf(held, 1);
    const token = BigInt(first as string);
    held.send("upgrade");
    held.send("downgrade upgradeable");
    held.send("upgrade");
    const [, refused, down, up] = await linesOf(held, 4);
    // An exclusive grant is not upgraded: said, and the grant goes on.
    expect(refused).toBe(`${token} exclusive`);
    expect(held.stderrSoFar()).toMatch(
      /^not upgraded: the lock is held exclusive, and only upgradeable grants are upgraded; still held exclusive, token \d+\n/,
    );
    const [downToken, downMode] = (down as string).split(" ");
    expect(downMode).toBe("upgradeable");
    expect(BigInt(downToken as string)).toBeGreaterThan(token);
    const [upToken, upMode] = (up as string).split(" ");
    expect(upMode).toBe("exclusive");
    expect(BigInt(upToken as string)).toBeGreaterThan(BigInt(downToken as string));

    held.endInput();
    await sleep(500);
    expect(await client.read.validateToken(lock, BigInt(upToken as string))).toBe(true);
    const end = await held.interrupt();
    expect(end.code, end.stderr).toBe(0);
    expect((await client.read.history(lock)).map((r) => r.reason)).toEqual([
      "downgraded",
      "upgraded",
      "released",
    ]);
  });

  it("run --upgrade runs the command with the exclusive token once the readers have left", async () => {
    const lock = "u/run";
    const reader = hold("acquire", lock, "--shared", "--hold");
    await reader.printed;
    const readerToken = BigInt(reader.stdoutSoFar().trim());
    const run = ctl(
      "run",
      lock,
      "--upgrade",
      "--wait",
      "1m",
      "--",
      "sh",
      "-c",
      'echo "$PALISADE_LOCK $PALISADE_TOKEN"',
    );
    await upgradeWaiting(lock);
    expect((await reader.interrupt()).code).toBe(0);
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    const [name, printed] = done.stdout.trim().split(" ");
    expect(name).toBe(lock);
    const token = BigInt(printed as string);
    expect(token).toBeGreaterThan(readerToken);
    const history = await client.read.history(lock);
    expect(history.map((r) => [r.mode ?? "exclusive", r.reason])).toEqual([
      ["shared", "released"],
      ["upgradeable", "upgraded"],
      ["exclusive", "released"],
    ]);
    expect(history[2]?.token).toBe(token);
    expect(token).toBeGreaterThan(history[1]?.token as bigint);
  });

  it("run --upgrade that the readers do not leave in time runs nothing, exits 2 and lets go", async () => {
    const lock = "u/run-late";
    const reader = hold("acquire", lock, "--shared", "--hold");
    await reader.printed;
    const run = await ctl(
      "run",
      lock,
      "--upgrade",
      "--wait",
      "500ms",
      "--",
      "sh",
      "-c",
      "echo ran",
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^not upgraded: u\/run-late still had other holders/);
    const info = await client.read.getLock(lock);
    expect(info.holderCount).toBe(1);
    expect(info.holder?.mode).toBe("shared");
    expect((await reader.interrupt()).code).toBe(0);
    expect((await client.read.history(lock)).map((r) => [r.mode, r.reason])).toEqual([
      ["shared", "released"],
      ["upgradeable", "released"],
    ]);
  });

  it("acquire --upgradeable takes every named lock upgradeable; bad mode options are one-line errors", async () => {
    const set = await ctlHere("--json", "acquire", "u/a", "u/b", "--upgradeable");
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ mode: "upgradeable", locks: ["u/a", "u/b"] });
    for (const lock of ["u/a", "u/b"])
      expect((await client.read.history(lock)).map((r) => [r.mode, r.reason])).toEqual([
        ["upgradeable", "released"],
      ]);
    for (const [args, message] of [
      [["acquire", "u/bad", "--upgradeable", "--shared"], /^error: --upgradeable: /],
      [["acquire", "u/bad", "--upgradeable", "--permits", "2"], /^error: --upgradeable: /],
      [["run", "u/bad", "--upgrade", "--shared", "--", "true"], /^error: --upgrade: /],
      [["run", "u/bad", "--upgrade", "--permits", "2", "--", "true"], /^error: --upgrade: /],
    ] as const) {
      const bad = await ctlHere(...args);
      expect(bad.code, args.join(" ")).toBe(1);
      expect(bad.stderr).toMatch(message);
    }
    expect((await client.read.history("u/bad")).length).toBe(0);
  });
});
