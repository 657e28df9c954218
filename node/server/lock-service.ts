// LockService handlers: each checks and converts its request, asks the node's host
// (node/host/lock-requests.ts: writes on the leader, reads after a ReadIndex on any node)
// and converts the answer back.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import type { LockServiceHandlers } from "../../proto/grpc.ts";
import { toU64 } from "../../proto/wire.ts";
import type { AcquireResult, CancelWaitResult, GrantView, HolderView } from "../host/lock-requests.ts";
import type { EndReason, HistoryEntry, HolderPlace, LockHolderInfo, LockPageInfo, LockWaiterInfo, SessionInfo } from "../lock/index.ts";
import type { ServiceContext } from "./context.ts";
import { fail, toStatus, unary } from "./handler.ts";
import { wireKindFields, wireTarget } from "./kind-fields.ts";
import { lockStream } from "./lock-stream.ts";
import {
  parseAcquire, parseCancelWait, parseCloseSession, parseGetLock, parseHistory, parseListLocks, parseListSessions, parseOpenSession,
  parseRelease, parseValidateToken, parseWatch, sessionIdField, parseKeepAliveSessions, LOCKS_PAGE_BYTES, SUMMARY_BOUNDS,
} from "./requests.ts";
import { malformedReason } from "./tolerant.ts";
import { CURRENT_INDEX_METADATA_KEY } from "./status.ts";

const pb = palisade.v1;

const END_REASONS: Readonly<Record<EndReason, palisade.v1.EndReason>> = {
  released: pb.EndReason.END_REASON_RELEASED,
  "session closed": pb.EndReason.END_REASON_SESSION_CLOSED,
  "session expired": pb.EndReason.END_REASON_SESSION_EXPIRED,
  revoked: pb.EndReason.END_REASON_REVOKED,
};

/** `permits`: the lock's permit count when it is a semaphore. */
function holderOf(h: LockHolderInfo, permits?: number): palisade.v1.LockHolder.$Properties {
  return {
    sessionId: toU64(h.sessionId), clientName: h.clientName, token: toU64(h.token), grantedIndex: toU64(h.grantedAt), ...wireKindFields(h, permits),
  };
}

function waiterOf(w: LockWaiterInfo, permits?: number): palisade.v1.LockWaiter.$Properties {
  return {
    sessionId: toU64(w.sessionId), clientName: w.clientName, waitingSinceIndex: toU64(w.waitedFrom), ...wireKindFields(w, permits),
    ...(w.targets ? { locks: w.targets.map(wireTarget) } : {}),
  };
}

function cursorOf(place: HolderPlace | null): palisade.v1.HolderCursor.$Properties | null {
  return place === null ? null : { token: toU64(place.token), sessionId: toU64(place.sessionId) };
}

type SharedLockFields = "holder" | "holders" | "kind" | "permits" | "holderCount" | "nextHoldersAfter";

/**
 * The fields GetLockResponse and LockSummary share: the oldest holder, the page of holders
 * when there are several (a lone holder is `holder` alone, as before the pages), the
 * holder count and where the holders not listed start, the kind. `continued`: the page
 * goes on from a place in the list.
 */
function lockFields(info: LockPageInfo, continued = false): Pick<palisade.v1.GetLockResponse.$Properties, SharedLockFields> {
  const permits = info.permits;
  return {
    holder: info.holder ? holderOf(info.holder, permits) : null,
    // A page after the first lists its holders even when one is left.
    ...(info.holderCount > 1 || continued ? { holders: info.holders.map((h) => holderOf(h, permits)) } : {}),
    holderCount: info.holderCount,
    nextHoldersAfter: cursorOf(info.nextHoldersAfter),
    ...(info.kind === "semaphore" ? { kind: pb.LockKind.LOCK_KIND_SEMAPHORE, permits: permits ?? 0 } : {}),
  };
}

