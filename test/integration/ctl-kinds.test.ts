// palisadectl's lock kinds against a real cluster: shared acquires, an atomic set of locks,
// semaphore permits with their slots, holder data, a hold limit, `run` under each kind, and
// what `lock` and `locks` show of them.
import { afterEach, describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { runCtl, spawnCtl, type HeldCtl, type Run } from "./ctl-process.ts";
import { runCtlHere, runJson as json } from "./ctl-in-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "ctl-kinds-test" });
});

const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);

/** The same CLI in this process (no start-up cost): for the many read verbs. */
const ctlHere = (...args: string[]): Promise<Run> => runCtlHere(cluster.endpoints, ...args);

/** CLIs left holding a grant (`--hold` until Ctrl-C); killed after each test if still running. */
const holding: HeldCtl[] = [];
const hold = (...args: string[]): HeldCtl => {
  const run = spawnCtl(cluster.endpoints, ...args);
  holding.push(run);
  return run;
};

afterEach(() => {
  for (const run of holding.splice(0)) run.kill();
});

describe("palisadectl and the lock kinds", () => {
  it("acquire --shared lets two holders in at once, and lock/locks show the mode, every holder and its data", async () => {
    // Both hold until interrupted, so the reads below see them whatever the machine's speed.
    const first = hold(
      "--json",
      "acquire",
      "k/shared",
      "--shared",
      "--data",
      "reader one",
      "--hold",
    );
    await first.printed;
    const second = hold("--json", "acquire", "k/shared", "--shared", "--hold");
    await second.printed;
    expect((await client.read.getLock("k/shared")).holders?.length).toBe(2);
    const [lockText, lockJson, locksText] = await Promise.all([
      ctlHere("lock", "k/shared"),
      ctlHere("--json", "lock", "k/shared"),
      ctlHere("locks", "k/"),
    ]);
    expect(lockText.stdout.split("\n")[0]).toBe("k/shared: shared by 2 holders");
    expect(lockText.stdout).toMatch(
      /holder: session \d+ \(palisadectl\), token \d+, granted at index \d+, shared, data "reader one"/,
    );
    expect(
      json<{ holders: Array<{ mode: string; data?: string }> }>(lockJson).holders.map((h) => [
        h.mode,
        h.data,
      ]),
    ).toEqual([
      ["shared", "reader one"],
      ["shared", undefined],
    ]);
    expect(locksText.stdout.split("\n")[0]).toMatch(
      /^LOCK\s+HOLDER SESSION\s+TOKEN\s+GRANTED AT INDEX\s+WAITERS\s+KIND\s+HOLDERS$/,
    );
    expect(locksText.stdout).toMatch(/k\/shared\s+\d+\s+\d+\s+\d+\s+0\s+shared\s+2/);
    const [a, b] = await Promise.all([first.interrupt(), second.interrupt()]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(json<{ mode: string }>(a).mode).toBe("shared");
    expect((await client.read.getLock("k/shared")).holder).toBeUndefined();
  });

  it("acquire with several names takes them as one set at one token, and a held one keeps the whole set out, named", async () => {
    const set = await ctl("acquire", "k/a", "k/b", "k/c");
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    const token = BigInt(set.stdout.trim());
    for (const lock of ["k/a", "k/b", "k/c"]) {
      expect((await client.read.history(lock)).map((r) => [r.token, r.reason])).toEqual([
        [token, "released"],
      ]);
    }
    const session = await client.openSession({ ttlMs: 10_000 });
    try {
      await session.acquire("k/b");
      const blocked = await ctlHere("--json", "acquire", "k/a", "k/b", "k/c");
      expect(blocked.code).toBe(2);
      expect(
        json<{ acquired: boolean; blockedLock: string; holder: { sessionId: string } }>(blocked),
      ).toMatchObject({
        acquired: false,
        blockedLock: "k/b",
        holder: { sessionId: session.id.toString() },
      });
      // None of the set was taken.
      expect((await client.read.getLock("k/a")).holder).toBeUndefined();
      expect((await client.read.getLock("k/c")).holder).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it("semaphore acquire prints the token and slot; lock shows the semaphore's permits and each permit's slot and data; another count is refused", async () => {
    const once = await ctlHere("semaphore", "acquire", "k/sem", "--permits", "2");
    expect(once.code).toBe(0);
    expect(once.stdout.trim()).toMatch(/^\d+ slot 0$/);

    const held = hold(
      "--json",
      "semaphore",
      "acquire",
      "k/sem",
      "--permits",
      "2",
      "--data",
      "batch 7",
      "--hold",
    );
    await held.printed;
    const second = await ctlHere("--json", "semaphore", "acquire", "k/sem", "--permits", "2");
    expect(json<{ slot: number; permits: number }>(second)).toMatchObject({ slot: 1, permits: 2 });
    const lockText = await ctlHere("lock", "k/sem");
    expect(lockText.stdout.split("\n")[0]).toBe("k/sem: semaphore of 2 permits, 1 held");
    expect(lockText.stdout).toMatch(
      /holder: session \d+ \(palisadectl\), token \d+, granted at index \d+, slot 0, data "batch 7"/,
    );
    const locksText = await ctlHere("locks", "k/sem");
    expect(locksText.stdout).toMatch(/k\/sem\s+\d+\s+\d+\s+\d+\s+0\s+semaphore\/2\s+1/);

    const other = await ctlHere("semaphore", "acquire", "k/sem", "--permits", "3");
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^error: FailedPreconditionError: .*permits 3.*2/);
    const asLock = await ctlHere("acquire", "k/sem");
    expect(asLock.code).toBe(1);
    expect(asLock.stderr).toMatch(/semaphore/);
    const ended = await held.interrupt();
    expect(ended.code, ended.stderr).toBe(0);
    expect(json<{ slot: number; permits: number }>(ended)).toMatchObject({ slot: 0, permits: 2 });
    expect((await client.read.getLock("k/sem")).holder).toBeUndefined();
  });

  it("a hold limit ends acquire --hold with exit 3 before the leader's revoke, and the grant carries its limit meanwhile", async () => {
    const run = ctlHere("acquire", "k/limited", "--hold-limit", "1s", "--hold");
    // The grant may end before a read of the lock comes back; its history record, current
    // or ended, carries the limit either way.
    await cluster.waitFor(
      "the grant",
      async () => (await client.read.history("k/limited")).length === 1,
    );
    expect((await client.read.history("k/limited"))[0]?.holdMs).toBe(1_000);
    const done = await run;
    expect(done.code).toBe(3);
    expect(done.stderr).toMatch(/^lost: .*hold limit passed/);
    await cluster.waitFor(
      "the grant's end",
      async () => (await client.read.getLock("k/limited")).holder === undefined,
    );
    const ended = (await client.read.history("k/limited"))[0];
    expect(ended?.holdMs).toBe(1_000);
    expect(ended?.reason).not.toBe("current");
  });

  it("run --shared and run --permits hold the lock in that kind while the command runs, with PALISADE_SLOT for a permit", async () => {
    const shared = await ctl(
      "run",
      "k/run-shared",
      "--shared",
      "--",
      "sh",
      "-c",
      "echo token=$PALISADE_TOKEN",
    );
    expect(shared.code).toBe(0);
    const sharedToken = BigInt(/token=(\d+)/.exec(shared.stdout)?.[1] ?? "0");
    const sharedHistory = await client.read.history("k/run-shared");
    expect(sharedHistory.map((r) => [r.token, r.mode, r.reason])).toEqual([
      [sharedToken, "shared", "released"],
    ]);

    const permit = await ctl(
      "run",
      "k/run-sem",
      "--permits",
      "3",
      "--data",
      "nightly",
      "--",
      "sh",
      "-c",
      "echo slot=$PALISADE_SLOT",
    );
    expect(permit.code).toBe(0);
    expect(permit.stdout).toContain("slot=0");
    expect(
      (await client.read.history("k/run-sem")).map((r) => [r.mode, r.slot, r.data, r.reason]),
    ).toEqual([["permit", 0, "nightly", "released"]]);
  });

  it("bad kinds' options are one-line errors that send nothing", async () => {
    const both = await ctlHere("acquire", "k/bad", "--shared", "--permits", "2");
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^error: --shared/);
    const several = await ctlHere("acquire", "k/bad1", "k/bad2", "--permits", "2");
    expect(several.code).toBe(1);
    expect(several.stderr).toMatch(/^error: --permits/);
    const zero = await ctlHere("semaphore", "acquire", "k/bad", "--permits", "0");
    expect(zero.code).toBe(1);
    const big = await ctlHere("acquire", "k/bad", "--data", "x".repeat(2_000));
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(
      /^error: InvalidArgumentError: holder_data: 2000 bytes, more than 1024/,
    );
    expect((await client.read.history("k/bad")).length).toBe(0);
  });
});
