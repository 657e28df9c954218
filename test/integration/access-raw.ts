// Raw gRPC calls for the access-control tests: each call carries the authorization a test
// gives it (a bearer token, a malformed header, none) and comes back as its answer or its
// refusal (status code, `palisade-reason`, message), without the client library's retries
// or error mapping. Also the streams these tests read (Watch, Backup) and the requests
// they build, with the numbering of a session's writes.
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import {
  adminServiceDefinition as adminApi,
  lockServiceDefinition as lockApi,
  type UnaryMethod,
} from "../../proto/grpc.ts";
import { sha256, type Backup } from "../../proto/backup-format.ts";
import { LEADER_METADATA_KEY, REASON_METADATA_KEY, toU64, u64 } from "../../proto/wire.ts";
import { statusFrom, type NodeStatus } from "../../client/types.ts";

export const pb = palisade.v1;

export interface Refusal {
  readonly code: grpc.status;
  /** The `palisade-reason` trailer ("" when the status has none, e.g. a failed handshake). */
  readonly reason: string;
  readonly message: string;
  /** A node that does not lead names the leader's client address (`palisade-leader`). */
  readonly leader?: string;
}

export type Outcome<T> =
  { readonly ok: true; readonly answer: T } | ({ readonly ok: false } & Refusal);

/** How long one attempt may take, and how long `attempt` keeps trying through an election. */
const ATTEMPT_MS = 10_000;
const BUDGET_MS = 20_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function refusalOf(err: grpc.ServiceError): Refusal {
  const reason = err.metadata?.get(REASON_METADATA_KEY)[0];
  const leader = err.metadata?.get(LEADER_METADATA_KEY)[0];
  return {
    code: err.code,
    reason: typeof reason === "string" ? reason : "",
    message: err.details,
    ...(typeof leader === "string" && leader !== "" ? { leader } : {}),
  };
}

/** A refusal as one line, for failure messages. */
export function describeRefusal(r: Refusal): string {
  return `${grpc.status[r.code]} ${r.reason || "(no reason)"}: ${r.message}`;
}

/** The answer of an outcome that must be one (throws with the refusal otherwise). */
export function answered<T>(outcome: Outcome<T>, what: string): T {
  if (!outcome.ok) throw new Error(`${what} refused: ${describeRefusal(outcome)}`);
  return outcome.answer;
}

/** The refusal of an outcome that must be one (throws with the answer otherwise). */
export function refused<T>(outcome: Outcome<T>, what: string): Refusal {
  if (outcome.ok) throw new Error(`${what} was answered: ${JSON.stringify(outcome.answer)}`);
  const { code, reason, message } = outcome;
  return { code, reason, message };
}

/** One channel per endpoint, shared by the callers made from one connect(). */
class Channels {
  private readonly clients = new Map<string, grpc.Client>();

  constructor(private readonly credentials: grpc.ChannelCredentials) {}

  get(endpoint: string): grpc.Client {
    let client = this.clients.get(endpoint);
    if (client === undefined) {
      client = new grpc.Client(endpoint, this.credentials, {
        "grpc.max_receive_message_length": 8 * 1024 * 1024,
      });
      this.clients.set(endpoint, client);
    }
    return client;
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}

export interface WatchStream {
  readonly events: palisade.v1.WatchEvent[];
  /** How the stream ended: ok when the node ended it cleanly, else its refusal. */
  readonly ended: Promise<Outcome<null>>;
  cancel(): void;
}

/** A caller: an authorization header (or none) sent to a cluster's endpoints. */
export class RawCaller {
  /** The endpoint writes go to: the last one that led. */
  private preferred: string;

  private constructor(
    readonly endpoints: readonly string[],
    private readonly authorization: string | undefined,
    private readonly channels: Channels,
  ) {
    this.preferred = endpoints[0] as string;
  }

  /** An anonymous caller; the callers `as` makes from it share its channels, closed by close(). */
  static connect(
    endpoints: readonly string[],
    credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(),
  ): RawCaller {
    return new RawCaller(endpoints, undefined, new Channels(credentials));
  }

  /** The caller that presents the token `secret` (`authorization: Bearer <secret>`). */
  as(secret: string): RawCaller {
    return this.withAuthorization(`Bearer ${secret}`);
  }

  /** The caller that sends this authorization header as it is. */
  withAuthorization(header: string): RawCaller {
    return new RawCaller(this.endpoints, header, this.channels);
  }

  close(): void {
    this.channels.close();
  }

  private metadata(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    if (this.authorization !== undefined) metadata.set("authorization", this.authorization);
    return metadata;
  }

