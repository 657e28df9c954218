// The session's own deadline, without a cluster: send time of the last acknowledged
// keepalive (or of OpenSession) + TTL − (2·ρ·TTL + one tick), on the host's monotonic
// clock; past it the session is lost for good.
import { describe, expect, it } from "vitest";
import { monotonicMs, msToNs, systemClock } from "../../../client/clock.ts";
import type { LockApi } from "../../../client/lock-api.ts";
import { SessionLostError } from "../../../client/errors.ts";
import { Session, type SessionSettings } from "../../../client/session.ts";

/** Calls whose KeepAlive answers at once (or never), recorded by name. */
function fakeConnection(keepalives: "answer" | "hang"): { connection: LockApi; paths: string[] } {
  const paths: string[] = [];
  const connection = {
    call(name: string, build: () => unknown): Promise<unknown> {
      paths.push(name);
      if (name === "KeepAlive" && keepalives === "answer") {
        const { sessionIds } = build() as { sessionIds: bigint[] };
        return Promise.resolve({
          sessions: sessionIds.map((sessionId) => ({ sessionId, ttlMs: 10_000 })),
        });
      }
      if (name === "CloseSession") return Promise.resolve({});
      return new Promise(() => undefined);
    },
  } as LockApi;
  return { connection, paths };
}

function settings(openedSentAt: number, ttlMs: number): SessionSettings {
  return {
    id: 7n,
    ttlMs,
    clientName: "t",
    openedSentAt,
    callTimeoutMs: 1_000,
    retryBudgetMs: 1_000,
    driftBound: 0.01,
    deadlineTickMs: 50,
  };
}

describe("session deadline", () => {
  it("is OpenSession's send time + TTL − (2·ρ·TTL + tick) before any keepalive", () => {
    const { connection } = fakeConnection("hang");
    const sentAt = monotonicMs();
    const session = new Session(connection, settings(sentAt, 10_000), systemClock);
    expect(session.deadline).toBeCloseTo(sentAt + 10_000 - (2 * 0.01 * 10_000 + 50), 6);
    expect(session.deadlineNs).toBe(msToNs(session.deadline));
    expect(session.live).toBe(true);
    void session.close();
  });

  it("moves with each acknowledged keepalive and tells its listeners the absolute deadline", async () => {
    const { connection } = fakeConnection("answer");
    const opened = monotonicMs() - 5_000;
    const session = new Session(connection, settings(opened, 10_000), systemClock);
    const extended = await new Promise<bigint>((resolve) => session.onDeadlineExtended(resolve));
    expect(session.deadline).toBeGreaterThan(opened + 10_000 - 250);
    expect(extended).toBe(session.deadlineNs);
    await session.close();
  });

  it("once passed, the session is lost for good: signal aborted, writes refused, closed best-effort", async () => {
    const { connection, paths } = fakeConnection("hang");
    const session = new Session(connection, settings(monotonicMs() - 2_000, 1_000), systemClock);
    const reason = await new Promise<string>((resolve) => session.onLost(resolve));
    expect(reason).toMatch(/no keepalive acknowledged/);
    expect(session.state).toBe("lost");
    expect(session.live).toBe(false);
    expect(session.signal.reason).toBeInstanceOf(SessionLostError);
    expect(() => session.startAcquire("x")).toThrow(SessionLostError);
    expect(paths).toContain("CloseSession");
  });
});

describe("a grant that came after the caller lost track of its Acquire", () => {
  it("is released by the session, which reports the grant and the release", async () => {
    const { OutcomeUnknownError } = await import("../../../client/errors.ts");
    const paths: string[] = [];
    const connection = {
      call(name: string): Promise<unknown> {
        paths.push(name);
        if (name === "Acquire") return Promise.reject(new OutcomeUnknownError("no answer"));
        if (name === "CancelWait") return Promise.resolve({ outcome: "granted", token: 42n });
        if (name === "Release" || name === "CloseSession") return Promise.resolve({});
        return new Promise(() => undefined);
      },
    } as LockApi;
    const session = new Session(connection, settings(monotonicMs(), 10_000), systemClock);
    const reported = new Promise<import("../../../client/session.ts").LateGrantRelease>((resolve) =>
      session.onLateGrantReleased(resolve),
    );
    const pending = session.startAcquire("late");
    await expect(pending.result).rejects.toBeInstanceOf(OutcomeUnknownError);
    const late = await reported;
    expect(late).toMatchObject({
      lock: "late",
      acquireSeq: pending.seq,
      token: 42n,
      outcome: "released",
    });
    expect(late.releaseAnsweredNs).not.toBeNull();
    expect(
      late.learntAtNs <= late.releaseSentNs && late.releaseSentNs <= late.releaseAnsweredNs!,
    ).toBe(true);
    expect(paths.filter((p) => p === "Release")).toHaveLength(1);
    await session.unsettledAcquire("late");
    await session.close();
  });
});
