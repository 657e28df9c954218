// grpc-js service definitions built from the generated protobufjs encoders, so nothing
// loads .proto files at run time. Requests and responses are the generated message
// classes; 64-bit fields are Long and are converted only by node/transport/raft-codec.ts.
//
// Servers: `server.addService(lockServiceDefinition, handlers)` with handlers typed by
// `LockServiceHandlers`. Clients: `new (grpc.makeGenericClientConstructor(def, name))(...)`
// or `client.makeUnaryRequest(def.Acquire.path, def.Acquire.requestSerialize, ...)`.
import type * as grpc from "@grpc/grpc-js";
import { palisade } from "./gen/palisade.js";

const pb = palisade.v1;

/** What the generated classes offer for (de)serialisation. */
interface MessageType<T> {
  // NoInfer: the message type is what decode yields (the generated class), not the looser encode input.
  encode(message: NoInfer<T>): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

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

function unary<Req, Res>(service: string, name: string, req: MessageType<Req>, res: MessageType<Res>): UnaryMethod<Req, Res> {
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

function serverStream<Req, Res>(service: string, name: string, req: MessageType<Req>, res: MessageType<Res>): ServerStreamMethod<Req, Res> {
  return { ...unary(service, name, req, res), responseStream: true };
}

function bidiStream<Req, Res>(service: string, name: string, req: MessageType<Req>, res: MessageType<Res>): BidiStreamMethod<Req, Res> {
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
export const lockServiceDefinition = {
  OpenSession: unary(L, "OpenSession", pb.OpenSessionRequest, pb.OpenSessionResponse),
  KeepAlive: unary(L, "KeepAlive", pb.KeepAliveRequest, pb.KeepAliveResponse),
  KeepAliveSessions: unary(L, "KeepAliveSessions", pb.KeepAliveSessionsRequest, pb.KeepAliveSessionsResponse),
  CloseSession: unary(L, "CloseSession", pb.CloseSessionRequest, pb.CloseSessionResponse),
  Acquire: unary(L, "Acquire", pb.AcquireRequest, pb.AcquireResponse),
  CancelWait: unary(L, "CancelWait", pb.CancelWaitRequest, pb.CancelWaitResponse),
  Release: unary(L, "Release", pb.ReleaseRequest, pb.ReleaseResponse),
  GetLock: unary(L, "GetLock", pb.GetLockRequest, pb.GetLockResponse),
  ListLocks: unary(L, "ListLocks", pb.ListLocksRequest, pb.ListLocksResponse),
  GetSession: unary(L, "GetSession", pb.GetSessionRequest, pb.GetSessionResponse),
  ListSessions: unary(L, "ListSessions", pb.ListSessionsRequest, pb.ListSessionsResponse),
  GetLockHistory: unary(L, "GetLockHistory", pb.GetLockHistoryRequest, pb.GetLockHistoryResponse),
  ValidateToken: unary(L, "ValidateToken", pb.ValidateTokenRequest, pb.ValidateTokenResponse),
  Watch: serverStream(L, "Watch", pb.WatchRequest, pb.WatchEvent),
  // Typed by the message classes (not the stricter decoded shapes) so frames built from a
  // table of calls type-check on both ends.
  Stream: bidiStream<palisade.v1.ClientFrame, palisade.v1.ServerFrame>(L, "Stream", pb.ClientFrame, pb.ServerFrame),
} satisfies grpc.ServiceDefinition;

/** Raw bytes in both directions (frames read and written entry by entry, see proto/stream-frames.ts). */
const rawBytes: MessageType<Uint8Array> = { encode: (bytes) => ({ finish: () => bytes }), decode: (bytes) => bytes };

/**
 * LockService as a node serves it: the Stream RPC's frames as bytes, so the node can read a
 * frame's requests one at a time and bound the frames it writes by bytes.
 */
export const lockServiceNodeDefinition = {
  ...lockServiceDefinition,
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
} satisfies grpc.ServiceDefinition;

export type AdminServiceHandlers = HandlersOf<typeof adminServiceDefinition>;

/** Raw bytes in both directions for the batch: the transport decodes it through the codec, which validates. */
export const raftServiceDefinition = {
  Send: unary("RaftService", "Send", rawBytes, pb.RaftAck),
} satisfies grpc.ServiceDefinition;

export type RaftServiceHandlers = HandlersOf<typeof raftServiceDefinition>;
