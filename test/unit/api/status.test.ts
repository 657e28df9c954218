import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { WIRE_ERRORS, type ErrorReasonName } from "../../../proto/wire.ts";
import { fail as failAnswer } from "../../../node/lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../../../node/raft/core.ts";
import {
  DriverStoppedError,
  ProposalLostError,
  ReadIndexFailedError,
} from "../../../node/host/driver.ts";
import {
  answerFailure,
  failureOf,
  notLeader as notLeaderFailure,
} from "../../../node/host/failures.ts";
import type { ErrorAnswer } from "../../../node/lock/index.ts";
import {
  callFailureOf,
  LEADER_METADATA_KEY,
  statusOf,
  type StatusError,
} from "../../../node/api/status.ts";

// Each failure as the status a unary call ends with.
const answerStatus = (answer: ErrorAnswer): StatusError =>
  statusOf(callFailureOf(answerFailure(answer)));
const notLeader = (leader: string | null): StatusError =>
  statusOf(callFailureOf(notLeaderFailure(leader)));
const driverErrorStatus = (error: unknown, leader: string | null): StatusError =>
  statusOf(callFailureOf(failureOf(error, leader)));

describe("answer and error statuses", () => {
  it("answers every error reason with the status code of the wire table, naming the reason", () => {
    for (const [reason, { code }] of Object.entries(WIRE_ERRORS) as Array<
      [ErrorReasonName, { code: grpc.status }]
    >) {
      const status = answerStatus(failAnswer(reason, `refused: ${reason}`));
      expect(status.code, reason).toBe(code);
      expect(status.details).toBe(`refused: ${reason}`);
      expect(status.metadata.get("palisade-reason"), reason).toEqual([reason]);
    }
  });

  it("turns an error answer into its status with the answer's message", () => {
    const answer = failAnswer(
      "ERROR_REASON_STALE_TOKEN",
      "token 3 is not the current grant of orders/1",
    );
    const status = answerStatus(answer);
    expect({ code: status.code, details: status.details }).toEqual({
      code: grpc.status.FAILED_PRECONDITION,
      details: "token 3 is not the current grant of orders/1",
    });
    expect(status.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_STALE_TOKEN"]);
  });

  it("an error answer's status names its reason in palisade-reason trailing metadata", () => {
    const answers = [
      failAnswer("ERROR_REASON_STALE_TOKEN", "token 3 is not the current grant of orders/1"),
      failAnswer("ERROR_REASON_NOT_HOLDER", "session 2 does not hold orders/1"),
      failAnswer("ERROR_REASON_TOO_MANY_WAITERS", "lock orders/1 already has 3 waiters"),
    ];
    const reasons = answers.map((answer) => answerStatus(answer).metadata.get("palisade-reason"));
    expect(reasons).toEqual([
      ["ERROR_REASON_STALE_TOKEN"],
      ["ERROR_REASON_NOT_HOLDER"],
      ["ERROR_REASON_TOO_MANY_WAITERS"],
    ]);
  });

  it("answers UNAVAILABLE with the leader hint in metadata when the leader is known", () => {
    const known = notLeader("127.0.0.1:7002");
    expect(known.code).toBe(grpc.status.UNAVAILABLE);
    expect(known.details).toContain("127.0.0.1:7002");
    expect(known.metadata.get(LEADER_METADATA_KEY)).toEqual(["127.0.0.1:7002"]);
    expect(known.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_NOT_LEADER"]);
    const unknown = notLeader(null);
    expect(unknown.code).toBe(grpc.status.UNAVAILABLE);
    expect(unknown.metadata.get(LEADER_METADATA_KEY)).toEqual([]);
    expect(unknown.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_NO_LEADER"]);
    expect(unknown.details).toMatch(/no leader is known/);
  });

  it("maps every proposal and read failure to UNAVAILABLE (outcome unknown, retry with the same seq)", () => {
    const errors = [
      new NotLeaderError(2),
      new ProposalDroppedError("transfer"),
      new ProposalLostError(9),
      new ReadIndexFailedError(0),
      new DriverStoppedError("stopped"),
    ];
    const reasons = errors.map((error) => {
      const status = driverErrorStatus(error, "127.0.0.1:7003");
      expect(status.code).toBe(grpc.status.UNAVAILABLE);
      expect(status.metadata.get(LEADER_METADATA_KEY)).toEqual(["127.0.0.1:7003"]);
      return status.metadata.get("palisade-reason")[0];
    });
    expect(reasons).toEqual([
      "ERROR_REASON_NOT_LEADER",
      "ERROR_REASON_PROPOSAL_DROPPED",
      "ERROR_REASON_LEADERSHIP_CHANGED",
      "ERROR_REASON_READ_NOT_CONFIRMED",
      "ERROR_REASON_SHUTTING_DOWN",
    ]);
    expect(driverErrorStatus(new ProposalLostError(9), null).details).toMatch(
      /retry with the same seq/,
    );
    const internal = driverErrorStatus(new Error("boom"), null);
    expect(internal.code).toBe(grpc.status.INTERNAL);
    expect(internal.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_INTERNAL"]);
  });
});

describe("tolerant request decoding", () => {
  it("hands undecodable bytes to the handler as a marker instead of failing the call with INTERNAL", async () => {
    const { lockServiceDefinition } = await import("../../../proto/grpc.ts");
    const { malformedReason, tolerantDefinition } = await import("../../../node/api/tolerant.ts");
    const def = tolerantDefinition(lockServiceDefinition);
    const bad = def.Acquire.requestDeserialize(Buffer.from([0xff, 0xff, 0xff, 0x01]));
    expect(malformedReason(bad)).toMatch(/wire type|index out of range|invalid/);
    const good = def.Acquire.requestDeserialize(
      lockServiceDefinition.Acquire.requestSerialize(
        lockServiceDefinition.Acquire.requestDeserialize(Buffer.from([0x12, 0x01, 0x61])),
      ),
    );
    expect(malformedReason(good)).toBeNull();
    expect(good.lock).toBe("a");
    expect(def.Watch.responseStream).toBe(true);
  });
});
