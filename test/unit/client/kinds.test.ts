// The client library's lock kinds against a scripted LockApi on a hand-driven clock: what
// an Acquire of a shared lock, a permit or a set carries, the handles it gives, a hold
// limit that aborts the handle's signal before the leader's revoke can apply, and a late
// grant of a set released on every lock.
import { describe, expect, it } from "vitest";
import type { ClientClock, Timer } from "../../../client/clock.ts";
import {
  HoldLimitError,
  InvalidArgumentError,
  LockBusyError,
  PalisadeClient,
  Session,
} from "../../../client/index.ts";
import type { CallOptions, LockApi } from "../../../client/lock-api.ts";
import type { AnswerOf, CallName, RequestOf } from "../../../proto/lock-calls.ts";
import type {
  AcquireAnswer,
  AcquireRequest,
  CancelWaitRequest,
  CancelWaitResult,
  ReleaseRequest,
} from "../../../proto/lock-values.ts";
import { scriptedApi } from "./lock-api-kit.ts";

/** Time moves only when the test says so; timers fire as it passes them. */
class HandClock implements ClientClock {
  private now = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; every?: number; live: boolean }> = [];
  monotonicMs(): number {
    return this.now;
  }
  wallMs(): number {
    return this.now;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const t = { at: this.now + ms, fn, live: true };
    this.timers.push(t);
    return {
      cancel: () => {
        t.live = false;
      },
    };
  }
  setInterval(fn: () => void, ms: number): Timer {
    const t = { at: this.now + ms, fn, every: ms, live: true };
    this.timers.push(t);
    return {
      cancel: () => {
        t.live = false;
      },
    };
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.now = Math.max(this.now, due.at);
      if (due.every) due.at += due.every;
      else due.live = false;
      due.fn();
    }
    this.now = end;
  }
}

/** Grants every Acquire at once (token 7; a permit in slot 2), or leaves it unanswered when `hang` is set. */
class ScriptedApi implements LockApi {
  readonly acquires: AcquireRequest[] = [];
  readonly releases: ReleaseRequest[] = [];
  readonly cancels: CancelWaitRequest[] = [];
  hang = false;
  cancelAnswer: CancelWaitResult = { outcome: "cancelled" };
  private readonly calls = scriptedApi({
    OpenSession: async () => ({ sessionId: 1n, ttlMs: 60_000 }),
    Acquire: (request) => this.acquire(request),
    Release: async (request) => {
      this.releases.push(request);
      return {};
    },
    CancelWait: (request) => this.cancelWait(request),
    CloseSession: async () => ({}),
  });

  call<N extends CallName>(
    name: N,
    build: () => RequestOf<N>,
    options?: CallOptions,
  ): Promise<AnswerOf<N>> {
    return this.calls.call(name, build, options);
  }

  acquire(call: AcquireRequest): Promise<AcquireAnswer> {
    this.acquires.push(call);
    if (this.hang) return new Promise(() => undefined);
    const targets = [
      { lock: call.lock, mode: call.mode, permits: call.permits },
      ...(call.more ?? []),
    ];
    return Promise.resolve({
      kind: "granted",
      token: 7n,
      holder: { sessionId: 1n, clientName: "", token: 7n, grantedIndex: 7n },
      grants: targets.map((t) =>
        t.permits !== undefined
          ? { lock: t.lock, token: 7n, mode: "permit" as const, permits: t.permits, slot: 2 }
          : { lock: t.lock, token: 7n, mode: t.mode ?? "exclusive" },
      ),
    });
  }
  async cancelWait(call: CancelWaitRequest): Promise<CancelWaitResult> {
    this.cancels.push(call);
    return this.cancelAnswer;
  }
}

