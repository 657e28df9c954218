// Simulated lock clients: each is a client process running the real client library (a
// PalisadeClient whose Session, AckTracker and lock handles run on the process's own
// drifting clock, through the real Connection with its codec and failover rules, over the
// simulated network as encoded frames: sim-transport.ts). Each opens a session (kept alive by the library), acquires locks with
// and without waiting (sometimes giving up the wait), runs a fenced read-modify-write under
// the token and releases; it also pauses past its TTL and then acts with its old token,
// closes its session or crashes. It uses every lock kind through the library too: shared
// and exclusive grants of one lock (a read-heavy fenced counter: readers read under the
// shared-mode fence rule, writers increment), semaphore permits (a counter per slot),
// atomic multi-lock sets, holder data and hold limits; and upgradeable grants that it
// upgrades (at once, waiting, giving up) and exclusive ones it downgrades, on locks of their
// own (UP_LOCKS). Now and then it reads instead: GetLock or ValidateToken of
// one lock (checked per lock for linearizability), or ListLocks, ListSessions, GetSession
// (checked against the committed log), on any node. Everything the workload records for
// the checkers comes from what the library returned or reported.
import { PalisadeClient } from "../../client/client.ts";
import { Connection } from "../../client/connection.ts";
import {
  FailedPreconditionError,
  NotHolderError,
  OutcomeUnknownError,
  SessionNotFoundError,
  StaleTokenError,
} from "../../client/errors.ts";
import { isAnswer } from "../../client/lock-api.ts";
import type {
  AcquireOptions,
  LateGrantRelease,
  PendingModeChange,
  Session,
} from "../../client/session.ts";
import type {
  DowngradeMode,
  HoldLimitDeadline,
  LockGrantInfo,
  LockMode,
  LockTarget,
} from "../../client/types.ts";
import type { SeededRandom } from "../../node/util/rng.ts";
import type { ReleaseOutcome } from "../../verify/lock-model.ts";
import type { LockHistoryEvent } from "../../verify/lock-history.ts";
import { SimClientProcess } from "./client-process.ts";
import type { LockReader } from "../../node/host/node-host.ts";
import type { ReadAnswer, ReadCall } from "./checkers/reads.ts";
import type { SimAccess } from "./lock-access.ts";
import type { LockSim } from "./lock-sim.ts";
import { SimCallTransport, simClientAddress } from "./sim-transport.ts";
import type { AnswerOf } from "../../proto/lock-calls.ts";

/** Bound on clock-rate drift that the client deadline margin is computed for. */
export const RHO = 0.01;
/** Client deadline-check interval, part of the margin. */
export const CLIENT_TICK_MS = 50;
/** One attempt's wait, and how long a write keeps retrying by default, in the client's ms. */
const CALL_TIMEOUT_MS = 1_000;
const RETRY_BUDGET_MS = 2_000;
/**
 * Retry budgets a client may be given: some shorter than its TTL, so a write's outcome can
 * be unknown while its session lives on (the library must then settle it itself).
 */
const RETRY_BUDGETS_MS = [300, 600, RETRY_BUDGET_MS];

export type AcquireResult =
  /** `grants`: every lock's grant (one for a single lock); `hold`: the client's deadline of a hold limit. */
  | { kind: "granted"; token: bigint; grants: LockGrantInfo[]; hold?: HoldLimitDeadline }
  | { kind: "notGranted" }
  | { kind: "unknown" };

/** What an Acquire of the lock kinds asks for beyond its lock (absent: the exclusive lock, checked by its own model). */
export interface KindsRequest {
  mode?: LockMode;
  permits?: number;
  more?: LockTarget[];
  data?: string;
  holdMs?: number;
}

type AcquireEvent = Extract<LockHistoryEvent, { kind: "acquire" }>;

/**
 * How an Upgrade or a Downgrade ended, as far as its client knows: the new grant's token;
 * "kept" (not upgraded, cancelled, or refused while the grant went on: the old token is
 * released, harmlessly if it had ended after all); "ended" (the grant, or its session, was
 * gone); or "unknown" (no answer was learnt before the session ended).
 */
export type ModeChangeResult =
  { kind: "changed"; token: bigint } | { kind: "kept" } | { kind: "ended" } | { kind: "unknown" };

/** An answer saying the grant (or its session) is gone, rather than a refusal that leaves it. */
function grantGone(err: unknown): boolean {
  return (
    err instanceof NotHolderError ||
    err instanceof StaleTokenError ||
    err instanceof SessionNotFoundError
  );
}

/**
 * Locks recorded for the linearizability check: all but the upgradeable ones, whose
 * Upgrades and Downgrades the models (verify/) do not know. Those are checked per entry by
 * the grant rules, their reads against the committed log, their tokens at the resource.
 */
export function inHistory(lock: string): boolean {
  return !UP_LOCKS.includes(lock);
}

/** What a grant answer says beyond its token, as the models compare it: a single permit's slot, or a set's grants. */
function grantDetail(
  grants: readonly LockGrantInfo[],
  set: boolean,
): { slot?: number; grants?: Array<{ lock: string; token: bigint; slot?: number }> } {
  if (set)
    return {
      grants: grants.map((g) => ({
        lock: g.lock,
        token: g.token,
        ...(g.mode === "permit" ? { slot: g.slot ?? 0 } : {}),
      })),
    };
  const g = grants[0];
  return g?.mode === "permit" ? { slot: g.slot ?? 0 } : {};
}

export class SimLockClient {
  readonly proc: SimClientProcess;
  private readonly transport: SimCallTransport;
  private readonly client: PalisadeClient;
  session: Session | null = null;
  /** Locks the workload is working with now (acquiring, holding, releasing). */
  readonly busy = new Set<string>();
  /** The recorded Acquire of each seq of the session (a late grant names its seq). */
  private readonly acquires = new Map<number, AcquireEvent>();
  /** The release the library makes of each late grant, recorded when the grant was learnt, by lock and token. */
  private readonly lateReleases = new Map<string, Extract<LockHistoryEvent, { kind: "release" }>>();

