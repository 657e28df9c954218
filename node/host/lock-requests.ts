// The node's one dispatcher of LockService calls (serve: a call's domain request in, its
// domain answer out), and the rules behind each call: writes on the leader only, checked
// against the replicated limits as they are proposed; keepalives confirmed by a quorum
// round that started after they arrived; a wait answered from the log on whichever node
// holds the call; reads after a ReadIndex on any node. The gRPC unary service and the
// Stream RPC (node/api) are adapters around serve, so these rules are written once.
// Every failure is a RequestFailure.
import type { CallHandlers, CallName, RequestOf, AnswerOf } from "../../proto/lock-calls.ts";
import type {
  AcquireRequest,
  CampaignAnswer,
  CancelWaitResult,
  DowngradeAnswer,
  LockHolderInfo,
  OpenSessionRequest,
  SequencedRequest,
  UpgradeAnswer,
} from "../../proto/lock-values.ts";
import { checkLockName } from "../../proto/names.ts";
import {
  commandOfCall,
  isError,
  type LockLimits,
  type AcquireAnswer,
  type AcquireCommand,
  type Answer,
  type CancelWaitCommand,
  type CloseSessionCommand,
  type DowngradeCommand,
  type ProclaimCommand,
  type ReleaseCommand,
  type UpgradeCommand,
} from "../lock/index.ts";
import type { WaitOutcome } from "./acquire-waiters.ts";
import { answerFailure, notLeader, RequestFailure } from "./failures.ts";
import type { LockReader, NodeHost } from "./node-host.ts";
import {
  checkAcquire,
  checkOpenSession,
  checkProclaim,
  checkUpgrade,
  checkWrite,
} from "./request-checks.ts";
import { answerRead } from "./read-answers.ts";
import { AccessGate } from "./access-gate.ts";
import { ANONYMOUS, encodeCaller, type Caller } from "../auth/caller.ts";
import type { Principal } from "../auth/access-state.ts";

/**
 * How a call arrived: `detached` aborts when the caller went away (a cancelled call, a
 * forgotten stream request); `sent` is the request's bytes as received, which a write's log
 * entry carries as they are.
 */
interface Arrival {
  readonly detached?: AbortSignal | undefined;
  readonly sent?: Uint8Array | undefined;
  /** Who sent it (as the node that took it authenticated the caller). */
  readonly caller: Caller;
}

/** The OK answer, or the failure its error answer stands for. */
function expectOk(answer: Answer): Exclude<Answer, { kind: "error" }> {
  if (isError(answer)) throw answerFailure(answer);
  return answer;
}

function unexpected(answer: Answer, what: string): never {
  throw new RequestFailure(
    "ERROR_REASON_INTERNAL",
    `unexpected answer "${answer.kind}" to ${what}`,
  );
}

/** An Acquire's final answer as apply decided it. */
export function acquireAnswerOf(answer: Answer): AcquireAnswer {
  const ok = expectOk(answer);
  if (ok.kind === "granted" || ok.kind === "notAcquired" || ok.kind === "cancelled") return ok;
  return unexpected(ok, "Acquire");
}

/**
 * A Campaign's final answer from its Acquire's: elected with the caller's value, or not (the
 * leader named without its value, which the kept answer does not hold: Leader reads it).
 */
export function campaignAnswerOf(answer: AcquireAnswer, value: string): CampaignAnswer {
  const leader = (h: LockHolderInfo, v: string) => ({
    sessionId: h.sessionId,
    clientName: h.clientName,
    token: h.token,
    sinceIndex: h.grantedIndex,
    value: v,
  });
  switch (answer.kind) {
    case "granted":
      return { kind: "elected", token: answer.token, leader: leader(answer.holder, value) };
    case "notAcquired":
      return { kind: "notElected", leader: answer.holder ? leader(answer.holder, "") : null };
    case "cancelled":
      return answer;
  }
}

/** An Upgrade's final answer from the Acquire-shaped one apply gives (the new exclusive grant, or the other holder). */
export function upgradeAnswerOf(answer: AcquireAnswer): UpgradeAnswer {
  switch (answer.kind) {
    case "granted":
      return { kind: "upgraded", token: answer.token };
    case "notAcquired":
      return { kind: "notUpgraded", holder: answer.holder };
    case "cancelled":
      return answer;
  }
}