function sessionOf(s: SessionInfo): palisade.v1.SessionInfo.$Properties {
  return {
    sessionId: toU64(s.id), clientName: s.clientName, ttlMs: toU64(s.ttlMs), openedIndex: toU64(s.openedAt),
    heldLocks: s.held.map((h) => h.lock), waitingLocks: s.waiting.map((w) => w.lock),
  };
}

function holderViewOf(h: HolderView): palisade.v1.LockHolder.$Properties {
  return { sessionId: toU64(h.sessionId), clientName: h.clientName, token: toU64(h.token), grantedIndex: toU64(h.grantedIndex) };
}

/** The AcquireResponse of an Acquire's final answer. */
export function acquireResponse(result: AcquireResult): palisade.v1.AcquireResponse {
  if (result.acquired) {
    return pb.AcquireResponse.create({
      acquired: true, token: toU64(result.token), holder: holderViewOf(result.holder),
      ...(result.grants ? { grants: result.grants.map(grantOf) } : {}),
    });
  }
  return pb.AcquireResponse.create({
    acquired: false, holder: result.holder ? holderViewOf(result.holder) : null, ...(result.blockedLock !== undefined ? { blockedLock: result.blockedLock } : {}),
  });
}

function grantOf(g: GrantView): palisade.v1.LockGrant.$Properties {
  return {
    lock: g.lock, token: toU64(g.token), ...(g.mode === "shared" ? { mode: pb.LockMode.LOCK_MODE_SHARED } : {}),
    ...(g.permits !== undefined ? { permits: g.permits, ...(g.slot ? { slot: g.slot } : {}) } : {}),
  };
}

const CANCEL_OUTCOMES: Readonly<Record<CancelWaitResult["outcome"], palisade.v1.CancelWaitOutcome>> = {
  cancelled: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_CANCELLED,
  granted: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_GRANTED,
  notAcquired: pb.CancelWaitOutcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED,
};

/**
 * Every LockService call but Watch, from decoded request to response: the one handler the
 * unary RPCs and the Stream RPC both run, so the two cannot drift. `detached` aborts when
 * the caller went away (a cancelled call, a forgotten stream request): an Acquire then only
 * stops listening.
 */
export interface LockCalls {
  OpenSession(req: palisade.v1.OpenSessionRequest): Promise<palisade.v1.OpenSessionResponse>;
  KeepAlive(req: palisade.v1.KeepAliveRequest): Promise<palisade.v1.KeepAliveResponse>;
  KeepAliveSessions(req: palisade.v1.KeepAliveSessionsRequest): Promise<palisade.v1.KeepAliveSessionsResponse>;
  CloseSession(req: palisade.v1.CloseSessionRequest): Promise<palisade.v1.CloseSessionResponse>;
  Acquire(req: palisade.v1.AcquireRequest, detached: AbortSignal): Promise<palisade.v1.AcquireResponse>;
  CancelWait(req: palisade.v1.CancelWaitRequest): Promise<palisade.v1.CancelWaitResponse>;
  Release(req: palisade.v1.ReleaseRequest): Promise<palisade.v1.ReleaseResponse>;
  GetLock(req: palisade.v1.GetLockRequest): Promise<palisade.v1.GetLockResponse>;
  ListLocks(req: palisade.v1.ListLocksRequest): Promise<palisade.v1.ListLocksResponse>;
  GetSession(req: palisade.v1.GetSessionRequest): Promise<palisade.v1.GetSessionResponse>;
  ListSessions(req: palisade.v1.ListSessionsRequest): Promise<palisade.v1.ListSessionsResponse>;
  GetLockHistory(req: palisade.v1.GetLockHistoryRequest): Promise<palisade.v1.GetLockHistoryResponse>;
  ValidateToken(req: palisade.v1.ValidateTokenRequest): Promise<palisade.v1.ValidateTokenResponse>;
}

