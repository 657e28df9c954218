// The node's grpc.health.v1.Health service on a real grpc-js server, read by a client that
// decodes the answers with protobufjs from the service's published .proto text, so the
// hand-written encoding is checked against the standard one.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SERVICE_NAME, LOCK_SERVICE_NAME, NodeHealth } from "../../../node/ops/health.ts";
import { eventually } from "../eventually.ts";

const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;
message HealthListRequest {}
message HealthListResponse { map<string, HealthCheckResponse> statuses = 1; }
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
`;
const root = protobuf.parse(HEALTH_PROTO).root;
const CheckRequest = root.lookupType("grpc.health.v1.HealthCheckRequest");
const CheckResponse = root.lookupType("grpc.health.v1.HealthCheckResponse");
const ListRequest = root.lookupType("grpc.health.v1.HealthListRequest");
const ListResponse = root.lookupType("grpc.health.v1.HealthListResponse");
const STATUS = root.lookupEnum("grpc.health.v1.HealthCheckResponse.ServingStatus").valuesById;

const encode = (type: protobuf.Type, value: object): Buffer =>
  Buffer.from(type.encode(type.create(value)).finish());
const statusName = (bytes: Buffer): string =>
  STATUS[(CheckResponse.decode(bytes) as unknown as { status: number }).status] ?? "?";
const identity = (b: Buffer): Buffer => b;

describe("the node's gRPC health service", () => {
  let server: grpc.Server;
  let client: grpc.Client;
  let health: NodeHealth;

  beforeEach(async () => {
    health = new NodeHealth();
    server = new grpc.Server();
    health.addTo(server);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });

  afterEach(async () => {
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  const call = (
    method: string,
    request: Buffer,
  ): Promise<{ ok: true; bytes: Buffer } | { ok: false; code: grpc.status }> =>
    new Promise((done) => {
      client.makeUnaryRequest(
        `/grpc.health.v1.Health/${method}`,
        identity,
        identity,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + 5_000 },
        (err, bytes) =>
          done(err ? { ok: false, code: err.code } : { ok: true, bytes: bytes ?? Buffer.alloc(0) }),
      );
    });

  const check = async (service: string): Promise<string> => {
    const answer = await call("Check", encode(CheckRequest, { service }));
    if (!answer.ok) return `error ${grpc.status[answer.code]}`;
    return statusName(answer.bytes);
  };

  it("Check answers NOT_SERVING before the node serves, SERVING after, and NOT_FOUND for a service it does not have", async () => {
    expect(await check("")).toBe("NOT_SERVING");
    health.serving();
    expect(await check("")).toBe("SERVING");
    expect(await check(ADMIN_SERVICE_NAME)).toBe("SERVING");
    expect(await check(LOCK_SERVICE_NAME)).toBe("NOT_SERVING");
    health.leaderKnown(true);
    expect(await check(LOCK_SERVICE_NAME)).toBe("SERVING");
    expect(await check("no.such.Service")).toBe("error NOT_FOUND");
    health.stopping();
    expect(await Promise.all(["", LOCK_SERVICE_NAME, ADMIN_SERVICE_NAME].map(check))).toEqual([
      "NOT_SERVING",
      "NOT_SERVING",
      "NOT_SERVING",
    ]);
  });

  it("Watch sends the current status at once and each change after it; an unknown service is SERVICE_UNKNOWN and the call stays open", async () => {
    const seen: string[] = [];
    const unknown: string[] = [];
    const stream = client.makeServerStreamRequest(
      "/grpc.health.v1.Health/Watch",
      identity,
      identity,
      encode(CheckRequest, { service: LOCK_SERVICE_NAME }),
    );
    const other = client.makeServerStreamRequest(
      "/grpc.health.v1.Health/Watch",
      identity,
      identity,
      encode(CheckRequest, { service: "no.such.Service" }),
    );
    stream.on("data", (bytes: Buffer) => seen.push(statusName(bytes)));
    other.on("data", (bytes: Buffer) => unknown.push(statusName(bytes)));
    stream.on("error", () => undefined);
    other.on("error", () => undefined);
    const until = async (what: () => boolean): Promise<void> => {
      await eventually(() => expect(what()).toBe(true));
    };
    await until(() => seen.length === 1 && unknown.length === 1);
    health.leaderKnown(true);
    await until(() => seen.length === 2);
    health.leaderKnown(false);
    await until(() => seen.length === 3);
    expect(seen).toEqual(["NOT_SERVING", "SERVING", "NOT_SERVING"]);
    expect(unknown).toEqual(["SERVICE_UNKNOWN"]);
    stream.cancel();
    other.cancel();
  });

  it("List answers every service with its status", async () => {
    health.serving();
    const answer = await call("List", encode(ListRequest, {}));
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const list = ListResponse.toObject(ListResponse.decode(answer.bytes), { enums: String }) as {
      statuses: Record<string, { status?: string }>;
    };
    expect(list.statuses).toEqual({
      "": { status: "SERVING" },
      [LOCK_SERVICE_NAME]: { status: "NOT_SERVING" },
      [ADMIN_SERVICE_NAME]: { status: "SERVING" },
    });
  });
});
