// The per-client rate limit: token buckets with an injected clock, and whose budget a
// request spends.
import { describe, expect, it } from "vitest";
import Long from "long";
import { batchSender, peerConnection, rateKey } from "../../../node/api/interceptors.ts";
import { RateLimiter } from "../../../node/host/rate-limiter.ts";
import { parseClusterConfig } from "../../../node/config/index.ts";
import { encodeRaftBatch } from "../../../node/transport/raft-codec.ts";

describe("RateLimiter", () => {
  it("allows a burst, then the rate, per identity", () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerSecond: 2, burst: 3, now: () => now });
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
    // Another identity has its own bucket.
    expect(limiter.take("b")).toBe(true);
    now = 499;
    expect(limiter.take("a")).toBe(false);
    now = 500; // half a second at 2/s: one token
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("a")).toBe(false);
    now = 100_000; // refills up to the burst, not beyond
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
  });

  it("is off at rate 0", () => {
    const limiter = new RateLimiter({ ratePerSecond: 0, burst: 1, now: () => 0 });
    expect(limiter.enabled).toBe(false);
    for (let i = 0; i < 100; i++) expect(limiter.take("a")).toBe(true);
  });

  it("forgets refilled identities when it tracks too many, and keeps one still in debt", () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 2, now: () => now, maxKeys: 4 });
    limiter.take("busy");
    limiter.take("busy");
    for (const key of ["a", "b", "c"]) limiter.take(key);
    now = 1_500; // a, b, c have refilled; busy has 1.5 tokens
    limiter.take("d");
    expect(limiter.size).toBe(2);
    expect(limiter.take("busy")).toBe(true);
    expect(limiter.take("busy")).toBe(false);
  });
});

describe("rateKey", () => {
  const cert = {
    role: "client" as const,
    nodeId: null,
    subject: "CN=alice,OU=client",
    cn: "alice",
    dns: [],
    uri: [],
  };

  it("uses the certificate subject under mTLS", () => {
    expect(rateKey(cert, { sessionId: Long.fromNumber(5, true) }, "127.0.0.1:5000")).toBe(
      "cert:CN=alice,OU=client",
    );
  });

  it("uses the session for session calls, else the caller's connection", () => {
    expect(rateKey(null, { sessionId: Long.fromNumber(5, true) }, "127.0.0.1:5000")).toBe(
      "session:5",
    );
    expect(rateKey(null, { sessionId: Long.UZERO }, "127.0.0.1:5000")).toBe("peer:127.0.0.1:5000");
    expect(rateKey(null, { lock: "x" }, "ipv4:10.1.2.3:4444")).toBe("peer:10.1.2.3:4444");
    expect(rateKey(null, {}, "[::1]:7000")).toBe("peer:[::1]:7000");
  });

  it("tells two connections from one host apart", () => {
    expect(peerConnection("ipv4:127.0.0.1:5000")).toBe(peerConnection("127.0.0.1:5000"));
    expect(rateKey(null, { lock: "x" }, "ipv4:127.0.0.1:5000")).not.toBe(
      rateKey(null, { lock: "x" }, "ipv4:127.0.0.1:5001"),
    );
  });
});

describe("batchSender", () => {
  it("reads the sender of a batch without decoding its messages", () => {
    const batch = encodeRaftBatch({ clusterId: "c", from: 3, to: 1 }, [
      new Uint8Array([8, 1]),
      new Uint8Array([8, 2]),
    ]);
    expect(batchSender(batch)).toBe(3);
  });

  it("answers null for bytes that are not a batch", () => {
    expect(batchSender(new Uint8Array([0xff, 0xff, 0xff]))).toBeNull();
    expect(batchSender(new Uint8Array([]))).toBeNull();
  });
});

describe("rate limit knobs in the cluster file", () => {
  const base = {
    clusterId: "c",
    nodes: [{ id: 1, peerAddress: "127.0.0.1:1", clientAddress: "127.0.0.1:2", dataDir: "d" }],
  };

  it("defaults to a generous limit and accepts fractions and 0 (off)", () => {
    expect(parseClusterConfig(base, "t", "/tmp").limits).toMatchObject({
      requestsPerSecond: 10_000,
      requestBurst: 20_000,
    });
    expect(
      parseClusterConfig({ ...base, limits: { requestsPerSecond: 0.5 } }, "t", "/tmp").limits
        .requestsPerSecond,
    ).toBe(0.5);
    expect(
      parseClusterConfig({ ...base, limits: { requestsPerSecond: 0 } }, "t", "/tmp").limits
        .requestsPerSecond,
    ).toBe(0);
  });

  it("refuses a negative rate and an empty burst", () => {
    expect(() =>
      parseClusterConfig({ ...base, limits: { requestsPerSecond: -1 } }, "t", "/tmp"),
    ).toThrow(/limits\.requestsPerSecond/);
    expect(() => parseClusterConfig({ ...base, limits: { requestBurst: 0 } }, "t", "/tmp")).toThrow(
      /limits\.requestBurst/,
    );
  });
});