  /** One call to one node, no retry. */
  once<Req, Res>(
    endpoint: string,
    method: UnaryMethod<Req, Res>,
    request: Req,
    deadlineMs = ATTEMPT_MS,
  ): Promise<Outcome<Res>> {
    const client = this.channels.get(endpoint);
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        this.metadata(),
        { deadline: Date.now() + deadlineMs },
        (err, answer) =>
          resolve(
            err
              ? { ok: false, ...refusalOf(err) }
              : { ok: true, answer: answer as NonNullable<typeof answer> },
          ),
      );
    });
  }

  /**
   * A call answered by the cluster: a node that does not lead sends the caller to the leader
   * it names, and an UNAVAILABLE answer (an election, a node starting) is tried again for a
   * while. With `endpoint`, only that node is asked (a read at a follower).
   */
  async attempt<Req, Res>(
    method: UnaryMethod<Req, Res>,
    request: Req,
    options: { endpoint?: string } = {},
  ): Promise<Outcome<Res>> {
    const giveUpAt = Date.now() + BUDGET_MS;
    let next = 0;
    for (;;) {
      const endpoint = options.endpoint ?? this.preferred;
      const outcome = await this.once(endpoint, method, request);
      if (outcome.ok || outcome.code !== grpc.status.UNAVAILABLE || Date.now() > giveUpAt) {
        if (options.endpoint === undefined && outcome.ok) this.preferred = endpoint;
        return outcome;
      }
      if (options.endpoint === undefined)
        this.preferred =
          outcome.leader ?? (this.endpoints[next++ % this.endpoints.length] as string);
      await sleep(50);
    }
  }

  /** The answer of a call the cluster must accept (throws with the refusal otherwise). */
  async call<Req, Res>(
    method: UnaryMethod<Req, Res>,
    request: Req,
    options: { endpoint?: string } = {},
  ): Promise<Res> {
    const outcome = await this.attempt(method, request, options);
    if (!outcome.ok) throw new Error(`${method.path} refused: ${describeRefusal(outcome)}`);
    return outcome.answer;
  }

  /** The refusal of a call the cluster must refuse (throws with the answer otherwise). */
  async refusal<Req, Res>(
    method: UnaryMethod<Req, Res>,
    request: Req,
    options: { endpoint?: string } = {},
  ): Promise<Refusal> {
    const outcome = await this.attempt(method, request, options);
    if (outcome.ok)
      throw new Error(
        `${method.path} was answered, expected a refusal: ${JSON.stringify(outcome)}`,
      );
    const { code, reason, message } = outcome;
    return { code, reason, message };
  }

  /** A node's Status, as the client library reads it. */
  async status(endpoint: string): Promise<NodeStatus> {
    const outcome = await this.once(endpoint, adminApi.Status, pb.StatusRequest.create({}), 2_000);
    if (!outcome.ok) throw new Error(`Status at ${endpoint}: ${describeRefusal(outcome)}`);
    return statusFrom(endpoint, outcome.answer);
  }

  /** The node a majority of the reachable nodes follow, or null while there is none. */
  async leader(): Promise<string | null> {
    const answers = await Promise.all(
      this.endpoints.map((e) => this.status(e).catch(() => undefined)),
    );
    const leaders = answers.filter((s): s is NodeStatus => s?.role === "leader");
    const top = leaders.sort((a, b) => (a.term > b.term ? -1 : 1))[0];
    if (top === undefined) return null;
    const agree = answers.filter((s) => s?.leaderId === top.nodeId && s.term === top.term);
    return agree.length * 2 > this.endpoints.length ? top.endpoint : null;
  }

  /** A Watch of `prefix` at one node, collecting its events until it ends or is cancelled. */
  watch(prefix: string, endpoint: string, fromIndex = 0n): WatchStream {
    const stream = this.channels
      .get(endpoint)
      .makeServerStreamRequest(
        lockApi.Watch.path,
        lockApi.Watch.requestSerialize,
        lockApi.Watch.responseDeserialize,
        pb.WatchRequest.create({ prefix, fromIndex: toU64(fromIndex) }),
        this.metadata(),
        {},
      );
    const events: palisade.v1.WatchEvent[] = [];
    stream.on("data", (event: palisade.v1.WatchEvent) => events.push(event));
    const ended = new Promise<Outcome<null>>((resolve) => {
      stream.on("error", (err: grpc.ServiceError) => resolve({ ok: false, ...refusalOf(err) }));
      stream.on("end", () => resolve({ ok: true, answer: null }));
    });
    return { events, ended, cancel: () => stream.cancel() };
  }

  /** A backup from one node, as `palisadectl snapshot save` writes it (proto/backup-format.ts). */
  async backup(endpoint: string): Promise<Backup> {
    const stream = this.channels
      .get(endpoint)
      .makeServerStreamRequest(
        adminApi.Backup.path,
        adminApi.Backup.requestSerialize,
        adminApi.Backup.responseDeserialize,
        pb.BackupRequest.create({}),
        this.metadata(),
        { deadline: Date.now() + 30_000 },
      );
    const chunks: palisade.v1.BackupChunk[] = [];
    for await (const chunk of stream as AsyncIterable<palisade.v1.BackupChunk>) chunks.push(chunk);
    const first = chunks[0];
    if (first === undefined || chunks.at(-1)?.last !== true)
      throw new Error(`the backup stream from ${endpoint} ended before its last chunk`);
    const data = Buffer.concat(chunks.map((c) => c.data));
    return {
      meta: {
        clusterId: first.clusterId,
        index: u64(first.index),
        term: u64(first.term),
        epoch: u64(first.epoch),
        bytes: data.byteLength,
        sha256: sha256(data),
        savedAt: new Date().toISOString(),
        endpoint,
      },
      data,
    };
  }

  /** Opens a session of this caller (throws if refused). */
  async openSession(ttlMs: number): Promise<RawSession> {
    const answer = await this.call(lockApi.OpenSession, requests.openSession(ttlMs));
    return new RawSession(this, u64(answer.sessionId));
  }

  /** Session `id` used by this caller, whoever opened it. */
  session(id: bigint): RawSession {
    return new RawSession(this, id);
  }
}

