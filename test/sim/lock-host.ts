// The server's role on a simulated node: the lock state machine behind the driver, the
// leader's lease timers on the node's own drifting monotonic clock, and the answers to
// client requests (writes through the log, keepalives and reads after a confirmed read
// index; reads on any node, a follower asking the leader for the index).
import type { Answer } from "../../node/lock/answers.ts";
import { encodeCommand, type Command } from "../../node/lock/commands.ts";
import { LeaseKeeper } from "../../node/lock/lease-keeper.ts";
import type { LockLimits } from "../../node/lock/limits.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import { LockStateMachine, type LockInfo, type SessionInfo } from "../../node/lock/state-machine.ts";
import type { Entry, NodeId, Snapshot } from "../../node/raft/types.ts";
import type { Applier, Driver } from "../../node/host/driver.ts";
import type { SimCluster, SimNode } from "./cluster.ts";

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
export function answerRead(sm: LockStateMachine, q: ReadQuery): ReadAnswer {
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

/** Same limits on every replica; TTLs below a second so sessions expire within a short run. */
export const SIM_LOCK_LIMITS: Partial<LockLimits> = { minTtlMs: 100 };

export interface HostEvents {
  /** A close or expiry of a session is being proposed. */
  endProposed(session: bigint, now: number): void;
}

export class LockHost implements Applier<LockResult> {
  sm: LockStateMachine;
  readonly keeper = new LeaseKeeper({ reproposeAfterMs: 500 });
  private term = 0;
  private lastCheck: number | null = null;
  /** Requests waiting for the final answer of a queued Acquire, by "session:seq". */
  private readonly waiting = new Map<string, Array<(a: Answer) => void>>();
  /** Proposals not yet applied, by request: a retry arriving meanwhile shares the first one. */
  private readonly inFlight = new Map<string, Promise<{ index: number; result: LockResult }>>();

  constructor(
    private readonly c: SimCluster<LockResult>,
    private readonly node: SimNode<LockResult>,
    private readonly instance: number,
    snapshot: Snapshot | null,
    private readonly events: HostEvents,
  ) {
    this.sm = snapshot ? LockStateMachine.restore(snapshot.data, SIM_LOCK_LIMITS) : new LockStateMachine(SIM_LOCK_LIMITS);
    this.scheduleCheck();
  }

  private get current(): boolean {
    return this.node.up && this.node.instance === this.instance && this.node.driver !== undefined;
  }

  /** The node's monotonic clock: it runs at its own rate, as its ticks do. */
  localNow(): number {
    return this.c.sched.now / (1 + this.node.drift);
  }

  apply(entry: Entry): LockResult {
    this.syncRole();
    if (entry.kind !== "normal") {
      this.sm.skip(entry.index);
      return null;
    }
    const outcome = this.sm.applyBytes(entry.index, entry.data);
    this.keeper.onApplied(outcome.timers, this.localNow());
    for (const comp of outcome.completions) {
      const key = `${comp.sessionId}:${comp.seq}`;
      const list = this.waiting.get(key);
      if (!list) continue;
      this.waiting.delete(key);
      for (const reply of list) reply(comp.answer);
    }
    return outcome;
  }

  snapshot(): Uint8Array {
    return this.sm.snapshot();
  }

  restore(snapshot: Snapshot): void {
    this.sm = LockStateMachine.restore(snapshot.data, SIM_LOCK_LIMITS);
    this.keeper.stepDown();
    this.syncRole();
  }

  /** Follows the node's role: a new leader restarts every TTL and wait from now. */
  private syncRole(): void {
    const core = this.node.core;
    const leading = this.current && core !== undefined && core.role === "leader";
    if (leading && (!this.keeper.isLeader || this.term !== core.term)) {
      this.term = core.term;
      this.keeper.becomeLeader(this.localNow(), this.sm.sessionLeases(), this.sm.pendingWaits());
    } else if (!leading && this.keeper.isLeader) {
      this.keeper.stepDown();
    }
  }

  /** After every tick of the node's clock: propose due expiries and wait timeouts. */
  private scheduleCheck(): void {
    this.c.sched.after(this.c.opts.tickMs * (1 + this.node.drift), "lease-check", () => {
      if (!this.current) return;
      if (this.c.sched.now >= this.node.stalledUntil) this.check();
      this.scheduleCheck();
    });
  }

  private check(): void {
    this.syncRole();
    const now = this.localNow();
    const gap = this.lastCheck === null ? 0 : now - this.lastCheck;
    this.lastCheck = now;
    if (!this.keeper.isLeader) return;
    // After a stall the leader cannot tell stopped keepalives from unprocessed ones.
    if (gap > this.c.opts.heartbeatTicks * this.c.opts.tickMs) {
      this.keeper.stalled(gap - this.c.opts.tickMs);
      return;
    }
    for (const cmd of this.keeper.due(now)) {
      if (cmd.type === "expireSession") {
        this.events.endProposed(cmd.sessionId, this.c.sched.now);
      }
      this.proposeQuietly(cmd);
    }
  }

  private proposeQuietly(cmd: Command): void {
    const [p] = this.node.driver!.propose([encodeCommand(cmd)]);
    p?.catch(() => {});
  }

  /** Serves one client request; `reply` is called at most once (never if the node dies first). */
  handle(req: Request, reply: (r: Reply) => void): void {
    const driver = this.node.driver;
    const core = this.node.core;
    if (!this.current || !driver || !core) return;
    const inst = this.instance;
    const alive = (): boolean => this.node.up && this.node.instance === inst;
    const respond = (r: Reply): void => {
      if (alive()) reply(r);
    };
    if (req.kind === "read") {
      this.read(driver, req.query, alive, respond);
      return;
    }
    if (core.role !== "leader") {
      respond({ kind: "unavailable", leader: core.leader });
      return;
    }
    if (req.kind === "keepAlive") {
      // Acknowledged only after a quorum round that started after the keepalive arrived.
      driver.readIndex().then(
        () => {
          if (!alive()) return;
          this.syncRole();
          const r = this.keeper.keepAlive(req.session, this.localNow());
          if (r === "ok" && this.sm.hasSession(req.session)) respond({ kind: "keepAliveOk" });
          else if (r === "notLeader") respond({ kind: "unavailable", leader: this.node.core?.leader ?? 0 });
          else respond({ kind: "answer", answer: { code: "NOT_FOUND", kind: "error", reason: "session not found", message: "no such session" } });
        },
        () => respond({ kind: "unavailable", leader: this.node.core?.leader ?? 0 }),
      );
      return;
    }
    const cmd = req.cmd;
    if (cmd.type === "closeSession") this.events.endProposed(cmd.sessionId, this.c.sched.now);
    const key = requestKey(cmd);
    let p = this.inFlight.get(key);
    if (!p) {
      p = driver.propose([encodeCommand(cmd)])[0]!;
      this.inFlight.set(key, p);
      const forget = (): void => {
        if (this.inFlight.get(key) === p) this.inFlight.delete(key);
      };
      p.then(forget, forget);
    }
    p.then(
      ({ result }) => {
        if (result === null) return;
        const answer = result.result;
        if (answer.kind !== "waiting" || cmd.type !== "acquire") {
          respond({ kind: "answer", answer });
          return;
        }
        // The wait may have ended in an entry applied in the same batch.
        const now = this.sm.answerFor(cmd.sessionId, cmd.seq);
        if (now !== null && now.kind !== "waiting") {
          respond({ kind: "answer", answer: now });
          return;
        }
        const key = `${cmd.sessionId}:${cmd.seq}`;
        const list = this.waiting.get(key) ?? [];
        list.push((a) => respond({ kind: "answer", answer: a }));
        this.waiting.set(key, list);
      },
      () => respond({ kind: "unavailable", leader: this.node.core?.leader ?? 0 }),
    );
  }

  /** A read after a confirmed read index, on whatever node got it. */
  private read(driver: Driver<LockResult>, query: ReadQuery, alive: () => boolean, respond: (r: Reply) => void): void {
    driver.readIndex().then(
      (readIndex) => {
        if (!alive()) return;
        const applied = driver.applied;
        if (this.sm.appliedIndex !== applied) {
          this.c.checker.fail(`node ${this.node.id}: driver applied ${applied}, state machine at ${this.sm.appliedIndex}`);
        }
        respond({ kind: "read", answer: answerRead(this.sm, query), readIndex, applied });
      },
      () => respond({ kind: "unavailable", leader: this.node.core?.leader ?? 0 }),
    );
  }
}

function requestKey(cmd: Command): string {
  switch (cmd.type) {
    case "openSession":
      return `open:${cmd.requestId}`;
    case "cancelWait":
      return `cancel:${cmd.sessionId}:${cmd.acquireSeq}`;
    case "expireSession":
    case "revoke":
    case "setLimits":
      return `${cmd.type}:${JSON.stringify(cmd, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`;
    default:
      return `${cmd.sessionId}:${cmd.seq}`;
  }
}
