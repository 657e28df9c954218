// Simulated lock clients. Each opens a session, keeps it alive every TTL/4, and acquires
// locks with and without waiting (sometimes cancelling the wait), runs a fenced
// read-modify-write under the token, releases; it also pauses past its TTL and then
// acts with its old token, closes its session or crashes. Now and then it reads instead:
// GetLock or ValidateToken of one lock (checked per lock for linearizability), or
// ListLocks, ListSessions, GetSession (checked against the committed log), on any node.
// A retry after a timeout reuses the same seq and carries the exactly-once marks. Past its
// own deadline a client stops trusting its locks.
import type { Answer } from "../../node/lock/answers.ts";
import type { Command } from "../../node/lock/commands.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { SeededRandom } from "../../node/util/rng.ts";
import type { AcquireOutcome, ReleaseOutcome } from "./checkers/lock-model.ts";
import type { LockHistoryEvent } from "./checkers/linearizable.ts";
import type { ReadAnswer, ReadQuery } from "./lock-host.ts";
import type { LockSim } from "./lock-run.ts";

/** Bound on clock-rate drift that the client deadline margin is computed for. */
export const RHO = 0.01;
/** Client deadline-check interval, part of the margin. */
export const CLIENT_TICK_MS = 50;

export type AcquireResult =
  | { kind: "granted"; token: bigint }
  | { kind: "notGranted" }
  | { kind: "unknown" };

export class SimLockClient {
  sessionId: bigint | null = null;
  crashed = false;
  paused = false;
  /** The session answered NOT_FOUND: lost for good. */
  lost = false;
  private deadlineLocal = 0;
  private seq = 0;
  private ackedUpTo = 0;
  private readonly answered = new Set<number>();
  private hint: NodeId | null = null;

  constructor(
    private readonly sim: LockSim,
    readonly endpoint: number,
    private readonly rng: SeededRandom,
    readonly ttlMs: number,
    readonly drift: number,
  ) {}

  /** The client's own monotonic clock, running at its own rate. */
  localNow(): number {
    return this.sim.c.sched.now * (1 + this.drift);
  }

  sleep(localMs: number): Promise<void> {
    return new Promise((resolve) => this.sim.c.sched.after(localMs / (1 + this.drift), "client", resolve));
  }

  /** True while the client may trust its session: answered, not lost, before its deadline. */
  sessionLive(): boolean {
    return !this.crashed && this.sessionId !== null && !this.lost && this.localNow() < this.deadlineLocal;
  }

  private extendDeadline(sentLocal: number): void {
    const d = sentLocal + this.ttlMs - (2 * RHO * this.ttlMs + CLIENT_TICK_MS);
    if (d <= this.deadlineLocal) return;
    this.deadlineLocal = d;
    if (this.sessionId !== null) this.sim.checker.clientDeadline(this.sessionId, d / (1 + this.drift));
  }

  private target(): NodeId {
    if (this.hint !== null && this.hint > 0) return this.hint;
    return this.rng.pick(this.sim.c.nodes).id;
  }

  private noteReply(to: NodeId, r: { kind: string; leader?: NodeId } | null): void {
    if (r?.kind === "unavailable" && r.leader !== undefined && r.leader > 0 && r.leader !== to) this.hint = r.leader;
    else if (r === null || r.kind === "unavailable") this.hint = null;
  }

  /** Sends a command until it gets an answer, or `live()` turns false (outcome unknown: null). */
  private async command(build: () => Command, timeoutMs: number, live: () => boolean): Promise<Answer | null> {
    // Timeouts grow on each retry, so a slow cluster is not flooded with retries.
    for (let attempt = 0; ; attempt++) {
      if (!live()) return null;
      const to = this.target();
      const r = await this.sim.rpc(this.endpoint, to, { kind: "command", cmd: build() }, timeoutMs * Math.min(2 ** attempt, 4));
      if (r?.kind === "answer") {
        this.hint = to;
        return r.answer;
      }
      this.noteReply(to, r);
      await this.sleep(r === null ? 2 : 15);
    }
  }

  private marks(): { ackedUpTo: number; held: number[] } {
    return { ackedUpTo: this.ackedUpTo, held: [...this.answered].slice(0, 64) };
  }

