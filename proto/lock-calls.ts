// The one table of LockService calls (the streams Watch and Observe aside): each call's name, the field that
// carries it on the Stream RPC, its request and answer as protobuf messages and as domain
// values with the codec between them (proto/codec), what running out of time means for it,
// and whether its answer may wait on purpose. Everything that lists the calls derives from
// this table: the gRPC service definition (proto/grpc.ts), the stream's field maps on both
// ends, the node's handlers and dispatcher, and the client's calls.
import { palisade } from "./gen/palisade.js";
import * as an from "./codec/answers.ts";
import * as rq from "./codec/requests.ts";

const pb = palisade.v1;

/** What the generated message classes offer for (de)serialisation. */
export interface MessageClass<T> {
  // NoInfer: the message type is what decode yields (the generated class), not the looser encode input.
  encode(message: NoInfer<T>): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

/** A message between its domain value and its protobuf form. */
export interface MessageCodec<T, W> {
  readonly type: MessageClass<W>;
  readonly encode: (value: T) => W;
  readonly decode: (wire: W) => T;
}

/** The fields of StreamRequest (and of StreamAnswer) that carry calls. */
export type StreamField = Exclude<NonNullable<palisade.v1.StreamRequest["call"]>, "forget">;

export interface CallSpec<Req, Ans, WireReq, WireAns> {
  readonly field: StreamField;
  /** What running out of time means: a write's outcome is unknown, a read (a keepalive too) found no node. */
  readonly kind: "write" | "read";
  /** The node may hold the answer on purpose (an Acquire waiting in its queue). */
  readonly waits: boolean;
  readonly request: MessageCodec<Req, WireReq>;
  readonly answer: MessageCodec<Ans, WireAns>;
}

function codec<T, W>(
  type: MessageClass<W>,
  encode: (value: T) => W,
  decode: (wire: W) => T,
): MessageCodec<T, W> {
  return { type, encode, decode };
}

function call<Req, Ans, WireReq, WireAns>(
  field: StreamField,
  kind: "write" | "read",
  request: MessageCodec<Req, WireReq>,
  answer: MessageCodec<Ans, WireAns>,
  waits = false,
): CallSpec<Req, Ans, WireReq, WireAns> {
  return { field, kind, waits, request, answer };
}

export const LOCK_CALLS = {
  OpenSession: call(
    "openSession",
    "write",
    codec(pb.OpenSessionRequest, rq.encodeOpenSession, rq.decodeOpenSession),
    codec(pb.OpenSessionResponse, an.encodeOpenedSession, an.decodeOpenedSession),
  ),
  KeepAlive: call(
    "keepAlive",
    "read",
    codec(pb.KeepAliveRequest, rq.encodeKeepAlive, rq.decodeKeepAlive),
    codec(pb.KeepAliveResponse, an.encodeKeptAlive, an.decodeKeptAlive),
  ),
  CloseSession: call(
    "closeSession",
    "write",
    codec(pb.CloseSessionRequest, rq.encodeCloseSession, rq.decodeCloseSession),
    codec(pb.CloseSessionResponse, an.encodeDone(pb.CloseSessionResponse), an.decodeDone),
  ),
  Acquire: call(
    "acquire",
    "write",
    codec(pb.AcquireRequest, rq.encodeAcquire, rq.decodeAcquire),
    codec(pb.AcquireResponse, an.encodeAcquireAnswer, an.decodeAcquireAnswer),
    true,
  ),
  CancelWait: call(
    "cancelWait",
    "write",
    codec(pb.CancelWaitRequest, rq.encodeCancelWait, rq.decodeCancelWait),
    codec(pb.CancelWaitResponse, an.encodeCancelWaitResult, an.decodeCancelWaitResult),
  ),
  Release: call(
    "release",
    "write",
    codec(pb.ReleaseRequest, rq.encodeRelease, rq.decodeRelease),
    codec(pb.ReleaseResponse, an.encodeDone(pb.ReleaseResponse), an.decodeDone),
  ),
  GetLock: call(
    "getLock",
    "read",
    codec(pb.GetLockRequest, rq.encodeGetLock, rq.decodeGetLock),
    codec(pb.GetLockResponse, an.encodeLockInfo, an.decodeLockInfo),
  ),
  ListLocks: call(
    "listLocks",
    "read",
    codec(pb.ListLocksRequest, rq.encodeListLocks, rq.decodeListLocks),
    codec(pb.ListLocksResponse, an.encodeLockPage, an.decodeLockPage),
  ),
  GetSession: call(
    "getSession",
    "read",
    codec(pb.GetSessionRequest, rq.encodeGetSession, rq.decodeGetSession),
    codec(pb.GetSessionResponse, an.encodeFoundSession, an.decodeFoundSession),
  ),
  ListSessions: call(
    "listSessions",
    "read",
    codec(pb.ListSessionsRequest, rq.encodeListSessions, rq.decodeListSessions),
    codec(pb.ListSessionsResponse, an.encodeSessionPage, an.decodeSessionPage),
  ),
  GetLockHistory: call(
    "getLockHistory",
    "read",
    codec(pb.GetLockHistoryRequest, rq.encodeGetLockHistory, rq.decodeGetLockHistory),
    codec(pb.GetLockHistoryResponse, an.encodeLockHistory, an.decodeLockHistory),
  ),
  ValidateToken: call(
    "validateToken",
    "read",
    codec(pb.ValidateTokenRequest, rq.encodeValidateToken, rq.decodeValidateToken),
    codec(pb.ValidateTokenResponse, an.encodeTokenValidity, an.decodeTokenValidity),
  ),
  Campaign: call(
    "campaign",
    "write",
    codec(pb.CampaignRequest, rq.encodeCampaign, rq.decodeCampaign),
    codec(pb.CampaignResponse, an.encodeCampaignAnswer, an.decodeCampaignAnswer),
    true,
  ),
  Proclaim: call(
    "proclaim",
    "write",
    codec(pb.ProclaimRequest, rq.encodeProclaim, rq.decodeProclaim),
    codec(pb.ProclaimResponse, an.encodeDone(pb.ProclaimResponse), an.decodeDone),
  ),
  Resign: call(
    "resign",
    "write",
    codec(pb.ResignRequest, rq.encodeResign, rq.decodeResign),
    codec(pb.ResignResponse, an.encodeDone(pb.ResignResponse), an.decodeDone),
  ),
  Upgrade: call(
    "upgrade",
    "write",
    codec(pb.UpgradeRequest, rq.encodeUpgrade, rq.decodeUpgrade),
    codec(pb.UpgradeResponse, an.encodeUpgradeAnswer, an.decodeUpgradeAnswer),
    true,
  ),
  Downgrade: call(
    "downgrade",
    "write",
    codec(pb.DowngradeRequest, rq.encodeDowngrade, rq.decodeDowngrade),
    codec(pb.DowngradeResponse, an.encodeDowngradeAnswer, an.decodeDowngradeAnswer),
  ),
  Leader: call(
    "leader",
    "read",
    codec(pb.LeaderRequest, rq.encodeLeader, rq.decodeLeader),
    codec(pb.LeaderResponse, an.encodeLeaderInfo, an.decodeLeaderInfo),
  ),
};

export type CallName = keyof typeof LOCK_CALLS;
type SpecOf<N extends CallName> = (typeof LOCK_CALLS)[N];

export type RequestOf<N extends CallName> =
  SpecOf<N>["request"] extends MessageCodec<infer T, infer _W> ? T : never;
export type AnswerOf<N extends CallName> =
  SpecOf<N>["answer"] extends MessageCodec<infer T, infer _W> ? T : never;
export type WireRequestOf<N extends CallName> =
  SpecOf<N>["request"] extends MessageCodec<infer _T, infer W> ? W : never;
export type WireAnswerOf<N extends CallName> =
  SpecOf<N>["answer"] extends MessageCodec<infer _T, infer W> ? W : never;

export const CALL_NAMES = Object.keys(LOCK_CALLS) as CallName[];

/** One call with its request, as a node serves it. */
export type LockCall = {
  [N in CallName]: { readonly name: N; readonly request: RequestOf<N> };
}[CallName];

/** What serves every call: a handler per call, from domain request to domain answer. */
export type CallHandlers<Context> = {
  [N in CallName]: (request: RequestOf<N>, context: Context) => Promise<AnswerOf<N>>;
};

/** The call a stream field carries. */
const BY_FIELD: ReadonlyMap<string, CallName> = new Map(
  CALL_NAMES.map((name) => [LOCK_CALLS[name].field, name]),
);

export function callOfField(field: string): CallName | undefined {
  return BY_FIELD.get(field);
}

/**
 * The table entry of `name` with its types joined to the name (the cast only says what the
 * table holds, which TypeScript does not follow through a generic index).
 */
export function specOf<N extends CallName>(
  name: N,
): CallSpec<RequestOf<N>, AnswerOf<N>, WireRequestOf<N>, WireAnswerOf<N>> {
  return LOCK_CALLS[name] as unknown as CallSpec<
    RequestOf<N>,
    AnswerOf<N>,
    WireRequestOf<N>,
    WireAnswerOf<N>
  >;
}

export function encodeRequest<N extends CallName>(
  name: N,
  request: RequestOf<N>,
): WireRequestOf<N> {
  return specOf(name).request.encode(request);
}

/** Throws CodecError naming the field a request got wrong. */
export function decodeRequest<N extends CallName>(name: N, wire: WireRequestOf<N>): RequestOf<N> {
  return specOf(name).request.decode(wire);
}

export function encodeAnswer<N extends CallName>(name: N, answer: AnswerOf<N>): WireAnswerOf<N> {
  return specOf(name).answer.encode(answer);
}

export function decodeAnswer<N extends CallName>(name: N, wire: WireAnswerOf<N>): AnswerOf<N> {
  return specOf(name).answer.decode(wire);
}
