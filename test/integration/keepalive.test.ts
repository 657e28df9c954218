// KeepAlive on real processes: the client sends all its sessions' keepalives of one interval
// in one request, the leader answers each id, and bad input is refused whole.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { PalisadeClient, type Session } from "../../client/index.ts";
import { Connection } from "../../client/connection.ts";
import type { LockApi } from "../../client/lock-api.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../../proto/grpc.ts";
import { MAX_KEEPALIVE_SESSION_IDS, toU64, u64 } from "../../proto/wire.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { RawLockApi } from "./raw.ts";

const pb = palisade.v1;

let cluster: Cluster;
let raw: RawLockApi;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  raw = new RawLockApi(cluster.endpoints);
  return () => {
    raw?.close();
  };
});

/** One KeepAlive call to one node: its answer, or the raw gRPC status it failed with. */
async function keepAlive(
  endpoint: string,
  ids: readonly bigint[],
): Promise<palisade.v1.KeepAliveResponse | grpc.ServiceError> {
  const connection = new Connection({
    endpoints: [endpoint],
    callTimeoutMs: 5_000,
    retryBudgetMs: 5_000,
  });
  try {
    return await connection.unaryOnce(
      endpoint,
      lockApi.KeepAlive,
      pb.KeepAliveRequest.create({ sessionIds: ids.map((id) => toU64(id)) }),
      5_000,
      true,
    );
  } catch (err) {
    return err as grpc.ServiceError;
  } finally {
    connection.close();
  }
}

function statusOf(answer: palisade.v1.KeepAliveResponse | grpc.ServiceError): grpc.ServiceError {
  if (answer instanceof Error) return answer;
  throw new Error(`expected a refusal, got ${JSON.stringify(answer.toJSON())}`);
}

describe("KeepAlive", () => {
  it("keeps 200 sessions of one client alive with one request per interval, not one per session", async () => {
    const connection = new Connection({
      endpoints: cluster.endpoints,
      callTimeoutMs: 2_000,
      retryBudgetMs: 10_000,
    });
    const calls = { batches: 0, ids: 0 };
    const counting: LockApi = {
      call(name, build, options) {
        if (name === "KeepAlive") {
          calls.batches++;
          calls.ids += (build() as { sessionIds: readonly bigint[] }).sessionIds.length;
        }
        return connection.call(name, build, options);
      },
    };
    const client = new PalisadeClient(
      { endpoints: [...cluster.endpoints], deadlineTickMs: 50 },
      { lockApi: counting },
    );
    const sessions: Session[] = [];
    /** Keepalives acknowledged per session. */
    const acked = new Map<Session, number>();
    const ackedAtLeast = (n: number): Promise<boolean> =>
      Promise.resolve(sessions.every((s) => (acked.get(s) ?? 0) >= n));
    try {
      // A TTL that a stall of this process on a loaded machine does not outlast: the test
      // counts keepalives and requests, not time.
      for (let i = 0; i < 200; i++) {
        const session = await client.openSession({ ttlMs: 10_000 });
        sessions.push(session);
        session.onDeadlineExtended(() => acked.set(session, (acked.get(session) ?? 0) + 1));
      }
      // From its first acknowledged keepalive on, a session sends on the shared grid.
      await cluster.waitFor("every session's first keepalive", () => ackedAtLeast(1), {
        timeoutMs: 30_000,
      });
      const before = { ...calls };
      const counted = new Map(acked);
      const since = (s: Session): number => (acked.get(s) ?? 0) - (counted.get(s) ?? 0);
      const fewest = (): number => Math.min(...sessions.map(since));
      // One acknowledgement per session may answer a request sent before `before`: four
      // each leave three or more sent and answered in the window.
      await cluster.waitFor(
        "four more keepalives of every session",
        () => Promise.resolve(fewest() >= 4),
        {
          timeoutMs: 30_000,
          progress: () => Promise.resolve(fewest()),
        },
      );
      expect(sessions.filter((s) => s.state !== "open")).toEqual([]);
      const batches = calls.batches - before.batches;
      const ids = calls.ids - before.ids;
      expect(ids).toBeGreaterThanOrEqual(200 * 3);
      // One request per interval for the sessions on the same grid (a few more where a
      // turn of the loop was split).
      expect(batches).toBeLessThan(ids / 20);
      for (const s of sessions) expect((await client.read.getSession(s.id))?.sessionId).toBe(s.id);
    } finally {
      await client.close();
      connection.close();
    }
    // 200 sessions opened and read back one call at a time, and five keepalive periods of a
    // 10 s TTL between: the integration tests' default timeout, not a shorter one.
  });

  it("answers each id: a live session's TTL, not_found for an unknown or a closed one, in the request's order", async () => {
    const live = await raw.openSession(7_000);
    const closing = await cluster.client().openSession({ ttlMs: 5_000 });
    const closed = closing.id;
    await closing.close();
    const leader = cluster.endpoint(await cluster.leaderId());
    const answer = await keepAlive(leader, [live, 987_654_321n, closed, live]);
    if (answer instanceof Error) throw answer;
    expect(
      answer.sessions.map((s) => ({
        id: u64(s.sessionId),
        ttl: Number(u64(s.ttlMs)),
        notFound: s.notFound,
      })),
    ).toEqual([
      { id: live, ttl: 7_000, notFound: false },
      { id: 987_654_321n, ttl: 0, notFound: true },
      { id: closed, ttl: 0, notFound: true },
      { id: live, ttl: 7_000, notFound: false },
    ]);
  });

  it("refuses an empty list, a zero id and more than 4,096 ids with INVALID_ARGUMENT naming the field, and keeps none of the others alive", async () => {
    const leader = cluster.endpoint(await cluster.leaderId());
    const session = await raw.openSession(1_000);
    const empty = statusOf(await keepAlive(leader, []));
    expect(empty.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(empty.details).toMatch(/session_ids is empty/);
    const zero = statusOf(await keepAlive(leader, [session, 0n]));
    expect(zero.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(zero.details).toMatch(/session_ids\[1\]/);
    const many = statusOf(
      await keepAlive(
        leader,
        Array.from({ length: MAX_KEEPALIVE_SESSION_IDS + 1 }, () => session),
      ),
    );
    expect(many.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(many.details).toMatch(/4097 ids, more than 4096/);
    // The refused requests kept nothing alive: the session, never kept alive, expires.
    await cluster.waitFor(
      "the session to expire",
      async () => (await cluster.client().read.getSession(session)) === undefined,
      10_000,
    );
  }, 30_000);

  it("a follower fails the whole request as UNAVAILABLE with the leader's address", async () => {
    const session = await raw.openSession(5_000);
    const leaderId = await cluster.leaderId();
    const follower = cluster.ids.find((id) => id !== leaderId)!;
    const refused = statusOf(await keepAlive(cluster.endpoint(follower), [session]));
    expect(refused.code).toBe(grpc.status.UNAVAILABLE);
    expect(refused.metadata.get("palisade-leader")).toEqual([cluster.endpoint(leaderId)]);
  });
});
