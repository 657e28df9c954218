// When a timed-out attempt means a stopped node: the failover rules pass a node over (and
// move the attempts waiting on it) only when the attempt waited well past the node's usual
// answer time, so a short keepalive attempt on a slow but working leader does not drive a
// waiting Acquire away from the one node that can grant it.
import { describe, expect, it } from "vitest";
import { manualClock } from "./manual-clock.ts";
import {
  Failover,
  PATIENCE_FLOOR_MS,
  type Attempt,
  type AttemptFailure,
} from "../../../client/failover.ts";

class TimedOut extends Error {}

const classify = (err: unknown): AttemptFailure =>
  err instanceof TimedOut
    ? { retriable: true, timedOut: true, detail: "deadline exceeded", error: err }
    : {
        retriable: false,
        timedOut: false,
        detail: String(err),
        error: err instanceof Error ? err : new Error(String(err)),
      };

interface Sent {
  endpoint: string;
  timeoutMs: number;
  attempt: Attempt;
  cancelled: boolean;
  resolve(value: string): void;
  reject(error: unknown): void;
}

/** Failover over endpoints a and b whose attempts the test answers by hand. */
function rig() {
  const clock = manualClock();
  const failover = new Failover(["a", "b"], clock, classify, () => Promise.resolve());
  const sent: Sent[] = [];
  const call = (timeoutMs: number, answerMayWait = false): Promise<string> =>
    failover.call(
      (endpoint, t, attempt) =>
        new Promise<string>((resolve, reject) => {
          const s: Sent = { endpoint, timeoutMs: t, attempt, cancelled: false, resolve, reject };
          attempt.cancel = () => {
            s.cancelled = true;
            reject(new Error("cancelled"));
          };
          sent.push(s);
        }),
      "test",
      { answerMayWait },
      { kind: "read", attemptTimeoutMs: timeoutMs, budgetMs: 60_000 },
    );
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { clock, failover, sent, call, settle };
}

describe("failover: when a timed-out attempt passes a node over", () => {
  it("a short attempt that runs out on a node that answers slowly does not move the other attempts waiting on it", async () => {
    const { clock, failover, sent, call, settle } = rig();
    // The node answers, but takes 300 ms.
    const warm = call(1_000);
    clock.advance(300);
    sent[0]!.resolve("ok");
    await warm;
    const waiting = call(30_000, true); // a waiting Acquire on a
    const short = call(100);
    await settle();
    expect(sent.map((s) => s.endpoint)).toEqual(["a", "a", "a"]);
    clock.advance(100);
    sent[2]!.reject(new TimedOut());
    await settle();
    expect(sent[1]!.cancelled).toBe(false); // the Acquire still waits on a
    expect(sent[1]!.attempt.moved).toBe(false);
    expect(sent[3]!.endpoint).toBe("b"); // the short call itself tries the next node
    sent[3]!.resolve("from b");
    expect(await short).toBe("from b");
    sent[1]!.resolve("granted");
    expect(await waiting).toBe("granted");
    expect(failover.allEndpoints).toEqual(["a", "b"]);
  });

  it("an attempt that runs out on a node that answers quickly moves the attempts waiting on it at once", async () => {
    const { clock, sent, call, settle } = rig();
    const warm = call(1_000);
    clock.advance(5);
    sent[0]!.resolve("ok");
    await warm;
    const waiting = call(30_000, true);
    void call(100).catch(() => undefined);
    await settle();
    clock.advance(100);
    sent[2]!.reject(new TimedOut());
    await settle();
    expect(sent[1]!.cancelled).toBe(true);
    expect(sent[1]!.attempt.moved).toBe(true);
    const moved = sent.find((s, i) => i > 2 && s.timeoutMs === 30_000);
    expect(moved?.endpoint).toBe("b");
    moved!.resolve("granted by b");
    expect(await waiting).toBe("granted by b");
  });

  it("the answer time of a call the node may hold on purpose does not count as the node's speed", async () => {
    const { clock, sent, call, settle } = rig();
    // A waiting Acquire answered after 3 s, then nothing else was heard from a.
    const wait = call(30_000, true);
    clock.advance(3_000);
    sent[0]!.resolve("granted");
    await wait;
    const waiting = call(30_000, true);
    void call(100).catch(() => undefined);
    await settle();
    clock.advance(100);
    sent[2]!.reject(new TimedOut());
    await settle();
    expect(sent[1]!.attempt.moved).toBe(true);
    const moved = sent.find((s, i) => i > 2 && s.timeoutMs === 30_000);
    moved!.resolve("granted by b");
    expect(await waiting).toBe("granted by b");
  });

  it("an attempt that runs out while the node answers other calls does not pass it over (a busy node is not a stopped one)", async () => {
    const { clock, sent, call, settle } = rig();
    const warm = call(1_000);
    clock.advance(5);
    sent[0]!.resolve("ok");
    await warm;
    const waiting = call(30_000, true);
    const short = call(100);
    const other = call(1_000);
    await settle();
    expect(sent.map((s) => s.endpoint)).toEqual(["a", "a", "a", "a"]);
    // While the short attempt waits, a answers another call: it is working, only busy.
    clock.advance(50);
    sent[3]!.resolve("other");
    expect(await other).toBe("other");
    clock.advance(50);
    sent[2]!.reject(new TimedOut());
    await settle();
    expect(sent[1]!.attempt.moved).toBe(false); // the Acquire still waits on a
    expect(sent[1]!.cancelled).toBe(false);
    expect(sent[4]!.endpoint).toBe("b"); // the short call itself tries the next node
    sent[4]!.resolve("from b");
    expect(await short).toBe("from b");
    // And the next call still goes to a node that is not passed over: a is not silent.
    const next = call(1_000);
    await settle();
    expect(sent[5]!.endpoint).not.toBe(undefined);
    sent[5]!.resolve("next");
    expect(await next).toBe("next");
    sent[1]!.resolve("granted");
    expect(await waiting).toBe("granted");
  });
});