function setup(): { api: ScriptedApi; clock: HandClock; client: PalisadeClient } {
  const api = new ScriptedApi();
  const clock = new HandClock();
  const client = new PalisadeClient(
    { endpoints: ["127.0.0.1:1"], sessionTtlMs: 60_000 },
    { lockApi: api, clock },
  );
  return { api, clock, client };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the client's lock kinds", () => {
  it("a shared lock's Acquire names its mode and data, and its handle says shared", async () => {
    const { api, client } = setup();
    const handle = await client.lock("L", { mode: "shared", data: "reader 1" });
    expect(api.acquires[0]).toMatchObject({ lock: "L", mode: "shared", holderData: "reader 1" });
    expect(api.acquires[0]?.holdMs).toBeUndefined();
    expect(handle).toMatchObject({ lock: "L", token: 7n, mode: "shared", data: "reader 1" });
    await handle.release();
    expect(api.releases).toMatchObject([{ lock: "L", token: 7n }]);
  });

  it("an exclusive lock() sends none of the kinds' fields", async () => {
    const { api, client } = setup();
    const handle = await client.lock("L");
    const call = api.acquires[0] as AcquireRequest;
    expect([call.mode, call.permits, call.more, call.holderData, call.holdMs]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(handle.mode).toBe("exclusive");
  });

  it("a semaphore's acquire() asks for one permit of its count and hands out the permit's slot", async () => {
    const { api, client } = setup();
    const permit = await client.semaphore("S", 3).acquire();
    expect(api.acquires[0]).toMatchObject({ lock: "S", permits: 3 });
    expect(permit).toMatchObject({ lock: "S", token: 7n, mode: "permit", permits: 3, slot: 2 });
  });

  it("lockAll sends one Acquire naming every lock in its mode and gives one handle per lock, each releasing its own", async () => {
    const { api, client } = setup();
    const handles = await client.lockAll([
      { lock: "A" },
      { lock: "B", mode: "shared" },
      { lock: "S", permits: 2 },
    ]);
    expect(api.acquires).toHaveLength(1);
    expect(api.acquires[0]).toMatchObject({
      lock: "A",
      more: [
        { lock: "B", mode: "shared" },
        { lock: "S", permits: 2 },
      ],
    });
    expect(handles.map((h) => [h.lock, h.token, h.mode])).toEqual([
      ["A", 7n, "exclusive"],
      ["B", 7n, "shared"],
      ["S", 7n, "permit"],
    ]);
    await handles[1]?.release();
    expect(api.releases.map((r) => r.lock)).toEqual(["B"]);
    // The others still hold, and their names stay claimed.
    expect(handles[0]?.held).toBe(true);
    await expect(client.lock("A")).rejects.toBeInstanceOf(LockBusyError);
  });

  it("lockAll claims every name of the set while it is outstanding, and refuses a name given twice before sending", async () => {
    const { api, client } = setup();
    api.hang = true;
    void client.lockAll([{ lock: "A" }, { lock: "B" }], { waitMs: 60_000 }).catch(() => undefined);
    await flush();
    await expect(client.lock("B")).rejects.toBeInstanceOf(LockBusyError);
    await expect(client.lockAll([{ lock: "C" }, { lock: "C" }])).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(api.acquires).toHaveLength(1);
  });

  it("an unknown mode is refused before anything is sent", async () => {
    const { api, client } = setup();
    await expect(client.lock("L", { mode: "read" as never })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(api.acquires).toHaveLength(0);
  });

  it("a hold limit aborts the handle's signal with HoldLimitError before the limit (less the drift margin) passes, and releases the grant", async () => {
    const { api, clock, client } = setup();
    const handle = await client.lock("L", { holdMs: 2_000 });
    expect(api.acquires[0]?.holdMs).toBe(2_000);
    // 2,000 ms less 2·ρ·2,000 (ρ = 0.01) and one 50 ms tick: 1,910 ms after the Acquire was sent.
    clock.advance(1_900);
    expect(handle.signal.aborted).toBe(false);
    expect(handle.held).toBe(true);
    clock.advance(20);
    expect(handle.signal.aborted).toBe(true);
    expect(handle.signal.reason).toBeInstanceOf(HoldLimitError);
    expect(handle.held).toBe(false);
    await flush();
    expect(api.releases).toMatchObject([{ lock: "L", token: 7n }]);
  });

  it("the late grant of a set whose wait was given up is released on every lock of the set", async () => {
    const api = new ScriptedApi();
    api.hang = true;
    api.cancelAnswer = { outcome: "granted", token: 9n };
    const clock = new HandClock();
    const session = new Session(
      api,
      {
        id: 1n,
        ttlMs: 60_000,
        clientName: "t",
        openedSentAt: clock.monotonicMs(),
        callTimeoutMs: 1_000,
        retryBudgetMs: 10_000,
        driftBound: 0.01,
        deadlineTickMs: 50,
      },
      clock,
    );
    const giveUp = new AbortController();
    const pending = session.startAcquire("A", {
      waitMs: 30_000,
      signal: giveUp.signal,
      more: [{ lock: "B", mode: "shared" }],
    });
    giveUp.abort();
    expect(await pending.result).toMatchObject({ acquired: false, cancelled: true, lateToken: 9n });
    // One CancelWait for the whole set (named by its first lock), one Release per lock.
    expect(api.cancels.map((c) => c.lock)).toEqual(["A"]);
    expect(api.releases.map((r) => [r.lock, r.token]).sort()).toEqual([
      ["A", 9n],
      ["B", 9n],
    ]);
  });
});