/** A Downgrade's answer: the new grant. */
function downgradeAnswerOf(answer: Answer, mode: DowngradeAnswer["mode"]): DowngradeAnswer {
  const ok = expectOk(answer);
  if (ok.kind !== "granted") return unexpected(ok, "Downgrade");
  return { token: ok.token, mode };
}

/** The lock (or election) a request names, for the audit log; "" for none. */
function lockOf(request: object): string {
  const r = request as { lock?: unknown; election?: unknown };
  return typeof r.lock === "string" ? r.lock : typeof r.election === "string" ? r.election : "";
}

/** Refuses a read that names a lock the rules do not allow (writes are checked as they are proposed). */
function checkName(name: string, field: string): void {
  const problem = name === "" ? null : checkLockName(name);
  if (problem !== null)
    throw new RequestFailure("ERROR_REASON_INVALID_ARGUMENT", `${field}: ${problem}`);
}

/** A Campaign's command as the Acquire checks see it: its wait, its value as holder data. */
function campaignChecked(cmd: AcquireCommand): AcquireRequest {
  const { type: _t, wallMs: _w, mode: _m, ...rest } = cmd;
  return rest;
}

export class LockRequests {
  private readonly handlers: CallHandlers<Arrival>;
  /** Who a request comes from, and the checks of reads and keepalives (writes are checked at apply). */
  readonly gate: AccessGate;

  constructor(
    private readonly host: NodeHost,
    gate?: AccessGate,
  ) {
    this.gate =
      gate ??
      new AccessGate({
        tls: false,
        certIdentity: "cn",
        admins: [],
        state: () => host.state.accessState,
        wallMs: () => host.wallMs(),
        logger: host.logger,
      });
    this.handlers = this.callHandlers();
  }

