// Backup and restore on real processes: `palisadectl snapshot save` takes a consistent
// backup from a live cluster; `palisade restore` seeds a new cluster whose tokens exceed
// every token the old cluster issued, also after the backup; old nodes are refused.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { snapshotNow } from "../../client/backup.ts";
import { main as ctlMain } from "../../client/ctl/main.ts";
import { UnavailableError, type PalisadeClient } from "../../client/index.ts";
import { tokenEpoch } from "../../node/lock/tokens.ts";
import { restoreMain } from "../../node/cli/restore.ts";
import { startCluster, type Cluster } from "./harness.ts";
import { IT_ROOT, ensureRoot } from "./pidfiles.ts";
import { freePorts } from "../../scripts/free-ports.ts";

ensureRoot();
const work = mkdtempSync(join(IT_ROOT, "backup-"));
const clusters: Cluster[] = [];
const oldDataDir = join(work, "old-node-1");
const backupFile = join(work, "old.backup");

/** Node processes a test started by itself (outside a cluster), killed at the end. */
const strays = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of strays) child.kill("SIGKILL");
  await Promise.allSettled(clusters.map((c) => c.stop()));
  rmSync(work, { recursive: true, force: true });
});

function capture(): { io: { out(t: string): void; err(t: string): void }; text(): string } {
  const lines: string[] = [];
  return {
    io: { out: (t) => lines.push(t), err: (t) => lines.push(t) },
    text: () => lines.join("\n"),
  };
}

async function grant(client: PalisadeClient, name: string): Promise<bigint> {
  const handle = await client.lock(name);
  const token = handle.token;
  await handle.release();
  return token;
}

/** The term in the old node's data, as its own Status reported before it was copied. */
let oldTerm = 0n;

const max = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a), 0n);

interface NodeRun {
  /** Its stdout and stderr so far. */
  output(): string;
  /** Its exit code (null: killed by a signal) and whole output, once it has exited. */
  exited: Promise<{ code: number | null; output: string }>;
  kill(): void;
}

/** Starts a node process of its own, outside any cluster (killed in afterAll if still running). */
function startNode(args: string[]): NodeRun {
  const child = spawn(process.execPath, ["--import", "tsx", "node/cli/main.ts", ...args], {
    cwd: join(import.meta.dirname, "../.."),
  });
  strays.add(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("close", (code) => {
      strays.delete(child);
      resolve({ code, output });
    }),
  );
  return { output: () => output, exited, kill: () => child.kill("SIGKILL") };
}

