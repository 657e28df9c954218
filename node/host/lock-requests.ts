// What a client may ask a node host, in domain terms: sessions, keepalives, Acquire with
// its wait, CancelWait, Release, and linearizable reads. The gRPC LockService
// (node/server/lock-service.ts) and the simulator's client API both call these, so the
// rules (writes on the leader only, keepalives confirmed by a quorum round that started
// after they arrived, a wait answered from the log on whichever node holds the call) are
// written once. Every failure is a RequestFailure.
import {
  isError, type AcquireAnswer, type AcquireCommand, type Answer, type CancelWaitCommand, type CloseSessionCommand, type ReleaseCommand,
} from "../lock/index.ts";
import type { WaitOutcome } from "./acquire-waiters.ts";
import { answerFailure, notLeader, RequestFailure } from "./failures.ts";
import type { LockReader, NodeHost } from "./node-host.ts";

export type CancelWaitResult =
  | { readonly outcome: "cancelled" }
  | { readonly outcome: "granted"; readonly token: bigint }
  | { readonly outcome: "notAcquired" };

export interface OpenSessionRequest {
  readonly ttlMs: number;
  readonly clientName: string;
  /** Empty: the host makes one (a retry then may open a second session). */
  readonly requestId: string;
}

/** The OK answer, or the failure its error answer stands for. */
function expectOk(answer: Answer): Exclude<Answer, { kind: "error" }> {
  if (isError(answer)) throw answerFailure(answer);
  return answer;
}

function unexpected(answer: Answer, what: string): never {
  throw new RequestFailure("ERROR_REASON_INTERNAL", `unexpected answer "${answer.kind}" to ${what}`);
}

function gone(sessionId: bigint): never {
  throw new RequestFailure("ERROR_REASON_SESSION_NOT_FOUND", `session ${sessionId} not found (unknown, closed or expired); open a new session`);
}

/** An Acquire's final answer as apply decided it. */
export function acquireAnswerOf(answer: Answer): AcquireAnswer {
  const ok = expectOk(answer);
  if (ok.kind === "granted" || ok.kind === "notAcquired" || ok.kind === "cancelled") return ok;
  return unexpected(ok, "Acquire");
}

export class LockRequests {
  constructor(private readonly host: NodeHost) {}

  async openSession(req: OpenSessionRequest): Promise<{ sessionId: bigint; ttlMs: number }> {
    const host = this.host;
    const requestId = req.requestId === "" ? host.newRequestId() : req.requestId;
    const { outcome } = await host.propose({ type: "openSession", requestId, ttlMs: req.ttlMs, clientName: req.clientName, wallMs: host.wallMs() });
    const ok = expectOk(outcome.result);
    if (ok.kind !== "sessionOpened") unexpected(ok, "OpenSession");
    return { sessionId: ok.sessionId, ttlMs: ok.ttlMs };
  }

  /** keepAliveSessions for one session: its TTL, or NOT_FOUND once it is gone. */
  async keepAlive(sessionId: bigint): Promise<{ ttlMs: number }> {
    const [ttlMs] = await this.keepAliveSessions([sessionId]);
    if (ttlMs === null || ttlMs === undefined) gone(sessionId);
    return { ttlMs };
  }

  /**
   * Restarts each session's TTL on arrival and answers, after one quorum round that started
   * after the keepalives arrived confirmed this leadership in the same term, each id's TTL,
   * or null for a session that is gone (keepAlive would answer NOT_FOUND). The answer is
   * read from the applied state only once this leadership's first entry is applied: before
   * that the state may still hold a session whose end an earlier leader committed (to
   * acknowledge it would extend a lease the log has ended) or lack one whose opening it
   * committed (to answer "gone" would end a live session on its client). It does not wait
   * for apply to catch up with the commit index otherwise: while a snapshot is encoded
   * applying is held, and keepalives must still be answered. A node that does not lead, or
   * stops leading before the answer, fails the whole request.
   */
  async keepAliveSessions(sessionIds: readonly bigint[]): Promise<Array<number | null>> {
    const host = this.host;
    host.requireLeader();
    const term = host.driver.core.term;
    const arrived = sessionIds.map((id) => host.keepAliveArrived(id));
    if (arrived.includes("notLeader")) throw notLeader(host.leaderHint());
    await this.confirmedInTerm(term);
    await host.leadershipApplied(term, host.electionTimeoutMs);
    return sessionIds.map((id, i) => {
      // Unknown on arrival may mean not applied yet then: with the earlier leaders' entries
      // applied, a session known now starts its TTL now (later than the arrival, so safe).
      if (arrived[i] === "notFound" && host.keepAliveArrived(id) !== "ok") return null;
      return this.liveTtl(id);
    });
  }

