// lock() refuses a second claim of a name before any request is sent: shown against an
// endpoint where nothing listens, so the first call can only be pending and the second
// can only be refused locally.
import { describe, expect, it } from "vitest";
import { LockBusyError, PalisadeClient } from "../../../client/index.ts";

describe("PalisadeClient.lock", () => {
  it("rejects a second lock() of a name at once with LockBusyError, and frees the name when the first fails", async () => {
    const client = new PalisadeClient({
      endpoints: ["127.0.0.1:1"],
      callTimeoutMs: 100,
      retryBudgetMs: 300,
    });
    try {
      const first = client.lock("a", { waitMs: 1_000 });
      const firstOutcome = first.then(
        () => "granted",
        (err: unknown) => err,
      );
      const second = await client.lock("a").catch((err: unknown) => err);
      expect(second).toBeInstanceOf(LockBusyError);
      expect((second as LockBusyError).lock).toBe("a");
      // Another name is not affected by the claim on "a".
      const other = await client.lock("b").catch((err: unknown) => err);
      expect(other).not.toBeInstanceOf(LockBusyError);
      // The first call fails (nothing listens), and then the name is free again.
      expect(await firstOutcome).not.toBe("granted");
      const third = await client.lock("a").catch((err: unknown) => err);
      expect(third).not.toBeInstanceOf(LockBusyError);
    } finally {
      await client.close();
    }
  });

  it("rejects with the signal's reason when already aborted, without claiming the name", async () => {
    const client = new PalisadeClient({
      endpoints: ["127.0.0.1:1"],
      callTimeoutMs: 100,
      retryBudgetMs: 100,
    });
    try {
      const reason = new Error("stop");
      await expect(client.lock("a", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      const next = await client.lock("a").catch((err: unknown) => err);
      expect(next).not.toBeInstanceOf(LockBusyError);
    } finally {
      await client.close();
    }
  });
});