  constructor(
    private readonly sim: LockSim,
    readonly endpoint: number,
    private readonly rng: SeededRandom,
    readonly ttlMs: number,
    drift: number,
    retryBudgetMs = RETRY_BUDGET_MS,
  ) {
    this.proc = new SimClientProcess(sim.c.sched, endpoint, drift);
    this.transport = new SimCallTransport(
      (from, to, frame, timeout) => sim.rpc(from, to, frame, timeout),
      this.proc,
      sim.observer((lock, acquireSeq, token) => this.lateGrantLearnt(lock, acquireSeq, token)),
    );
    const endpoints = sim.c.nodes.map((n) => simClientAddress(n.id));
    const connection = new Connection(
      { endpoints, callTimeoutMs: CALL_TIMEOUT_MS, retryBudgetMs },
      { transport: this.transport, clock: this.proc.clock },
    );
    let requests = 0;
    this.client = new PalisadeClient(
      {
        endpoints: ["simulated"],
        clientName: `client-${endpoint}`,
        callTimeoutMs: CALL_TIMEOUT_MS,
        retryBudgetMs,
        driftBound: RHO,
        deadlineTickMs: CLIENT_TICK_MS,
      },
      {
        lockApi: connection,
        clock: this.proc.clock,
        newRequestId: () => `c${endpoint}-${sim.opId()}-${++requests}`,
      },
    );
  }

  get crashed(): boolean {
    return this.proc.crashed;
  }

  crash(): void {
    this.proc.crashed = true;
  }

  sleep(localMs: number): Promise<void> {
    return this.proc.sleep(localMs);
  }

  /** True while the library trusts the session: open and before its own deadline. */
  sessionLive(): boolean {
    return !this.proc.crashed && this.session !== null && this.session.live;
  }

  /** Opens a session; the library's deadline counts from the first send of the request. */
  async open(): Promise<boolean> {
    let session: Session;
    try {
      session = await this.client.openSession({ ttlMs: this.ttlMs });
    } catch {
      return false;
    }
    this.session = session;
    const deadline = (): void =>
      this.sim.checker.clientDeadline(session.id, this.proc.virtualOf(session.deadline));
    deadline();
    session.onDeadlineExtended(deadline);
    session.onLateGrantReleased((late) => this.lateGrant(session.id, late));
    session.onLost((reason) => {
      if (reason.includes("no keepalive acknowledged")) this.sim.clientEvents.deadlinesPassed++;
    });
    return session.live;
  }

  /**
   * A CancelWait revealed that a given-up (or unknown) Acquire had been granted: that
   * Acquire did take effect (by now at the latest), and the library releases the grant at
   * once, so a Release of it is under way from now (its outcome is learnt from the
   * library's report, if it comes before the run ends).
   */
  private lateGrantLearnt(lock: string, acquireSeq: number, token: bigint): void {
    const session = this.session;
    if (session === null) return;
    // A lead that arrived after its candidate gave up: the library resigns it; elections are
    // checked by the grant rules and the observers, not by the locks' model.
    // So is a late grant of an upgradeable lock (or a late Upgrade, which CancelWait tells
    // the same way): the library releases the one, the task holds the other.
    if (ELECTIONS.includes(lock) || !inHistory(lock)) {
      this.sim.checker.tokenSeen(lock, token, session.id);
      return;
    }
    const now = this.sim.c.sched.now;
    const ev = this.acquires.get(acquireSeq);
    // The library releases every lock of the Acquire (a set's locks share its token).
    const locks = ev ? [ev.lock, ...(ev.more ?? []).map((t) => t.lock)] : [lock];
    if (locks.every((l) => this.lateReleases.has(`${l}:${token}`))) return;
    if (ev) {
      this.sim.omitted.delete(ev.id);
      // A permit's or a set's answer names slots and grants that CancelWait does not tell: left unknown.
      if (ev.out === undefined && ev.permits === undefined && ev.more === undefined) {
        ev.out = { kind: "granted", token };
        ev.ret = now;
      }
      for (const l of locks) this.sim.checker.tokenSeen(l, token, session.id);
    }
    for (const l of locks) {
      if (this.lateReleases.has(`${l}:${token}`)) continue;
      const release: Extract<LockHistoryEvent, { kind: "release" }> = {
        kind: "release",
        id: this.sim.opId(),
        lock: l,
        session: session.id,
        token,
        call: now,
        ret: null,
      };
      this.lateReleases.set(`${l}:${token}`, release);
      this.sim.history.push(release);
    }
  }

  /** The library's report of a late grant's release: its outcome, when it has one. */
  private lateGrant(_session: bigint, late: LateGrantRelease): void {
    this.sim.clientEvents.lateGrantsReleased++;
    const release = this.lateReleases.get(`${late.lock}:${late.token}`);
    if (!release) return;
    const out: ReleaseOutcome | null =
      late.outcome === "released"
        ? { kind: "ok" }
        : late.outcome === "notHolder"
          ? { kind: "failedPrecondition" }
          : late.outcome === "sessionNotFound"
            ? { kind: "sessionNotFound" }
            : null;
    // As for any write, NOT_FOUND (or any answer) to a release that was retried may follow its effect.
    if (
      out !== null &&
      late.releaseAnsweredNs !== null &&
      (out.kind === "ok" || out.kind === "failedPrecondition")
    ) {
      release.out = out;
      release.ret = this.virtualNs(late.releaseAnsweredNs);
    }
  }

  private virtualNs(ns: bigint): number {
    return this.proc.virtualOf(Number(ns) / 1e6);
  }

