// The lock service on the simulated cluster: a client port per node behind the real host
// and driver (sim-transport.ts), simulated client connections carrying encoded frames
// (clients are extra endpoints 100+, cut off by partitions like nodes, with loss, delay and
// duplication), the fenced resource and the checkers. The seeded run that drives it is
// lock-run.ts.
import { isDeepStrictEqual } from "node:util";
import { decodeCommand } from "../../node/lock/codec/entries.ts";
import { bigintSafe } from "../unit/lock/kit.ts";
import { resolveLimits } from "../../node/lock/limits.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { LockHistoryEvent } from "../../verify/lock-history.ts";
import { ANONYMOUS } from "../../node/auth/caller.ts";
import { AccessChecker } from "./checkers/access.ts";
import { ExpiryChecker } from "./checkers/expiry.ts";
import { TENANTS, type SimAccess } from "./lock-access.ts";
import type { ElectionObservers } from "./checkers/elections.ts";
import type { Command } from "../../node/lock/commands.ts";
import { LockChecker } from "./checkers/lock.ts";
import { ReadChecker } from "./checkers/reads.ts";
import { SimCluster } from "./cluster.ts";
import { FencedResource } from "./fenced-resource.ts";
import {
  callOnce,
  requestOf,
  simClientAddress,
  SimNodeServer,
  SIM_LOCK_LIMITS,
  type CallObserver,
  type LockResult,
} from "./sim-transport.ts";
import {
  decodeAnswer,
  type AnswerOf,
  type CallName,
  type RequestOf,
  type WireAnswerOf,
} from "../../proto/lock-calls.ts";
import type { CallFailure } from "../../proto/codec/answers.ts";
import type { Answer } from "../../node/lock/answers.ts";
import { status as Status } from "@grpc/grpc-js";
import { WIRE_ERRORS, type ErrorReasonName } from "../../proto/wire.ts";
import type { SimOptions } from "./options.ts";

export class LockSim {
  readonly c: SimCluster<LockResult>;
  readonly hosts = new Map<NodeId, SimNodeServer>();
  readonly checker: LockChecker;
  /** Answered reads, checked at the end against the committed log (replicas start from the default limits). */
  readonly reads = new ReadChecker({});
  readonly resource = new FencedResource();
  readonly history: LockHistoryEvent[] = [];
  /** Recorded operations that turned out to take no effect (cancelled waits). */
  readonly omitted = new Set<number | string>();
  readonly counts = { rpcs: 0, rpcLost: 0, clientCuts: 0 };
  /** What the client library did on its own: retries, outcomes settled later, late grants, deadlines. */
  readonly clientEvents = {
    retriedWrites: 0,
    unknownWrites: 0,
    settledUnknown: 0,
    lateGrantsReleased: 0,
    deadlinesPassed: 0,
  };
  /** The state at the highest index applied anywhere so far (the committed log replayed). */
  readonly committedState = new LockStateMachine();
  /** Expiries proposed no later than the TTL allows (G6). */
  readonly expiries: ExpiryChecker;
  /** Observers of the elections, when the run has them (fed every apply and snapshot install). */
  observers: ElectionObservers | undefined;
  /** The identities of a run with access control (SimOptions.access): who each client is, the admin. */
  access: SimAccess | null = null;
  /** Access control on the committed log, in a run with it. */
  readonly accessChecker: AccessChecker | null;
  /** Attempts sent of each write, by "session:seq". */
  private readonly attempts = new Map<string, number>();
  private nextOpId = 1;

