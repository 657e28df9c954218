// The error a call ends with when no node answered in time names the cause for each endpoint
// it tried: a node that answered that no leader is known, one that refused the connection,
// one that did not answer, a CA the client does not trust, a TLS mismatch.
import { status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import type { ClientClock } from "../../../client/clock.ts";
import { Failover, type AttemptFailure } from "../../../client/failover.ts";
import { OutcomeUnknownError, UnavailableError } from "../../../client/errors.ts";
import { hostOfTarget } from "../../../proto/tls-channel.ts";

let now = 0;
const clock: ClientClock = {
  monotonicMs: () => now,
  wallMs: () => 1_700_000_000_000 + now,
  setTimeout: () => ({ cancel: () => undefined }),
  setInterval: () => ({ cancel: () => undefined }),
};

class Failed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.detail);
  }
}

const transport = (detail: string, timedOut = false): AttemptFailure => ({
  retriable: true,
  timedOut,
  detail,
  error: new Error(detail),
  code: timedOut ? Status.DEADLINE_EXCEEDED : Status.UNAVAILABLE,
});
const noLeader: AttemptFailure = {
  retriable: true,
  timedOut: false,
  detail: "no leader is known yet (election in progress or no quorum); retry shortly",
  error: new Error("no leader"),
  code: Status.UNAVAILABLE,
  reason: "ERROR_REASON_NO_LEADER",
};

/** A call over endpoints whose every attempt fails as `byEndpoint` says; 10 ms pass per attempt. */
async function giveUp(
  byEndpoint: Record<string, AttemptFailure>,
  kind: "write" | "read",
): Promise<Error> {
  const failover = new Failover(
    Object.keys(byEndpoint),
    clock,
    (err) => (err as Failed).failure,
    () => Promise.resolve(),
  );
  return failover
    .call(
      (endpoint) => {
        now += 10;
        return Promise.reject(new Failed(byEndpoint[endpoint] as AttemptFailure));
      },
      "Acquire",
      {},
      { kind, attemptTimeoutMs: 100, budgetMs: 100 },
    )
    .then(
      () => new Error("answered"),
      (e: unknown) => e as Error,
    );
}

describe("the error of a call that got no answer", () => {
  it("says no leader, and how many members answered, when a node answered that none leads", async () => {
    const error = await giveUp(
      {
        "10.0.0.1:7001": noLeader,
        "10.0.0.2:7001": transport("connect ECONNREFUSED 10.0.0.2:7001"),
        "10.0.0.3:7001": transport("deadline exceeded", true),
      },
      "write",
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toBe(
      "Acquire: no leader: 1 of 3 members reachable (10.0.0.1:7001 no leader known there, 10.0.0.2:7001 refused, 10.0.0.3:7001 no answer)",
    );
  });

  it("says no member is reachable, naming a CA not trusted and a server without TLS", async () => {
    const error = await giveUp(
      {
        "a:1": transport(
          "the stream to a:1 broke: No connection established. Last error: self-signed certificate in certificate chain (2026-12-02T10:44:07.429Z). Resolution note: ",
        ),
        "b:1": transport("write EPROTO: SSL routines::wrong version number"),
        "c:1": transport(
          "the stream to c:1 broke: No connection established. Last error: Failed to connect (2026-12-02T10:44:07.634Z). Resolution note: ",
        ),
      },
      "read",
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      "Acquire: no member reachable (a:1 certificate signed by an unknown CA, b:1 the server does not use TLS (connect without TLS), c:1 connection failed (does the server require TLS?): No connection established. Last error: Failed to connect)",
    );
  });

  it("names a node that points to a leader it could not be reached at", async () => {
    const error = await giveUp(
      {
        "a:1": { ...noLeader, reason: "ERROR_REASON_NOT_LEADER", leaderHint: "b:1" },
        "b:1": transport("deadline exceeded", true),
      },
      "write",
    );
    expect(error.message).toBe(
      "Acquire: no answer within the time given (a:1 says b:1 leads, b:1 no answer)",
    );
  });
});

describe("the TLS server name of a channel target", () => {
  it("is the host without its port, IPv6 without brackets", () => {
    expect(hostOfTarget("127.0.0.1:7001")).toBe("127.0.0.1");
    expect(hostOfTarget("node-1.internal:7001")).toBe("node-1.internal");
    expect(hostOfTarget("[::1]:7001")).toBe("::1");
    expect(hostOfTarget("::1")).toBe("::1");
    expect(hostOfTarget("localhost")).toBe("localhost");
  });
});