  /**
   * An Acquire through the library; an optional give-up (the library then sends CancelWait)
   * races the wait. With `kinds`, of a lock kind: recorded with its mode, permits and set
   * for the kinds' model, which needs every such Acquire, cancelled ones included.
   */
  async acquire(
    lock: string,
    waitMs: number,
    cancelAfterMs: number | null = null,
    kinds?: KindsRequest,
  ): Promise<AcquireResult> {
    const session = this.session!;
    const ev: AcquireEvent = {
      kind: "acquire",
      id: this.sim.opId(),
      lock,
      session: session.id,
      call: this.sim.c.sched.now,
      ret: null,
      ...(kinds
        ? {
            waits: waitMs > 0,
            ...(kinds.mode !== undefined ? { mode: kinds.mode } : {}),
            ...(kinds.permits !== undefined ? { permits: kinds.permits } : {}),
            ...(kinds.more !== undefined && kinds.more.length > 0 ? { more: kinds.more } : {}),
          }
        : {}),
    };
    const giveUp = new AbortController();
    if (cancelAfterMs !== null) this.proc.clock.setTimeout(() => giveUp.abort(), cancelAfterMs);
    const options: AcquireOptions = {
      waitMs,
      signal: giveUp.signal,
      ...(kinds?.mode !== undefined ? { mode: kinds.mode } : {}),
      ...(kinds?.permits !== undefined ? { permits: kinds.permits } : {}),
      ...(kinds?.more !== undefined && kinds.more.length > 0 ? { more: kinds.more } : {}),
      ...(kinds?.data !== undefined ? { data: kinds.data } : {}),
      ...(kinds?.holdMs !== undefined ? { holdMs: kinds.holdMs } : {}),
    };
    let pending;
    try {
      pending = session.startAcquire(lock, options);
    } catch {
      // Refused before it was sent (the session's deadline passed, too many writes in flight).
      return { kind: "notGranted" };
    }
    if (inHistory(lock)) {
      this.sim.history.push(ev);
      this.acquires.set(pending.seq, ev);
    }
    try {
      const result = await pending.result;
      if (result.cancelled) {
        // Granted before the give-up reached the log: recorded when the CancelWait answered so.
        if (result.lateToken !== undefined)
          this.lateGrantLearnt(lock, pending.seq, result.lateToken);
        else if (ev.out === undefined) {
          if (kinds) {
            // The kinds' model keeps every wait: this one left its queues (or never joined them).
            ev.out = { kind: "cancelled" };
            ev.ret = this.sim.c.sched.now;
          } else {
            // Cancelled before it was granted: it took no effect.
            this.sim.omitted.add(ev.id);
          }
        }
        return { kind: "notGranted" };
      }
      ev.ret = this.sim.c.sched.now;
      if (result.acquired && result.token !== undefined) {
        const grants = result.grants ?? [{ lock, token: result.token, mode: "exclusive" as const }];
        ev.out = {
          kind: "granted",
          token: result.token,
          ...grantDetail(grants, ev.more !== undefined),
        };
        for (const g of grants) this.sim.checker.tokenSeen(g.lock, g.token, session.id);
        return {
          kind: "granted",
          token: result.token,
          grants,
          ...(result.hold ? { hold: result.hold } : {}),
        };
      }
      ev.out = kinds
        ? {
            kind: "notAcquired",
            ...(result.blockedLock !== undefined ? { lock: result.blockedLock } : {}),
          }
        : {
            kind: "notAcquired",
            holderSession: result.holder?.sessionId ?? 0n,
            holderToken: result.holder?.token ?? 0n,
          };
      return { kind: "notGranted" };
    } catch (err) {
      // After a give-up the error is about the CancelWait, not the Acquire: its effect is unknown.
      if (giveUp.signal.aborted) return { kind: "unknown" };
      if (err instanceof SessionNotFoundError) {
        // A retry answered NOT_FOUND may have taken effect before the session ended (SPEC
        // G4): only an Acquire sent once and answered so certainly had no effect.
        if (this.sim.attemptsOf(session.id, pending.seq) === 1) {
          ev.ret = this.sim.c.sched.now;
          ev.out = { kind: "sessionNotFound" };
        }
        return { kind: "notGranted" };
      }
      if (isAnswer(err)) {
        // Another answer (a limit, a refusal): the Acquire took no effect.
        if (ev.out === undefined) this.sim.omitted.add(ev.id);
        return { kind: "notGranted" };
      }
      // No answer (or the session ended first): it may have taken effect or not.
      if (err instanceof OutcomeUnknownError) this.sim.clientEvents.unknownWrites++;
      return { kind: "unknown" };
    }
  }

  /**
   * A Campaign through the library, waiting up to `waitMs`; an optional give-up withdraws
   * the candidacy (a lead that arrives anyway is resigned by the library).
   */
  async campaign(
    election: string,
    value: string,
    waitMs: number,
    cancelAfterMs: number | null,
  ): Promise<AcquireResult> {
    const session = this.session!;
    const giveUp = new AbortController();
    if (cancelAfterMs !== null) this.proc.clock.setTimeout(() => giveUp.abort(), cancelAfterMs);
    let pending;
    try {
      pending = session.startCampaign(election, value, { waitMs, signal: giveUp.signal });
    } catch {
      return { kind: "notGranted" };
    }
    try {
      const result = await pending.result;
      if (!result.acquired || result.token === undefined) return { kind: "notGranted" };
      this.sim.checker.tokenSeen(election, result.token, session.id);
      return { kind: "granted", token: result.token, grants: result.grants ?? [] };
    } catch (err) {
      if (giveUp.signal.aborted || !isAnswer(err)) return { kind: "unknown" };
      return { kind: "notGranted" };
    }
  }

  /** A new value under the lead's token: "ok", "refused" (an answer), or "unknown". */
  async proclaim(election: string, token: bigint, value: string): Promise<WriteEnd> {
    try {
      await this.session!.proclaim(election, token, value);
      return "ok";
    } catch (err) {
      return isAnswer(err) ? "refused" : "unknown";
    }
  }

  /** Resign, naming a successor or not: "ok", "refused" (an answer), or "unknown". */
  async resign(election: string, token: bigint, successor?: bigint): Promise<WriteEnd> {
    try {
      await this.session!.release(election, token, {
        election: true,
        ...(successor !== undefined ? { successor } : {}),
      });
      return "ok";
    } catch (err) {
      return isAnswer(err) ? "refused" : "unknown";
    }
  }

  /**
   * An Upgrade of the upgradeable grant `token` through the library, waiting up to `waitMs`;
   * an optional give-up cancels the wait. An answer that did not come is learnt afterwards.
   */
  async upgrade(
    lock: string,
    token: bigint,
    waitMs: number,
    cancelAfterMs: number | null,
  ): Promise<ModeChangeResult> {
    const session = this.session!;
    const giveUp = new AbortController();
    if (cancelAfterMs !== null) this.proc.clock.setTimeout(() => giveUp.abort(), cancelAfterMs);
    let pending;
    try {
      pending = session.startUpgrade(lock, token, { waitMs, signal: giveUp.signal });
    } catch {
      // Refused before it was sent: nothing changed.
      return { kind: "kept" };
    }
    const answer = await this.finalAnswer(pending);
    if (answer === "ended" || answer === null) return this.keptOrUnknown(answer);
    if (answer.kind !== "upgraded") return { kind: "kept" };
    this.sim.checker.tokenSeen(lock, answer.token, session.id);
    return { kind: "changed", token: answer.token };
  }

