// grpc-js service definitions built from the generated protobufjs encoders, so nothing
// loads .proto files at run time. Requests and responses are the generated message
// classes; 64-bit fields are Long and are converted only by node/transport/raft-codec.ts.
//
// Servers: `server.addService(lockServiceDefinition, handlers)` with handlers typed by
// `LockServiceHandlers`. Clients: `new (grpc.makeGenericClientConstructor(def, name))(...)`
// or `client.makeUnaryRequest(def.Acquire.path, def.Acquire.requestSerialize, ...)`.
import type * as grpc from "@grpc/grpc-js";
import { palisade } from "./gen/palisade.js";
import {
  CALL_NAMES,
  specOf,
  type CallName,
  type MessageClass as MessageType,
  type WireAnswerOf,
  type WireRequestOf,
} from "./lock-calls.ts";

const pb = palisade.v1;

export type UnaryMethod<Req, Res> = grpc.MethodDefinition<Req, Res> & {
  readonly requestStream: false;
  readonly responseStream: false;
};

export type ServerStreamMethod<Req, Res> = grpc.MethodDefinition<Req, Res> & {
  readonly requestStream: false;
  readonly responseStream: true;
};

export type BidiStreamMethod<Req, Res> = grpc.MethodDefinition<Req, Res> & {
  readonly requestStream: true;
  readonly responseStream: true;
};

/** A Node Buffer view of encoded bytes (grpc-js wants Buffers), without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function serializer<T>(type: MessageType<T>): (message: T) => Buffer {
  return (message) => asBuffer(type.encode(message).finish());
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

function unary<Req, Res>(
  service: string,
  name: string,
  req: MessageType<Req>,
  res: MessageType<Res>,
): UnaryMethod<Req, Res> {
  return {
    path: `/palisade.v1.${service}/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: serializer(req),
    requestDeserialize: (bytes) => req.decode(bytes),
    responseSerialize: serializer(res),
    responseDeserialize: (bytes) => res.decode(bytes),
    originalName: lowerFirst(name),
  };
}

function serverStream<Req, Res>(
  service: string,
  name: string,
  req: MessageType<Req>,
  res: MessageType<Res>,
): ServerStreamMethod<Req, Res> {
  return { ...unary(service, name, req, res), responseStream: true };
}

function bidiStream<Req, Res>(
  service: string,
  name: string,
  req: MessageType<Req>,
  res: MessageType<Res>,
): BidiStreamMethod<Req, Res> {
  return { ...unary(service, name, req, res), requestStream: true, responseStream: true };
}

/** Server handlers for a definition: unary, server-streaming or bidirectional, typed per method. */
export type HandlersOf<Def> = {
  [Name in keyof Def]: Def[Name] extends BidiStreamMethod<infer Req, infer Res>
    ? grpc.handleBidiStreamingCall<Req, Res>
    : Def[Name] extends ServerStreamMethod<infer Req, infer Res>
      ? grpc.handleServerStreamingCall<Req, Res>
      : Def[Name] extends UnaryMethod<infer Req, infer Res>
        ? grpc.handleUnaryCall<Req, Res>
        : never;
};

const L = "LockService";

/** The unary method of each call of the table (proto/lock-calls.ts). */
export type LockUnaryMethods = { [N in CallName]: UnaryMethod<WireRequestOf<N>, WireAnswerOf<N>> };

function lockUnary<N extends CallName>(name: N): UnaryMethod<WireRequestOf<N>, WireAnswerOf<N>> {
  const spec = specOf(name);
  return unary(L, name, spec.request.type, spec.answer.type);
}

const lockUnaryMethods = Object.fromEntries(
  CALL_NAMES.map((name) => [name, lockUnary(name)]),
) as unknown as LockUnaryMethods;

export const lockServiceDefinition = {
  ...lockUnaryMethods,
  Watch: serverStream(L, "Watch", pb.WatchRequest, pb.WatchEvent),
  Observe: serverStream(L, "Observe", pb.ObserveRequest, pb.ElectionEvent),
  // Typed by the message classes (not the stricter decoded shapes) so frames built from a
  // table of calls type-check on both ends.
  Stream: bidiStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>(
    L,
    "Stream",
    pb.ClientFrame,
    pb.ServerFrame,
  ),
} satisfies grpc.ServiceDefinition;