  /** Waits for a quorum round started now; fails as not leader unless it confirmed this node leads in `term`. */
  private async confirmedInTerm(term: number): Promise<void> {
    const host = this.host;
    await host.confirmLeadership();
    if (!host.isLeader || host.driver.core.term !== term) throw notLeader(host.leaderHint());
  }

  /** A kept-alive session's TTL, or null once it is gone or its expiry was proposed (it must not be revived). */
  private liveTtl(sessionId: bigint): number | null {
    const host = this.host;
    if (host.keeper.expiryProposed(sessionId)) return null;
    return host.state.sessionTtl(sessionId);
  }

  async closeSession(cmd: CloseSessionCommand): Promise<void> {
    const { outcome } = await this.host.propose(cmd);
    const ok = expectOk(outcome.result);
    if (ok.kind !== "sessionClosed") unexpected(ok, "CloseSession");
  }

  /**
   * Resolves with the Acquire's final answer: at once, or when its wait ends (a grant, a
   * timeout, a CancelWait), from whichever entry decides it. `detached` aborting (the call
   * went away) only stops listening: the wait goes on until CancelWait or its timeout, and a
   * retry with the same seq re-attaches to it. So does a node that stops leading: it fails
   * the call as retryable (its own log may not move again, as on a leader cut off from its
   * quorum), and the retry reaches the leader, which answers from its log.
   */
  async acquire(cmd: AcquireCommand, detached?: AbortSignal): Promise<AcquireAnswer> {
    const host = this.host;
    host.requireLeader();
    // Listen before proposing: the completion may apply in the same batch as the Acquire.
    let settle: (outcome: WaitOutcome) => void = () => undefined;
    const waited = new Promise<WaitOutcome>((resolve) => (settle = resolve));
    const handle = host.waiters.register(cmd.sessionId, cmd.seq, (o) => settle(o));
    const onDetached = (): void => {
      handle.drop();
      settle({ kind: "unavailable", reason: "the call was cancelled" });
    };
    if (detached?.aborted) onDetached();
    else detached?.addEventListener("abort", onDetached, { once: true });
    const stopWaiting = (reason: string): never => {
      throw new RequestFailure("ERROR_REASON_WAIT_DETACHED", `${reason}; the wait goes on: retry the Acquire with the same seq to re-attach`, host.leaderHint());
    };
    try {
      const proposed = host.propose(cmd);
      // A node that stops leading before its entry applies may never apply it (cut off).
      type Proposed = Awaited<typeof proposed>;
      const cutOff = waited.then(async (o): Promise<Proposed | string> => (o.kind === "unavailable" ? o.reason : await proposed));
      const first = await Promise.race<Proposed | string>([proposed, cutOff]);
      if (typeof first === "string") {
        proposed.catch(() => undefined);
        return stopWaiting(first);
      }
      let answer = first.outcome.result;
      if (answer.kind === "waiting") {
        const final = await waited;
        if (final.kind === "unavailable") return stopWaiting(final.reason);
        answer = final.answer;
      }
      return acquireAnswerOf(answer);
    } finally {
      handle.drop();
      detached?.removeEventListener("abort", onDetached);
    }
  }

  async cancelWait(cmd: CancelWaitCommand): Promise<CancelWaitResult> {
    const { outcome } = await this.host.propose(cmd);
    const ok = expectOk(outcome.result);
    switch (ok.kind) {
      case "cancelled":
        return { outcome: "cancelled" };
      case "granted":
        return { outcome: "granted", token: ok.token };
      case "notAcquired":
        return { outcome: "notAcquired" };
      default:
        return unexpected(ok, "CancelWait");
    }
  }

  async release(cmd: ReleaseCommand): Promise<void> {
    const { outcome } = await this.host.propose(cmd);
    const ok = expectOk(outcome.result);
    if (ok.kind !== "released") unexpected(ok, "Release");
  }

  /** A linearizable read on this node (a follower asks the leader for the read index). */
  async read<T>(query: (state: LockReader) => T): Promise<T> {
    return (await this.readAt(query)).value;
  }

  /** A read with the confirmed read index and the applied index it was answered at (≥ the read index). */
  async readAt<T>(query: (state: LockReader) => T): Promise<{ value: T; readIndex: number; applied: number }> {
    const readIndex = await this.host.linearizable();
    const state = this.host.state;
    return { value: query(state), readIndex, applied: state.appliedIndex };
  }
}