  /**
   * A mode change's answer, learnt afterwards when it did not come; "ended" when the grant
   * was gone; null when nothing was learnt (another refusal, or the session ended).
   */
  private async finalAnswer<A>(pending: PendingModeChange<A>): Promise<A | "ended" | null> {
    try {
      return await pending.result;
    } catch (err) {
      if (isAnswer(err) && grantGone(err)) return "ended";
      if (err instanceof OutcomeUnknownError) this.sim.clientEvents.unknownWrites++;
      // Another answer left the grant as it was; without one the library learns it.
      return pending.settled;
    }
  }

  private keptOrUnknown(answer: "ended" | null): ModeChangeResult {
    if (answer === "ended") return { kind: "ended" };
    return this.sessionLive() ? { kind: "kept" } : { kind: "unknown" };
  }

  /** A Downgrade of the exclusive grant `token` to `mode` through the library; an answer that did not come is learnt afterwards. */
  async downgrade(lock: string, token: bigint, mode: DowngradeMode): Promise<ModeChangeResult> {
    const session = this.session!;
    let pending;
    try {
      pending = session.startDowngrade(lock, token, mode);
    } catch {
      return { kind: "kept" };
    }
    const answer = await this.finalAnswer(pending);
    if (answer === "ended" || answer === null) return this.keptOrUnknown(answer);
    this.sim.checker.tokenSeen(lock, answer.token, session.id);
    return { kind: "changed", token: answer.token };
  }

  /** Whether the client may still trust a grant: its session is live and its hold limit (if any) has not passed. */
  grantTrusted(hold: HoldLimitDeadline | undefined): boolean {
    return this.sessionLive() && (hold === undefined || this.session!.holdTimeLeftMs(hold) > 0);
  }

  /** A Release through the session; null when its outcome stays unknown (the library then goes on in the background). */
  async release(lock: string, token: bigint): Promise<ReleaseOutcome | null> {
    const session = this.session!;
    const ev: Extract<LockHistoryEvent, { kind: "release" }> = {
      kind: "release",
      id: this.sim.opId(),
      lock,
      session: session.id,
      token,
      call: this.sim.c.sched.now,
      ret: null,
    };
    // The library takes a seq only for a write it sends: one refused before that took no effect.
    const seq = session.peekNextSeq();
    const sending = session.release(lock, token);
    if (session.peekNextSeq() === seq) {
      await sending.catch(() => undefined);
      return null;
    }
    if (inHistory(lock)) this.sim.history.push(ev);
    let out: ReleaseOutcome | null;
    try {
      await sending;
      out = { kind: "ok" };
    } catch (err) {
      if (
        err instanceof StaleTokenError ||
        err instanceof NotHolderError ||
        err instanceof FailedPreconditionError
      )
        out = { kind: "failedPrecondition" };
      // As for an Acquire: NOT_FOUND to a retry may follow an effect.
      else if (err instanceof SessionNotFoundError)
        out = this.sim.attemptsOf(session.id, seq) === 1 ? { kind: "sessionNotFound" } : null;
      else if (isAnswer(err)) {
        // Another answer (a limit): it took no effect.
        this.sim.omitted.add(ev.id);
        return null;
      } else {
        // No answer (or the session ended first): it may have taken effect or not.
        if (err instanceof OutcomeUnknownError) this.sim.clientEvents.unknownWrites++;
        out = null;
      }
    }
    if (out === null) return null;
    ev.ret = this.sim.c.sched.now;
    ev.out = out;
    return out;
  }

  /** Closes the session (best effort when `once`). */
  async close(): Promise<void> {
    if (this.session === null || this.proc.crashed) return;
    await this.session.close().catch(() => undefined);
  }

  /**
   * A read, retried until answered or `giveUpMs` (local) passed; null if unanswered.
   * GetLock and ValidateToken go into the per-lock history; every answered read is
   * recorded for the check against the committed log.
   */
  async read(read: ReadCall, giveUpMs = 1000): Promise<ReadAnswer | undefined> {
    const call = this.sim.c.sched.now;
    const id = this.sim.opId();
    type PerLockEvent = Extract<LockHistoryEvent, { kind: "read" | "validate" }>;
    const perLock =
      (read.name === "GetLock" || read.name === "ValidateToken") && inHistory(read.request.lock);
    const ev: PerLockEvent | null = !perLock
      ? null
      : read.name === "GetLock"
        ? { kind: "read", id, lock: read.request.lock, call, ret: null }
        : read.name === "ValidateToken"
          ? {
              kind: "validate",
              id,
              lock: read.request.lock,
              token: read.request.token,
              call,
              ret: null,
            }
          : null;
    if (ev) this.sim.history.push(ev);
    const answer = await this.readAnswer(read, giveUpMs);
    if (answer === undefined || this.proc.crashed) return undefined;
    const ret = this.sim.c.sched.now;
    this.sim.reads.record({ client: this.endpoint, read, call, ret, answer });
    if (ev?.kind === "read" && read.name === "GetLock") {
      const holder = (answer as AnswerOf<"GetLock"> | null)?.holder;
      ev.out = { kind: "read", holder: holder?.sessionId ?? null, token: holder?.token ?? null };
      ev.ret = ret;
    } else if (ev?.kind === "validate" && read.name === "ValidateToken") {
      ev.out = {
        kind: "validated",
        valid: (answer as AnswerOf<"ValidateToken"> | null)?.valid === true,
      };
      ev.ret = ret;
    }
    return answer;
  }

