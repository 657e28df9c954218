import { describe, expect, it } from "vitest";
import type { AcquireCommand, Command, ReleaseCommand } from "../../../node/lock/commands.ts";
import { LogRunner } from "../../lock/log-runner.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

function openSession(r: LogRunner, requestId: string): bigint {
  const out = r.run({
    type: "openSession",
    requestId,
    ttlMs: 10_000,
    clientName: requestId,
    wallMs: 0,
  });
  if (out.result.kind !== "sessionOpened") throw new Error("open failed");
  return out.result.sessionId;
}

function acquire(
  sessionId: bigint,
  lock: string,
  seq: number,
  opts: Partial<AcquireCommand> = {},
): AcquireCommand {
  return {
    type: "acquire",
    sessionId,
    lock,
    waitMs: 0,
    seq,
    ackedUpTo: 0,
    held: [],
    wallMs: 0,
    ...opts,
  };
}

function release(
  sessionId: bigint,
  lock: string,
  token: bigint,
  seq: number,
  opts: Partial<ReleaseCommand> = {},
): ReleaseCommand {
  return {
    type: "release",
    sessionId,
    lock,
    token,
    seq,
    ackedUpTo: 0,
    held: [],
    wallMs: 0,
    ...opts,
  };
}

function cancel(
  sessionId: bigint,
  lock: string,
  acquireSeq: number,
  reason: "client" | "timeout" = "client",
): Command {
  return { type: "cancelWait", sessionId, lock, acquireSeq, reason, wallMs: 0 };
}

function setup(): { r: LogRunner; a: bigint; b: bigint } {
  const r = new LogRunner(new LockStateMachine());
  return { r, a: openSession(r, "a"), b: openSession(r, "b") };
}

