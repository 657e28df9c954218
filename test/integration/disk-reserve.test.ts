// The free-space reserve on a real file system: a small tmpfs mounted over one node's data
// directory, filled below the reserve. As leader the node refuses new writes with
// RESOURCE_EXHAUSTED; as follower it stops acknowledging appends while the other two carry
// on; when space returns it resumes and catches up. Needs root (mount).
import { execFileSync } from "node:child_process";
import { rmSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { LimitError } from "../../client/errors.ts";
import { startCluster, type Cluster } from "./harness.ts";

const MiB = 1024 * 1024;
const TMPFS_BYTES = 48 * MiB;
const RESERVE_BYTES = 16 * MiB;
const LOW = 3;

let cluster: Cluster | undefined;
let client: PalisadeClient;
let mountPoint = "";
let mounted = false;

function unmount(): void {
  if (!mounted) return;
  try {
    execFileSync("umount", [mountPoint]);
  } catch {
    execFileSync("umount", ["-l", mountPoint]);
  }
  mounted = false;
}

beforeAll(async () => {
  if (process.getuid?.() !== 0) {
    throw new Error(
      "disk-reserve tests mount a tmpfs and need root: run them as root (as CI does)",
    );
  }
  cluster = await startCluster({
    disk: { reserveBytes: RESERVE_BYTES },
    beforeStart: ({ dataDir }) => {
      mountPoint = dataDir(LOW);
      execFileSync("mkdir", ["-p", mountPoint]);
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_BYTES}`, "tmpfs", mountPoint]);
      mounted = true;
    },
  });
  // Attempts are not cut short by the usual 2 s: on a loaded machine an attempt that ran out
  // unanswered would (rightly) leave the refusal after it without a final answer.
  client = cluster.client({ clientName: "disk-test", retryBudgetMs: 5_000, callTimeoutMs: 30_000 });
}, 60_000);

afterAll(async () => {
  try {
    await cluster?.kill(LOW);
  } finally {
    unmount();
    await cluster?.stop();
  }
});

const filler = (): string => join(mountPoint, "filler");

/** Fills the tmpfs until free space is 2 MiB below the reserve. */
function fillBelowReserve(): void {
  const stats = statfsSync(mountPoint);
  const free = stats.bavail * stats.bsize;
  writeFileSync(filler(), Buffer.alloc(free - RESERVE_BYTES + 2 * MiB));
}

async function grant(name: string): Promise<bigint> {
  const handle = await client.lock(name);
  const token = handle.token;
  await handle.release();
  return token;
}

describe("free-space reserve", () => {
  it("a leader below the reserve refuses writes with RESOURCE_EXHAUSTED and says why", async () => {
    const c = cluster as Cluster;
    await grant("before");
    await client.admin.transferLeader(LOW);
    await c.waitFor(`node ${LOW} to lead`, async () => (await c.status(LOW)).role === "leader");
    fillBelowReserve();
    await c.waitFor("the low-space log line", async () =>
      c.logs(LOW).includes("free disk space below the reserve"),
    );
    const refused = await client.lock("while-low").then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(LimitError);
    expect((refused as Error).message).toContain("below the reserve");
  });

  it("a follower below the reserve stops acknowledging appends; the others carry on; it resumes when space returns", async () => {
    const c = cluster as Cluster;
    await client.admin.transferLeader(1);
    await c.waitFor("node 1 to lead", async () => (await c.status(1)).role === "leader");
    const tokens: bigint[] = [];
    for (let i = 0; i < 5; i++) tokens.push(await grant(`follower-low-${i}`));
    const leader = await c.status(1);
    const low = leader.members.find((m) => m.nodeId === LOW);
    expect(low?.matchIndex).toBeLessThan(tokens[tokens.length - 1] as bigint);
    expect((await c.status(LOW)).appliedIndex).toBeLessThan(tokens[tokens.length - 1] as bigint);

    rmSync(filler());
    await c.waitFor("the space-returned log line", async () =>
      c.logs(LOW).includes("free disk space back above the reserve"),
    );
    await c.waitFor(
      `node ${LOW} to catch up`,
      async () => (await c.status(LOW)).appliedIndex >= (tokens[tokens.length - 1] as bigint),
    );
    // It takes writes again as leader.
    await client.admin.transferLeader(LOW);
    await c.waitFor(`node ${LOW} to lead`, async () => (await c.status(LOW)).role === "leader");
    expect(await grant("after")).toBeGreaterThan(tokens[tokens.length - 1] as bigint);
  });
});