  /**
   * A read's answer through a connection that starts at a node picked at random (so
   * followers serve reads through the leader's read index too), retried through the
   * failover rules; null for a session the cluster does not have, undefined if unanswered.
   */
  private async readAnswer(read: ReadCall, giveUpMs: number): Promise<ReadAnswer | undefined> {
    const order = this.sim.c.nodes.map((n) => n.id);
    for (let i = order.length - 1; i > 0; i--) {
      const j = this.rng.int(0, i);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const connection = new Connection(
      {
        endpoints: order.map(simClientAddress),
        callTimeoutMs: CALL_TIMEOUT_MS,
        retryBudgetMs: giveUpMs,
      },
      { transport: this.transport, clock: this.proc.clock },
    );
    try {
      return await connection.call(read.name, () => read.request as never);
    } catch (err) {
      return err instanceof SessionNotFoundError ? null : undefined;
    }
  }

  /** Stops the whole process for `localMs` (no keepalive, no timer, no answer seen meanwhile). */
  async pause(localMs: number): Promise<void> {
    this.proc.pause(localMs);
    await this.proc.sleep(1);
  }
}

export interface WorkloadStats {
  ops: number;
  pauses: number;
  crashes: number;
  unknown: number;
  reads: number;
  /** Acquires of each lock kind (a set counts once), and of those with holder data or a hold limit. */
  sharedAcquires: number;
  exclusiveKindAcquires: number;
  permitAcquires: number;
  setAcquires: number;
  dataAcquires: number;
  holdLimitAcquires: number;
  campaigns: number;
  leads: number;
  proclaims: number;
  handoffsAsked: number;
  /** Upgradeable Acquires; Upgrades asked (and of them, given up), granted as the client learnt; Downgrades asked. */
  upgradeableAcquires: number;
  upgradesAsked: number;
  upgradesGivenUp: number;
  upgradesLearnt: number;
  downgradesAsked: number;
}

/** How a write of an election task ended, as far as its client knows. */
type WriteEnd = "ok" | "refused" | "unknown";

/** The elections the election tasks campaign for. */
export const ELECTIONS = ["election-1", "election-2"];
/** Of the lock tasks, the share that campaigns; of the leads, the share handed to a named candidate. */
const ELECTION_SHARE = 0.2;
const HANDOFF_SHARE = 0.7;

/** The locks the kinds' tasks use: a lock taken shared or exclusive, semaphores (name, permits), and the locks of sets. */
const RW_LOCKS = ["rw-1", "rw-2"];
const SEMAPHORES: ReadonlyArray<readonly [string, number]> = [
  ["sem-1", 2],
  ["sem-2", 3],
];
const SET_LOCKS = ["set-a", "set-b", "set-c"];
/** Of the lock tasks, the share that uses a kind, and of a shared lock's Acquires, the share of readers. */
const KINDS_SHARE = 0.45;
const READER_SHARE = 0.75;
/**
 * Locks taken upgradeable, shared or exclusive, whose holders upgrade and downgrade (most
 * tasks meet at the first, so Upgrades wait for readers and readers queue behind them), and
 * of the kinds' tasks, the share that works with them.
 */
const UP_LOCKS = ["up-1", "up-2"];
const UPGRADE_SHARE = 0.6;

/** Per lock: operations in progress, and outcomes left unknown (kept small for the checker). */
const MAX_ACTIVE_PER_LOCK = 4;
const MAX_UNKNOWN_PER_LOCK = 2;

export class LockWorkload {
  readonly stats: WorkloadStats = {
    ops: 0,
    pauses: 0,
    crashes: 0,
    unknown: 0,
    reads: 0,
    sharedAcquires: 0,
    exclusiveKindAcquires: 0,
    permitAcquires: 0,
    setAcquires: 0,
    dataAcquires: 0,
    holdLimitAcquires: 0,
    campaigns: 0,
    leads: 0,
    proclaims: 0,
    handoffsAsked: 0,
    upgradeableAcquires: 0,
    upgradesAsked: 0,
    upgradesGivenUp: 0,
    upgradesLearnt: 0,
    downgradesAsked: 0,
  };
  /** Increments admitted while their client still trusted its lock, per resource key. */
  readonly acknowledged = new Map<string, number>();
  private stopped = false;
  private readonly names: string[] = [];
  private readonly active = new Map<string, number>();
  private readonly unknown = new Map<string, number>();
  private readonly lockCount: number;
  private readonly completions: number[] = [];
  /** Sessions opened, and the latest grant seen per lock: what reads ask about. */
  private readonly sessions: bigint[] = [];
  private readonly lastToken = new Map<string, bigint>();
  /** Each session's client. */
  private readonly bySession = new Map<bigint, SimLockClient>();
  /** In a run with identities: calls on another tenant's sessions, now and then. */
  access: SimAccess | null = null;

  constructor(
    private readonly sim: LockSim,
    private readonly rng: SeededRandom,
    private readonly clients: number,
  ) {
    this.lockCount = rng.int(2, 3);
  }

  start(): void {
    for (let i = 0; i < this.clients; i++) void this.runSlot(100 + i);
  }

  stop(): void {
    this.stopped = true;
  }

  completedSince(t: number): number {
    return this.completions.filter((x) => x >= t).length;
  }

  /** During the fault phase, now and then cuts a client off from some nodes. */
  cutClientsEvery(meanMs: number, until: number): void {
    const c = this.sim.c;
    const loop = (): void => {
      if (c.sched.now >= until) return;
      const ids = c.nodes.map((n) => n.id).filter(() => this.rng.chance(0.4));
      if (ids.length > 0) this.sim.cutClient(100 + this.rng.int(0, this.clients - 1), ids);
      c.sched.after(this.rng.int(1, meanMs * 2), "client-cut", loop);
    };
    c.sched.after(this.rng.int(1, meanMs * 2), "client-cut", loop);
  }

  private pickLock(): string | null {
    let usable = this.names.filter((n) => (this.unknown.get(n) ?? 0) < MAX_UNKNOWN_PER_LOCK);
    while (usable.length < this.lockCount) {
      const name = `lock-${this.names.length + 1}`;
      this.names.push(name);
      usable = [...usable, name];
    }
    const free = usable.filter((n) => (this.active.get(n) ?? 0) < MAX_ACTIVE_PER_LOCK);
    return free.length === 0 ? null : this.rng.pick(free);
  }

