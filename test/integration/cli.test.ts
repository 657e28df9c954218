// palisadectl against a real cluster: the one-line acquire, JSON output and exit codes.
import { describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { runCtl, type Run } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "cli-test" });
});

/** Runs palisadectl with the cluster's endpoints in PALISADE_ENDPOINTS. */
const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);

describe("palisadectl", () => {
  it("acquires a lock and prints its token, then releases it", async () => {
    const run = await ctl("acquire", "my-lock");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+$/);
    const token = BigInt(run.stdout.trim());
    const history = await client.read.history("my-lock");
    expect(history.map((r) => [r.token, r.reason])).toEqual([[token, "released"]]);

    const json = await ctl("--json", "acquire", "my-lock");
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { acquired: boolean; token: string };
    expect(parsed.acquired).toBe(true);
    expect(BigInt(parsed.token)).toBeGreaterThan(token);
  });

  it("exits 2 when the lock is held, and revoke frees it", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    const held = await session.acquire("cli-held");
    const token = held.token ?? 0n;

    const busy = await ctl("--json", "acquire", "cli-held");
    expect(busy.code).toBe(2);
    const answer = JSON.parse(busy.stdout) as {
      acquired: boolean;
      holder: { sessionId: string; token: string };
    };
    expect(answer.acquired).toBe(false);
    expect(answer.holder.sessionId).toBe(session.id.toString());
    expect(answer.holder.token).toBe(token.toString());

    const get = await ctl("--json", "lock", "cli-held");
    expect(get.code).toBe(0);
    expect((JSON.parse(get.stdout) as { holder: { token: string } }).holder.token).toBe(
      token.toString(),
    );

    const revoke = await ctl("revoke", "cli-held", token.toString());
    expect(revoke.code).toBe(0);
    expect((await client.read.getLock("cli-held")).holder).toBeUndefined();
    expect((await client.read.history("cli-held")).map((r) => r.reason)).toEqual(["revoked"]);
    // A retried revoke of the same grant succeeds.
    expect((await ctl("revoke", "cli-held", token.toString())).code).toBe(0);
    await session.close();
  });

  it("reports status of every node and exits 1 on bad input", async () => {
    const status = await ctl("--json", "status");
    expect(status.code).toBe(0);
    const nodes = JSON.parse(status.stdout) as Array<{
      role?: string;
      nodeId?: number;
      reachable: boolean;
    }>;
    expect(nodes).toHaveLength(3);
    expect(nodes.filter((n) => n.role === "leader")).toHaveLength(1);

    const bad = await ctl("acquire", "bad\u0001name");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/InvalidArgumentError/);
  });
});
