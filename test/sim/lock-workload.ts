// Simulated lock clients: each is a client process running the real client library (a
// PalisadeClient whose Session, AckTracker and lock handles run on the process's own
// drifting clock, over the simulated network through the real failover rules:
// sim-lock-api.ts). Each opens a session (kept alive by the library), acquires locks with
// and without waiting (sometimes giving up the wait), runs a fenced read-modify-write under
// the token and releases; it also pauses past its TTL and then acts with its old token,
// closes its session or crashes. Now and then it reads instead: GetLock or ValidateToken of
// one lock (checked per lock for linearizability), or ListLocks, ListSessions, GetSession
// (checked against the committed log), on any node. Everything the workload records for
// the checkers comes from what the library returned or reported.
import { PalisadeClient } from "../../client/client.ts";
import {
  FailedPreconditionError, NotHolderError, OutcomeUnknownError, SessionNotFoundError, StaleTokenError,
} from "../../client/errors.ts";
import { isAnswer } from "../../client/lock-api.ts";
import type { LateGrantRelease, Session } from "../../client/session.ts";
import type { SeededRandom } from "../../node/util/rng.ts";
import type { ReleaseOutcome } from "./checkers/lock-model.ts";
import type { LockHistoryEvent } from "./checkers/linearizable.ts";
import { SimClientProcess } from "./client-process.ts";
import type { LockReader } from "../../node/host/node-host.ts";
import type { ReadAnswer, ReadQuery } from "./lock-host.ts";
import type { LockSim } from "./lock-run.ts";
import { SimLockApi } from "./sim-lock-api.ts";

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
  | { kind: "granted"; token: bigint }
  | { kind: "notGranted" }
  | { kind: "unknown" };

type AcquireEvent = Extract<LockHistoryEvent, { kind: "acquire" }>;

export class SimLockClient {
  readonly proc: SimClientProcess;
  readonly api: SimLockApi;
  private readonly client: PalisadeClient;
  session: Session | null = null;
  /** Locks the workload is working with now (acquiring, holding, releasing). */
  readonly busy = new Set<string>();
  /** The recorded Acquire of each seq of the session (a late grant names its seq). */
  private readonly acquires = new Map<number, AcquireEvent>();
  /** The release the library makes of each late grant, recorded when the grant was learnt, by token. */
  private readonly lateReleases = new Map<bigint, Extract<LockHistoryEvent, { kind: "release" }>>();

