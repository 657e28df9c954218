// LockService handlers. Writes are proposed on the leader (elsewhere UNAVAILABLE with a
// leader hint) and answered from the apply result; reads go through ReadIndex and then
// read the local state, so followers serve them too.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import type { LockServiceHandlers } from "../../proto/grpc.ts";
import { tokenIndex, type Answer, type EndReason, type LockHolderInfo, type SessionInfo } from "../lock/index.ts";
import { toU64 } from "../../proto/wire.ts";
import type { WaitOutcome } from "../host/acquire-waiters.ts";
import type { NodeContext } from "./context.ts";
import { expectOk, fail, Failure, linearizable, propose, requireLeader, toStatus, unary, unexpected } from "./handler.ts";
import {
  parseAcquire, parseCancelWait, parseCloseSession, parseHistory, parseListLocks, parseListSessions, parseOpenSession,
  parseRelease, parseValidateToken, parseWatch, lockField, sessionIdField,
} from "./requests.ts";
import { malformedReason } from "./tolerant.ts";
import { CURRENT_INDEX_METADATA_KEY, notLeader } from "./status.ts";

const pb = palisade.v1;

const END_REASONS: Readonly<Record<EndReason, palisade.v1.EndReason>> = {
  released: pb.EndReason.END_REASON_RELEASED,
  "session closed": pb.EndReason.END_REASON_SESSION_CLOSED,
  "session expired": pb.EndReason.END_REASON_SESSION_EXPIRED,
  revoked: pb.EndReason.END_REASON_REVOKED,
};

function holderOf(h: LockHolderInfo): palisade.v1.LockHolder.$Properties {
  return { sessionId: toU64(h.sessionId), clientName: h.clientName, token: toU64(h.token), grantedIndex: toU64(h.grantedAt) };
}

function sessionOf(s: SessionInfo): palisade.v1.SessionInfo.$Properties {
  return {
    sessionId: toU64(s.id), clientName: s.clientName, ttlMs: toU64(s.ttlMs), openedIndex: toU64(s.openedAt),
    heldLocks: s.held.map((h) => h.lock), waitingLocks: s.waiting.map((w) => w.lock),
  };
}

/** The AcquireResponse for a final Acquire answer (errors become statuses). */
export function acquireResponse(ctx: NodeContext, sessionId: bigint, answer: Answer): palisade.v1.AcquireResponse {
  const ok = expectOk(answer);
  const nameOf = (id: bigint): string => ctx.machine.getSession(id)?.clientName ?? "";
  switch (ok.kind) {
    case "granted":
      return pb.AcquireResponse.create({
        acquired: true,
        token: toU64(ok.token),
        holder: { sessionId: toU64(sessionId), clientName: nameOf(sessionId), token: toU64(ok.token), grantedIndex: toU64(tokenIndex(ok.token)) },
      });
    case "notAcquired":
      return pb.AcquireResponse.create({
        acquired: false,
        holder: ok.holderSessionId === 0n ? null : {
          sessionId: toU64(ok.holderSessionId), clientName: nameOf(ok.holderSessionId), token: toU64(ok.holderToken),
          grantedIndex: toU64(tokenIndex(ok.holderToken)),
        },
      });
    case "cancelled":
      // CancelWait arrived first: this Acquire took no effect.
      return pb.AcquireResponse.create({ acquired: false });
    default:
      return unexpected(ok, "Acquire");
  }
}

