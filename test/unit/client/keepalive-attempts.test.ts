// Keepalive attempts are sized by the time left to the session's deadline: each waits at
// most a third of it (and never past it), so a node that does not answer leaves time to
// try the others before the session is lost.
import { describe, expect, it } from "vitest";
import { monotonicMs, systemClock } from "../../../client/clock.ts";
import type { CallOptions, LockApi } from "../../../client/lock-api.ts";
import { Session, type SessionSettings } from "../../../client/session.ts";

/** A connection whose calls never answer, recording the options of each KeepAlive. */
function silentConnection(): { connection: LockApi; keepalives: CallOptions[] } {
  const keepalives: CallOptions[] = [];
  const connection: LockApi = {
    call(name, _build, options = {}) {
      if (name === "KeepAlive") keepalives.push(options);
      return new Promise(() => undefined);
    },
  };
  return { connection, keepalives };
}

const attemptOf = (options: CallOptions): number =>
  typeof options.attemptTimeoutMs === "function"
    ? options.attemptTimeoutMs()
    : (options.attemptTimeoutMs ?? 3_000);

describe("keepalive attempts", () => {
  it("each keepalive attempt waits at most a third of the time left to the deadline, and the call ends with it", async () => {
    const { connection, keepalives } = silentConnection();
    const ttlMs = 2_000;
    const settings: SessionSettings = {
      id: 3n,
      ttlMs,
      clientName: "t",
      openedSentAt: monotonicMs() - 1_000,
      callTimeoutMs: 3_000,
      retryBudgetMs: 15_000,
      driftBound: 0.01,
      deadlineTickMs: 50,
    };
    const session = new Session(connection, settings, systemClock);
    try {
      expect(keepalives).toHaveLength(1);
      const left = session.deadline - monotonicMs();
      const attempt = attemptOf(keepalives[0]);
      expect(attempt).toBeLessThanOrEqual(left / 3 + 1);
      expect(attempt).toBeGreaterThan(0);
      // The call may retry until the deadline, and not beyond it.
      const timeLeft = keepalives[0].timeLeftMs?.();
      expect(timeLeft).toBeDefined();
      expect(timeLeft!).toBeLessThanOrEqual(left + 1);
      expect(timeLeft!).toBeGreaterThan(left - 50);
    } finally {
      void session.close();
    }
  });
});