  constructor(opts: SimOptions, verbose = false) {
    const members = Array.from({ length: opts.nodes }, (_, i) => ({
      id: i + 1,
      peerAddress: `sim-peer-${i + 1}`,
      clientAddress: simClientAddress(i + 1),
    }));
    this.c = new SimCluster<LockResult>(
      opts,
      {
        host: {
          config: (node) => ({
            id: node.id,
            clusterId: "sim",
            tickMs: opts.tickMs,
            electionTicks: opts.electionTicks,
            heartbeatTicks: opts.heartbeatTicks,
            maxInflightMsgs: opts.maxInflightMsgs,
            maxBytesPerAppend: opts.maxBytesPerAppend,
            snapshotEntries: opts.snapshotEvery > 0 ? opts.snapshotEvery : Number.MAX_SAFE_INTEGER,
            limits: resolveLimits(SIM_LOCK_LIMITS),
            members,
            join: node.id > opts.nodes,
            reproposeAfterMs: 500,
          }),
          hooks: (node) => ({
            onCommandProposed: (cmd, entry) => {
              // The entry (a client's write: the bytes it sent) must apply as the command
              // the node checked.
              const logged = decodeCommand(entry);
              if (!isDeepStrictEqual(logged, cmd))
                this.c.checker.fail(
                  `node ${node.id} logged ${JSON.stringify(logged, bigintSafe)} for ${JSON.stringify(cmd, bigintSafe)}`,
                );
              if (cmd.type === "expireSession" || cmd.type === "closeSession")
                this.checker.endProposed(cmd.sessionId, this.c.sched.now);
              if (cmd.type === "expireSession")
                this.expiries.expiryProposed(cmd.sessionId, node.id, this.c.sched.now);
              if (cmd.type === "holdLimit")
                this.checker.revokeProposed(cmd.sessionId, cmd.token, this.c.sched.now);
            },
            onKeepAlive: (session) => this.expiries.keptAlive(session, this.c.sched.now),
            onSnapshotInstalled: (index) => this.observers?.installed(node.id, index),
            onSoftState: (soft) => {
              if (soft.role === "leader") this.expiries.becameLeader(node.id, this.c.sched.now);
            },
            onEntryApplied: (_entry, outcome) => {
              if (outcome === null || node.core?.role !== "leader") return;
              for (const s of outcome.timers.sessionsOpened)
                this.expiries.started(s.id, s.ttlMs, this.c.sched.now);
            },
          }),
          booted: (node, host) =>
            this.hosts.set(
              node.id,
              new SimNodeServer(
                node,
                node.instance,
                host,
                (msg) => this.c.checker.fail(msg),
                (endpoint) => this.access?.callerOf(endpoint) ?? ANONYMOUS,
              ),
            ),
        },
      },
      verbose,
    );
    this.checker = new LockChecker((msg) => this.c.checker.fail(msg));
    this.accessChecker = opts.access
      ? new AccessChecker((msg) => this.c.checker.fail(`t=${this.c.sched.now} ${msg}`), TENANTS)
      : null;
    // A tenant's ListSessions shows its own sessions only.
    if (opts.access) this.reads.identityOf = (client) => this.access?.identityOf(client) ?? null;
    this.expiries = new ExpiryChecker({ driftMax: opts.driftMax, tickMs: opts.tickMs });
    this.c.onStall = (node, from, to) => this.expiries.stalled(node, from, to);
    this.c.onApplied = (node, entry, result) => {
      this.reads.applied(entry, this.c.sched.now);
      // Applied somewhere first: the committed state moves on.
      if (entry.index === this.committedState.appliedIndex + 1) {
        if (entry.kind === "normal") {
          this.accessChecker?.before(entry.data, this.committedState);
          const outcome = this.committedState.applyBytes(entry.index, entry.data);
          this.accessChecker?.committed(entry.index, entry.data, outcome, this.committedState);
          this.observers?.committed(
            entry.index,
            commandOf(entry.data),
            outcome,
            this.committedState,
          );
        } else this.committedState.skip(entry.index);
      }
      const host = this.hosts.get(node.id);
      if (host) this.checker.applied(node.id, entry, result, host.sm, this.c.sched.now);
      this.observers?.applied(node.id, node.instance, entry.index, result);
    };
  }

  /**
   * What a client's transport reports to the checkers: every attempt of a write, every node
   * answer to one (compared by the checker with the first answer of its seq), and each
   * grant a CancelWait reveals (`lateGrant`).
   */
  observer(
    lateGrant: (lock: string, acquireSeq: number, token: bigint) => void = () => undefined,
  ): CallObserver {
    return {
      sent: (name, wire) => {
        const acks = acksOf(name, wire);
        if (acks !== null) this.checker.clientAcked(acks.sessionId, acks.ackedUpTo, acks.held);
        const write = writeOf(name, wire);
        if (write === null) return;
        const key = `${write.sessionId}:${write.seq}`;
        const n = (this.attempts.get(key) ?? 0) + 1;
        this.attempts.set(key, n);
        if (n === 2) this.clientEvents.retriedWrites++;
      },
      answered: (name, wire, outcome) => {
        if (name === "CancelWait" && "answer" in outcome) {
          const answer = decodeAnswer("CancelWait", outcome.answer as WireAnswerOf<"CancelWait">);
          const req = requestOf("CancelWait", wire);
          if (answer.outcome === "granted") lateGrant(req.lock, req.acquireSeq, answer.token);
        }
        const write = writeOf(name, wire);
        if (write === null) return;
        if (name === "Upgrade" || name === "Downgrade") {
          const seen = modeChangeAnswer(name, outcome);
          const view = name === "Upgrade" ? upgradeView : downgradeView;
          if (seen !== null) this.checker.clientAnswerAs(write.sessionId, write.seq, seen, view);
          return;
        }
        const answer = writeAnswer(name, outcome);
        if (answer !== null) this.checker.clientAnswer(write.sessionId, write.seq, answer);
      },
    };
  }