export function lockCalls(ctx: ServiceContext): LockCalls {
  const { host, locks } = ctx;
  // A write is checked against the limits only on the leader: a follower's applied state may
  // lag the limits the write was (or will be) applied under, and a retry refused by stale
  // limits would stand in for its first answer. Elsewhere it is refused as not led here.
  const limits = (): ReturnType<typeof host.limitsForRequests> => {
    host.requireLeader();
    return host.limitsForRequests();
  };

  return {
    async OpenSession(request) {
      const opened = await locks.openSession(parseOpenSession(request, limits()));
      return pb.OpenSessionResponse.create({ sessionId: toU64(opened.sessionId), ttlMs: toU64(opened.ttlMs) });
    },

    async KeepAlive(request) {
      const { ttlMs } = await locks.keepAlive(sessionIdField(request.sessionId));
      return pb.KeepAliveResponse.create({ ttlMs: toU64(ttlMs) });
    },

    async KeepAliveSessions(request) {
      const ids = parseKeepAliveSessions(request);
      const ttls = await locks.keepAliveSessions(ids);
      return pb.KeepAliveSessionsResponse.create({
        sessions: ids.map((id, i) => {
          const ttlMs = ttls[i] ?? null;
          return { sessionId: toU64(id), ttlMs: toU64(ttlMs ?? 0), notFound: ttlMs === null };
        }),
      });
    },

    async CloseSession(request) {
      await locks.closeSession(parseCloseSession(request, limits(), host.wallMs()));
      return pb.CloseSessionResponse.create({});
    },

    async Acquire(request, detached) {
      // A caller that went away only stops listening: the wait itself goes on until the
      // client sends CancelWait or the wait times out.
      return acquireResponse(await locks.acquire(parseAcquire(request, limits(), host.wallMs()), detached));
    },

    async CancelWait(request) {
      const answer = await locks.cancelWait(parseCancelWait(request, host.wallMs()));
      return pb.CancelWaitResponse.create({
        outcome: CANCEL_OUTCOMES[answer.outcome],
        ...(answer.outcome === "granted" ? { token: toU64(answer.token) } : {}),
      });
    },

    async Release(request) {
      await locks.release(parseRelease(request, limits(), host.wallMs()));
      return pb.ReleaseResponse.create({});
    },

    async GetLock(request) {
      const { lock, bounds } = parseGetLock(request);
      const info = await locks.read((state) => state.lockPage(lock, bounds));
      return pb.GetLockResponse.create({
        lock: info.name, ...lockFields(info, bounds.holders.after !== undefined), waiters: info.waiters.map((w) => waiterOf(w, info.permits)),
        waiterCount: info.waiterCount, nextWaitersAfterIndex: toU64(info.nextWaitersAfter ?? 0),
      });
    },

    async ListLocks(request) {
      const { prefix, after, limit } = parseListLocks(request);
      const page = await locks.read((state) => state.listLockPages({ prefix, after, limit, maxBytes: LOCKS_PAGE_BYTES, each: SUMMARY_BOUNDS }));
      return pb.ListLocksResponse.create({
        locks: page.locks.map((l) => ({ lock: l.name, ...lockFields(l), waiterCount: l.waiterCount })),
        nextAfter: page.nextAfter ?? "",
      });
    },

    async GetSession(request) {
      const id = sessionIdField(request.sessionId);
      const info = await locks.read((state) => state.getSession(id));
      if (!info) fail("ERROR_REASON_SESSION_NOT_FOUND", `session ${id} not found (unknown, closed or expired)`);
      return pb.GetSessionResponse.create({ session: sessionOf(info) });
    },

    async ListSessions(request) {
      const { after, limit } = parseListSessions(request);
      const page = await locks.read((state) => state.listSessions(after, limit));
      return pb.ListSessionsResponse.create({
        sessions: page.sessions.map(sessionOf),
        nextAfterSessionId: toU64(page.nextAfter ?? 0n),
      });
    },

    async GetLockHistory(request) {
      const { lock, limit } = parseHistory(request);
      const all = await locks.read((state) => state.history(lock));
      const records = limit > 0 ? all.slice(-limit) : all;
      return pb.GetLockHistoryResponse.create({
        records: records.map((r) => ({
          token: toU64(r.token), sessionId: toU64(r.sessionId), clientName: r.clientName, grantedIndex: toU64(r.grantedAt),
          waitedFromIndex: toU64(r.waitedFrom), endedIndex: toU64(r.endedAt ?? 0),
          reason: r.reason === null ? pb.EndReason.END_REASON_UNSPECIFIED : END_REASONS[r.reason],
          grantedAtMs: toU64(displayMs(r.grantedWallMs)), endedAtMs: toU64(displayMs(r.endedWallMs)), ...historyKindFields(r),
        })),
      });
    },

    async ValidateToken(request) {
      const { lock, token } = parseValidateToken(request);
      return pb.ValidateTokenResponse.create({ valid: await locks.read((state) => state.validateToken(lock, token)) });
    },

  };
}

