// A client's bearer token against an in-process gRPC server that records each call's
// `authorization` metadata: the Stream RPC, unary lock and admin calls, a Watch and a
// backup all present it on a plaintext channel; without a token none is sent; a token that
// cannot travel as metadata is refused before anything is sent, without being echoed.
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { fetchBackup } from "../../../client/backup.ts";
import { PalisadeClient } from "../../../client/client.ts";
import { Connection } from "../../../client/connection.ts";
import {
  InvalidArgumentError,
  PermissionDeniedError,
  UnauthenticatedError,
} from "../../../client/errors.ts";
import { statusError } from "../../../node/api/status.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { adminServiceDefinition, lockServiceDefinition } from "../../../proto/grpc.ts";

const pb = palisade.v1;
const L = lockServiceDefinition;
const A = adminServiceDefinition;
const TOKEN = "pal_0123456789abcdef_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

type Seen = Array<{ call: string; authorization: grpc.MetadataValue[] }>;

/**
 * A LockService and AdminService that record who called: the Stream answers each GetLock,
 * the unary GetLock answers too, a Watch and a Backup are refused (PERMISSION_DENIED and
 * UNAUTHENTICATED), WhoAmI answers an identity.
 */
async function recordingServer(): Promise<{ address: string; seen: Seen; stop(): void }> {
  const seen: Seen = [];
  const record = (call: string, metadata: grpc.Metadata): void => {
    seen.push({ call, authorization: metadata.get("authorization") });
  };
  const server = new grpc.Server();
  server.addService({ Stream: L.Stream, GetLock: L.GetLock, Watch: L.Watch }, {
    Stream: (call: grpc.ServerDuplexStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>) => {
      record("Stream", call.metadata);
      call.on("data", (frame: palisade.v1.ClientFrame) =>
        call.write(
          pb.ServerFrame.create({
            answers: frame.requests.map((r) => ({
              id: r.id,
              getLock: { lock: r.getLock?.lock ?? "" },
            })),
          }),
        ),
      );
      call.on("end", () => call.end());
    },
    GetLock: (
      call: grpc.ServerUnaryCall<palisade.v1.GetLockRequest, palisade.v1.GetLockResponse>,
      callback: grpc.sendUnaryData<palisade.v1.GetLockResponse>,
    ) => {
      record("GetLock", call.metadata);
      callback(null, pb.GetLockResponse.create({ lock: call.request.lock }));
    },
    Watch: (call: grpc.ServerWritableStream<palisade.v1.WatchRequest, palisade.v1.WatchEvent>) => {
      record("Watch", call.metadata);
      call.emit(
        "error",
        statusError("ERROR_REASON_PERMISSION_DENIED", "team-a lacks permission read on orders/"),
      );
    },
  } as unknown as grpc.UntypedServiceImplementation);
  server.addService({ WhoAmI: A.WhoAmI, Backup: A.Backup }, {
    WhoAmI: (
      call: grpc.ServerUnaryCall<palisade.v1.WhoAmIRequest, palisade.v1.WhoAmIResponse>,
      callback: grpc.sendUnaryData<palisade.v1.WhoAmIResponse>,
    ) => {
      record("WhoAmI", call.metadata);
      callback(null, pb.WhoAmIResponse.create({ identity: "team-a", via: "token" }));
    },
    Backup: (
      call: grpc.ServerWritableStream<palisade.v1.BackupRequest, palisade.v1.BackupChunk>,
    ) => {
      record("Backup", call.metadata);
      call.emit(
        "error",
        statusError("ERROR_REASON_UNAUTHENTICATED", "token 0123456789abcdef is unknown or revoked"),
      );
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, seen, stop: () => server.forceShutdown() };
}

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Every call a client makes against the server, each path once; what the server saw. */
async function callEveryWay(token: string | undefined): Promise<Seen> {
  const server = await recordingServer();
  cleanup.push(server.stop);
  const options = {
    endpoints: [server.address],
    callTimeoutMs: 2_000,
    retryBudgetMs: 2_000,
    ...(token !== undefined ? { token } : {}),
  };
  const client = new PalisadeClient(options);
  cleanup.push(() => client.close());
  expect((await client.read.getLock("orders/1")).lock).toBe("orders/1");
  expect((await client.admin.whoAmI()).identity).toBe("team-a");
  const connection = new Connection(options);
  cleanup.push(() => connection.close());
  const unary = await connection.unaryOnce(
    server.address,
    L.GetLock,
    pb.GetLockRequest.create({ lock: "orders/2" }),
    2_000,
    true,
  );
  expect(unary.lock).toBe("orders/2");
  const watch = client.read.watch("orders/");
  await expect(watch.next()).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(
    fetchBackup({ endpoints: [server.address], ...(token !== undefined ? { token } : {}) }),
  ).rejects.toBeInstanceOf(UnauthenticatedError);
  return server.seen;
}

describe("a client's bearer token", () => {
  it("is sent as `authorization: Bearer …` with every call on a plaintext channel: the Stream, unary lock and admin calls, a Watch, a backup", async () => {
    const seen = await callEveryWay(TOKEN);
    expect(seen.map((s) => s.call).sort()).toEqual([
      "Backup",
      "GetLock",
      "Stream",
      "Watch",
      "WhoAmI",
    ]);
    for (const s of seen) expect(s.authorization, s.call).toEqual([`Bearer ${TOKEN}`]);
  });

  it("is absent without a token: no authorization metadata at all", async () => {
    const seen = await callEveryWay(undefined);
    expect(seen).toHaveLength(5);
    for (const s of seen) expect(s.authorization, s.call).toEqual([]);
  });

  it("that could not travel as metadata is refused before anything is sent, and not repeated in the error", () => {
    for (const bad of ["", "pal_0123 secret", "pal_x\nsecret", "pal_é"]) {
      const made = (): PalisadeClient =>
        new PalisadeClient({ endpoints: ["127.0.0.1:1"], token: bad });
      expect(made, JSON.stringify(bad)).toThrow(InvalidArgumentError);
      try {
        made();
      } catch (err) {
        if (bad !== "") expect((err as Error).message).not.toContain(bad);
      }
    }
  });
});