  /** How many attempts of the write (session, seq) were sent. */
  attemptsOf(session: bigint, seq: number): number {
    return this.attempts.get(`${session}:${seq}`) ?? 0;
  }

  opId(): number {
    return this.nextOpId++;
  }

  /**
   * One frame from a client endpoint to a node and the node's answer, each way delayed,
   * lost or cut like peer messages; a duplicate may arrive much later. Resolves null on
   * timeout, "refused" when the node is down.
   */
  rpc(
    from: number,
    to: NodeId,
    frame: Uint8Array,
    timeoutMs: number,
  ): Promise<Uint8Array | "refused" | null> {
    const c = this.c;
    this.counts.rpcs++;
    return new Promise((resolve) => {
      let done = false;
      const finish = (r: Uint8Array | "refused" | null): void => {
        if (done) return;
        done = true;
        resolve(r);
      };
      c.sched.after(timeoutMs, "rpc-timeout", () => finish(null));
      const deliver = (extraDelay: number): void => {
        if (!this.link(from, to)) return;
        c.sched.after(this.delay() + extraDelay, "rpc-req", () =>
          this.arrive(from, to, frame, (r) => {
            if (!this.link(to, from)) return;
            c.sched.after(this.delay(), "rpc-reply", () => finish(r));
          }),
        );
      };
      deliver(0);
      if (c.duplicateRate > 0 && c.rng.chance(c.duplicateRate)) deliver(c.rng.int(0, 400));
    });
  }

  private link(from: number, to: number): boolean {
    const c = this.c;
    if (c.blocked.has(`${from}>${to}`) || (c.lossRate > 0 && c.rng.chance(c.lossRate))) {
      this.counts.rpcLost++;
      return false;
    }
    return true;
  }

  private delay(): number {
    return this.c.rng.int(this.c.opts.delayMinMs * 10, this.c.delayMaxMs * 10) / 10;
  }

  private arrive(
    from: number,
    to: NodeId,
    frame: Uint8Array,
    reply: (r: Uint8Array | "refused") => void,
  ): void {
    const n = this.c.node(to);
    // A node that is down refuses the connection: the client hears so at once.
    if (!n.up) {
      reply("refused");
      return;
    }
    if (this.c.sched.now < n.stalledUntil) {
      this.c.sched.at(n.stalledUntil, "rpc-late", () => this.arrive(from, to, frame, reply));
      return;
    }
    this.hosts.get(to)?.handle(frame, reply, from);
  }

  /** One call from a client endpoint to a node, outside any client library: its answer, its failure, or null if none came in time. */
  call<N extends CallName>(
    from: number,
    to: NodeId,
    name: N,
    request: RequestOf<N>,
    timeoutMs: number,
  ): Promise<{ answer: AnswerOf<N> } | { failure: CallFailure } | null> {
    return callOnce(
      (f, t, frame, timeout) => this.rpc(f, t, frame, timeout),
      from,
      to,
      name,
      request,
      timeoutMs,
    );
  }

  /** Cuts a client off from some nodes (until the next partition change or heal). */
  cutClient(client: number, nodes: readonly NodeId[]): void {
    for (const n of nodes) {
      this.c.blocked.add(`${client}>${n}`);
      this.c.blocked.add(`${n}>${client}`);
    }
    this.counts.clientCuts++;
  }