  private bump(map: Map<string, number>, key: string, by: number): void {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  private async runSlot(endpoint: number): Promise<void> {
    const rng = this.rng;
    const driftMax = this.sim.c.opts.driftMax;
    while (!this.stopped) {
      const client = new SimLockClient(
        this.sim,
        endpoint,
        rng,
        rng.int(300, 1000),
        driftMax > 0 ? (rng.next() * 2 - 1) * driftMax : 0,
        rng.pick(RETRY_BUDGETS_MS),
      );
      if (await client.open()) {
        this.sessions.push(client.session!.id);
        this.bySession.set(client.session!.id, client);
        while (!this.stopped && client.sessionLive()) {
          if (this.access !== null && rng.chance(0.04)) {
            const wrong = await this.access.intrude(endpoint, this.bySession);
            if (wrong !== null) this.sim.c.checker.fail(`t=${this.sim.c.sched.now} ${wrong}`);
            continue;
          }
          const r = rng.next();
          if (r < 0.03) {
            client.crash();
            this.stats.crashes++;
            break;
          }
          if (r < 0.06) {
            await client.close();
            break;
          }
          if (r < 0.09) {
            this.stats.pauses++;
            await client.pause(client.ttlMs * (1.2 + rng.next()));
            continue;
          }
          if (r < 0.24) await this.readTask(client);
          else if (rng.chance(ELECTION_SHARE)) await this.electionTask(client);
          else if (rng.chance(KINDS_SHARE)) {
            if (rng.chance(UPGRADE_SHARE)) await this.upgradeTask(client);
            else await this.kindsTask(client);
          } else await this.lockTask(client);
          await client.sleep(rng.int(0, 40));
        }
        // A lost session is closed best-effort (the library does so itself); a crashed client just vanishes.
        if (!client.crashed && !this.stopped) await client.close();
      }
      if (client.crashed)
        await new Promise<void>((resolve) =>
          this.sim.c.sched.after(rng.int(10, 200), "slot", resolve),
        );
      else await client.sleep(rng.int(10, 200));
      // This process is done: the next session of the slot runs in a new one.
      client.crash();
    }
  }

  /** One read: of a lock in use (counted among its operations) or across locks. */
  private async readTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    if (rng.chance(0.5)) {
      const lock = rng.chance(KINDS_SHARE) ? this.pickKindsLock() : this.pickLock();
      if (lock === null) {
        await client.sleep(20);
        return;
      }
      const token = this.lastToken.get(lock) ?? BigInt(rng.int(1, 100));
      this.bump(this.active, lock, 1);
      this.stats.reads++;
      await client.read(
        rng.chance(0.5)
          ? { name: "GetLock", request: { lock, waitersAfterIndex: 0n } }
          : { name: "ValidateToken", request: { lock, token } },
      );
      this.bump(this.active, lock, -1);
      return;
    }
    const k = rng.int(0, 2);
    const read: ReadCall =
      k === 0
        ? {
            name: "ListLocks",
            request: { prefix: rng.pick(["", "lock-", "lock-1", "none-"]), after: "", limit: 0 },
          }
        : k === 1
          ? { name: "ListSessions", request: { after: 0n, limit: 0 } }
          : {
              name: "GetSession",
              request: {
                sessionId: rng.chance(0.5) ? client.session!.id : rng.pick(this.sessions),
              },
            };
    this.stats.reads++;
    await client.read(read);
  }

  private async lockTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    const lock = this.pickLock();
    // As PalisadeClient.lock() does: no second Acquire of a name whose last one is still being
    // settled (it may turn out granted, and two tasks must never share one grant).
    if (lock === null || client.session!.unsettledAcquire(lock) !== undefined) {
      await client.sleep(20);
      return;
    }
    const waitMs = rng.chance(0.5) ? rng.int(30, 500) : 0;
    const cancelAfter = waitMs > 0 && rng.chance(0.25) ? rng.int(5, waitMs) : null;
    this.bump(this.active, lock, 1);
    client.busy.add(lock);
    this.stats.ops++;
    const res = await client.acquire(lock, waitMs, cancelAfter);
    if (res.kind === "unknown") {
      this.bump(this.unknown, lock, 1);
      this.stats.unknown++;
    } else {
      this.completions.push(this.sim.c.sched.now);
    }
    if (res.kind === "granted") {
      this.lastToken.set(lock, res.token);
      if (rng.chance(0.15)) {
        this.stats.reads++;
        await client.read({ name: "ValidateToken", request: { lock, token: res.token } });
      }
      const access = { key: lock, token: res.token, session: client.session!.id };
      const value = this.sim.resource.read(access);
      if (value !== null) {
        if (rng.chance(0.1)) {
          // Paused past its TTL: it then writes with its old token, as a paused process would.
          this.stats.pauses++;
          await client.pause(client.ttlMs * (1.3 + rng.next()));
        }
        const trusted = client.sessionLive();
        if (this.sim.resource.increment(access, value) && trusted)
          this.bump(this.acknowledged, lock, 1);
      }
      if (client.sessionLive()) {
        this.stats.ops++;
        const out = await client.release(lock, res.token);
        if (out === null && !client.sessionLive()) {
          this.bump(this.unknown, lock, 1);
          this.stats.unknown++;
        } else {
          this.completions.push(this.sim.c.sched.now);
        }
      }
    }
    client.busy.delete(lock);
    this.bump(this.active, lock, -1);
  }

