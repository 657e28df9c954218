// The client side of a simulated node: requests from simulated clients, answered by the
// node's real host (node/host/lock-requests.ts), as the gRPC services answer them.
import { status as grpcStatus } from "@grpc/grpc-js";
import { WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import { answerReason, failureOf } from "../../node/host/failures.ts";
import { LockRequests } from "../../node/host/lock-requests.ts";
import type { LockReader, NodeHost } from "../../node/host/node-host.ts";
import type { Answer, ErrorCode, ErrorReason } from "../../node/lock/answers.ts";
import type { Command } from "../../node/lock/commands.ts";
import type { LockLimits } from "../../node/lock/limits.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import type { LockInfo, SessionInfo } from "../../node/lock/state-machine.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { SimNode } from "./cluster.ts";

export type LockResult = ApplyOutcome | null;

/** The read API of the lock state machine, as clients call it. */
export type ReadQuery =
  | { op: "getLock"; lock: string }
  | { op: "validateToken"; lock: string; token: bigint }
  | { op: "listLocks"; prefix: string }
  | { op: "listSessions" }
  | { op: "getSession"; id: bigint };

export type ReadAnswer =
  | { op: "getLock"; lock: LockInfo }
  | { op: "validateToken"; valid: boolean }
  | { op: "listLocks"; locks: LockInfo[]; nextAfter: string | null }
  | { op: "listSessions"; sessions: SessionInfo[]; nextAfter: bigint | null }
  | { op: "getSession"; session: SessionInfo | null };

/** Answers a read from a state machine (a replica's, or the checker's reference). */
export function answerRead(sm: LockReader, q: ReadQuery): ReadAnswer {
  switch (q.op) {
    case "getLock":
      return { op: q.op, lock: sm.getLock(q.lock) };
    case "validateToken":
      return { op: q.op, valid: sm.validateToken(q.lock, q.token) };
    case "listLocks":
      return { op: q.op, ...sm.listLocks({ prefix: q.prefix }) };
    case "listSessions":
      return { op: q.op, ...sm.listSessions() };
    case "getSession":
      return { op: q.op, session: sm.getSession(q.id) };
  }
}

export type Request =
  | { kind: "command"; cmd: Command }
  | { kind: "keepAlive"; session: bigint }
  | { kind: "read"; query: ReadQuery };

export type Reply =
  | { kind: "answer"; answer: Answer }
  | { kind: "keepAliveOk" }
  /** `readIndex`: the confirmed read index; `applied`: the replica's applied index when it read (≥ readIndex). */
  | { kind: "read"; answer: ReadAnswer; readIndex: number; applied: number }
  | { kind: "unavailable"; leader: NodeId };

/** The lock limits of the simulated cluster files: TTLs below a second so sessions expire within a short run. */
export const SIM_LOCK_LIMITS: Partial<LockLimits> = { minTtlMs: 100 };

/** A simulated node's client address (what a leader hint names). */
export const simClientAddress = (id: NodeId): string => `sim-node-${id}`;

function nodeOfAddress(address: string | null): NodeId {
  const m = address === null ? null : /^sim-node-(\d+)$/.exec(address);
  return m ? Number(m[1]) : 0;
}

/** Failures a client answers by trying again (elsewhere, or later). */
const RETRY_ELSEWHERE = new Set<ErrorReasonName>([
  "ERROR_REASON_NOT_LEADER", "ERROR_REASON_NO_LEADER", "ERROR_REASON_PROPOSAL_DROPPED", "ERROR_REASON_LEADERSHIP_CHANGED",
  "ERROR_REASON_READ_NOT_CONFIRMED", "ERROR_REASON_SHUTTING_DOWN", "ERROR_REASON_WAIT_DETACHED", "ERROR_REASON_NODE_BUSY",
]);

/** The state machine's reason of each wire reason it answers with. */
const MACHINE_REASONS = new Map<ErrorReasonName, ErrorReason>(
  (["invalid argument", "session not found", "session ended", "no such wait", "not an acquire of this lock", "stale token", "not holder",
    "request too old", "too many sessions", "too many locks in session", "too many waiters", "too many in flight"] as const)
    .map((r) => [answerReason(r), r]),
);

/**
 * A simulated client's requests, answered by a node's real host (node/host): the same
 * rules as the gRPC services, and the same RequestFailures, turned into the replies the
 * simulated clients read.
 */
export class LockHost {
  private readonly locks: LockRequests;

  constructor(private readonly node: SimNode<LockResult>, private readonly instance: number, readonly host: NodeHost) {
    this.locks = new LockRequests(host);
  }

  get sm(): LockReader {
    return this.host.state;
  }

  private failed(error: unknown, respond: (r: Reply) => void): void {
    const f = failureOf(error, this.host.leaderHint());
    if (RETRY_ELSEWHERE.has(f.reason)) {
      respond({ kind: "unavailable", leader: nodeOfAddress(f.leader) || (this.node.core?.leader ?? 0) });
      return;
    }
    const reason = MACHINE_REASONS.get(f.reason);
    if (reason === undefined) throw new Error(`node ${this.node.id}: unexpected failure ${f.reason}: ${f.message}`);
    const code = WIRE_TO_CODE[WIRE_ERRORS[f.reason].code];
    if (code === undefined) throw new Error(`node ${this.node.id}: no answer code for ${f.reason}`);
    respond({ kind: "answer", answer: { code, kind: "error", reason, message: f.message } });
  }

  /** Serves one client request; `reply` is called at most once (never if the node dies first). */
  handle(req: Request, reply: (r: Reply) => void): void {
    const inst = this.instance;
    const alive = (): boolean => this.node.up && this.node.instance === inst;
    if (!alive()) return;
    const respond = (r: Reply): void => {
      if (alive()) reply(r);
    };
    const fail = (error: unknown): void => this.failed(error, respond);
    const answer = (a: Answer): void => respond({ kind: "answer", answer: a });
    const locks = this.locks;
    if (req.kind === "read") {
      locks.readAt((state) => answerRead(state, req.query)).then(
        ({ value, readIndex, applied }) => respond({ kind: "read", answer: value, readIndex, applied }),
        fail,
      );
      return;
    }
    if (req.kind === "keepAlive") {
      locks.keepAlive(req.session).then(() => respond({ kind: "keepAliveOk" }), fail);
      return;
    }
    const cmd = req.cmd;
    switch (cmd.type) {
      case "openSession":
        locks.openSession(cmd).then((o) => answer({ code: "OK", kind: "sessionOpened", sessionId: o.sessionId }), fail);
        return;
      case "closeSession":
        locks.closeSession(cmd).then(() => answer({ code: "OK", kind: "sessionClosed" }), fail);
        return;
      case "acquire":
        locks.acquire(cmd).then((r) => {
          if (r.acquired) answer({ code: "OK", kind: "granted", token: r.token });
          else if (r.cancelled) answer({ code: "OK", kind: "cancelled" });
          else answer({ code: "OK", kind: "notAcquired", holderSessionId: r.holder?.sessionId ?? 0n, holderToken: r.holder?.token ?? 0n });
        }, fail);
        return;
      case "cancelWait":
        locks.cancelWait(cmd).then((r) => {
          if (r.outcome === "granted") answer({ code: "OK", kind: "granted", token: r.token });
          else if (r.outcome === "cancelled") answer({ code: "OK", kind: "cancelled" });
          // The wait's holder is not part of CancelWait's answer: the simulated client only needs the kind.
          else answer({ code: "OK", kind: "notAcquired", holderSessionId: 0n, holderToken: 0n });
        }, fail);
        return;
      case "release":
        locks.release(cmd).then(() => answer({ code: "OK", kind: "released" }), fail);
        return;
      default:
        throw new Error(`a simulated client does not send ${cmd.type}`);
    }
  }
}

const WIRE_TO_CODE: Partial<Record<number, ErrorCode>> = {
  [grpcStatus.INVALID_ARGUMENT]: "INVALID_ARGUMENT",
  [grpcStatus.NOT_FOUND]: "NOT_FOUND",
  [grpcStatus.FAILED_PRECONDITION]: "FAILED_PRECONDITION",
  [grpcStatus.RESOURCE_EXHAUSTED]: "RESOURCE_EXHAUSTED",
};