/** Resolves once the node's output matches `pattern`, or with false if it exits first. */
async function outputMatches(run: NodeRun, pattern: RegExp): Promise<boolean> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  while (!pattern.test(run.output())) {
    if (ended) return pattern.test(run.output());
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("backup and restore", () => {
  const oldTokens: bigint[] = [];
  let heldToken = 0n;
  let restored: Cluster;
  const newTokens: bigint[] = [];

  // Two clusters (six node processes) start, the first takes ~50 writes and four leader
  // transfers, and a restore runs between them: on a loaded machine, where one process
  // start alone can take tens of seconds, that is past the default test timeout.
  it("a restored cluster issues tokens above every token of the old cluster, also those issued after the backup", async () => {
    const old = await startCluster({ clusterId: "palisade-old" });
    clusters.push(old);
    const client = old.client({ clientName: "old-worker" });
    for (let i = 0; i < 4; i++) oldTokens.push(await grant(client, `pre-${i}`));
    // A lock held and a wait pending when the backup is taken.
    const holder = await client.openSession({ ttlMs: 60_000 });
    const held = await holder.acquire("held", { waitMs: 0 });
    expect(held.acquired).toBe(true);
    heldToken = held.token as bigint;
    const heldIndex = heldToken;
    const leaderOfOld = await old.leaderId();
    oldTokens.push(heldToken);

    // SnapshotSave on a follower: a snapshot at its applied index, the log compacted up to it.
    const follower = old.ids.find((id) => id !== leaderOfOld) as number;
    // The follower needs a leader to confirm its read point; during an election (which a
    // loaded machine may cause) it says so, to be asked again.
    let taken: Awaited<ReturnType<typeof snapshotNow>> | undefined;
    await old.waitFor("a snapshot on the follower", async () => {
      try {
        taken = await snapshotNow(old.endpoint(follower));
        return true;
      } catch (err) {
        if (err instanceof UnavailableError) return false;
        throw err;
      }
    });
    if (taken === undefined) throw new Error("no snapshot taken");
    expect(taken.index).toBeGreaterThanOrEqual(heldIndex);
    expect(taken.sizeBytes).toBeGreaterThan(0n);
    expect((await old.status(follower)).snapshotIndex).toBe(taken.index);

    const ctl = capture();
    const code = await ctlMain(
      ["--endpoints", old.endpoints.join(","), "snapshot", "save", backupFile],
      ctl.io,
    );
    expect(code, ctl.text()).toBe(0);
    expect(ctl.text()).toMatch(/cluster "palisade-old", index \d+, term \d+, token epoch 0/);

    // The old cluster runs on after the backup: far more grants than the backup's index.
    for (let i = 0; i < 40; i++) oldTokens.push(await grant(client, `post-${i % 3}`));
    // And through leader changes, so its last term is above the restored cluster's terms: an
    // old node's log is then "more up to date" and only the cluster id keeps it out.
    for (let i = 0; i < 4; i++) await client.admin.transferLeader();
    oldTokens.push(await grant(client, "post-last"));
    oldTerm = (await old.status(1)).term;
    await old.kill(1);
    cpSync(old.dataDir(1), oldDataDir, { recursive: true });
    await old.stop();

    const out = capture();
    restored = await startCluster({
      clusterId: "palisade-new",
      beforeStart: async ({ configPath }) => {
        const rc = await restoreMain(["--backup", backupFile, "--config", configPath], out.io);
        expect(rc, out.text()).toBe(0);
      },
    });
    clusters.push(restored);
    expect(out.text()).toContain(
      `new cluster "palisade-new": token epoch 1 (the backup's epoch + 1)`,
    );
    expect(out.text()).toContain("rule: a restore sets the token epoch to the backup's epoch + 1");
    expect(out.text()).toMatch(/dropped 2 sessions, 1 grants and 0 waiters/);

    const status = await restored.status(await restored.leaderId());
    expect(status.epoch).toBe(1n);
    const fresh = restored.client({ clientName: "new-worker" });
    // Sessions, holders and waiters are gone; history is kept.
    expect(await fresh.read.allSessions()).toEqual([]);
    expect((await fresh.read.getLock("held")).holder).toBeUndefined();
    const history = await fresh.read.history("held");
    expect(history.map((r) => r.token)).toContain(heldToken);
    expect(history.find((r) => r.token === heldToken)?.reason).toBe("sessionExpired");
    expect((await fresh.read.history("pre-0")).length).toBe(1);
    // Session ids carry the epoch: the old cluster's ids are never handed out again.
    const newSession = await fresh.openSession({ ttlMs: 10_000 });
    expect(tokenEpoch(newSession.id)).toBe(1);
    expect(await fresh.read.getSession(holder.id)).toBeUndefined();
    await newSession.close();

    const highestOld = max(oldTokens);
    for (const name of ["held", "pre-0", "post-1", "new"]) newTokens.push(await grant(fresh, name));
    for (const token of newTokens) {
      expect(token > highestOld, `token ${token} must exceed ${highestOld}`).toBe(true);
      expect(tokenEpoch(token)).toBe(1);
    }
  }, 240_000);

  it("a node of the old cluster is refused by the restored cluster and changes nothing", async () => {
    const before = await restored.status(await restored.leaderId());
    const client = restored.client();
    const historyBefore = await client.read.history("held");
    const config = JSON.parse(readFileSync(restored.configPath, "utf8")) as {
      clusterId: string;
      nodes: Array<{ id: number; peerAddress: string; clientAddress: string; dataDir: string }>;
    };
    const [peerPort, clientPort] = await freePorts(2);

    // Its old data with the new cluster file: the store's identity does not match, it does not start.
    const newCfgPath = join(work, "new-with-old-data.json");
    writeFileSync(
      newCfgPath,
      JSON.stringify({
        ...config,
        nodes: config.nodes.map((n) =>
          n.id === 1
            ? {
                ...n,
                peerAddress: `127.0.0.1:${peerPort}`,
                clientAddress: `127.0.0.1:${clientPort}`,
                dataDir: oldDataDir,
              }
            : n,
        ),
      }),
    );
    // It exits by itself: awaited without a timer of its own, however slowly it starts.
    const refused = await startNode(["--config", newCfgPath, "--id", "1"]).exited;
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /cannot continue: .*cluster id \\?"palisade-old\\?" on disk, configured \\?"palisade-new/,
    );

    // The old node comes back in place of node 1 (its addresses, its id) with its old data and
    // the old cluster id. Its log ends in a higher term than the restored cluster's, so only
    // the cluster id on its messages keeps nodes 2 and 3 from voting for it and following it.
    expect(before.term).toBeLessThan(oldTerm);
    await restored.kill(1);
    const survivors = await restored.leaderId();
    expect(survivors).not.toBe(1);
    const oldCfgPath = join(work, "old-aimed-at-new.json");
    writeFileSync(
      oldCfgPath,
      JSON.stringify({
        ...config,
        clusterId: "palisade-old",
        nodes: config.nodes.map((n) => (n.id === 1 ? { ...n, dataDir: oldDataDir } : n)),
      }),
    );
    // It starts (however long that takes here) and campaigns: it heard from no leader for an
    // election timeout (10 ticks of 20 ms). Then it is left to campaign for several more
    // election timeouts, the time it would need to win a vote or disturb the others.
    const strayRun = startNode(["--config", oldCfgPath, "--id", "1"]);
    const campaigned = await outputMatches(strayRun, /"role":"(pre)?candidate"/);
    expect(campaigned, strayRun.output()).toBe(true);
    await new Promise((r) => setTimeout(r, 2_000));
    strayRun.kill();
    const stray = await strayRun.exited;
    // It ran (was killed, not refused at start) and never heard from a leader.
    expect(stray.code).toBeNull();
    expect(stray.output).toContain("recovered durable state");
    expect(stray.output).not.toMatch(/leader is node|this node leads/);

    const after = await restored.status(survivors);
    expect(after.role).toBe("leader");
    expect(after.clusterId).toBe("palisade-new");
    expect(after.epoch).toBe(1n);
    expect(await client.read.history("held")).toEqual(historyBefore);
    expect(await client.read.history("post-last")).toEqual([]);
    // Node 1 of the restored cluster rejoins as before.
    await restored.restart(1);
    await restored.waitFor(
      "node 1 to follow the leader",
      async () => (await restored.status(1)).leaderId === survivors,
    );
  });

  it("restoring again needs --epoch above every epoch used", async () => {
    // A backup of the restored cluster (epoch 1): a lower or equal --epoch is refused.
    const restoredBackup = join(work, "restored.backup");
    const ctl = capture();
    expect(
      await ctlMain(
        ["--endpoints", restored.endpoints.join(","), "snapshot", "save", restoredBackup],
        ctl.io,
      ),
      ctl.text(),
    ).toBe(0);
    const spare = join(work, "spare");
    const spareCfg = join(work, "spare.json");
    writeFileSync(
      spareCfg,
      JSON.stringify({
        clusterId: "palisade-spare",
        nodes: [1, 2, 3].map((id) => ({
          id,
          peerAddress: `127.0.0.1:${1000 + id}`,
          clientAddress: `127.0.0.1:${2000 + id}`,
          dataDir: join(spare, `node-${id}`),
        })),
      }),
    );
    const low = capture();
    expect(
      await restoreMain(["--backup", restoredBackup, "--config", spareCfg, "--epoch", "1"], low.io),
    ).toBe(1);
    expect(low.text()).toContain(
      "--epoch 1 is not above the backup's epoch 1: it must be at least 2",
    );
    expect(low.text()).toContain("rule:");
    // The same cluster id as the backup's is refused too.
    const same = capture();
    expect(
      await restoreMain(["--backup", restoredBackup, "--config", restored.configPath], same.io),
    ).toBe(1);
    expect(same.text()).toContain("needs a new cluster id");

    // The first backup again, by default, would reuse epoch 1 (the restored cluster's): tokens could repeat.
    const again = capture();
    expect(
      await restoreMain(["--backup", backupFile, "--config", spareCfg], again.io),
      again.text(),
    ).toBe(0);
    expect(again.text()).toContain("token epoch 1 (the backup's epoch + 1)");
    rmSync(spare, { recursive: true, force: true });

    // With --epoch above every epoch used, its tokens exceed the restored cluster's as well.
    await restored.stop();
    const out = capture();
    const third = await startCluster({
      clusterId: "palisade-third",
      beforeStart: async ({ configPath }) => {
        expect(
          await restoreMain(
            ["--backup", backupFile, "--config", configPath, "--epoch", "2"],
            out.io,
          ),
          out.text(),
        ).toBe(0);
      },
    });
    clusters.push(third);
    expect(out.text()).toContain(`token epoch 2 (from --epoch)`);
    const client = third.client();
    const highest = max([...oldTokens, ...newTokens]);
    for (const name of ["held", "new", "other"]) {
      const token = await grant(client, name);
      expect(token > highest).toBe(true);
      expect(tokenEpoch(token)).toBe(2);
    }
  });
});