describe("failover: a node that answers but cannot grant", () => {
  it("moves the waiting Acquire off a node that answers another call saying it no longer leads", async () => {
    const clock = manualClock();
    class NoLeader extends Error {}
    const classifyLeader = (err: unknown): AttemptFailure =>
      err instanceof NoLeader
        ? {
            retriable: true,
            timedOut: false,
            detail: "no leader known",
            error: err,
            reason: "ERROR_REASON_NO_LEADER",
          }
        : classify(err);
    const failover = new Failover(["a", "b"], clock, classifyLeader, () => Promise.resolve());
    const sent: Sent[] = [];
    const call = (timeoutMs: number, answerMayWait = false): Promise<string> =>
      failover.call(
        (endpoint, t, attempt) =>
          new Promise<string>((resolve, reject) => {
            const s: Sent = { endpoint, timeoutMs: t, attempt, cancelled: false, resolve, reject };
            attempt.cancel = () => {
              s.cancelled = true;
              reject(new Error("cancelled"));
            };
            sent.push(s);
          }),
        "test",
        { answerMayWait },
        { kind: "write", attemptTimeoutMs: timeoutMs, budgetMs: 60_000 },
      );
    const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
    const waiting = call(30_000, true); // a waiting Acquire on a, the old leader
    const read = call(1_000); // a short call to a, say a keepalive
    const other = call(1_000); // a call that does not wait, on a as well
    await settle();
    expect(sent.map((s) => s.endpoint)).toEqual(["a", "a", "a"]);
    // a answers at once: it no longer leads (cut off from its quorum).
    sent[1]!.reject(new NoLeader());
    await settle();
    expect(sent[0]!.cancelled).toBe(true);
    expect(sent[0]!.attempt.moved).toBe(true);
    expect(sent[2]!.cancelled).toBe(false); // only waits are moved
    const moved = sent.slice(3).find((s) => s.attempt.waits);
    expect(moved?.endpoint).toBe("b");
    moved!.resolve("granted on b");
    expect(await waiting).toBe("granted on b");
    for (const s of sent.slice(3)) if (!s.attempt.waits) s.resolve("ok");
    sent[2]!.resolve("ok");
    await Promise.all([read, other]);
  });

  it("gives a node that answers in a few ms one attempt of at most the patience floor, then moves on: a stopped leader costs one attempt, not a call timeout", async () => {
    const { clock, sent, call, settle } = rig();
    for (let i = 0; i < 3; i++) {
      const warm = call(3_000);
      await settle();
      clock.advance(5);
      sent.at(-1)!.resolve("ok");
      await warm;
    }
    // The node stops: the next call's attempt on it is bounded by the patience, not by 3 s.
    const afterStop = call(3_000);
    await settle();
    expect(sent.at(-1)).toMatchObject({ endpoint: "a", timeoutMs: PATIENCE_FLOOR_MS });
    clock.advance(PATIENCE_FLOOR_MS);
    sent.at(-1)!.reject(new TimedOut());
    await settle();
    // One attempt on the stopped node, then the next one.
    expect(sent.slice(3).map((s) => s.endpoint)).toEqual(["a", "b"]);
    sent.at(-1)!.resolve("ok");
    await expect(afterStop).resolves.toBe("ok");
    // A call whose answer may wait on purpose keeps its whole attempt time.
    const waiting = call(3_000, true);
    await settle();
    expect(sent.at(-1)).toMatchObject({ timeoutMs: 3_000 });
    sent.at(-1)!.resolve("ok");
    await waiting;
  });
});
