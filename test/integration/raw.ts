// Raw LockService calls for tests that need a request the client library would never
// send (a replayed seq, a session without keepalives, malformed ids).
import { randomUUID } from "node:crypto";
import { palisade } from "../../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../../proto/grpc.ts";
import { toU64, u64 } from "../../proto/wire.ts";
import { status } from "@grpc/grpc-js";
import { Connection } from "../../client/connection.ts";
import { SessionNotFoundError } from "../../client/errors.ts";

const pb = palisade.v1;

export interface RawAcquire {
  sessionId: bigint;
  lock: string;
  seq: number;
  waitMs?: number;
  ackedUpTo?: number;
  held?: number[];
}

export class RawLockApi {
  private readonly connection: Connection;

  constructor(endpoints: readonly string[]) {
    this.connection = new Connection({ endpoints, callTimeoutMs: 2_000, retryBudgetMs: 10_000 });
  }

  /** Opens a session that sends no keepalives (it expires after its TTL). */
  async openSession(ttlMs: number, clientName = "raw"): Promise<bigint> {
    const requestId = randomUUID();
    const res = await this.connection.invoke(
      lockApi.OpenSession,
      () => pb.OpenSessionRequest.create({ ttlMs: toU64(ttlMs), clientName, requestId }),
      { kind: "write" },
    );
    return u64(res.sessionId);
  }

  async acquire(
    req: RawAcquire,
  ): Promise<{ acquired: boolean; token: bigint; holderSession: bigint }> {
    const res = await this.connection.invoke(
      lockApi.Acquire,
      () =>
        pb.AcquireRequest.create({
          sessionId: toU64(req.sessionId),
          lock: req.lock,
          waitMs: toU64(req.waitMs ?? 0),
          seq: toU64(req.seq),
          ackedUpTo: toU64(req.ackedUpTo ?? 0),
          held: (req.held ?? []).map((s) => toU64(s)),
        }),
      { kind: "write", attemptTimeoutMs: (req.waitMs ?? 0) + 2_000 },
    );
    return {
      acquired: res.acquired,
      token: u64(res.token),
      holderSession: u64(res.holder?.sessionId),
    };
  }

  async release(
    sessionId: bigint,
    lock: string,
    token: bigint,
    seq: number,
    ackedUpTo = 0,
  ): Promise<void> {
    await this.connection.invoke(
      lockApi.Release,
      () =>
        pb.ReleaseRequest.create({
          sessionId: toU64(sessionId),
          lock,
          token: toU64(token),
          seq: toU64(seq),
          ackedUpTo: toU64(ackedUpTo),
        }),
      { kind: "write" },
    );
  }

  /** One session's keepalive; a session the cluster no longer has rejects with SessionNotFoundError. */
  async keepAlive(sessionId: bigint): Promise<void> {
    const answer = await this.connection.invoke(
      lockApi.KeepAlive,
      () => pb.KeepAliveRequest.create({ sessionIds: [toU64(sessionId)] }),
      { kind: "read" },
    );
    if (answer.sessions[0]?.notFound !== false)
      throw new SessionNotFoundError(
        `session ${sessionId} not found`,
        status.NOT_FOUND,
        "ERROR_REASON_SESSION_NOT_FOUND",
      );
  }

  close(): void {
    this.connection.close();
  }
}
