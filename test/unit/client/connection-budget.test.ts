// A call's retry budget is measured on the monotonic clock: a jump of the wall clock
// neither cuts a call short nor makes it retry for ever.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Connection } from "../../../client/connection.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Connection retry budget", () => {
  it("a call keeps retrying for its whole budget when the wall clock jumps forward meanwhile", async () => {
    // Nothing listens on port 1: every attempt fails at once with UNAVAILABLE.
    const connection = new Connection({
      endpoints: ["127.0.0.1:1"],
      callTimeoutMs: 200,
      retryBudgetMs: 600,
    });
    const attempts = vi.spyOn(
      connection as unknown as { grpcAttempt: () => Promise<unknown> },
      "grpcAttempt",
    );
    try {
      const call = connection.call("KeepAlive", () => ({ sessionIds: [1n] }));
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, "now").mockImplementation(() => realNow() + 3_600_000);
      await expect(call).rejects.toThrow(/KeepAlive/);
      expect(attempts.mock.calls.length).toBeGreaterThan(1);
    } finally {
      connection.close();
    }
  });
});
