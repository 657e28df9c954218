// Every write checks the session's own deadline before it is sent, as `live` does: after a
// pause (GC, SIGSTOP of the client) the deadline may have passed before any deadline tick
// ran, and nothing may then be sent on the session as if it were still held.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LockApi } from "../../../client/lock-api.ts";
import { monotonicMs, systemClock } from "../../../client/clock.ts";
import { PalisadeClient, SessionLostError } from "../../../client/index.ts";
import { Session, type SessionSettings } from "../../../client/session.ts";
import { FakeCluster } from "./fake-cluster.ts";

/** Calls that are never answered, recorded by name. */
function recording(): { api: LockApi; paths: string[] } {
  const paths: string[] = [];
  const api: LockApi = {
    call(name) {
      paths.push(name);
      return new Promise(() => undefined);
    },
  };
  return { api, paths };
}

function settings(openedSentAt: number, ttlMs: number): SessionSettings {
  return {
    id: 5n,
    ttlMs,
    clientName: "t",
    openedSentAt,
    callTimeoutMs: 1_000,
    retryBudgetMs: 1_000,
    driftBound: 0.01,
    deadlineTickMs: 50,
  };
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
    const { api, paths } = recording();
    const session = new Session(api, settings(monotonicMs() - 2_000, 1_000), systemClock);
    expect(() => session.startAcquire("x")).toThrow(SessionLostError);
    expect(paths.filter((p) => p === "Acquire")).toEqual([]);
    expect(session.state).toBe("lost");
  });

  it("a Release on a session past its own deadline is refused before it is sent", async () => {
    const { api, paths } = recording();
    const session = new Session(api, settings(monotonicMs() - 2_000, 1_000), systemClock);
    // Refused at once: nothing is sent, so nothing is left to wait for.
    const outcome = await Promise.race([
      session.release("x", 7n).then(
        () => "released",
        (err: unknown) => err,
      ),
      new Promise((resolve) => setImmediate(() => resolve("still pending"))),
    ]);
    expect(outcome).toBeInstanceOf(SessionLostError);
    expect(paths.filter((p) => p === "Release")).toEqual([]);
  });

  it("lock() after a pause past the TTL acquires on a new session, never on the expired one", async () => {
    const fake = new FakeCluster();
    const client = new PalisadeClient(
      { endpoints: ["127.0.0.1:1"], sessionTtlMs: 2_000 },
      { lockApi: fake },
    );
    try {
      const first = await client.lock("a");
      pause(20_000);
      const second = await client.lock("b");
      const acquireOfB = fake.requests("Acquire").at(-1)!;
      expect(acquireOfB.sessionId).not.toBe(first.sessionId);
      expect(second.sessionId).not.toBe(first.sessionId);
      expect(first.held).toBe(false);
    } finally {
      vi.restoreAllMocks();
      await client.close();
    }
  });
});