export function lockServiceHandlers(ctx: ServiceContext): LockServiceHandlers {
  const calls = lockCalls(ctx);
  const { host } = ctx;
  return {
    OpenSession: unary(ctx, "OpenSession", (call) => calls.OpenSession(call.request)),
    KeepAlive: unary(ctx, "KeepAlive", (call) => calls.KeepAlive(call.request)),
    KeepAliveSessions: unary(ctx, "KeepAliveSessions", (call) => calls.KeepAliveSessions(call.request)),
    CloseSession: unary(ctx, "CloseSession", (call) => calls.CloseSession(call.request)),
    Acquire: unary(ctx, "Acquire", async (call) => {
      const detached = new AbortController();
      const onCancelled = (): void => detached.abort();
      call.on("cancelled", onCancelled);
      try {
        return await calls.Acquire(call.request, detached.signal);
      } finally {
        call.removeListener("cancelled", onCancelled);
      }
    }),
    CancelWait: unary(ctx, "CancelWait", (call) => calls.CancelWait(call.request)),
    Release: unary(ctx, "Release", (call) => calls.Release(call.request)),
    GetLock: unary(ctx, "GetLock", (call) => calls.GetLock(call.request)),
    ListLocks: unary(ctx, "ListLocks", (call) => calls.ListLocks(call.request)),
    GetSession: unary(ctx, "GetSession", (call) => calls.GetSession(call.request)),
    ListSessions: unary(ctx, "ListSessions", (call) => calls.ListSessions(call.request)),
    GetLockHistory: unary(ctx, "GetLockHistory", (call) => calls.GetLockHistory(call.request)),
    ValidateToken: unary(ctx, "ValidateToken", (call) => calls.ValidateToken(call.request)),
    Watch: (call) => {
      try {
        const malformed = malformedReason(call.request);
        if (malformed !== null) fail("ERROR_REASON_MALFORMED_REQUEST", `the request is not a valid Watch message: ${malformed}`);
        const { prefix, fromIndex } = parseWatch(call.request);
        // The applied index the stream starts from, so a client that asked for "now" can
        // resume at a concrete index on another node.
        const applied = host.state.appliedIndex;
        const headers = new grpc.Metadata();
        headers.set(CURRENT_INDEX_METADATA_KEY, String(applied));
        call.sendMetadata(headers);
        ctx.watch.attach(call, prefix, fromIndex, applied);
      } catch (error) {
        call.emit("error", toStatus(ctx, "Watch", error));
      }
    },
    Stream: lockStream(ctx, calls, ctx.streams),
  };
}

/** A history record's kind fields: as a holder's, but a permit is only marked (its count of the time is not kept). */
function historyKindFields(r: HistoryEntry): Partial<palisade.v1.HistoryRecord.$Properties> {
  const { permits, ...fields } = wireKindFields(r, 0);
  return {
    ...fields, ...(permits !== undefined ? { permit: true } : {}),
    ...(r.revokedFor === "hold limit" ? { revokeCause: pb.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT } : {}),
  };
}

/** Wall-clock display data from a command: a non-negative integer, 0 when absent or odd. */
function displayMs(ms: number | null): number {
  return ms !== null && Number.isSafeInteger(ms) && ms > 0 ? ms : 0;
}