  /** Session ends and hold-limit revokes from the committed log, as history events. */
  sessionEndEvents(): LockHistoryEvent[] {
    const ends: LockHistoryEvent[] = this.checker.sessionEnds.map((e) => ({
      kind: "sessionEnd",
      id: `end-${e.session}`,
      session: e.session,
      call: Math.min(e.proposedAt, e.appliedAt),
      ret: e.appliedAt,
    }));
    const revokes: LockHistoryEvent[] = this.checker.revokes.map((r) => ({
      kind: "revoke",
      id: `revoke-${r.index}`,
      grants: r.grants,
      call: r.proposedAt,
      ret: r.appliedAt,
    }));
    return [...ends, ...revokes];
  }
}

/** A write's session and seq, from the request a transport saw leave; null for a call that is not one. */
function writeOf(name: CallName, wire: unknown): { sessionId: bigint; seq: number } | null {
  if (
    name !== "Acquire" &&
    name !== "Release" &&
    name !== "CloseSession" &&
    name !== "Upgrade" &&
    name !== "Downgrade"
  )
    return null;
  const { sessionId, seq } = requestOf(name, wire);
  return { sessionId, seq };
}

/** What a numbered write acknowledges of its session's answers; null for a call that is not one. */
function acksOf(
  name: CallName,
  wire: unknown,
): { sessionId: bigint; ackedUpTo: number; held: readonly number[] } | null {
  if (name === "OpenSession" || name === "KeepAlive" || name === "CancelWait" || !isWriteCall(name))
    return null;
  const { sessionId, ackedUpTo, held } = requestOf(name, wire) as {
    sessionId: bigint;
    ackedUpTo: number;
    held: readonly number[];
  };
  return { sessionId, ackedUpTo, held };
}

function isWriteCall(name: CallName): boolean {
  return [
    "CloseSession",
    "Acquire",
    "Release",
    "Campaign",
    "Proclaim",
    "Resign",
    "Upgrade",
    "Downgrade",
  ].includes(name);
}

/** An Upgrade's answer in the words of its call: the new token, the other holder, or cancelled. */
function upgradeView(a: Answer): string {
  if (a.kind === "granted") return `upgraded:${a.token}`;
  if (a.kind === "notAcquired")
    return `notUpgraded:${a.holder?.sessionId ?? 0n}:${a.holder?.token ?? 0n}`;
  return a.kind;
}

/** A Downgrade's answer in the words of its call: the new grant's token and mode. */
function downgradeView(a: Answer): string {
  return a.kind === "granted" ? `downgraded:${a.token}:${a.grants[0]?.mode ?? ""}` : a.kind;
}

/** A node's answer to an Upgrade or a Downgrade, in the words of its view, or the error it was; null as for writeAnswer. */
function modeChangeAnswer(
  name: "Upgrade" | "Downgrade",
  outcome:
    { answer: unknown } | { failure: { code: number; reason: string | null; message: string } },
): string | Answer | null {
  if ("failure" in outcome) return writeAnswer(name, outcome);
  if (name === "Downgrade") {
    const d = decodeAnswer("Downgrade", outcome.answer as WireAnswerOf<"Downgrade">);
    return `downgraded:${d.token}:${d.mode}`;
  }
  const u = decodeAnswer("Upgrade", outcome.answer as WireAnswerOf<"Upgrade">);
  if (u.kind === "upgraded") return `upgraded:${u.token}`;
  if (u.kind === "notUpgraded")
    return `notUpgraded:${u.holder?.sessionId ?? 0n}:${u.holder?.token ?? 0n}`;
  return u.kind;
}

/** A node's answer to a write in the state machine's terms; null for a failure that is no answer (the node could not serve it). */
function writeAnswer(
  name: CallName,
  outcome:
    { answer: unknown } | { failure: { code: number; reason: string | null; message: string } },
): Answer | null {
  if ("failure" in outcome) {
    const f = outcome.failure;
    if (
      f.reason === null ||
      WIRE_ERRORS[f.reason as ErrorReasonName]?.code === undefined ||
      f.code === Status.UNAVAILABLE
    )
      return null;
    return { kind: "error", reason: f.reason as ErrorReasonName, message: f.message };
  }
  if (name === "Acquire") return decodeAnswer("Acquire", outcome.answer as WireAnswerOf<"Acquire">);
  return name === "Release" ? { kind: "released" } : { kind: "sessionClosed" };
}

/** The command of an entry's bytes, or null for bytes that are not one. */
function commandOf(bytes: Uint8Array): Command | null {
  try {
    return decodeCommand(bytes);
  } catch {
    return null;
  }
}