  private gotAnswer(seq: number, answer: Answer): void {
    if (this.sessionId !== null) this.sim.checker.clientAnswer(this.sessionId, seq, answer);
    this.answered.add(seq);
    while (this.answered.has(this.ackedUpTo + 1)) {
      this.ackedUpTo++;
      this.answered.delete(this.ackedUpTo);
    }
    if (answer.kind === "error" && answer.code === "NOT_FOUND") this.lost = true;
  }

  /** Opens a session; the deadline counts from the first send of the request. */
  async open(giveUpAfterMs = 2000): Promise<boolean> {
    const requestId = `c${this.endpoint}-${this.sim.opId()}`;
    const firstSend = this.localNow();
    const answer = await this.command(
      () => ({ type: "openSession", requestId, ttlMs: this.ttlMs, clientName: `client-${this.endpoint}`, wallMs: 0 }),
      300,
      () => !this.crashed && this.localNow() - firstSend < giveUpAfterMs,
    );
    if (answer?.kind !== "sessionOpened") return false;
    this.sessionId = answer.sessionId;
    this.extendDeadline(firstSend);
    return this.sessionLive();
  }

  /** Keepalives every TTL/4 until the session is lost, the client crashes or `stop()`. */
  async keepAlive(stop: () => boolean): Promise<void> {
    while (!stop() && this.sessionLive()) {
      await this.sleep(this.ttlMs / 4);
      if (this.paused || !this.sessionLive() || stop()) continue;
      const sent = this.localNow();
      const to = this.target();
      const r = await this.sim.rpc(this.endpoint, to, { kind: "keepAlive", session: this.sessionId! }, this.ttlMs / 4);
      if (this.crashed) return;
      if (r?.kind === "keepAliveOk") this.extendDeadline(sent);
      else if (r?.kind === "answer" && r.answer.kind === "error" && r.answer.code === "NOT_FOUND") this.lost = true;
      else this.noteReply(to, r);
    }
  }

  /** Acquire with the same seq on every retry; optionally a CancelWait races the wait. */
  async acquire(lock: string, waitMs: number, cancelAfterMs: number | null = null): Promise<AcquireResult> {
    const session = this.sessionId!;
    const seq = ++this.seq;
    const ev: Extract<LockHistoryEvent, { kind: "acquire" }> = { kind: "acquire", id: this.sim.opId(), lock, session, call: this.sim.c.sched.now, ret: null };
    this.sim.history.push(ev);
    let final: Answer | null = null;
    const live = (): boolean => final === null && this.sessionLive();
    const acquiring = this.command(
      () => ({ type: "acquire", sessionId: session, seq, ...this.marks(), lock, waitMs, wallMs: 0 }),
      waitMs + 300,
      live,
    ).then((a) => {
      final ??= a;
    });
    const cancelling = cancelAfterMs === null ? Promise.resolve() : this.sleep(cancelAfterMs).then(async () => {
      while (live()) {
        const a = await this.command(
          () => ({ type: "cancelWait", sessionId: session, lock, acquireSeq: seq, reason: "client", wallMs: 0 }),
          300,
          live,
        );
        if (a === null || a.kind === "error") return;
        final ??= a;
      }
    });
    await Promise.race([acquiring, cancelling.then(() => (final === null ? acquiring : undefined))]);
    const answer: Answer | null = final;
    if (answer === null) return { kind: "unknown" };
    this.gotAnswer(seq, answer);
    const out = acquireOutcome(answer);
    if (out === null) {
      this.sim.omitted.add(ev.id);
      return { kind: "notGranted" };
    }
    ev.ret = this.sim.c.sched.now;
    ev.out = out;
    if (out.kind === "granted") {
      this.sim.checker.tokenSeen(lock, out.token, session);
      return { kind: "granted", token: out.token };
    }
    return { kind: "notGranted" };
  }

  async release(lock: string, token: bigint): Promise<ReleaseOutcome | null> {
    const session = this.sessionId!;
    const seq = ++this.seq;
    const ev: Extract<LockHistoryEvent, { kind: "release" }> = { kind: "release", id: this.sim.opId(), lock, session, token, call: this.sim.c.sched.now, ret: null };
    this.sim.history.push(ev);
    const answer = await this.command(
      () => ({ type: "release", sessionId: session, seq, ...this.marks(), lock, token, wallMs: 0 }),
      300,
      () => this.sessionLive(),
    );
    if (answer === null) return null;
    this.gotAnswer(seq, answer);
    const out: ReleaseOutcome | null = answer.kind === "released" ? { kind: "ok" }
      : answer.kind === "error" && answer.code === "FAILED_PRECONDITION" && answer.reason !== "request too old" ? { kind: "failedPrecondition" }
      : answer.kind === "error" && answer.code === "NOT_FOUND" ? { kind: "sessionNotFound" }
      : null;
    if (out === null) {
      this.sim.omitted.add(ev.id);
      return null;
    }
    ev.ret = this.sim.c.sched.now;
    ev.out = out;
    return out;
  }

