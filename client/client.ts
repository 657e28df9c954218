// PalisadeClient: the entry point. Opens sessions, runs linearizable reads and the few
// admin calls the tools need, over one Connection to every endpoint.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { ChannelCredentials } from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { adminServiceDefinition as adminApi, lockServiceDefinition as lockApi, type UnaryMethod } from "../proto/grpc.ts";
import { toU64, u64 } from "../node/transport/codec.ts";
import { Connection } from "./connection.ts";
import { SessionNotFoundError } from "./errors.ts";
import { Session } from "./session.ts";
import {
  historyFrom, lockInfoFrom, lockPageFrom, sessionInfoFrom, statusFrom,
  type HistoryRecordInfo, type LockInfo, type LockPage, type NodeStatus, type SessionInfo,
} from "./types.ts";

const pb = palisade.v1;

export interface PalisadeClientOptions {
  /** host:port of each node's client address. */
  endpoints: string[];
  /** Shown as the holder's client name in lock reads and history. */
  clientName?: string;
  /** Deadline of one call attempt (default 3 s; a waiting Acquire adds its wait). */
  callTimeoutMs?: number;
  /** How long a request keeps retrying through failovers before giving up (default 15 s). */
  retryBudgetMs?: number;
  /** Bound ρ on clock-rate drift for the session deadline (default 0.01). */
  driftBound?: number;
  /** Interval of the session deadline check (default 50 ms). */
  deadlineTickMs?: number;
  /** TLS credentials; plaintext when absent. */
  credentials?: ChannelCredentials;
}

export interface OpenSessionOptions {
  /** 1 s to 1 h (default 10 s). */
  ttlMs?: number;
  clientName?: string;
}

export interface ListLocksOptions {
  prefix?: string;
  after?: string;
  limit?: number;
}

export class PalisadeClient {
  private readonly connection: Connection;
  private readonly clientName: string;
  private readonly callTimeoutMs: number;
  private readonly retryBudgetMs: number;
  private readonly driftBound: number;
  private readonly deadlineTickMs: number;
  private readonly sessions = new Set<Session>();

  constructor(options: PalisadeClientOptions) {
    this.clientName = options.clientName ?? "";
    this.callTimeoutMs = options.callTimeoutMs ?? 3_000;
    this.retryBudgetMs = options.retryBudgetMs ?? 15_000;
    this.driftBound = options.driftBound ?? 0.01;
    this.deadlineTickMs = options.deadlineTickMs ?? 50;
    this.connection = new Connection({
      endpoints: options.endpoints,
      callTimeoutMs: this.callTimeoutMs,
      retryBudgetMs: this.retryBudgetMs,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  get endpoints(): readonly string[] {
    return this.connection.allEndpoints;
  }

  /** Opens a session; a retry reuses its request id so it never opens two. */
  async openSession(options: OpenSessionOptions = {}): Promise<Session> {
    const clientName = options.clientName ?? this.clientName;
    const requestId = randomUUID();
    const sentAt = performance.now();
    const response = await this.connection.invoke(
      lockApi.OpenSession,
      () => pb.OpenSessionRequest.create({ ttlMs: toU64(options.ttlMs ?? 0, "ttlMs"), clientName, requestId }),
      { kind: "write" },
    );
    const session = new Session(this.connection, {
      id: u64(response.sessionId, "session_id"),
      ttlMs: Number(u64(response.ttlMs, "ttl_ms")),
      clientName,
      openedSentAt: sentAt,
      callTimeoutMs: this.callTimeoutMs,
      retryBudgetMs: this.retryBudgetMs,
      driftBound: this.driftBound,
      deadlineTickMs: this.deadlineTickMs,
    });
    this.sessions.add(session);
    session.signal.addEventListener("abort", () => this.sessions.delete(session), { once: true });
    return session;
  }

  // ---- reads (linearizable, served through the leader) -------------------------------------

  async getLock(lock: string): Promise<LockInfo> {
    const response = await this.read(lockApi.GetLock, () => pb.GetLockRequest.create({ lock }));
    return lockInfoFrom(response);
  }

  async listLocks(options: ListLocksOptions = {}): Promise<LockPage> {
    const response = await this.read(lockApi.ListLocks, () =>
      pb.ListLocksRequest.create({ prefix: options.prefix ?? "", after: options.after ?? "", limit: options.limit ?? 0 }),
    );
    return lockPageFrom(response);
  }

  /** The session, or undefined when it is unknown or ended. */
  async getSession(sessionId: bigint): Promise<SessionInfo | undefined> {
    try {
      const response = await this.read(lockApi.GetSession, () => pb.GetSessionRequest.create({ sessionId: toU64(sessionId) }));
      return response.session ? sessionInfoFrom(response.session) : undefined;
    } catch (err) {
      if (err instanceof SessionNotFoundError) return undefined;
      throw err;
    }
  }

  /** Retained grants of a lock, oldest first (limit 0: all). */
  async history(lock: string, limit = 0): Promise<HistoryRecordInfo[]> {
    const response = await this.read(lockApi.GetLockHistory, () => pb.GetLockHistoryRequest.create({ lock, limit }));
    return historyFrom(response);
  }

  /** Whether `token` is the lock's current grant at the instant of the read (best effort). */
  async validateToken(lock: string, token: bigint): Promise<boolean> {
    const response = await this.read(lockApi.ValidateToken, () => pb.ValidateTokenRequest.create({ lock, token: toU64(token, "token") }));
    return response.valid;
  }

  // ---- admin ---------------------------------------------------------------------------------

  /** Status of one node (no retry, no redirect). */
  async status(endpoint: string): Promise<NodeStatus> {
    const response = await this.connection.invoke(adminApi.Status, () => pb.StatusRequest.create({}), { kind: "read", endpoint });
    return statusFrom(endpoint, response);
  }

  /** Force-release a grant; answers the log index of the revoke. Retrying the same token is safe. */
  async revokeLock(lock: string, token: bigint): Promise<bigint> {
    const response = await this.connection.invoke(
      adminApi.RevokeLock,
      () => pb.RevokeLockRequest.create({ lock, token: toU64(token, "token") }),
      { kind: "write" },
    );
    return u64(response.index, "index");
  }

  /** Closes every open session (best effort) and the channels. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions].map((session) => session.close()));
    this.connection.close();
  }

  private read<Req, Res>(method: UnaryMethod<Req, Res>, build: () => Req): Promise<Res> {
    return this.connection.invoke(method, build, { kind: "read" });
  }
}
