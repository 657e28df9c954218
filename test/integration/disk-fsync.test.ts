// A failing fsync is fatal: with the fault kit's LD_PRELOAD shim (chaos/fault/c/fsync-fail.c,
// built with gcc on first use) the leader's LevelDB sync fails with EIO, the node exits with a
// clear line, the other two carry on, and restarted it recovers from disk. Nothing
// acknowledged is lost, on the cluster and on the restarted node.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShim } from "../../chaos/fault/shims.ts";
import type { PalisadeClient } from "../../client/index.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { IT_ROOT, ensureRoot } from "./pidfiles.ts";

const FAILING = 1;

ensureRoot();
const work = mkdtempSync(join(IT_ROOT, "fsync-"));
const trigger = join(work, "fail-fsync-now");
let shim = "";
let cluster: Cluster | undefined;
let client: PalisadeClient;
/** The failing node's data directory: the shim fails fsync only for files under it. */
let prefix = "";

beforeAll(async () => {
  shim = await buildShim("fsync-fail");
  cluster = await startCluster({
    env: (id) =>
      id === FAILING
        ? { LD_PRELOAD: shim, FSYNC_FAIL_TRIGGER: trigger, FSYNC_FAIL_PREFIX: prefix }
        : undefined,
    beforeStart: ({ dataDir }) => {
      prefix = dataDir(FAILING);
    },
  });
  client = cluster.client({ clientName: "fsync-test", retryBudgetMs: 20_000 });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a failing fsync", () => {
  it("kills the node with a clear line; the others carry on; restarted it recovers and nothing acknowledged is lost", async () => {
    const c = cluster as Cluster;
    expect(prefix).not.toBe("");
    const acknowledged = new Map<string, bigint>();
    const grant = async (name: string): Promise<void> => {
      const handle = await client.lock(name);
      acknowledged.set(name, handle.token);
      await handle.release();
    };
    await client.admin.transferLeader(FAILING);
    await c.waitFor(
      `node ${FAILING} to lead`,
      async () => (await c.status(FAILING)).role === "leader",
    );
    for (let i = 0; i < 5; i++) await grant(`before-${i}`);

    writeFileSync(trigger, "");
    // The leader's next synced write fails; requests in flight then fail over.
    let i = 0;
    while (c.isRunning(FAILING) && i < 50) {
      await grant(`during-${i++}`).catch(() => undefined);
    }
    await c.waitFor(`node ${FAILING} to exit`, async () => !c.isRunning(FAILING));
    expect(c.logs(FAILING)).toMatch(
      /durable write failed; stopping \(restart recovers from disk\)/,
    );
    expect(c.logs(FAILING)).toMatch(
      /cannot continue: data directory problem: a LevelDB write failed/,
    );

    // The other two carry on.
    const leader = await c.leaderId();
    expect(leader).not.toBe(FAILING);
    for (let k = 0; k < 5; k++) await grant(`after-${k}`);

    // Restarted without the fault, it recovers from disk and catches up.
    rmSync(trigger);
    await c.restart(FAILING);
    const commit = (await c.status(leader)).commitIndex;
    await c.waitFor(
      `node ${FAILING} to catch up`,
      async () => (await c.status(FAILING)).appliedIndex >= commit,
      {
        progress: async () => (await c.status(FAILING)).appliedIndex,
      },
    );
    expect(c.logs(FAILING)).toMatch(/recovered durable state/);

    // Read through the restarted node as leader: every acknowledged grant is in its history.
    await client.admin.transferLeader(FAILING);
    await c.waitFor(
      `node ${FAILING} to lead again`,
      async () => (await c.status(FAILING)).role === "leader",
    );
    for (const [name, token] of acknowledged) {
      const history = await client.read.history(name);
      expect(
        history.map((r) => r.token),
        name,
      ).toContain(token);
    }
    const tokens = [...acknowledged.values()];
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