describe("exactly-once", () => {
  it("answers a retry from the table with the first answer and no second effect", () => {
    const { r, a, b } = setup();
    const first = r.run(acquire(a, "L", 1));
    expect(first.result.kind).toBe("granted");
    r.run(release(a, "L", (first.result as { token: bigint }).token, 2));
    r.run(acquire(b, "L", 1)); // b holds L now
    const retry = r.run(acquire(a, "L", 1));
    expect(retry.result).toEqual(first.result);
    expect(retry.events).toEqual([]);
    expect(r.machine.getLock("L").holder?.sessionId).toBe(b);
    // A retried release gets its first answer too, without releasing b's grant.
    const retriedRelease = r.run(release(a, "L", (first.result as { token: bigint }).token, 2));
    expect(retriedRelease.result).toEqual({ kind: "released" });
    expect(retriedRelease.events).toEqual([]);
    expect(r.machine.getLock("L").holder?.sessionId).toBe(b);
  });

  it("raises the mark only: a duplicate carrying an older mark does not lower it", () => {
    const { r, a } = setup();
    for (let seq = 1; seq <= 5; seq++) r.run(acquire(a, `L${seq}`, seq, { ackedUpTo: seq - 1 }));
    r.run(acquire(a, "L6", 6, { ackedUpTo: 5 }));
    expect(r.machine.getSession(a)?.mark).toBe(5);
    r.run(acquire(a, "L3", 3, { ackedUpTo: 2 })); // delayed duplicate
    expect(r.machine.getSession(a)?.mark).toBe(5);
    expect(r.machine.getSession(a)?.keptAnswers).toBe(1); // only seq 6
  });

  it("refuses a seq at or below the mark as request too old", () => {
    const { r, a } = setup();
    r.run(acquire(a, "L1", 1));
    r.run(acquire(a, "L2", 2, { ackedUpTo: 1 }));
    const old = r.run(acquire(a, "L1", 1));
    expect(old.result).toMatchObject({ reason: "ERROR_REASON_REQUEST_TOO_OLD" });
    expect(r.machine.answerFor(a, 1)).toBeNull();
  });

  it("drops answers the client lists as held, and a delayed duplicate of one is not applied again", () => {
    const { r, a, b } = setup();
    const g = r.run(acquire(a, "L", 1));
    const token = (g.result as { token: bigint }).token;
    r.run(acquire(a, "M", 2));
    r.run(release(a, "L", token, 3, { held: [1] })); // client holds seq 1's answer, not 2's
    expect(r.machine.answerFor(a, 1)).toBeNull();
    expect(r.machine.answerFor(a, 2)?.kind).toBe("granted");
    r.run(acquire(b, "L", 1)); // b takes the free lock
    const dup = r.run(acquire(a, "L", 1)); // seq 1 arrives again, late
    expect(dup.result).toMatchObject({ reason: "ERROR_REASON_REQUEST_TOO_OLD" });
    expect(r.machine.getLock("L").holder?.sessionId).toBe(b);
  });

  it("caps kept answers plus pending waits at 64 with RESOURCE_EXHAUSTED", () => {
    const { r, a, b } = setup();
    r.run(acquire(b, "busy", 1));
    r.run(acquire(a, "busy", 1, { waitMs: 1000 })); // a pending wait counts
    for (let seq = 2; seq <= 64; seq++)
      expect(r.run(acquire(a, `L${seq}`, seq)).result.kind).toBe("granted");
    const over = r.run(acquire(a, "L65", 65));
    expect(over.result).toMatchObject({ reason: "ERROR_REASON_TOO_MANY_IN_FLIGHT" });
    expect(r.machine.getLock("L65").holder).toBeNull();
    expect(r.run(cancel(a, "other", 99)).result).toMatchObject({
      reason: "ERROR_REASON_TOO_MANY_IN_FLIGHT",
    });
    // Once the client acknowledges answers, there is room again.
    const ok = r.run(acquire(a, "L65", 65, { held: Array.from({ length: 63 }, (_, i) => i + 2) }));
    expect(ok.result.kind).toBe("granted");
  });

  it("re-attaches a retried Acquire to its pending wait without losing its place", () => {
    const { r, a, b } = setup();
    const c = openSession(r, "c");
    const g = r.run(acquire(a, "L", 1));
    r.run(acquire(b, "L", 1, { waitMs: 1000 }));
    r.run(acquire(c, "L", 1, { waitMs: 1000 }));
    const retry = r.run(acquire(b, "L", 1, { waitMs: 1000 }));
    expect(retry.result).toEqual({ kind: "waiting" });
    expect(retry.timers.waitsStarted).toEqual([]);
    expect(r.machine.getLock("L").waiters.map((w) => [w.sessionId, w.seqs])).toEqual([
      [b, [1]],
      [c, [1]],
    ]);
    const out = r.run(release(a, "L", (g.result as { token: bigint }).token, 2));
    expect(out.completions.map((x) => x.sessionId)).toEqual([b]);
    expect(r.run(acquire(b, "L", 1, { waitMs: 1000 })).result.kind).toBe("granted");
  });

  it("answers NOT_FOUND to a retry after the session ended", () => {
    const { r, a } = setup();
    r.run(acquire(a, "L", 1));
    r.run({ type: "expireSession", sessionId: a, wallMs: 0 });
    expect(r.run(acquire(a, "L", 1)).result).toMatchObject({
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
  });
});

describe("CancelWait", () => {
  it("before its Acquire: the Acquire takes no effect and returns cancelled", () => {
    const { r, a, b } = setup();
    r.run(acquire(b, "L", 1));
    expect(r.run(cancel(a, "L", 1)).result).toEqual({ kind: "cancelled" });
    const late = r.run(acquire(a, "L", 1, { waitMs: 1000 }));
    expect(late.result).toEqual({ kind: "cancelled" });
    expect(late.timers.waitsStarted).toEqual([]);
    expect(r.machine.getLock("L").waiters).toEqual([]);
    // Also when the lock is free: no grant.
    expect(r.run(cancel(a, "F", 2)).result.kind).toBe("cancelled");
    expect(r.run(acquire(a, "F", 2)).result.kind).toBe("cancelled");
    expect(r.machine.getLock("F").holder).toBeNull();
  });

  it("after a grant answers already granted with the token", () => {
    const { r, a, b } = setup();
    const g = r.run(acquire(a, "L", 1));
    r.run(acquire(b, "L", 1, { waitMs: 1000 }));
    const handoff = r.run(release(a, "L", (g.result as { token: bigint }).token, 2));
    const token = handoff.completions[0]?.answer;
    expect(token?.kind).toBe("granted");
    const out = r.run(cancel(b, "L", 1));
    expect(out.result).toEqual(token);
    expect(out.events).toEqual([]);
    expect(r.machine.getLock("L").holder?.sessionId).toBe(b);
  });

  it("is idempotent and keyed by the acquire's seq", () => {
    const { r, a, b } = setup();
    r.run(acquire(a, "L", 1));
    r.run(acquire(b, "L", 1, { waitMs: 1000 }));
    r.run(acquire(b, "L", 2, { waitMs: 1000 })); // joins
    const first = r.run(cancel(b, "L", 2));
    expect(first.result.kind).toBe("cancelled");
    expect(first.completions.map((c) => [c.seq, c.answer.kind])).toEqual([
      [1, "cancelled"],
      [2, "cancelled"],
    ]);
    expect(r.run(cancel(b, "L", 1)).result.kind).toBe("cancelled");
    expect(r.run(cancel(b, "L", 2)).completions).toEqual([]);
    expect(r.run(cancel(b, "Other", 1)).result).toMatchObject({
      reason: "ERROR_REASON_NOT_AN_ACQUIRE",
    });
  });

  it("a timeout for an unknown wait changes nothing", () => {
    const { r, a } = setup();
    expect(r.run(cancel(a, "L", 5, "timeout")).result).toMatchObject({
      reason: "ERROR_REASON_NO_SUCH_WAIT",
    });
    expect(r.run(acquire(a, "L", 5)).result.kind).toBe("granted");
  });

  it("after a timeout answers not acquired", () => {
    const { r, a, b } = setup();
    r.run(acquire(a, "L", 1));
    r.run(acquire(b, "L", 1, { waitMs: 1000 }));
    const timeout = r.run(cancel(b, "L", 1, "timeout"));
    expect(timeout.result.kind).toBe("notAcquired");
    expect(r.run(cancel(b, "L", 1)).result).toEqual(timeout.result);
    expect(r.run(acquire(b, "L", 1, { waitMs: 1000 })).result).toEqual(timeout.result);
  });
});
