import { Metadata, status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  FailedPreconditionError, InvalidArgumentError, LimitError, NotHolderError, RequestTooOldError, ServerError,
  SessionNotFoundError, StaleTokenError, UnavailableError,
} from "../../client/errors.ts";
import { errorFromStatus } from "../../client/status-errors.ts";
import { toJson } from "../../client/cli.ts";

describe("errorFromStatus", () => {
  it("maps each status to its typed error and keeps the code", () => {
    const err = errorFromStatus(status.NOT_FOUND, "session 7 not found");
    expect(err).toBeInstanceOf(SessionNotFoundError);
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.message).toBe("session 7 not found");
    expect(errorFromStatus(status.INVALID_ARGUMENT, "bad name")).toBeInstanceOf(InvalidArgumentError);
    expect(errorFromStatus(status.RESOURCE_EXHAUSTED, "too many")).toBeInstanceOf(LimitError);
    expect(errorFromStatus(status.UNAVAILABLE, "no leader")).toBeInstanceOf(UnavailableError);
    expect(errorFromStatus(status.INTERNAL, "boom")).toBeInstanceOf(ServerError);
  });

  it("splits FAILED_PRECONDITION by the answer's reason", () => {
    expect(errorFromStatus(status.FAILED_PRECONDITION, "token 5 is not the current grant of lock a")).toBeInstanceOf(StaleTokenError);
    expect(errorFromStatus(status.FAILED_PRECONDITION, "session 3 does not hold lock a")).toBeInstanceOf(NotHolderError);
    expect(errorFromStatus(status.FAILED_PRECONDITION, "seq 1 is at or below the acknowledged mark 2")).toBeInstanceOf(RequestTooOldError);
    expect(errorFromStatus(status.FAILED_PRECONDITION, "something else")).toBeInstanceOf(FailedPreconditionError);
    const md = new Metadata();
    md.set("palisade-reason", "stale token");
    expect(errorFromStatus(status.FAILED_PRECONDITION, "refused", md)).toBeInstanceOf(StaleTokenError);
  });
});

describe("toJson", () => {
  it("writes uint64 values as decimal strings", () => {
    expect(toJson({ token: (1n << 63n) + 1n, n: 1 })).toBe('{"token":"9223372036854775809","n":1}');
  });
});
