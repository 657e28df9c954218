// Error reasons on real processes: each refusal a client meets in normal use arrives as its
// typed error class, decided by the `palisade-reason` trailing metadata the node sends
// (the enum value's name), not by the wording of the message.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  InvalidArgumentError,
  LimitError,
  NotHolderError,
  RequestTooOldError,
  SessionNotFoundError,
  StaleTokenError,
  UnavailableError,
  type PalisadeClient,
} from "../../client/index.ts";
import { Connection } from "../../client/connection.ts";
import { palisade } from "../../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi, type UnaryMethod } from "../../proto/grpc.ts";
import { toU64 } from "../../proto/wire.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { RawLockApi } from "./raw.ts";

const pb = palisade.v1;

let cluster: Cluster;
let client: PalisadeClient;
let raw: RawLockApi;

clusterForTests(
  {
    nodes: 3,
    limits: { maxLocksPerSession: 2, maxWaitersPerLock: 1, maxInFlightPerSession: 8 },
  },
  (started) => {
    cluster = started;
    client = cluster.client({ clientName: "reasons-test" });
    raw = new RawLockApi(cluster.endpoints);
    return () => {
      raw?.close();
    };
  },
);

/** The error a promise rejects with (fails the test if it resolves). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a refusal, got an answer");
}

/** One call to one node without the client's error mapping: the raw gRPC status. */
async function rawStatus<Req, Res>(
  endpoint: string,
  method: UnaryMethod<Req, Res>,
  request: Req,
): Promise<grpc.ServiceError> {
  const connection = new Connection({
    endpoints: [endpoint],
    callTimeoutMs: 5_000,
    retryBudgetMs: 5_000,
  });
  try {
    return (await refusal(
      connection.unaryOnce(endpoint, method, request, 5_000, true),
    )) as grpc.ServiceError;
  } finally {
    connection.close();
  }
}

describe("error reasons across the wire", () => {
  it("a stale token and a release by a non-holder arrive as StaleTokenError and NotHolderError with their reasons", async () => {
    const a = await client.openSession({ ttlMs: 5_000 });
    const b = await client.openSession({ ttlMs: 5_000 });
    const first = await a.acquire("reasons/fenced");
    await a.release("reasons/fenced", first.token ?? 0n);
    const second = await a.acquire("reasons/fenced");
    const stale = await refusal(a.release("reasons/fenced", first.token ?? 0n));
    expect(stale).toBeInstanceOf(StaleTokenError);
    expect(stale).toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      reason: "ERROR_REASON_STALE_TOKEN",
    });
    const notHolder = await refusal(b.release("reasons/fenced", second.token ?? 0n));
    expect(notHolder).toBeInstanceOf(NotHolderError);
    expect(notHolder).toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      reason: "ERROR_REASON_NOT_HOLDER",
    });
    await a.close();
    await b.close();
  });

  it("a delayed duplicate below the acknowledged mark arrives as RequestTooOldError", async () => {
    const sessionId = await raw.openSession(5_000);
    const first = await raw.acquire({ sessionId, lock: "reasons/retried", seq: 1 });
    await raw.release(sessionId, "reasons/retried", first.token, 2, 1);
    const old = await refusal(raw.acquire({ sessionId, lock: "reasons/retried", seq: 1 }));
    expect(old).toBeInstanceOf(RequestTooOldError);
    expect(old).toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      reason: "ERROR_REASON_REQUEST_TOO_OLD",
    });
  });

  it("an unknown session arrives as SessionNotFoundError, with palisade-reason readable in the raw trailers", async () => {
    const gone = await refusal(
      raw.acquire({ sessionId: 987_654_321n, lock: "reasons/nobody", seq: 1 }),
    );
    expect(gone).toBeInstanceOf(SessionNotFoundError);
    expect(gone).toMatchObject({
      code: grpc.status.NOT_FOUND,
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
    const leader = cluster.endpoint(await cluster.leaderId());
    const status = await rawStatus(
      leader,
      lockApi.GetSession,
      pb.GetSessionRequest.create({ sessionId: toU64(987_654_321n) }),
    );
    expect(status.code).toBe(grpc.status.NOT_FOUND);
    expect(status.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_SESSION_NOT_FOUND"]);
  });

  it("each limit arrives as LimitError naming which limit", async () => {
    const session = await client.openSession({ ttlMs: 5_000 });
    await session.acquire("reasons/limit-1");
    await session.acquire("reasons/limit-2");
    const locks = await refusal(session.acquire("reasons/limit-3"));
    expect(locks).toBeInstanceOf(LimitError);
    expect(locks).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      reason: "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION",
    });

    const waiter = await client.openSession({ ttlMs: 5_000 });
    const waiting = waiter.acquire("reasons/limit-1", { waitMs: 10_000 });
    const third = await client.openSession({ ttlMs: 5_000 });
    await cluster.waitFor(
      "one waiter queued",
      async () => (await client.read.getLock("reasons/limit-1")).waiters.length === 1,
    );
    const waiters = await refusal(third.acquire("reasons/limit-1", { waitMs: 10_000 }));
    expect(waiters).toBeInstanceOf(LimitError);
    expect(waiters).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      reason: "ERROR_REASON_TOO_MANY_WAITERS",
    });
    await session.close();
    expect((await waiting).acquired).toBe(true);
    await waiter.close();
    await third.close();

    // Answers the client never acknowledges fill the session's in-flight budget of 8.
    const sessionId = await raw.openSession(5_000);
    for (let seq = 1; seq <= 8; seq++)
      await raw.acquire({ sessionId, lock: "reasons/in-flight", seq });
    const inFlight = await refusal(raw.acquire({ sessionId, lock: "reasons/in-flight", seq: 9 }));
    expect(inFlight).toBeInstanceOf(LimitError);
    expect(inFlight).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      reason: "ERROR_REASON_TOO_MANY_IN_FLIGHT",
    });
  });

  it("bad input arrives as InvalidArgumentError", async () => {
    const session = await client.openSession({ ttlMs: 5_000 });
    const badName = await refusal(session.acquire("tab\there"));
    expect(badName).toBeInstanceOf(InvalidArgumentError);
    expect(badName).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    const badTtl = await refusal(client.openSession({ ttlMs: 100 }));
    expect(badTtl).toMatchObject({
      name: "InvalidArgumentError",
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    await session.close();
  });

  it("a write at a follower answers UNAVAILABLE with reason NOT_LEADER and the leader's address, and reaches the client as UnavailableError", async () => {
    const leaderId = await cluster.leaderId();
    const follower = cluster.endpoint(cluster.ids.find((id) => id !== leaderId) ?? 0);
    const request = pb.OpenSessionRequest.create({
      ttlMs: toU64(5_000),
      clientName: "at-follower",
      requestId: "reasons-follower",
    });
    const status = await rawStatus(follower, lockApi.OpenSession, request);
    expect(status.code).toBe(grpc.status.UNAVAILABLE);
    expect(status.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_NOT_LEADER"]);
    expect(status.metadata.get("palisade-leader")).toEqual([cluster.endpoint(leaderId)]);

    const connection = new Connection({
      endpoints: [follower],
      callTimeoutMs: 5_000,
      retryBudgetMs: 5_000,
    });
    try {
      const err = await refusal(
        connection.invoke(lockApi.OpenSession, () => request, { kind: "read", endpoint: follower }),
      );
      expect(err).toBeInstanceOf(UnavailableError);
      expect(err).toMatchObject({
        code: grpc.status.UNAVAILABLE,
        reason: "ERROR_REASON_NOT_LEADER",
      });
    } finally {
      connection.close();
    }
  });
});