export interface AcquireOptions {
  waitMs?: number;
  holderData?: string;
  mode?: palisade.v1.LockMode;
}

/** Request messages of the calls these tests make. */
export const requests = {
  openSession: (ttlMs: number) =>
    pb.OpenSessionRequest.create({
      ttlMs: toU64(ttlMs),
      clientName: "access-test",
      requestId: randomUUID(),
    }),
  acquire: (sessionId: bigint, lock: string, seq: number, o: AcquireOptions = {}) =>
    pb.AcquireRequest.create({
      sessionId: toU64(sessionId),
      lock,
      seq: toU64(seq),
      waitMs: toU64(o.waitMs ?? 0),
      holderData: Buffer.from(o.holderData ?? "", "utf8"),
      ...(o.mode !== undefined ? { mode: o.mode } : {}),
    }),
  keepAlive: (...ids: bigint[]) =>
    pb.KeepAliveRequest.create({ sessionIds: ids.map((id) => toU64(id)) }),
  getSession: (id: bigint) => pb.GetSessionRequest.create({ sessionId: toU64(id) }),
  getLock: (lock: string) => pb.GetLockRequest.create({ lock }),
  listLocks: (prefix: string) => pb.ListLocksRequest.create({ prefix }),
  history: (lock: string) => pb.GetLockHistoryRequest.create({ lock }),
  revokeLock: (lock: string, token: bigint) =>
    pb.RevokeLockRequest.create({ lock, token: toU64(token) }),
  createToken: (identity: string, roles: string[] = [], ttlMs = 0) =>
    pb.CreateTokenRequest.create({ identity, roles, ttlMs: toU64(ttlMs) }),
  applyPolicy: (text: string) => pb.ApplyPolicyRequest.create({ text }),
  getPolicy: () => pb.GetPolicyRequest.create({}),
};

/** A session as one caller uses it: its writes numbered 1, 2, … by this object. */
export class RawSession {
  private seq = 0;

  constructor(
    readonly caller: RawCaller,
    readonly id: bigint,
  ) {}

  /** The next write's seq. */
  next(): number {
    return ++this.seq;
  }

  acquire(lock: string, o: AcquireOptions = {}): Promise<Outcome<palisade.v1.AcquireResponse>> {
    return this.caller.attempt(lockApi.Acquire, requests.acquire(this.id, lock, this.next(), o));
  }

  /** Acquires `lock` at once (throws unless granted); gives its token. */
  async hold(lock: string, o: AcquireOptions = {}): Promise<bigint> {
    const outcome = await this.acquire(lock, o);
    if (!outcome.ok) throw new Error(`Acquire ${lock}: ${describeRefusal(outcome)}`);
    if (!outcome.answer.acquired) throw new Error(`Acquire ${lock}: not acquired`);
    return u64(outcome.answer.token);
  }

  release(lock: string, token: bigint): Promise<Outcome<palisade.v1.ReleaseResponse>> {
    return this.caller.attempt(
      lockApi.Release,
      pb.ReleaseRequest.create({
        sessionId: toU64(this.id),
        lock,
        token: toU64(token),
        seq: toU64(this.next()),
      }),
    );
  }

  close(): Promise<Outcome<palisade.v1.CloseSessionResponse>> {
    return this.caller.attempt(
      lockApi.CloseSession,
      pb.CloseSessionRequest.create({ sessionId: toU64(this.id), seq: toU64(this.next()) }),
    );
  }

  /** This session's keepalive: its TTL, or why not (gone, or permission_denied). */
  async keepAlive(): Promise<Outcome<palisade.v1.ISessionKeptAlive>> {
    const outcome = await this.caller.attempt(lockApi.KeepAlive, requests.keepAlive(this.id));
    if (!outcome.ok) return outcome;
    const kept = outcome.answer.sessions[0];
    if (kept === undefined) throw new Error(`KeepAlive of ${this.id} answered no session`);
    return { ok: true, answer: kept };
  }
}
