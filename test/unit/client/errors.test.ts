import { Metadata, status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  LimitError,
  NotHolderError,
  PermissionDeniedError,
  RequestTooOldError,
  ServerError,
  SessionNotFoundError,
  StaleTokenError,
  UnauthenticatedError,
  UnavailableError,
} from "../../../client/errors.ts";
import { errorFromStatus } from "../../../client/status-errors.ts";
import { toJson } from "../../../client/ctl/format.ts";

describe("errorFromStatus", () => {
  it("maps each status to its typed error and keeps the code", () => {
    const err = errorFromStatus(status.NOT_FOUND, "session 7 not found");
    expect(err).toBeInstanceOf(SessionNotFoundError);
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.message).toBe("session 7 not found");
    expect(errorFromStatus(status.INVALID_ARGUMENT, "bad name")).toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(errorFromStatus(status.RESOURCE_EXHAUSTED, "too many")).toBeInstanceOf(LimitError);
    expect(errorFromStatus(status.UNAVAILABLE, "no leader")).toBeInstanceOf(UnavailableError);
    expect(errorFromStatus(status.INTERNAL, "boom")).toBeInstanceOf(ServerError);
  });

  it("maps a status by its palisade-reason metadata, never by the wording of its message", () => {
    const withReason = (reason: string): Metadata => {
      const md = new Metadata();
      md.set("palisade-reason", reason);
      return md;
    };
    const stale = errorFromStatus(
      status.FAILED_PRECONDITION,
      "refused",
      withReason("ERROR_REASON_STALE_TOKEN"),
    );
    expect(stale).toBeInstanceOf(StaleTokenError);
    expect(stale.reason).toBe("ERROR_REASON_STALE_TOKEN");
    expect(
      errorFromStatus(status.FAILED_PRECONDITION, "refused", withReason("ERROR_REASON_NOT_HOLDER")),
    ).toBeInstanceOf(NotHolderError);
    expect(
      errorFromStatus(
        status.FAILED_PRECONDITION,
        "refused",
        withReason("ERROR_REASON_REQUEST_TOO_OLD"),
      ),
    ).toBeInstanceOf(RequestTooOldError);
    // The message text decides nothing: a rewording must not change the class.
    expect(
      errorFromStatus(
        status.FAILED_PRECONDITION,
        "token 5 is not the current grant of lock a (stale token)",
      ),
    ).toBeInstanceOf(FailedPreconditionError);
    expect(
      errorFromStatus(status.FAILED_PRECONDITION, "session 3 does not hold lock a: not holder"),
    ).toBeInstanceOf(FailedPreconditionError);
    expect(
      errorFromStatus(
        status.FAILED_PRECONDITION,
        "seq 1 is too old",
        withReason("ERROR_REASON_NOT_HOLDER"),
      ),
    ).toBeInstanceOf(NotHolderError);
  });
});

describe("refusals of access control", () => {
  const withReason = (reason: string): Metadata => {
    const md = new Metadata();
    md.set("palisade-reason", reason);
    return md;
  };

  it("PERMISSION_DENIED and UNAUTHENTICATED become their own classes, still ServerErrors", () => {
    const denied = errorFromStatus(
      status.PERMISSION_DENIED,
      "identity team-a lacks permission acquire:exclusive on billing/1",
      withReason("ERROR_REASON_PERMISSION_DENIED"),
    );
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied).toBeInstanceOf(ServerError);
    expect(denied.name).toBe("PermissionDeniedError");
    expect(denied.message).toBe("identity team-a lacks permission acquire:exclusive on billing/1");
    for (const reason of ["ERROR_REASON_UNAUTHENTICATED", "ERROR_REASON_CERTIFICATE_REQUIRED"]) {
      const refused = errorFromStatus(status.UNAUTHENTICATED, "refused", withReason(reason));
      expect(refused, reason).toBeInstanceOf(UnauthenticatedError);
      expect(refused, reason).toBeInstanceOf(ServerError);
      expect(refused.reason).toBe(reason);
    }
    // Without a reason the code alone says only ServerError, as before.
    const bare = errorFromStatus(status.PERMISSION_DENIED, "refused");
    expect(bare.constructor).toBe(ServerError);
    expect(bare.message).toBe("PERMISSION_DENIED: refused");
  });
});

describe("toJson", () => {
  it("writes uint64 values as decimal strings", () => {
    expect(toJson({ token: (1n << 63n) + 1n, n: 1 })).toBe('{"token":"9223372036854775809","n":1}');
  });
});
