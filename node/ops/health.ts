// The standard gRPC health service (grpc.health.v1.Health) on a node's client port.
// "" (the whole server) is SERVING while the node runs; "palisade.v1.LockService" is
// SERVING only while this node knows a leader, so a load balancer or probe can tell a
// node that can answer lock requests from one that cannot yet.
//
// Its messages have one field each and are encoded here by hand: the grpc-health-check
// package parses health.proto when it is loaded, which cost every node start ~30 ms.
import type * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs/minimal.js";

export const LOCK_SERVICE_NAME = "palisade.v1.LockService";
export const ADMIN_SERVICE_NAME = "palisade.v1.AdminService";

/** HealthCheckResponse.ServingStatus. */
const SERVING_STATUS = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;
type ServingStatus = keyof typeof SERVING_STATUS;

const NOT_FOUND = 5;
const PREFIX = "/grpc.health.v1.Health/";

/** What a request names; an object, since grpc-js takes a falsy request for a missing one. */
interface HealthRequest {
  readonly service: string;
}

/** HealthCheckRequest { string service = 1; } (the empty HealthListRequest decodes as "" too). */
function decodeRequest(bytes: Buffer): HealthRequest {
  const reader = protobuf.Reader.create(bytes);
  let service = "";
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === ((1 << 3) | 2)) service = reader.string();
    else reader.skipType(tag & 7);
  }
  return { service };
}

function encodeRequest({ service }: HealthRequest): Buffer {
  const writer = protobuf.Writer.create();
  if (service !== "") writer.uint32((1 << 3) | 2).string(service);
  return Buffer.from(writer.finish());
}

/** HealthCheckResponse { ServingStatus status = 1; } */
function writeResponse(writer: protobuf.Writer, status: ServingStatus): protobuf.Writer {
  const value = SERVING_STATUS[status];
  return value === 0 ? writer : writer.uint32(1 << 3).int32(value);
}

function encodeResponse(status: ServingStatus): Buffer {
  return Buffer.from(writeResponse(protobuf.Writer.create(), status).finish());
}

/** HealthListResponse { map<string, HealthCheckResponse> statuses = 1; }: one entry { key = 1, value = 2 } per service. */
function encodeList(statuses: ReadonlyMap<string, ServingStatus>): Buffer {
  const writer = protobuf.Writer.create();
  for (const [service, status] of statuses) {
    writer.uint32((1 << 3) | 2).fork();
    writer.uint32((1 << 3) | 2).string(service);
    writeResponse(writer.uint32((2 << 3) | 2).fork(), status).ldelim();
    writer.ldelim();
  }
  return Buffer.from(writer.finish());
}

/** The server side only: answers are encoded, requests decoded (the other two directions are never used here). */
const unsupported = (): never => {
  throw new Error("the health service definition only serves");
};

function method<Res>(
  name: string,
  responseStream: boolean,
  serialize: (value: Res) => Buffer,
): grpc.MethodDefinition<HealthRequest, Res> {
  return {
    path: `${PREFIX}${name}`,
    requestStream: false,
    responseStream,
    requestSerialize: encodeRequest,
    requestDeserialize: decodeRequest,
    responseSerialize: serialize,
    responseDeserialize: unsupported,
  };
}

const healthService: grpc.ServiceDefinition = {
  check: method("Check", false, encodeResponse),
  watch: method("Watch", true, encodeResponse),
  list: method("List", false, encodeList),
};

export class NodeHealth {
  private readonly statuses = new Map<string, ServingStatus>([
    ["", "NOT_SERVING"],
    [LOCK_SERVICE_NAME, "NOT_SERVING"],
    [ADMIN_SERVICE_NAME, "NOT_SERVING"],
  ]);
  private readonly watchers = new Map<string, Set<(status: ServingStatus) => void>>();

  addTo(server: grpc.Server): void {
    const handlers: grpc.UntypedServiceImplementation = {
      check: (
        call: grpc.ServerUnaryCall<HealthRequest, ServingStatus>,
        callback: grpc.sendUnaryData<ServingStatus>,
      ) => {
        const { service } = call.request;
        const status = this.statuses.get(service);
        if (status) callback(null, status);
        else callback({ code: NOT_FOUND, details: `Health status unknown for service ${service}` });
      },
      watch: (call: grpc.ServerWritableStream<HealthRequest, ServingStatus>) => {
        const { service } = call.request;
        const send = (status: ServingStatus): void => {
          call.write(status);
        };
        let set = this.watchers.get(service);
        if (!set) this.watchers.set(service, (set = new Set()));
        set.add(send);
        call.on("cancelled", () => this.watchers.get(service)?.delete(send));
        // An unknown service stays watched: it may become known later.
        send(this.statuses.get(service) ?? "SERVICE_UNKNOWN");
      },
      list: (
        _call: grpc.ServerUnaryCall<HealthRequest, ReadonlyMap<string, ServingStatus>>,
        callback: grpc.sendUnaryData<ReadonlyMap<string, ServingStatus>>,
      ) => {
        callback(null, new Map(this.statuses));
      },
    };
    server.addService(healthService, handlers);
  }

  /** The node is listening. */
  serving(): void {
    this.set("", "SERVING");
    this.set(ADMIN_SERVICE_NAME, "SERVING");
  }

  /** Whether a leader is known (lock requests can be answered or redirected). */
  leaderKnown(known: boolean): void {
    this.set(LOCK_SERVICE_NAME, known ? "SERVING" : "NOT_SERVING");
  }

  /** The node is stopping: every service reports NOT_SERVING. */
  stopping(): void {
    for (const name of ["", LOCK_SERVICE_NAME, ADMIN_SERVICE_NAME]) this.set(name, "NOT_SERVING");
  }

  private set(service: string, status: ServingStatus): void {
    this.statuses.set(service, status);
    for (const send of this.watchers.get(service) ?? []) send(status);
  }
}
