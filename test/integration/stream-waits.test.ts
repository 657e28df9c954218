// Many waiting lock calls of one client on real processes, with the client library's
// defaults (the Stream RPC): however many of its Acquires wait on the leader, its sessions'
// keepalives still get through, so none of its sessions is lost.
import { describe, expect, it } from "vitest";
import type { PalisadeClient, Session } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

const SESSIONS = 64;
const WAITS_PER_SESSION = 64;
/**
 * The chaos run's TTL for the same load: a loaded machine's client and node keep it. A node
 * that stops reading the stream behind its waits loses every session at any TTL.
 */
const TTL_MS = 10_000;

let cluster: Cluster;

clusterForTests({ nodes: 1 }, (started) => {
  cluster = started;
});

describe("waiting Acquires on a client's stream", () => {
  it("a waiting Acquire never stops the stream reading its client's keepalives: 64 sessions each waiting for 64 locks live on for three TTLs", async () => {
    const holderClient: PalisadeClient = cluster.client({ clientName: "holder" });
    const client: PalisadeClient = cluster.client({ clientName: "waiter" });
    const names = Array.from({ length: WAITS_PER_SESSION }, (_, i) => `held-${i}`);
    const holder = await holderClient.openSession({ ttlMs: 60_000 });
    for (const name of names) expect((await holder.acquire(name)).acquired).toBe(true);

    const sessions: Session[] = [];
    const reasons: string[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const session = await client.openSession({ ttlMs: TTL_MS });
      session.onLost((reason) => reasons.push(reason));
      sessions.push(session);
    }
    const outcomes: Array<Promise<unknown>> = [];
    const lost = (): Session[] => sessions.filter((s) => s.state !== "open");
    try {
      for (const session of sessions) {
        for (const name of names)
          outcomes.push(session.acquire(name, { waitMs: 120_000 }).catch((err: unknown) => err));
        // A session's calls a turn apart, as a process's workers would make them: the waits
        // are what is tested here, not how fast one process can issue 4,096 calls at once.
        await new Promise((r) => setTimeout(r, 50));
      }
      await cluster.waitFor(
        "every Acquire waiting on the leader",
        async () => {
          const first = await holderClient.read.getLock(names[0]!);
          const last = await holderClient.read.getLock(names[names.length - 1]!);
          return (
            (first.waiters.length === SESSIONS && last.waiters.length === SESSIONS) ||
            lost().length > 0
          );
        },
        30_000,
      );

      // Three TTLs on, every session's deadline has moved past them, or some session was lost.
      const past = process.hrtime.bigint() + BigInt(3 * TTL_MS) * 1_000_000n;
      await cluster.waitFor(
        "three TTLs of keepalives, or a lost session",
        async () => lost().length > 0 || sessions.every((s) => s.deadlineNs > past),
        4 * TTL_MS + 30_000,
      );
      expect(`${lost().length} of ${SESSIONS} sessions lost`, reasons.slice(0, 3).join("; ")).toBe(
        `0 of ${SESSIONS} sessions lost`,
      );
    } finally {
      await holder.close().catch(() => undefined);
      await client.close();
      await holderClient.close();
      await Promise.all(outcomes);
    }
  }, 180_000);
});