/** Raw bytes in both directions (frames read and written entry by entry, see proto/stream-frames.ts). */
const rawBytes: MessageType<Uint8Array> = {
  encode: (bytes) => ({ finish: () => bytes }),
  decode: (bytes) => bytes,
};

/** The bytes each unary request a node received was decoded from (see sentBytesOf). */
const sentBytes = new WeakMap<object, Uint8Array>();

/** The bytes a request of the node's unary calls was decoded from: a write's log entry carries them. */
export function sentBytesOf(request: unknown): Uint8Array | undefined {
  return typeof request === "object" && request !== null ? sentBytes.get(request) : undefined;
}

/** A call's unary method as a node serves it: the decoded request keeps its bytes. */
function nodeUnary<N extends CallName>(name: N): UnaryMethod<WireRequestOf<N>, WireAnswerOf<N>> {
  const method = lockUnary(name);
  return {
    ...method,
    requestDeserialize: (bytes) => {
      const request = method.requestDeserialize(bytes);
      sentBytes.set(request as object, bytes);
      return request;
    },
  };
}

/**
 * LockService as a node serves it: the Stream RPC's frames as bytes, so the node can read a
 * frame's requests one at a time and bound the frames it writes by bytes; each unary
 * request with the bytes it came as.
 */
export const lockServiceNodeDefinition = {
  ...lockServiceDefinition,
  ...(Object.fromEntries(
    CALL_NAMES.map((name) => [name, nodeUnary(name)]),
  ) as unknown as LockUnaryMethods),
  Stream: bidiStream<Uint8Array, Uint8Array>(L, "Stream", rawBytes, rawBytes),
} satisfies grpc.ServiceDefinition;

export type LockServiceHandlers = HandlersOf<typeof lockServiceNodeDefinition>;

const A = "AdminService";
export const adminServiceDefinition = {
  Status: unary(A, "Status", pb.StatusRequest, pb.StatusResponse),
  RevokeLock: unary(A, "RevokeLock", pb.RevokeLockRequest, pb.RevokeLockResponse),
  TransferLeader: unary(A, "TransferLeader", pb.TransferLeaderRequest, pb.TransferLeaderResponse),
  MemberList: unary(A, "MemberList", pb.MemberListRequest, pb.MemberListResponse),
  MemberAdd: unary(A, "MemberAdd", pb.MemberAddRequest, pb.MemberAddResponse),
  MemberPromote: unary(A, "MemberPromote", pb.MemberPromoteRequest, pb.MemberPromoteResponse),
  MemberRemove: unary(A, "MemberRemove", pb.MemberRemoveRequest, pb.MemberRemoveResponse),
  SnapshotSave: unary(A, "SnapshotSave", pb.SnapshotSaveRequest, pb.SnapshotSaveResponse),
  Backup: serverStream(A, "Backup", pb.BackupRequest, pb.BackupChunk),
  ApplyPolicy: unary(A, "ApplyPolicy", pb.ApplyPolicyRequest, pb.ApplyPolicyResponse),
  GetPolicy: unary(A, "GetPolicy", pb.GetPolicyRequest, pb.GetPolicyResponse),
  CreateToken: unary(A, "CreateToken", pb.CreateTokenRequest, pb.CreateTokenResponse),
  ListTokens: unary(A, "ListTokens", pb.ListTokensRequest, pb.ListTokensResponse),
  RevokeToken: unary(A, "RevokeToken", pb.RevokeTokenRequest, pb.RevokeTokenResponse),
  WhoAmI: unary(A, "WhoAmI", pb.WhoAmIRequest, pb.WhoAmIResponse),
  Can: unary(A, "Can", pb.CanRequest, pb.CanResponse),
} satisfies grpc.ServiceDefinition;

export type AdminServiceHandlers = HandlersOf<typeof adminServiceDefinition>;

/**
 * One long-lived stream per peer: raw RaftBatch bytes out (the transport decodes them through
 * its codec, which validates), RaftAck back.
 */
export const raftServiceDefinition = {
  Stream: bidiStream("RaftService", "Stream", rawBytes, pb.RaftAck),
} satisfies grpc.ServiceDefinition;

export type RaftServiceHandlers = HandlersOf<typeof raftServiceDefinition>;