export function lockServiceHandlers(ctx: NodeContext): LockServiceHandlers {
  const limits = () => ctx.limitsForRequests();

  return {
    OpenSession: unary(ctx, "OpenSession", async (call) => {
      const params = parseOpenSession(call.request, limits());
      const requestId = params.requestId === "" ? ctx.newRequestId() : params.requestId;
      const { outcome } = await propose(ctx, {
        type: "openSession", requestId, ttlMs: params.ttlMs, clientName: params.clientName, wallMs: ctx.wallMs(),
      });
      const ok = expectOk(outcome.result);
      if (ok.kind !== "sessionOpened") unexpected(ok, "OpenSession");
      const ttlMs = ctx.machine.getSession(ok.sessionId)?.ttlMs ?? params.ttlMs;
      return pb.OpenSessionResponse.create({ sessionId: toU64(ok.sessionId), ttlMs: toU64(ttlMs) });
    }),

    KeepAlive: unary(ctx, "KeepAlive", async (call) => {
      const sessionId = sessionIdField(call.request.sessionId);
      requireLeader(ctx);
      const term = ctx.driver.core.term;
      const result = ctx.leaseKeeper.keepAlive(sessionId, ctx.now());
      if (result === "notLeader") throw new Failure(notLeader(ctx.leaderHint()));
      const gone = () => fail("ERROR_REASON_SESSION_NOT_FOUND", `session ${sessionId} not found (unknown, closed or expired); open a new session`);
      if (result === "notFound") gone();
      // Acknowledge only once a quorum round that started after the keepalive arrived
      // confirmed this leadership (and an entry of this term is applied).
      await linearizable(ctx);
      if (!ctx.isLeader() || ctx.driver.core.term !== term) throw new Failure(notLeader(ctx.leaderHint()));
      if (!ctx.machine.hasSession(sessionId) || ctx.leaseKeeper.expiryProposed(sessionId)) gone();
      const ttlMs = ctx.machine.getSession(sessionId)?.ttlMs ?? 0;
      return pb.KeepAliveResponse.create({ ttlMs: toU64(ttlMs) });
    }),

    CloseSession: unary(ctx, "CloseSession", async (call) => {
      const cmd = parseCloseSession(call.request, limits(), ctx.wallMs());
      const { outcome } = await propose(ctx, cmd);
      const ok = expectOk(outcome.result);
      if (ok.kind !== "sessionClosed") unexpected(ok, "CloseSession");
      return pb.CloseSessionResponse.create({});
    }),

    Acquire: unary(ctx, "Acquire", async (call) => {
      const cmd = parseAcquire(call.request, limits(), ctx.wallMs());
      requireLeader(ctx);
      // Listen before proposing: the completion may apply in the same batch as the Acquire.
      let settle: (outcome: WaitOutcome) => void = () => undefined;
      const waited = new Promise<WaitOutcome>((resolve) => (settle = resolve));
      const handle = ctx.waiters.register(cmd.sessionId, cmd.seq, (o) => settle(o));
      // A cancelled or expired call only stops listening: the wait itself goes on until
      // the client sends CancelWait or the wait times out.
      const onCancelled = () => {
        handle.drop();
        settle({ kind: "unavailable", reason: "the call was cancelled" });
      };
      call.on("cancelled", onCancelled);
      try {
        const { outcome } = await propose(ctx, cmd);
        let answer = outcome.result;
        if (answer.kind === "waiting") {
          const final = await waited;
          if (final.kind === "unavailable") {
            fail("ERROR_REASON_WAIT_DETACHED", `${final.reason}; the wait goes on: retry the Acquire with the same seq to re-attach`);
          }
          answer = final.answer;
        }
        return acquireResponse(ctx, cmd.sessionId, answer);
      } finally {
        handle.drop();
        call.removeListener("cancelled", onCancelled);
      }
    }),

    CancelWait: unary(ctx, "CancelWait", async (call) => {
      const cmd = parseCancelWait(call.request, ctx.wallMs());
      const { outcome } = await propose(ctx, cmd);
      const ok = expectOk(outcome.result);
      const Outcome = pb.CancelWaitOutcome;
      switch (ok.kind) {
        case "cancelled":
          return pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_CANCELLED });
        case "granted":
          return pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_GRANTED, token: toU64(ok.token) });
        case "notAcquired":
          return pb.CancelWaitResponse.create({ outcome: Outcome.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED });
        default:
          return unexpected(ok, "CancelWait");
      }
    }),

    Release: unary(ctx, "Release", async (call) => {
      const cmd = parseRelease(call.request, limits(), ctx.wallMs());
      const { outcome } = await propose(ctx, cmd);
      const ok = expectOk(outcome.result);
      if (ok.kind !== "released") unexpected(ok, "Release");
      return pb.ReleaseResponse.create({});
    }),

    GetLock: unary(ctx, "GetLock", async (call) => {
      const lock = lockField(call.request.lock);
      await linearizable(ctx);
      const info = ctx.machine.getLock(lock);
      return pb.GetLockResponse.create({
        lock: info.name,
        holder: info.holder ? holderOf(info.holder) : null,
        waiters: info.waiters.map((w) => ({ sessionId: toU64(w.sessionId), clientName: w.clientName, waitingSinceIndex: toU64(w.waitedFrom) })),
      });
    }),

    ListLocks: unary(ctx, "ListLocks", async (call) => {
      const { prefix, after, limit } = parseListLocks(call.request);
      await linearizable(ctx);
      const page = ctx.machine.listLocks({ prefix, after, limit });
      return pb.ListLocksResponse.create({
        locks: page.locks.map((l) => ({ lock: l.name, holder: l.holder ? holderOf(l.holder) : null, waiterCount: l.waiters.length })),
        nextAfter: page.nextAfter ?? "",
      });
    }),

    GetSession: unary(ctx, "GetSession", async (call) => {
      const id = sessionIdField(call.request.sessionId);
      await linearizable(ctx);
      const info = ctx.machine.getSession(id);
      if (!info) fail("ERROR_REASON_SESSION_NOT_FOUND", `session ${id} not found (unknown, closed or expired)`);
      return pb.GetSessionResponse.create({ session: sessionOf(info) });
    }),

    ListSessions: unary(ctx, "ListSessions", async (call) => {
      const { after, limit } = parseListSessions(call.request);
      await linearizable(ctx);
      const page = ctx.machine.listSessions(after, limit);
      return pb.ListSessionsResponse.create({
        sessions: page.sessions.map(sessionOf),
        nextAfterSessionId: toU64(page.nextAfter ?? 0n),
      });
    }),

    GetLockHistory: unary(ctx, "GetLockHistory", async (call) => {
      const { lock, limit } = parseHistory(call.request);
      await linearizable(ctx);
      const all = ctx.machine.history(lock);
      const records = limit > 0 ? all.slice(-limit) : all;
      return pb.GetLockHistoryResponse.create({
        records: records.map((r) => ({
          token: toU64(r.token), sessionId: toU64(r.sessionId), clientName: r.clientName, grantedIndex: toU64(r.grantedAt),
          waitedFromIndex: toU64(r.waitedFrom), endedIndex: toU64(r.endedAt ?? 0),
          reason: r.reason === null ? pb.EndReason.END_REASON_UNSPECIFIED : END_REASONS[r.reason],
          grantedAtMs: toU64(displayMs(r.grantedWallMs)), endedAtMs: toU64(displayMs(r.endedWallMs)),
        })),
      });
    }),

    ValidateToken: unary(ctx, "ValidateToken", async (call) => {
      const { lock, token } = parseValidateToken(call.request);
      await linearizable(ctx);
      return pb.ValidateTokenResponse.create({ valid: ctx.machine.validateToken(lock, token) });
    }),

    Watch: (call) => {
      try {
        const malformed = malformedReason(call.request);
        if (malformed !== null) fail("ERROR_REASON_MALFORMED_REQUEST", `the request is not a valid Watch message: ${malformed}`);
        const { prefix, fromIndex } = parseWatch(call.request);
        // The applied index the stream starts from, so a client that asked for "now" can
        // resume at a concrete index on another node.
        const applied = ctx.machine.appliedIndex;
        const headers = new grpc.Metadata();
        headers.set(CURRENT_INDEX_METADATA_KEY, String(applied));
        call.sendMetadata(headers);
        ctx.watch.attach(call, prefix, fromIndex, applied);
      } catch (error) {
        call.emit("error", toStatus(ctx, "Watch", error));
      }
    },
  };
}

/** Wall-clock display data from a command: a non-negative integer, 0 when absent or odd. */
function displayMs(ms: number | null): number {
  return ms !== null && Number.isSafeInteger(ms) && ms > 0 ? ms : 0;
}