  /**
   * Serves one call. `detached` aborts when the caller went away (a cancelled call, a
   * forgotten stream request): an Acquire then only stops listening. `caller`: who sent it
   * (anonymous, as on a cluster without TLS, when not given).
   */
  serve<N extends CallName>(
    name: N,
    request: RequestOf<N>,
    detached?: AbortSignal,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<AnswerOf<N>> {
    let served: Promise<AnswerOf<N>>;
    try {
      this.gate.spendRate(caller, name);
      served = this.handlers[name](request, { detached, sent, caller });
    } catch (error) {
      served = Promise.reject(error);
    }
    return served.catch((error: unknown) => {
      // Refusals decided at apply (rights, quotas, a revoked token) are audited here.
      if (error instanceof RequestFailure)
        this.gate.audit(caller, name, lockOf(request as object), error.reason, error.message);
      throw error;
    });
  }

  private callHandlers(): CallHandlers<Arrival> {
    const host = this.host;
    const read = <T>(caller: Caller, query: (state: LockReader, who: Principal) => T): Promise<T> =>
      this.read((state) => query(state, this.gate.principal(caller, "read")));
    return {
      OpenSession: (req, { sent, caller }) => this.openSession(req, sent, caller),
      KeepAlive: async (req, { caller }) => {
        const outcomes = await this.keepAlive(req.sessionIds, caller);
        return {
          sessions: req.sessionIds.map((sessionId, i) => {
            const o = outcomes[i] ?? null;
            return o === "denied"
              ? { sessionId, ttlMs: null, denied: true as const }
              : { sessionId, ttlMs: o };
          }),
        };
      },
      CloseSession: async (req, { sent, caller }) => {
        this.checkLimits(req, (limits) => checkWrite(req, limits));
        await this.closeSession(commandOfCall("CloseSession", req, host.wallMs()), sent, caller);
        return {};
      },
      // A caller that went away only stops listening: the wait itself goes on until the
      // client sends CancelWait or the wait times out.
      Acquire: async (req, { detached, sent, caller }) => {
        this.checkLimits(req, (limits) => checkAcquire(req, limits));
        return this.acquire(commandOfCall("Acquire", req, host.wallMs()), detached, sent, caller);
      },
      CancelWait: (req, { sent, caller }) =>
        this.cancelWait(commandOfCall("CancelWait", req, host.wallMs()), sent, caller),
      Release: async (req, { sent, caller }) => {
        this.checkLimits(req, (limits) => checkWrite(req, limits));
        await this.release(commandOfCall("Release", req, host.wallMs()), sent, caller);
        return {};
      },
      // A Campaign is an Acquire of the election's lead, waiting as an Acquire waits.
      Campaign: async (req, { detached, sent, caller }) => {
        const cmd = commandOfCall("Campaign", req, host.wallMs());
        this.checkLimits(req, (limits) => checkAcquire(campaignChecked(cmd), limits));
        return campaignAnswerOf(await this.acquire(cmd, detached, sent, caller), req.value);
      },
      Proclaim: async (req, { sent, caller }) => {
        this.checkLimits(req, (limits) => checkProclaim(req, limits));
        await this.proclaim(commandOfCall("Proclaim", req, host.wallMs()), sent, caller);
        return {};
      },
      Resign: async (req, { sent, caller }) => {
        this.checkLimits(req, (limits) => checkWrite(req, limits));
        await this.release(commandOfCall("Resign", req, host.wallMs()), sent, caller);
        return {};
      },
      // An Upgrade that must wait for other holders waits as an Acquire does.
      Upgrade: async (req, { detached, sent, caller }) => {
        this.checkLimits(req, (limits) => checkUpgrade(req, limits));
        const cmd = commandOfCall("Upgrade", req, host.wallMs());
        return upgradeAnswerOf(await this.acquire(cmd, detached, sent, caller));
      },
      Downgrade: async (req, { sent, caller }) => {
        this.checkLimits(req, (limits) => checkWrite(req, limits));
        return this.downgrade(commandOfCall("Downgrade", req, host.wallMs()), sent, caller);
      },
      // Reads are checked against the policy as it is at the read's index.
      Leader: (req, { caller }) =>
        read(caller, (state) => {
          this.gate.require(caller, "Leader", "read", req.election);
          return answerRead("Leader", req, state);
        }),
      GetLock: (req, { caller }) => {
        checkName(req.lock, "lock");
        return read(caller, (state) => {
          this.gate.require(caller, "GetLock", "read", req.lock);
          return answerRead("GetLock", req, state);
        });
      },
      ListLocks: (req, { caller }) => {
        checkName(req.prefix, "prefix");
        checkName(req.after, "after");
        return read(caller, (state) => {
          this.gate.require(caller, "ListLocks", "read", req.prefix);
          return answerRead("ListLocks", req, state);
        });
      },
      // A session is shown to its owner (and to admins). Another's, live or ended, and an id
      // that never existed answer alike (as a write naming them does), so ids cannot be
      // probed; NOT_FOUND is for the caller's own ended sessions.
      GetSession: (req, { caller }) =>
        read(caller, (state, who) => {
          const visible = state.whoseSession(req.sessionId, who.name) !== "foreign";
          if (!who.rights.admin && !visible)
            throw this.gate.refuse(
              caller,
              "GetSession",
              "",
              "not_owner",
              "ERROR_REASON_PERMISSION_DENIED",
              `session ${req.sessionId} is not a session of ${who.name === "" ? "an anonymous caller" : `identity ${who.name}`}`,
            );
          return answerRead("GetSession", req, state);
        }),
      ListSessions: (req, { caller }) =>
        read(caller, (state, who) => {
          const all = answerRead("ListSessions", req, state);
          if (who.rights.admin) return all;
          return {
            ...all,
            sessions: all.sessions.filter((s) =>
              state.accessState.owns(who.name, state.sessionOwner(s.sessionId) ?? ""),
            ),
          };
        }),
      GetLockHistory: (req, { caller }) => {
        checkName(req.lock, "lock");
        return read(caller, (state) => {
          this.gate.require(caller, "GetLockHistory", "read", req.lock);
          return answerRead("GetLockHistory", req, state);
        });
      },
      ValidateToken: (req, { caller }) => {
        checkName(req.lock, "lock");
        return read(caller, (state) => {
          this.gate.require(caller, "ValidateToken", "read", req.lock);
          return answerRead("ValidateToken", req, state);
        });
      },
    };
  }

  /**
   * The limits a write is checked with before it is proposed: the leader's (those its log
   * applies the write under). Elsewhere the write is not checked but refused as not led here:
   * a follower's state may lag the limits the write was, or will be, applied under, and a
   * retry refused by stale limits would take the place of its first answer.
   */
  private writeLimits(): LockLimits {
    this.host.requireLeader();
    return this.host.limitsForRequests();
  }

  /**
   * Checks a numbered write against the limits before it is proposed. A write they refuse
   * that may retry one the log already holds (see NodeHost.mayRetryLogged) is proposed all
   * the same: apply answers it with its first answer, or refuses it as the check would have.
   */
  private checkLimits(write: SequencedRequest, check: (limits: LockLimits) => void): void {
    const limits = this.writeLimits();
    try {
      check(limits);
    } catch (error) {
      if (!this.host.mayRetryLogged(write)) throw error;
    }
  }

  async openSession(
    req: OpenSessionRequest,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<{ sessionId: bigint; ttlMs: number }> {
    const host = this.host;
    const cmd = commandOfCall("OpenSession", req, host.wallMs());
    checkOpenSession(cmd.ttlMs, this.writeLimits());
    const { outcome } = await host.propose(cmd, sent, encodeCaller(caller));
    const ok = expectOk(outcome.result);
    if (ok.kind !== "sessionOpened") unexpected(ok, "OpenSession");
    return { sessionId: ok.sessionId, ttlMs: ok.ttlMs };
  }

  /**
   * Restarts each session's TTL on arrival and answers, after one quorum round that started
   * after the keepalives arrived confirmed this leadership in the same term, each id's TTL,
   * or null for a session that is gone (its client takes it for lost). The answer is
   * read from the applied state only once this leadership's first entry is applied: before
   * that the state may still hold a session whose end an earlier leader committed (to
   * acknowledge it would extend a lease the log has ended) or lack one whose opening it
   * committed (to answer "gone" would end a live session on its client). It does not wait
   * for apply to catch up with the commit index otherwise: while a snapshot is encoded
   * applying is held, and keepalives must still be answered. A node that does not lead, or
   * stops leading before the answer, fails the whole request.
   */
  async keepAlive(
    sessionIds: readonly bigint[],
    caller: Caller = ANONYMOUS,
  ): Promise<Array<number | null | "denied">> {
    const host = this.host;
    host.requireLeader();
    const term = host.term;
    // A session that is not the caller's, or whose identity lost every right it uses, is
    // not kept alive: its TTL does not restart, and it ends within one TTL.
    const who = this.gate.principal(caller, "KeepAlive");
    // A live session refused now (another identity's, or one whose identity lost its
    // rights) is not touched: its TTL must not restart, and it is answered refused. An id
    // not known yet may be a session this leader has not applied: it is decided after.
    const early = sessionIds.map((id) =>
      host.state.sessionOwner(id) === null ? null : this.keepAliveRefusal(id, who),
    );
    const arrived = sessionIds.map((id, i) =>
      early[i] === null ? host.keepAliveArrived(id) : "notFound",
    );
    if (arrived.includes("notLeader")) throw notLeader(host.leaderHint());
    await this.confirmedInTerm(term);
    await host.leadershipApplied(term, host.electionTimeoutMs);
    return sessionIds.map((id, i) => {
      const refusal = early[i] ?? this.keepAliveRefusal(id, who);
      if (refusal !== null) {
        if (refusal === "gone") return null;
        this.gate.audit(caller, "KeepAlive", "", "ERROR_REASON_PERMISSION_DENIED", refusal);
        return "denied";
      }
      // Unknown on arrival may mean not applied yet then: with the earlier leaders' entries
      // applied, a session known now starts its TTL now (later than the arrival, so safe).
      if (arrived[i] === "notFound" && host.keepAliveArrived(id) !== "ok") return null;
      return this.liveTtl(id);
    });
  }

  /**
   * Why a keepalive of `id` by `who` is refused: "gone" for the caller's own ended session
   * (as for anyone's in an open cluster's anonymous calls), a message for a session of
   * another identity (or one that never existed: ids cannot be probed) and for a session
   * whose identity lost every right it uses; null when it may be kept alive.
   */
  private keepAliveRefusal(id: bigint, who: Principal): string | null {
    const state = this.host.state;
    const whose = who.name === "" ? "an anonymous caller" : `identity ${who.name}`;
    switch (state.whoseSession(id, who.name)) {
      case "foreign":
        return `session ${id} is not a session of ${whose}`;
      case "ended":
        return "gone";
      case "unknown":
        return null;
      case "live":
        break;
    }
    if (who.rights.admin || state.accessState.policy === null) return null;
    const locks = state.sessionLocks(id);
    const rights = who.rights;
    const usable =
      locks.length === 0
        ? rights.mayAcquire
        : locks.some(
            (l) =>
              rights.allows("acquire:exclusive", l) ||
              rights.allows("acquire:shared", l) ||
              rights.allows("acquire:upgradeable", l),
          );
    return usable ? null : `${whose} lost every right session ${id} uses`;
  }

  /** Waits for a quorum round started now; fails as not leader unless it confirmed this node leads in `term`. */
  private async confirmedInTerm(term: number): Promise<void> {
    const host = this.host;
    await host.confirmLeadership();
    if (!host.isLeader || host.term !== term) throw notLeader(host.leaderHint());
  }

  /** A kept-alive session's TTL, or null once it is gone or its expiry was proposed (it must not be revived). */
  private liveTtl(sessionId: bigint): number | null {
    const host = this.host;
    if (host.keeper.expiryProposed(sessionId)) return null;
    return host.state.sessionTtl(sessionId);
  }

  async closeSession(
    cmd: CloseSessionCommand,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<void> {
    const { outcome } = await this.host.propose(cmd, sent, encodeCaller(caller));
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
  async acquire(
    cmd: AcquireCommand | UpgradeCommand,
    detached?: AbortSignal,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<AcquireAnswer> {
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
      throw new RequestFailure(
        "ERROR_REASON_WAIT_DETACHED",
        `${reason}; the wait goes on: retry the request with the same seq to re-attach`,
        host.leaderHint(),
      );
    };
    try {
      const proposed = host.propose(cmd, sent, encodeCaller(caller));
      // A node that stops leading before its entry applies may never apply it (cut off).
      type Proposed = Awaited<typeof proposed>;
      const cutOff = waited.then(async (o): Promise<Proposed | string> =>
        o.kind === "unavailable" ? o.reason : await proposed,
      );
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

  async cancelWait(
    cmd: CancelWaitCommand,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<CancelWaitResult> {
    const { outcome } = await this.host.propose(cmd, sent, encodeCaller(caller));
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

  async proclaim(
    cmd: ProclaimCommand,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<void> {
    const { outcome } = await this.host.propose(cmd, sent, encodeCaller(caller));
    const ok = expectOk(outcome.result);
    if (ok.kind !== "proclaimed") unexpected(ok, "Proclaim");
  }

  async downgrade(
    cmd: DowngradeCommand,
    sent?: Uint8Array,
    caller: Caller = ANONYMOUS,
  ): Promise<DowngradeAnswer> {
    const { outcome } = await this.host.propose(cmd, sent, encodeCaller(caller));
    return downgradeAnswerOf(outcome.result, cmd.mode);
  }

  async release(cmd: ReleaseCommand, sent?: Uint8Array, caller: Caller = ANONYMOUS): Promise<void> {
    const { outcome } = await this.host.propose(cmd, sent, encodeCaller(caller));
    const ok = expectOk(outcome.result);
    if (ok.kind !== "released") unexpected(ok, "Release");
  }

  /** A linearizable read on this node (a follower asks the leader for the read index). */
  async read<T>(query: (state: LockReader) => T): Promise<T> {
    return (await this.readAt(query)).value;
  }

  /** A read with the confirmed read index and the applied index it was answered at (≥ the read index). */
  async readAt<T>(
    query: (state: LockReader) => T,
  ): Promise<{ value: T; readIndex: number; applied: number }> {
    const readIndex = await this.host.linearizable();
    const state = this.host.state;
    return { value: query(state), readIndex, applied: state.appliedIndex };
  }
}