  constructor(
    private readonly sim: LockSim,
    readonly endpoint: number,
    private readonly rng: SeededRandom,
    readonly ttlMs: number,
    drift: number,
    retryBudgetMs = RETRY_BUDGET_MS,
  ) {
    this.proc = new SimClientProcess(sim.c.sched, endpoint, drift);
    this.api = new SimLockApi(
      (from, to, req, timeout) => sim.rpc(from, to, req, timeout),
      this.proc,
      () => sim.c.nodes.map((n) => n.id),
      { callTimeoutMs: CALL_TIMEOUT_MS, retryBudgetMs },
      sim.answers,
      rng,
      (lock, acquireSeq, token) => this.lateGrantLearnt(lock, acquireSeq, token),
    );
    let requests = 0;
    this.client = new PalisadeClient(
      { endpoints: ["simulated"], clientName: `client-${endpoint}`, callTimeoutMs: CALL_TIMEOUT_MS, retryBudgetMs, driftBound: RHO, deadlineTickMs: CLIENT_TICK_MS },
      { lockApi: this.api, clock: this.proc.clock, newRequestId: () => `c${endpoint}-${sim.opId()}-${++requests}` },
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
    const deadline = (): void => this.sim.checker.clientDeadline(session.id, this.proc.virtualOf(session.deadline));
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
    if (session === null || this.lateReleases.has(token)) return;
    const now = this.sim.c.sched.now;
    const ev = this.acquires.get(acquireSeq);
    if (ev) {
      this.sim.omitted.delete(ev.id);
      if (ev.out === undefined) {
        ev.out = { kind: "granted", token };
        ev.ret = now;
      }
      this.sim.checker.tokenSeen(lock, token, session.id);
    }
    const release: Extract<LockHistoryEvent, { kind: "release" }> = { kind: "release", id: this.sim.opId(), lock, session: session.id, token, call: now, ret: null };
    this.lateReleases.set(token, release);
    this.sim.history.push(release);
  }

  /** The library's report of a late grant's release: its outcome, when it has one. */
  private lateGrant(_session: bigint, late: LateGrantRelease): void {
    this.sim.clientEvents.lateGrantsReleased++;
    const release = this.lateReleases.get(late.token);
    if (!release) return;
    const out: ReleaseOutcome | null = late.outcome === "released" ? { kind: "ok" }
      : late.outcome === "notHolder" ? { kind: "failedPrecondition" }
      : late.outcome === "sessionNotFound" ? { kind: "sessionNotFound" }
      : null;
    // As for any write, NOT_FOUND (or any answer) to a release that was retried may follow its effect.
    if (out !== null && late.releaseAnsweredNs !== null && (out.kind === "ok" || out.kind === "failedPrecondition")) {
      release.out = out;
      release.ret = this.virtualNs(late.releaseAnsweredNs);
    }
  }

  private virtualNs(ns: bigint): number {
    return this.proc.virtualOf(Number(ns) / 1e6);
  }

  /** An Acquire through the library; an optional give-up (the library then sends CancelWait) races the wait. */
  async acquire(lock: string, waitMs: number, cancelAfterMs: number | null = null): Promise<AcquireResult> {
    const session = this.session!;
    const ev: AcquireEvent = { kind: "acquire", id: this.sim.opId(), lock, session: session.id, call: this.sim.c.sched.now, ret: null };
    const giveUp = new AbortController();
    if (cancelAfterMs !== null) this.proc.clock.setTimeout(() => giveUp.abort(), cancelAfterMs);
    let pending;
    try {
      pending = session.startAcquire(lock, { waitMs, signal: giveUp.signal });
    } catch {
      // Refused before it was sent (the session's deadline passed, too many writes in flight).
      return { kind: "notGranted" };
    }
    this.sim.history.push(ev);
    this.acquires.set(pending.seq, ev);
    try {
      const result = await pending.result;
      if (result.cancelled) {
        // Granted before the give-up reached the log: recorded when the CancelWait answered so.
        if (result.lateToken !== undefined) this.lateGrantLearnt(lock, pending.seq, result.lateToken);
        else if (ev.out === undefined) {
          // Cancelled before it was granted: it took no effect.
          this.sim.omitted.add(ev.id);
        }
        return { kind: "notGranted" };
      }
      ev.ret = this.sim.c.sched.now;
      if (result.acquired && result.token !== undefined) {
        ev.out = { kind: "granted", token: result.token };
        this.sim.checker.tokenSeen(lock, result.token, session.id);
        return { kind: "granted", token: result.token };
      }
      ev.out = { kind: "notAcquired", holderSession: result.holder?.sessionId ?? 0n, holderToken: result.holder?.token ?? 0n };
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

  /** A Release through the session; null when its outcome stays unknown (the library then goes on in the background). */
  async release(lock: string, token: bigint): Promise<ReleaseOutcome | null> {
    const session = this.session!;
    const ev: Extract<LockHistoryEvent, { kind: "release" }> = { kind: "release", id: this.sim.opId(), lock, session: session.id, token, call: this.sim.c.sched.now, ret: null };
    // The library takes a seq only for a write it sends: one refused before that took no effect.
    const seq = session.peekNextSeq();
    const sending = session.release(lock, token);
    if (session.peekNextSeq() === seq) {
      await sending.catch(() => undefined);
      return null;
    }
    this.sim.history.push(ev);
    let out: ReleaseOutcome | null;
    try {
      await sending;
      out = { kind: "ok" };
    } catch (err) {
      if (err instanceof StaleTokenError || err instanceof NotHolderError || err instanceof FailedPreconditionError) out = { kind: "failedPrecondition" };
      // As for an Acquire: NOT_FOUND to a retry may follow an effect.
      else if (err instanceof SessionNotFoundError) out = this.sim.attemptsOf(session.id, seq) === 1 ? { kind: "sessionNotFound" } : null;
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
  async read(query: ReadQuery, giveUpMs = 1000): Promise<ReadAnswer | null> {
    const call = this.sim.c.sched.now;
    const id = this.sim.opId();
    type PerLockEvent = Extract<LockHistoryEvent, { kind: "read" | "validate" }>;
    const ev: PerLockEvent | null = query.op === "getLock" ? { kind: "read", id, lock: query.lock, call, ret: null }
      : query.op === "validateToken" ? { kind: "validate", id, lock: query.lock, token: query.token, call, ret: null }
      : null;
    if (ev) this.sim.history.push(ev);
    const r = await this.api.read(query, giveUpMs);
    if (r === null || this.proc.crashed) return null;
    const ret = this.sim.c.sched.now;
    this.sim.reads.record({ client: this.endpoint, query, call, ret, readIndex: r.readIndex, applied: r.applied, answer: r.answer });
    if (ev?.kind === "read" && r.answer.op === "getLock") {
      const holder = r.answer.lock.holder;
      ev.out = { kind: "read", holder: holder?.sessionId ?? null, token: holder?.token ?? null };
      ev.ret = ret;
    } else if (ev?.kind === "validate" && r.answer.op === "validateToken") {
      ev.out = { kind: "validated", valid: r.answer.valid };
      ev.ret = ret;
    }
    return r.answer;
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
}

/** Per lock: operations in progress, and outcomes left unknown (kept small for the checker). */
const MAX_ACTIVE_PER_LOCK = 4;
const MAX_UNKNOWN_PER_LOCK = 2;

export class LockWorkload {
  readonly stats: WorkloadStats = { ops: 0, pauses: 0, crashes: 0, unknown: 0, reads: 0 };
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
      const client = new SimLockClient(this.sim, endpoint, rng, rng.int(300, 1000), driftMax > 0 ? (rng.next() * 2 - 1) * driftMax : 0, rng.pick(RETRY_BUDGETS_MS));
      if (await client.open()) {
        this.sessions.push(client.session!.id);
        this.bySession.set(client.session!.id, client);
        while (!this.stopped && client.sessionLive()) {
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
          else await this.lockTask(client);
          await client.sleep(rng.int(0, 40));
        }
        // A lost session is closed best-effort (the library does so itself); a crashed client just vanishes.
        if (!client.crashed && !this.stopped) await client.close();
      }
      if (client.crashed) await new Promise<void>((resolve) => this.sim.c.sched.after(rng.int(10, 200), "slot", resolve));
      else await client.sleep(rng.int(10, 200));
      // This process is done: the next session of the slot runs in a new one.
      client.crash();
    }
  }

  /** One read: of a lock in use (counted among its operations) or across locks. */
  private async readTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    if (rng.chance(0.5)) {
      const lock = this.pickLock();
      if (lock === null) {
        await client.sleep(20);
        return;
      }
      const token = this.lastToken.get(lock) ?? BigInt(rng.int(1, 100));
      this.bump(this.active, lock, 1);
      this.stats.reads++;
      await client.read(rng.chance(0.5) ? { op: "getLock", lock } : { op: "validateToken", lock, token });
      this.bump(this.active, lock, -1);
      return;
    }
    const k = rng.int(0, 2);
    const query: ReadQuery = k === 0 ? { op: "listLocks", prefix: rng.pick(["", "lock-", "lock-1", "none-"]) }
      : k === 1 ? { op: "listSessions" }
      : { op: "getSession", id: rng.chance(0.5) ? client.session!.id : rng.pick(this.sessions) };
    this.stats.reads++;
    await client.read(query);
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
        await client.read({ op: "validateToken", lock, token: res.token });
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
        if (this.sim.resource.increment(access, value) && trusted) this.bump(this.acknowledged, lock, 1);
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
   * Locks held by a session whose client is alive, still trusts its session (so it keeps
   * it alive, and the lock stays held for as long), and neither works with the lock nor
   * still settles an Acquire or a Release of it: grants nobody will ever release.
   */
  orphanedGrants(state: LockReader): string[] {
    const out: string[] = [];
    for (const lock of state.listLocks({ limit: 1_000_000 }).locks) {
      const holder = lock.holder;
      if (holder === null) continue;
      const client = this.bySession.get(holder.sessionId);
      const session = client?.session;
      // Read without side effects: the session's state, and its deadline against the process's clock.
      const trusted = session !== null && session !== undefined && session.state === "open" && client!.proc.localNow() < session.deadline;
      if (!client || !session || client.crashed || !trusted || client.busy.has(lock.name)) continue;
      if (session.unsettledAcquire(lock.name) !== undefined || session.writesInFlight > 0) continue;
      out.push(`orphaned grant: ${lock.name} is held by session ${holder.sessionId} (token ${holder.token}), whose client keeps the session alive but neither holds nor settles the lock`);
    }
    return out;
  }
}
