// Writes whose answer never came: the client keeps them in flight and retries the same
// seq until an answer arrives, so no acknowledgement ever claims an answer it does not
// hold (a late copy would be refused as "request too old" and a lock orphaned).
import { describe, expect, it } from "vitest";
import { LockBusyError, OutcomeUnknownError, PalisadeClient } from "../../../client/index.ts";
import { FakeCluster } from "./fake-cluster.ts";

function clientOn(fake: FakeCluster): PalisadeClient {
  const client = new PalisadeClient(
    { endpoints: ["127.0.0.1:1"], clientName: "t" },
    { lockApi: fake },
  );
  return client;
}

const seqOf = (request: Record<string, unknown>): number => request.seq as number;

describe("a write whose outcome is unknown", () => {
  it("a Release whose outcome is unknown is retried with the same seq until answered, and the lock is freed", async () => {
    const fake = new FakeCluster();
    const client = clientOn(fake);
    const other = clientOn(fake);
    try {
      const handle = await client.lock("a");
      let releasesLost = 2;
      fake.fault = ({ method }) =>
        method === "Release" && releasesLost-- > 0 ? "drop" : "deliver";

      await expect(handle.release()).rejects.toBeInstanceOf(OutcomeUnknownError);
      const releaseSeq = seqOf(fake.requests("Release")[0]);
      // The name stays claimed here while the release is unsettled.
      expect.soft(await client.lock("a").catch((e: unknown) => e)).toBeInstanceOf(LockBusyError);
      // The next write does not acknowledge the Release's seq.
      const b = await client.lock("b");
      const acquireOfB = fake.requests("Acquire").at(-1)!;
      expect.soft(acquireOfB.ackedUpTo as number).toBeLessThan(releaseSeq);
      expect.soft(acquireOfB.held as number[]).not.toContain(releaseSeq);

      // A later release() waits for the one going on in the background.
      await handle.release();
      const releases = fake.requests("Release").filter((r) => seqOf(r) === releaseSeq);
      expect.soft(releases.length).toBe(3);
      expect.soft(fake.machine.getLock("a").holder).toBeNull();
      const taken = await other.lock("a").then(
        (h) => h.token,
        (e: unknown) => e,
      );
      expect.soft(typeof taken).toBe("bigint");
      await b.release();
    } finally {
      await client.close();
      await other.close();
    }
  });

  it("a CloseSession whose outcome is unknown stays in flight", async () => {
    const fake = new FakeCluster();
    const client = clientOn(fake);
    const session = await client.openSession({ ttlMs: 10_000 });
    fake.fault = ({ method }) => (method === "CloseSession" ? "drop" : "deliver");
    await expect(session.close()).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect((session as unknown as { writesInFlight: number }).writesInFlight).toBe(1);
    await client.close();
  });
});
