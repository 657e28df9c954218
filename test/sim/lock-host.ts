// The client side of a simulated node: requests from simulated clients, answered by the
// node's real host (node/host/lock-requests.ts), as the gRPC services answer them.
import type { ErrorReasonName } from "../../proto/wire.ts";
import { failureOf } from "../../node/host/failures.ts";
import { LockRequests } from "../../node/host/lock-requests.ts";
import type { AcquireAnswer, CancelWaitResult, OpenSessionRequest } from "../../proto/lock-values.ts";
import type { LockReader, NodeHost } from "../../node/host/node-host.ts";
import type { AcquireCommand, CancelWaitCommand, CloseSessionCommand, ReleaseCommand } from "../../node/lock/commands.ts";
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

/** A simulated client's request, in the host's domain types (what the gRPC services decode a request into). */
export type Request =
  | { readonly kind: "openSession"; readonly req: OpenSessionRequest }
  | { readonly kind: "keepAlive"; readonly sessions: readonly bigint[] }
  | { readonly kind: "acquire"; readonly cmd: AcquireCommand }
  | { readonly kind: "release"; readonly cmd: ReleaseCommand }
  | { readonly kind: "cancelWait"; readonly cmd: CancelWaitCommand }
  | { readonly kind: "closeSession"; readonly cmd: CloseSessionCommand }
  | { readonly kind: "read"; readonly query: ReadQuery };

/** The host's answer to a request, or its failure (what a gRPC status carries: reason, message, leader). */
export type Reply =
  | { readonly kind: "opened"; readonly sessionId: bigint; readonly ttlMs: number }
  /** Per requested session, in order: its TTL, or null when it is gone. */
  | { readonly kind: "keptAlive"; readonly ttls: ReadonlyArray<number | null> }
  | { readonly kind: "acquired"; readonly result: AcquireAnswer }
  | { readonly kind: "released" }
  | { readonly kind: "cancelWait"; readonly result: CancelWaitResult }
  | { readonly kind: "closed" }
  /** `readIndex`: the confirmed read index; `applied`: the replica's applied index when it read (≥ readIndex). */
  | { readonly kind: "read"; readonly answer: ReadAnswer; readonly readIndex: number; readonly applied: number }
  | { readonly kind: "failure"; readonly reason: ErrorReasonName; readonly message: string; readonly leader: NodeId }
  /** The node is down: the connection was refused. */
  | { readonly kind: "refused" };

/** The lock limits of the simulated cluster files: TTLs below a second so sessions expire within a short run. */
export const SIM_LOCK_LIMITS: Partial<LockLimits> = { minTtlMs: 100, minHoldMs: 100 };

/** A simulated node's client address (what a leader hint names). */
export const simClientAddress = (id: NodeId): string => `sim-node-${id}`;

function nodeOfAddress(address: string | null): NodeId {
  const m = address === null ? null : /^sim-node-(\d+)$/.exec(address);
  return m ? Number(m[1]) : 0;
}

/**
 * A simulated client's requests, answered by a node's real host (node/host): the same
 * rules as the gRPC services, and the same RequestFailures, which travel as the reason,
 * message and leader a gRPC status carries.
 */
export class LockHost {
  private readonly locks: LockRequests;

  constructor(private readonly node: SimNode<LockResult>, private readonly instance: number, readonly host: NodeHost) {
    this.locks = new LockRequests(host);
  }

  get sm(): LockReader {
    return this.host.state;
  }

  /** Serves one client request; `reply` is called at most once (never if the node dies first). */
  handle(req: Request, reply: (r: Reply) => void): void {
    const inst = this.instance;
    const alive = (): boolean => this.node.up && this.node.instance === inst;
    if (!alive()) return;
    const respond = (r: Reply): void => {
      if (alive()) reply(r);
    };
    const fail = (error: unknown): void => {
      const f = failureOf(error, this.host.leaderHint());
      respond({ kind: "failure", reason: f.reason, message: f.message, leader: nodeOfAddress(f.leader) });
    };
    const locks = this.locks;
    switch (req.kind) {
      case "read":
        locks.readAt((state) => answerRead(state, req.query)).then(
          ({ value, readIndex, applied }) => respond({ kind: "read", answer: value, readIndex, applied }),
          fail,
        );
        return;
      case "keepAlive":
        locks.keepAlive(req.sessions).then((ttls) => respond({ kind: "keptAlive", ttls }), fail);
        return;
      case "openSession":
        locks.openSession(req.req).then((o) => respond({ kind: "opened", sessionId: o.sessionId, ttlMs: o.ttlMs }), fail);
        return;
      case "closeSession":
        locks.closeSession(req.cmd).then(() => respond({ kind: "closed" }), fail);
        return;
      case "acquire":
        locks.acquire(req.cmd).then((result) => respond({ kind: "acquired", result }), fail);
        return;
      case "cancelWait":
        locks.cancelWait(req.cmd).then((result) => respond({ kind: "cancelWait", result }), fail);
        return;
      case "release":
        locks.release(req.cmd).then(() => respond({ kind: "released" }), fail);
        return;
    }
  }
}
