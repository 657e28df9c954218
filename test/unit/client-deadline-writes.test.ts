// Every write checks the session's own deadline before it is sent, as `live` does: after a
// pause (GC, SIGSTOP of the client) the deadline may have passed before any deadline tick
// ran, and nothing may then be sent on the session as if it were still held.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Connection } from "../../client/connection.ts";
import { monotonicMs, systemClock } from "../../client/clock.ts";
import { GrpcLockApi } from "../../client/lock-api.ts";
import { PalisadeClient, SessionLostError } from "../../client/index.ts";
import { Session, type SessionSettings } from "../../client/session.ts";
import { u64 } from "../../proto/wire.ts";
import { FakeCluster } from "./client-fake-cluster.ts";

/** A connection that answers nothing and records what was sent. */
function recording(): { connection: Connection; paths: string[] } {
  const paths: string[] = [];
  const connection = {
    invoke(method: { path: string }): Promise<unknown> {
      paths.push(method.path.slice(method.path.lastIndexOf("/") + 1));
      return new Promise(() => undefined);
    },
  } as unknown as Connection;
  return { connection, paths };
}

function settings(openedSentAt: number, ttlMs: number): SessionSettings {
  return { id: 5n, ttlMs, clientName: "t", openedSentAt, callTimeoutMs: 1_000, retryBudgetMs: 1_000, driftBound: 0.01, deadlineTickMs: 50 };
}

/** From now on the monotonic clock reads `ms` ahead: the process was paused that long. */
function pause(ms: number): void {
  const real = process.hrtime.bigint.bind(process.hrtime);
  vi.spyOn(process.hrtime, "bigint").mockImplementation(() => real() + BigInt(ms) * 1_000_000n);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("writes on a session past its deadline", () => {
  it("an Acquire on a session past its own deadline is refused before it is sent, though no deadline tick ran", () => {
    const { connection, paths } = recording();
    const session = new Session(new GrpcLockApi(connection), settings(monotonicMs() - 2_000, 1_000), systemClock);
    expect(() => session.startAcquire("x")).toThrow(SessionLostError);
    expect(paths.filter((p) => p === "Acquire")).toEqual([]);
    expect(session.state).toBe("lost");
  });

  it("a Release on a session past its own deadline is refused before it is sent", async () => {
    const { connection, paths } = recording();
    const session = new Session(new GrpcLockApi(connection), settings(monotonicMs() - 2_000, 1_000), systemClock);
    // Refused at once: nothing is sent, so nothing is left to wait for.
    const outcome = await Promise.race([
      session.release("x", 7n).then(() => "released", (err: unknown) => err),
      new Promise((resolve) => setImmediate(() => resolve("still pending"))),
    ]);
    expect(outcome).toBeInstanceOf(SessionLostError);
    expect(paths.filter((p) => p === "Release")).toEqual([]);
  });

  it("lock() after a pause past the TTL acquires on a new session, never on the expired one", async () => {
    const fake = new FakeCluster();
    const client = new PalisadeClient({ endpoints: ["127.0.0.1:1"], sessionTtlMs: 2_000 }, { lockApi: new GrpcLockApi(fake) });
    try {
      const first = await client.lock("a");
      pause(20_000);
      const second = await client.lock("b");
      const acquireOfB = fake.requests("Acquire").at(-1)!;
      expect(u64(acquireOfB.sessionId as never)).not.toBe(first.sessionId);
      expect(second.sessionId).not.toBe(first.sessionId);
      expect(first.held).toBe(false);
    } finally {
      vi.restoreAllMocks();
      await client.close();
    }
  });
});