  /** Closes the session, retrying while it is live; `once`: a single best-effort attempt. */
  async close(once = false): Promise<void> {
    const session = this.sessionId;
    if (session === null || this.crashed) return;
    const seq = ++this.seq;
    let tries = 0;
    const answer = await this.command(
      () => ({ type: "closeSession", sessionId: session, seq, ...this.marks(), wallMs: 0 }),
      300,
      () => !this.crashed && (once ? tries++ === 0 : this.sessionLive()),
    );
    if (answer !== null) this.gotAnswer(seq, answer);
    this.lost = true;
  }

  /**
   * A read, retried on any node until answered or `giveUpMs` (local) passed; null if
   * unanswered. GetLock and ValidateToken go into the per-lock history; every answered
   * read is recorded for the check against the committed log.
   */
  async read(query: ReadQuery, giveUpMs = 1000): Promise<ReadAnswer | null> {
    const call = this.sim.c.sched.now;
    const firstSend = this.localNow();
    const id = this.sim.opId();
    type PerLockEvent = Extract<LockHistoryEvent, { kind: "read" | "validate" }>;
    const ev: PerLockEvent | null = query.op === "getLock" ? { kind: "read", id, lock: query.lock, call, ret: null }
      : query.op === "validateToken" ? { kind: "validate", id, lock: query.lock, token: query.token, call, ret: null }
      : null;
    if (ev) this.sim.history.push(ev);
    for (let attempt = 0; !this.crashed && this.localNow() - firstSend < giveUpMs; attempt++) {
      // Half the reads go to any node: a follower serves them through the leader's read index.
      const to = this.rng.chance(0.5) ? this.rng.pick(this.sim.c.nodes).id : this.target();
      const r = await this.sim.rpc(this.endpoint, to, { kind: "read", query }, 300 * Math.min(2 ** attempt, 4));
      if (this.crashed) return null;
      if (r?.kind === "read") {
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
      this.noteReply(to, r);
      await this.sleep(r === null ? 2 : 15);
    }
    return null;
  }

  /** Stops sending anything, keepalives included, for `localMs`. */
  async pause(localMs: number): Promise<void> {
    this.paused = true;
    await this.sleep(localMs);
    this.paused = false;
  }
}

function acquireOutcome(a: Answer): AcquireOutcome | null {
  switch (a.kind) {
    case "granted":
      return { kind: "granted", token: a.token };
    case "notAcquired":
      return { kind: "notAcquired", holderSession: a.holderSessionId, holderToken: a.holderToken };
    case "error":
      return a.code === "NOT_FOUND" ? { kind: "sessionNotFound" } : null;
    default:
      // "cancelled": the Acquire took no effect.
      return null;
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
      const client = new SimLockClient(this.sim, endpoint, rng, rng.int(300, 1000), driftMax > 0 ? (rng.next() * 2 - 1) * driftMax : 0);
      if (await client.open()) {
        this.sessions.push(client.sessionId!);
        void client.keepAlive(() => this.stopped);
        while (!this.stopped && client.sessionLive()) {
          const r = rng.next();
          if (r < 0.03) {
            client.crashed = true;
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
        // A lost session is closed best-effort; a crashed client just vanishes.
        if (!client.crashed && !this.stopped) await client.close(true);
        client.crashed = true;
      }
      await client.sleep(rng.int(10, 200));
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
      : { op: "getSession", id: rng.chance(0.5) ? client.sessionId! : rng.pick(this.sessions) };
    this.stats.reads++;
    await client.read(query);
  }

  private async lockTask(client: SimLockClient): Promise<void> {
    const rng = this.rng;
    const lock = this.pickLock();
    if (lock === null) {
      await client.sleep(20);
      return;
    }
    const waitMs = rng.chance(0.5) ? rng.int(30, 500) : 0;
    const cancelAfter = waitMs > 0 && rng.chance(0.25) ? rng.int(5, waitMs) : null;
    this.bump(this.active, lock, 1);
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
      const access = { key: lock, token: res.token, session: client.sessionId! };
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
    this.bump(this.active, lock, -1);
  }
}
