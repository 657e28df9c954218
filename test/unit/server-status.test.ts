import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { fail as failAnswer } from "../../node/lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../../node/raft/core.ts";
import { DriverStoppedError, ProposalLostError, ReadIndexFailedError } from "../../node/server/driver.ts";
import { expectOk, Failure } from "../../node/server/handler.ts";
import { answerStatus, driverErrorStatus, LEADER_METADATA_KEY, notLeader } from "../../node/server/status.ts";

describe("answer and error statuses", () => {
  it("maps every state-machine error code to the SPEC's gRPC status", () => {
    expect(answerStatus("INVALID_ARGUMENT")).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answerStatus("NOT_FOUND")).toBe(grpc.status.NOT_FOUND);
    expect(answerStatus("FAILED_PRECONDITION")).toBe(grpc.status.FAILED_PRECONDITION);
    expect(answerStatus("RESOURCE_EXHAUSTED")).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it("throws an error answer as its status with the answer's message", () => {
    const answer = failAnswer("FAILED_PRECONDITION", "stale token", "token 3 is not the current grant of orders/1");
    let caught: unknown;
    try {
      expectOk(answer);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Failure);
    expect((caught as Failure).status).toEqual({ code: grpc.status.FAILED_PRECONDITION, details: "token 3 is not the current grant of orders/1" });
    expect(expectOk({ code: "OK", kind: "released" })).toEqual({ code: "OK", kind: "released" });
  });

  it("answers UNAVAILABLE with the leader hint in metadata when the leader is known", () => {
    const known = notLeader("127.0.0.1:7002");
    expect(known.code).toBe(grpc.status.UNAVAILABLE);
    expect(known.details).toContain("127.0.0.1:7002");
    expect(known.metadata?.get(LEADER_METADATA_KEY)).toEqual(["127.0.0.1:7002"]);
    const unknown = notLeader(null);
    expect(unknown.code).toBe(grpc.status.UNAVAILABLE);
    expect(unknown.metadata).toBeUndefined();
    expect(unknown.details).toMatch(/no leader is known/);
  });

  it("maps every proposal and read failure to UNAVAILABLE (outcome unknown, retry with the same seq)", () => {
    const errors = [
      new NotLeaderError(2), new ProposalDroppedError("transfer"), new ProposalLostError(9),
      new ReadIndexFailedError(0), new DriverStoppedError("stopped"),
    ];
    for (const error of errors) {
      const status = driverErrorStatus(error, "127.0.0.1:7003");
      expect(status.code).toBe(grpc.status.UNAVAILABLE);
      expect(status.metadata?.get(LEADER_METADATA_KEY)).toEqual(["127.0.0.1:7003"]);
    }
    expect(driverErrorStatus(new ProposalLostError(9), null).details).toMatch(/retry with the same seq/);
    expect(driverErrorStatus(new Error("boom"), null).code).toBe(grpc.status.INTERNAL);
  });
});

describe("tolerant request decoding", () => {
  it("hands undecodable bytes to the handler as a marker instead of failing the call with INTERNAL", async () => {
    const { lockServiceDefinition } = await import("../../proto/grpc.ts");
    const { malformedReason, tolerantDefinition } = await import("../../node/server/tolerant.ts");
    const def = tolerantDefinition(lockServiceDefinition);
    const bad = def.Acquire.requestDeserialize(Buffer.from([0xff, 0xff, 0xff, 0x01]));
    expect(malformedReason(bad)).toMatch(/wire type|index out of range|invalid/);
    const good = def.Acquire.requestDeserialize(lockServiceDefinition.Acquire.requestSerialize(
      lockServiceDefinition.Acquire.requestDeserialize(Buffer.from([0x12, 0x01, 0x61])),
    ));
    expect(malformedReason(good)).toBeNull();
    expect(good.lock).toBe("a");
    expect(def.Watch.responseStream).toBe(true);
  });
});