  /**
   * One election task: campaign (waiting or not, sometimes giving up); once leading, write
   * "I lead" under the token to the fenced resource (sometimes after a pause past the TTL,
   * as a paused leader would), perhaps proclaim a new value, then resign, now and then
   * naming a waiting candidate as successor.
   */
  private async electionTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    // Most campaigns meet at one election, so candidates queue and leads are handed over.
    const election = rng.chance(0.8) ? (ELECTIONS[0] as string) : rng.pick(ELECTIONS);
    const session = client.session!;
    if (client.busy.has(election) || session.unsettledAcquire(election) !== undefined) {
      await client.sleep(20);
      return;
    }
    client.busy.add(election);
    this.stats.campaigns++;
    const waitMs = rng.chance(0.8) ? rng.int(100, 600) : 0;
    const cancelAfter = waitMs > 0 && rng.chance(0.2) ? rng.int(5, waitMs) : null;
    const res = await client.campaign(election, `c${client.endpoint}`, waitMs, cancelAfter);
    if (res.kind === "granted") {
      this.stats.leads++;
      const access = { key: election, token: res.token, session: session.id };
      const value = this.sim.resource.read(access);
      if (value !== null) {
        if (rng.chance(0.1)) {
          this.stats.pauses++;
          await client.pause(client.ttlMs * (1.3 + rng.next()));
        }
        const trusted = client.sessionLive();
        if (this.sim.resource.increment(access, value) && trusted)
          this.bump(this.acknowledged, election, 1);
      }
      if (client.sessionLive() && rng.chance(0.4)) {
        this.stats.proclaims++;
        await client.proclaim(election, res.token, `c${client.endpoint}-${this.stats.proclaims}`);
      }
      // Leads a while, so that candidates queue up behind it.
      await client.sleep(rng.int(20, 150));
      if (client.sessionLive()) {
        // A candidate waiting now (by the committed state; it may have left by the time the
        // Resign applies, and is then refused as not waiting).
        const waiting = this.sim.committedState.getLock(election).waiters.map((w) => w.sessionId);
        const successor =
          waiting.length > 0 && rng.chance(HANDOFF_SHARE) ? rng.pick(waiting) : undefined;
        if (successor !== undefined) this.stats.handoffsAsked++;
        let resigned = await client.resign(election, res.token, successor);
        // No answer: the library goes on with the same seq; resigning again waits for that
        // one's answer (which may be a refusal of the successor).
        for (let i = 0; i < 5 && resigned === "unknown" && client.sessionLive(); i++)
          resigned = await client.resign(election, res.token, successor);
        // That candidate was no longer waiting: the lead is still held; resign it plainly.
        if (resigned === "refused" && successor !== undefined && client.sessionLive())
          await client.resign(election, res.token);
      }
    }
    client.busy.delete(election);
  }

  /** A lock of the kinds' tasks for a read, if one is not too busy. */
  private pickKindsLock(): string | null {
    const names = [...RW_LOCKS, ...SEMAPHORES.map(([n]) => n), ...SET_LOCKS, ...UP_LOCKS].filter(
      (n) => (this.active.get(n) ?? 0) < MAX_ACTIVE_PER_LOCK,
    );
    return names.length === 0 ? null : this.rng.pick(names);
  }

  /** What the next kinds' task asks for: its lock, the request's kinds, and the kind it counts as. */
  private drawKinds(client: SimLockClient): { lock: string; kinds: KindsRequest } {
    const rng = this.rng;
    const kinds: KindsRequest = {};
    let lock: string;
    const which = rng.int(0, 3);
    if (which <= 1) {
      lock = rng.pick(RW_LOCKS);
      kinds.mode = rng.chance(READER_SHARE) ? "shared" : "exclusive";
    } else if (which === 2) {
      const [name, permits] = rng.pick(SEMAPHORES);
      lock = name;
      kinds.permits = permits;
    } else {
      // Two or three of the set's locks, in any order, each shared or exclusive.
      const names = [...SET_LOCKS];
      for (let i = names.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [names[i], names[j]] = [names[j] as string, names[i] as string];
      }
      const chosen = names
        .slice(0, rng.int(2, 3))
        .map((n): LockTarget => (rng.chance(0.4) ? { lock: n, mode: "shared" } : { lock: n }));
      const [first, ...more] = chosen as [LockTarget, ...LockTarget[]];
      lock = first.lock;
      if (first.mode !== undefined) kinds.mode = first.mode;
      kinds.more = more;
    }
    if (rng.chance(0.3)) kinds.data = `client ${client.endpoint} task ${this.stats.ops}`;
    if (rng.chance(0.2)) kinds.holdMs = rng.int(100, 600);
    return { lock, kinds };
  }

  /**
   * One task of the lock kinds: acquire (waiting or not, sometimes giving up), then under
   * each grant a fenced access (a shared grant reads under the shared-mode rule, an
   * exclusive grant or a permit increments its counter, a permit's per slot), then release
   * every lock of it while the grant is trusted.
   */
  private async kindsTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    const { lock, kinds } = this.drawKinds(client);
    const names = [lock, ...(kinds.more ?? []).map((t) => t.lock)];
    const session = client.session!;
    if (
      names.some(
        (n) =>
          (this.active.get(n) ?? 0) >= MAX_ACTIVE_PER_LOCK ||
          (this.unknown.get(n) ?? 0) >= MAX_UNKNOWN_PER_LOCK ||
          session.unsettledAcquire(n) !== undefined,
      )
    ) {
      await client.sleep(20);
      return;
    }
    const waitMs = rng.chance(0.5) ? rng.int(30, 500) : 0;
    const cancelAfter = waitMs > 0 && rng.chance(0.25) ? rng.int(5, waitMs) : null;
    for (const n of names) {
      this.bump(this.active, n, 1);
      client.busy.add(n);
    }
    this.stats.ops++;
    if (kinds.more) this.stats.setAcquires++;
    else if (kinds.permits !== undefined) this.stats.permitAcquires++;
    else if (kinds.mode === "shared") this.stats.sharedAcquires++;
    else this.stats.exclusiveKindAcquires++;
    if (kinds.data !== undefined) this.stats.dataAcquires++;
    if (kinds.holdMs !== undefined) this.stats.holdLimitAcquires++;
    const res = await client.acquire(lock, waitMs, cancelAfter, kinds);
    if (res.kind === "unknown") {
      for (const n of names) this.bump(this.unknown, n, 1);
      this.stats.unknown++;
    } else {
      this.completions.push(this.sim.c.sched.now);
    }
    if (res.kind === "granted") {
      for (const g of res.grants) await this.fencedAccess(client, g, res.hold);
      for (const g of res.grants) {
        if (!client.sessionLive()) break;
        this.stats.ops++;
        const out = await client.release(g.lock, g.token);
        if (out === null && !client.sessionLive()) {
          this.bump(this.unknown, g.lock, 1);
          this.stats.unknown++;
        } else {
          this.completions.push(this.sim.c.sched.now);
        }
      }
    }
    for (const n of names) {
      client.busy.delete(n);
      this.bump(this.active, n, -1);
    }
  }

  /** The fenced access under one grant of a kinds' task: a shared read, or a read-modify-write (per slot for a permit). */
  private async fencedAccess(
    client: SimLockClient,
    g: LockGrantInfo,
    hold: HoldLimitDeadline | undefined,
  ): Promise<void> {
    const key = g.mode === "permit" ? `${g.lock}#${g.slot ?? 0}` : g.lock;
    const access = { key, token: g.token, session: client.session!.id };
    // An upgradeable holder only reads (beside readers): it writes once upgraded.
    if (g.mode === "shared" || g.mode === "upgradeable") {
      this.sim.resource.readShared(access);
      return;
    }
    const value = this.sim.resource.read(access);
    if (value === null) return;
    if (this.rng.chance(0.1)) {
      // Paused past its TTL (or its hold limit): it then writes with its old token.
      this.stats.pauses++;
      await client.pause(client.ttlMs * (1.3 + this.rng.next()));
    }
    const trusted = client.grantTrusted(hold);
    if (this.sim.resource.increment(access, value) && trusted) this.bump(this.acknowledged, key, 1);
  }

  /**
   * One task of an upgradeable lock: acquire it upgradeable, shared or exclusive (waiting or
   * not, sometimes giving up), with the fenced access of that grant; an upgradeable holder
   * then often upgrades (at once, waiting, sometimes giving up the wait) and, upgraded,
   * writes under the exclusive token; an exclusive holder often downgrades to shared or
   * upgradeable and reads again; then it releases whichever grant it holds by then.
   */
  private async upgradeTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    const lock = rng.chance(0.8) ? (UP_LOCKS[0] as string) : rng.pick(UP_LOCKS);
    const session = client.session!;
    if (
      (this.active.get(lock) ?? 0) >= MAX_ACTIVE_PER_LOCK ||
      client.busy.has(lock) ||
      session.unsettledAcquire(lock) !== undefined
    ) {
      await client.sleep(20);
      return;
    }
    const r = rng.next();
    const mode: LockMode = r < 0.4 ? "upgradeable" : r < 0.85 ? "shared" : "exclusive";
    const kinds: KindsRequest = { mode };
    if (rng.chance(0.2)) kinds.data = `client ${client.endpoint} task ${this.stats.ops}`;
    if (rng.chance(0.15)) kinds.holdMs = rng.int(150, 600);
    const waitMs = rng.chance(0.6) ? rng.int(30, 500) : 0;
    const cancelAfter = waitMs > 0 && rng.chance(0.2) ? rng.int(5, waitMs) : null;
    this.bump(this.active, lock, 1);
    client.busy.add(lock);
    this.stats.ops++;
    if (mode === "upgradeable") this.stats.upgradeableAcquires++;
    else if (mode === "shared") this.stats.sharedAcquires++;
    else this.stats.exclusiveKindAcquires++;
    if (kinds.data !== undefined) this.stats.dataAcquires++;
    if (kinds.holdMs !== undefined) this.stats.holdLimitAcquires++;
    const res = await client.acquire(lock, waitMs, cancelAfter, kinds);
    if (res.kind === "unknown") this.stats.unknown++;
    else this.completions.push(this.sim.c.sched.now);
    if (res.kind === "granted") {
      // The grant held now; null once it is gone (or which one is held is not known).
      let held: LockGrantInfo | null = { lock, token: res.token, mode };
      await this.fencedAccess(client, held, res.hold);
      // Held a while (a reader longer), so that readers and Upgrades overlap.
      await client.sleep(mode === "shared" ? rng.int(100, 800) : rng.int(0, 200));
      if (mode === "upgradeable" && rng.chance(0.7) && client.sessionLive()) {
        const upWait = rng.chance(0.3) ? 0 : rng.int(30, 600);
        const upCancel = upWait > 0 && rng.chance(0.25) ? rng.int(5, upWait) : null;
        this.stats.ops++;
        this.stats.upgradesAsked++;
        if (upCancel !== null) this.stats.upgradesGivenUp++;
        const up = await client.upgrade(lock, held.token, upWait, upCancel);
        this.completions.push(this.sim.c.sched.now);
        if (up.kind === "changed") {
          this.stats.upgradesLearnt++;
          held = { lock, token: up.token, mode: "exclusive" };
          // A hold limit counts from the new grant on the leader: the old deadline comes first.
          await this.fencedAccess(client, held, res.hold);
        } else if (up.kind !== "kept") held = null;
      }
      if (held?.mode === "exclusive" && rng.chance(0.5) && client.sessionLive()) {
        const to: DowngradeMode = rng.chance(0.5) ? "shared" : "upgradeable";
        this.stats.ops++;
        this.stats.downgradesAsked++;
        const down = await client.downgrade(lock, held.token, to);
        this.completions.push(this.sim.c.sched.now);
        if (down.kind === "changed") {
          held = { lock, token: down.token, mode: to };
          await this.fencedAccess(client, held, res.hold);
        } else if (down.kind !== "kept") held = null;
      }
      if (held !== null && client.sessionLive()) {
        this.stats.ops++;
        const out = await client.release(lock, held.token);
        if (out === null && !client.sessionLive()) this.stats.unknown++;
        else this.completions.push(this.sim.c.sched.now);
      }
    }
    client.busy.delete(lock);
    this.bump(this.active, lock, -1);
  }

  /**
   * Locks held by a session whose client is alive, still trusts its session (so it keeps
   * it alive, and the lock stays held for as long), and neither works with the lock nor
   * still settles an Acquire or a Release of it: grants nobody will ever release.
   */
  orphanedGrants(state: LockReader): string[] {
    const out: string[] = [];
    for (const lock of state.listLocks({ limit: 1_000_000 }).locks) {
      for (const holder of lock.holders ?? (lock.holder ? [lock.holder] : [])) {
        const client = this.bySession.get(holder.sessionId);
        const session = client?.session;
        // Read without side effects: the session's state, and its deadline against the process's clock.
        const trusted =
          session !== null &&
          session !== undefined &&
          session.state === "open" &&
          client!.proc.localNow() < session.deadline;
        if (!client || !session || client.crashed || !trusted || client.busy.has(lock.name))
          continue;
        if (session.unsettledAcquire(lock.name) !== undefined || session.writesInFlight > 0)
          continue;
        // A grant past its hold limit ends by the leader's revoke, not by its client.
        if ((holder.holdMs ?? 0) > 0) continue;
        out.push(
          `orphaned grant: ${lock.name} is held by session ${holder.sessionId} (token ${holder.token}), whose client keeps the session alive but neither holds nor settles the lock`,
        );
      }
    }
    return out;
  }
}
