// A long-running client: each lock()/release() cycle leaves nothing behind on the
// session's signal or the caller's, and the heap stays flat over 100,000 cycles. The client
// runs on a clock that stands still: the cycles are the test, not the session's keepalives
// and deadline (a loop this tight would starve real timers on a loaded machine and lose the
// session, as it should), and a timer left uncancelled stays in the clock and shows as heap.
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { ClientClock, Timer } from "../../../client/clock.ts";
import { PalisadeClient } from "../../../client/index.ts";
import type { Session } from "../../../client/session.ts";
import { FakeCluster } from "./fake-cluster.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Time stands still: a timer due now runs on the next turn, a later one is kept until cancelled and never runs. */
class StillClock implements ClientClock {
  readonly pending = new Set<() => void>();
  monotonicMs(): number {
    return 1_000_000;
  }
  wallMs(): number {
    return 1_000_000;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    if (ms <= 0) {
      const immediate = setImmediate(fn);
      return { cancel: () => clearImmediate(immediate) };
    }
    this.pending.add(fn);
    return { cancel: () => this.pending.delete(fn) };
  }
  setInterval(fn: () => void): Timer {
    this.pending.add(fn);
    return { cancel: () => this.pending.delete(fn) };
  }
}

const CYCLES = 100_000;
const WARM_UP = 2_000;

describe("lock() and release() cycles", () => {
  it("100,000 lock/release cycles leave the listener counts flat and the heap bounded", async () => {
    const fake = new FakeCluster();
    fake.recordCalls = false;
    const clock = new StillClock();
    const client = new PalisadeClient({ endpoints: ["127.0.0.1:1"] }, { lockApi: fake, clock });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(`${w.name}: ${w.message}`);
    };
    process.on("warning", onWarning);
    const caller = new AbortController();
    try {
      const sessionOf = async (): Promise<Session> =>
        (client as unknown as { lockSession: Promise<Session> }).lockSession;
      let baseline: { session: number; caller: number; heap: number; timers: number } | undefined;
      for (let i = 1; i <= CYCLES; i++) {
        const handle = await client.lock("cycle", { signal: caller.signal });
        await handle.release();
        if (i % 1_000 === 0) await new Promise((r) => setImmediate(r));
        if (i === WARM_UP) {
          const session = await sessionOf();
          baseline = {
            session: getEventListeners(session.signal, "abort").length,
            caller: getEventListeners(caller.signal, "abort").length,
            heap: heapAfterGc(),
            timers: clock.pending.size,
          };
        }
      }
      const session = await sessionOf();
      const end = {
        session: getEventListeners(session.signal, "abort").length,
        caller: getEventListeners(caller.signal, "abort").length,
        heap: heapAfterGc(),
        timers: clock.pending.size,
      };
      expect.soft(end.session).toBe(baseline!.session);
      expect.soft(end.caller).toBe(baseline!.caller);
      expect.soft(end.timers).toBe(baseline!.timers);
      expect.soft(end.heap - baseline!.heap).toBeLessThan(8 * 1024 * 1024);
      expect.soft(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
      expect(session.state).toBe("open");
    } finally {
      process.off("warning", onWarning);
      await client.close();
    }
  });
});
