// The error contract of proto/wire.ts: every ErrorReason of the proto has a code and a
// client error class, a node's status for each reason crosses a real gRPC call with its
// name in `palisade-reason`, and the client turns it into that class.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as errors from "../../../client/errors.ts";
import { Connection } from "../../../client/connection.ts";
import { errorFromStatus } from "../../../client/status-errors.ts";
import { clientInterceptor } from "../../../node/api/interceptors.ts";
import { RateLimiter } from "../../../node/host/rate-limiter.ts";
import { statusError } from "../../../node/api/status.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../../../proto/grpc.ts";
import {
  WIRE_ERRORS,
  errorClassOf,
  isErrorReasonName,
  type ErrorReasonName,
} from "../../../proto/wire.ts";

const pb = palisade.v1;
const REASONS = Object.keys(pb.ErrorReason).filter((name) => name !== "ERROR_REASON_UNSPECIFIED");

const servers: grpc.Server[] = [];
const connections: Connection[] = [];

/** A LockService on loopback behind the node's client interceptor; GetLock answers with the status of the reason named as its lock. */
async function startServer(limiter: RateLimiter): Promise<string> {
  const server = new grpc.Server({ interceptors: [clientInterceptor({ tls: false, limiter })] });
  servers.push(server);
  const refuseAs: grpc.handleUnaryCall<palisade.v1.GetLockRequest, palisade.v1.GetLockResponse> = (
    call,
    callback,
  ) => {
    const name = call.request.lock;
    callback(
      isErrorReasonName(name)
        ? statusError(name, `refused as ${name}`)
        : { code: grpc.status.UNKNOWN, details: "no such reason" },
    );
  };
  server.addService(lockApi, { GetLock: refuseAs } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  return `127.0.0.1:${port}`;
}

afterAll(async () => {
  for (const connection of connections) connection.close();
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.tryShutdown(() => resolve()))),
  );
});

/** The raw status of one GetLock call naming `lock`. */
async function statusOf(endpoint: string, lock: string): Promise<grpc.ServiceError> {
  const connection = new Connection({
    endpoints: [endpoint],
    callTimeoutMs: 5_000,
    retryBudgetMs: 5_000,
  });
  connections.push(connection);
  try {
    await connection.unaryOnce(
      endpoint,
      lockApi.GetLock,
      pb.GetLockRequest.create({ lock }),
      5_000,
      true,
    );
  } catch (err) {
    return err as grpc.ServiceError;
  }
  throw new Error(`${lock}: expected an error status`);
}

let endpoint: string;
beforeAll(async () => {
  endpoint = await startServer(new RateLimiter({ ratePerSecond: 0, burst: 1, now: () => 0 }));
});

describe("error reasons on the wire", () => {
  it("gives every ErrorReason of the proto one status code and one client error class", () => {
    expect(Object.keys(WIRE_ERRORS).sort()).toEqual([...REASONS].sort());
    for (const name of REASONS) {
      const entry = WIRE_ERRORS[name as ErrorReasonName];
      expect(grpc.status[entry.code], name).toBeDefined();
      expect(entry.code, name).not.toBe(grpc.status.OK);
      expect(errors[entry.errorClass], name).toBeTypeOf("function");
    }
  });

  it("every ErrorReason a node sends reaches the client as its error class, through a real gRPC call", async () => {
    for (const name of REASONS) {
      const entry = WIRE_ERRORS[name as ErrorReasonName];
      const status = await statusOf(endpoint, name);
      expect(status.code, name).toBe(entry.code);
      expect(status.metadata.get("palisade-reason"), name).toEqual([name]);
      const err = errorFromStatus(status.code, status.details, status.metadata);
      expect(err, name).toBeInstanceOf(errors[entry.errorClass]);
      expect(err.name, name).toBe(entry.errorClass);
      expect(err.code, name).toBe(entry.code);
      expect(err.reason, name).toBe(name);
      expect(err.message, name).toContain(`refused as ${name}`);
    }
  });

  it("a request refused by the rate limit arrives as LimitError with reason RATE_LIMITED", async () => {
    // A budget of one request per client, spent by the first call: the next one on the same
    // connection is refused.
    const limiter = new RateLimiter({ ratePerSecond: 1e-9, burst: 1, now: () => 0 });
    const limited = await startServer(limiter);
    const connection = new Connection({
      endpoints: [limited],
      callTimeoutMs: 5_000,
      retryBudgetMs: 5_000,
    });
    connections.push(connection);
    const statusOfCall = (lock: string): Promise<grpc.ServiceError> =>
      connection
        .unaryOnce(limited, lockApi.GetLock, pb.GetLockRequest.create({ lock }), 5_000, true)
        .then(
          () => {
            throw new Error(`${lock}: expected an error status`);
          },
          (err: unknown) => err as grpc.ServiceError,
        );
    expect((await statusOfCall("ERROR_REASON_INTERNAL")).code).toBe(grpc.status.INTERNAL);
    const status = await statusOfCall("ERROR_REASON_INTERNAL");
    expect(status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(status.metadata.get("palisade-reason")).toEqual(["ERROR_REASON_RATE_LIMITED"]);
    const err = errorFromStatus(status.code, status.details, status.metadata);
    expect(err).toBeInstanceOf(errors.LimitError);
    expect(err.reason).toBe("ERROR_REASON_RATE_LIMITED");
  });

  it("a status without a known reason, or with a reason of another code, maps by its code alone", () => {
    expect(errorClassOf(grpc.status.FAILED_PRECONDITION, undefined)).toBe(
      "FailedPreconditionError",
    );
    expect(errorClassOf(grpc.status.NOT_FOUND, undefined)).toBe("SessionNotFoundError");
    expect(errorClassOf(grpc.status.RESOURCE_EXHAUSTED, undefined)).toBe("LimitError");
    expect(errorClassOf(grpc.status.UNAVAILABLE, undefined)).toBe("UnavailableError");
    expect(errorClassOf(grpc.status.INVALID_ARGUMENT, undefined)).toBe("InvalidArgumentError");
    expect(errorClassOf(grpc.status.DATA_LOSS, undefined)).toBe("ServerError");
    expect(errorClassOf(grpc.status.UNAVAILABLE, "ERROR_REASON_STALE_TOKEN")).toBe(
      "UnavailableError",
    );
    const md = new grpc.Metadata();
    md.set("palisade-reason", "ERROR_REASON_FROM_A_NEWER_NODE");
    const err = errorFromStatus(grpc.status.FAILED_PRECONDITION, "refused", md);
    expect(err).toBeInstanceOf(errors.FailedPreconditionError);
    expect(err.reason).toBeUndefined();
  });
});
