// A long-running client: each lock()/release() cycle leaves nothing behind on the
// session's signal or the caller's, and the heap stays flat over 100,000 cycles.
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { PalisadeClient } from "../../client/index.ts";
import type { Session } from "../../client/session.ts";
import { GrpcLockApi } from "../../client/lock-api.ts";
import { FakeCluster } from "./client-fake-cluster.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const CYCLES = 100_000;
const WARM_UP = 2_000;

describe("lock() and release() cycles", () => {
  it("100,000 lock/release cycles leave the listener counts flat and the heap bounded", async () => {
    const fake = new FakeCluster();
    fake.recordCalls = false;
    const client = new PalisadeClient({ endpoints: ["127.0.0.1:1"] }, { lockApi: new GrpcLockApi(fake) });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(`${w.name}: ${w.message}`);
    };
    process.on("warning", onWarning);
    const caller = new AbortController();
    try {
      const sessionOf = async (): Promise<Session> => (client as unknown as { lockSession: Promise<Session> }).lockSession;
      let baseline: { session: number; caller: number; heap: number } | undefined;
      for (let i = 1; i <= CYCLES; i++) {
        const handle = await client.lock("cycle", { signal: caller.signal });
        await handle.release();
        if (i % 1_000 === 0) await new Promise((r) => setImmediate(r));
        if (i === WARM_UP) {
          const session = await sessionOf();
          baseline = { session: getEventListeners(session.signal, "abort").length, caller: getEventListeners(caller.signal, "abort").length, heap: heapAfterGc() };
        }
      }
      const session = await sessionOf();
      const end = { session: getEventListeners(session.signal, "abort").length, caller: getEventListeners(caller.signal, "abort").length, heap: heapAfterGc() };
      expect.soft(end.session).toBe(baseline!.session);
      expect.soft(end.caller).toBe(baseline!.caller);
      expect.soft(end.heap - baseline!.heap).toBeLessThan(8 * 1024 * 1024);
      expect.soft(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
      expect(session.state).toBe("open");
    } finally {
      process.off("warning", onWarning);
      await client.close();
    }
  });
});
