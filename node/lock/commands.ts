// State-machine commands, one per log entry (their binary form is codec/entries.ts).
// Session ids and tokens are bigint (uint64); seqs, TTLs and waits are numbers.
// `wallMs` is the proposer's wall clock, kept only as display data for lock history.
import type { DowngradeMode, LockMode, LockTarget } from "./kinds.ts";
import type { LockLimits } from "./limits.ts";
import type { RequestOf } from "../../proto/lock-calls.ts";

export type { LockMode, LockTarget } from "./kinds.ts";

export interface OpenSessionCommand {
  readonly type: "openSession";
  /** Client-generated id so that a retried OpenSession does not open a second session ("": none). */
  readonly requestId: string;
  readonly ttlMs: number;
  readonly clientName: string;
  readonly wallMs: number;
}

/** Fields of every write a client numbers (Acquire, Release, CloseSession). */
export interface SequencedWrite {
  readonly sessionId: bigint;
  readonly seq: number;
  /** Highest m such that the client holds the answers to m and to every seq below it. */
  readonly ackedUpTo: number;
  /** Seqs above ackedUpTo whose answers the client already holds. */
  readonly held: readonly number[];
}

export interface CloseSessionCommand extends SequencedWrite {
  readonly type: "closeSession";
  readonly wallMs: number;
}

/** Proposed by the leader when a session's keepalives stopped for a TTL. */
export interface ExpireSessionCommand {
  readonly type: "expireSession";
  readonly sessionId: bigint;
  readonly wallMs: number;
}

/**
 * Acquire of a lock (exclusive unless `mode` says shared), of one permit of a semaphore
 * (`permits`), or of several of these at one log index or none (`more`). Without the
 * optional fields it is the exclusive Acquire, with the same encoding.
 */
export interface AcquireCommand extends SequencedWrite {
  readonly type: "acquire";
  /** The lock, or the first lock of a multi-lock Acquire (it names the wait). */
  readonly lock: string;
  /** 0: answer at once; otherwise join the FIFO queue for at most this long. */
  readonly waitMs: number;
  readonly wallMs: number;
  /** How `lock` is taken; absent: exclusive. "leader": a Campaign for the election `lock`. */
  readonly mode?: LockMode | "leader";
  /** Given: `lock` is a semaphore of this many permits, and one permit is asked for. */
  readonly permits?: number;
  /** The other locks of an atomic multi-lock Acquire, each granted with `lock` at one index. */
  readonly more?: readonly LockTarget[];
  /** Small data shown with the grant (who holds it and why): reads, Watch, history. */
  readonly holderData?: string;
  /** A maximum hold time: the leader ends the grant (every lock of it) once it passes. 0 or absent: none. */
  readonly holdMs?: number;
}

/** Ends a pending wait. "client": CancelWait RPC; "timeout": proposed by the leader when the wait ran out. */
export interface CancelWaitCommand {
  readonly type: "cancelWait";
  readonly sessionId: bigint;
  readonly lock: string;
  readonly acquireSeq: number;
  readonly reason: CancelReason;
  readonly wallMs: number;
}

export type CancelReason = "client" | "timeout";

/** Release of a lock's grant, or (`election`) Resign of an election's lead. */
export interface ReleaseCommand extends SequencedWrite {
  readonly type: "release";
  readonly lock: string;
  readonly token: bigint;
  readonly wallMs: number;
  /** A waiting session granted the lock by this same entry (a handoff). */
  readonly successor?: bigint;
  /** Sent as Resign: `lock` must be an election. */
  readonly election?: true;
}

/** A new value of an election's leader, only with its current token. */
export interface ProclaimCommand extends SequencedWrite {
  readonly type: "proclaim";
  readonly lock: string;
  readonly token: bigint;
  readonly value: string;
  readonly wallMs: number;
}

/**
 * Upgrade of the session's upgradeable grant (`token`) of `lock` to exclusive: at once when
 * it is the only holder, else a wait ahead of the lock's queue for at most `waitMs`.
 */
export interface UpgradeCommand extends SequencedWrite {
  readonly type: "upgrade";
  readonly lock: string;
  readonly token: bigint;
  readonly waitMs: number;
  readonly wallMs: number;
}

/** Downgrade of the session's exclusive grant (`token`) of `lock` to `mode`. */
export interface DowngradeCommand extends SequencedWrite {
  readonly type: "downgrade";
  readonly lock: string;
  readonly token: bigint;
  readonly mode: DowngradeMode;
  readonly wallMs: number;
}

/** Admin force-release of the grant with this token. */
export interface RevokeCommand {
  readonly type: "revoke";
  readonly lock: string;
  readonly token: bigint;
  readonly wallMs: number;
}

/**
 * Proposed by the leader when a grant's hold limit passed: ends every grant of the session
 * with that token and hold limit (the locks of one Acquire), history reason "holdLimit".
 */
export interface HoldLimitCommand {
  readonly type: "holdLimit";
  readonly sessionId: bigint;
  readonly token: bigint;
  readonly holdMs: number;
  readonly wallMs: number;
}

/**
 * The limits that decide apply-time answers from this entry on, on every replica alike.
 * Proposed by a leader whose cluster file asks for other limits than the replicated ones.
 */
export interface SetLimitsCommand {
  readonly type: "setLimits";
  readonly limits: LockLimits;
  readonly wallMs: number;
}

/** A new access policy (its text; every replica parses it alike), from an admin. */
export interface SetPolicyCommand {
  readonly type: "setPolicy";
  /** The policy as every replica reads it: JSON in the fixed form of Policy.canonical. */
  readonly text: string;
  /** The text an admin applied (YAML or JSON), kept for display only; absent: `text`. */
  readonly source?: string;
  readonly wallMs: number;
}

/** A bearer token, created by an admin: only the secret's hash reaches the log. */
export interface CreateTokenCommand {
  readonly type: "createToken";
  readonly id: string;
  readonly identity: string;
  readonly roles: readonly string[];
  /** SHA-256 of the secret, hex. */
  readonly hash: string;
  /** On the proposing leader's clock; 0: never. */
  readonly expiresAtMs: number;
  readonly wallMs: number;
}

export interface RevokeTokenCommand {
  readonly type: "revokeToken";
  readonly id: string;
  readonly wallMs: number;
}

export type Command =
  | SetLimitsCommand
  | SetPolicyCommand
  | CreateTokenCommand
  | RevokeTokenCommand
  | OpenSessionCommand
  | CloseSessionCommand
  | ExpireSessionCommand
  | AcquireCommand
  | CancelWaitCommand
  | ReleaseCommand
  | ProclaimCommand
  | UpgradeCommand
  | DowngradeCommand
  | RevokeCommand
  | HoldLimitCommand;

export type CommandType = Command["type"];

/** A client's numbered write: the exactly-once table answers a repeat of its seq. */
export function isSequenced(
  cmd: Command,
): cmd is
  | AcquireCommand
  | ReleaseCommand
  | CloseSessionCommand
  | ProclaimCommand
  | UpgradeCommand
  | DowngradeCommand {
  return (
    cmd.type === "acquire" ||
    cmd.type === "release" ||
    cmd.type === "closeSession" ||
    cmd.type === "proclaim" ||
    cmd.type === "upgrade" ||
    cmd.type === "downgrade"
  );
}

/** The LockService calls that become a log entry: the client's writes. */
export type WriteCallName =
  | "OpenSession"
  | "CloseSession"
  | "Acquire"
  | "CancelWait"
  | "Release"
  | "Campaign"
  | "Proclaim"
  | "Resign"
  | "Upgrade"
  | "Downgrade";

/** A write call's request as the command it applies as; `wallMs` is the leader's clock. */
export function commandOfCall<N extends WriteCallName>(
  name: N,
  req: RequestOf<N>,
  wallMs: number,
): CommandOfCall[N] {
  return commandOf({ name, req } as WriteCall, wallMs) as CommandOfCall[N];
}

/** The command each write call applies as. */
interface CommandOfCall {
  OpenSession: OpenSessionCommand;
  CloseSession: CloseSessionCommand;
  Acquire: AcquireCommand;
  CancelWait: CancelWaitCommand;
  Release: ReleaseCommand;
  Campaign: AcquireCommand;
  Proclaim: ProclaimCommand;
  Resign: ReleaseCommand;
  Upgrade: UpgradeCommand;
  Downgrade: DowngradeCommand;
}

function commandOf(call: WriteCall, wallMs: number): Command {
  switch (call.name) {
    case "OpenSession":
      return {
        type: "openSession",
        requestId: call.req.requestId,
        ttlMs: call.req.ttlMs === 0 ? DEFAULT_TTL_MS : call.req.ttlMs,
        clientName: call.req.clientName,
        wallMs,
      };
    case "CloseSession":
      return { type: "closeSession", ...call.req, wallMs };
    case "Acquire":
      return acquireCommand(call.req, wallMs);
    case "CancelWait":
      return { type: "cancelWait", ...call.req, reason: "client", wallMs };
    case "Release":
      return releaseCommand(call.req, wallMs);
    // A Campaign is an Acquire of the election's lead; its value is the grant's holder data.
    case "Campaign": {
      const { election, value, ...write } = call.req;
      return {
        type: "acquire",
        ...write,
        lock: election,
        mode: "leader",
        ...(value !== "" ? { holderData: value } : {}),
        wallMs,
      };
    }
    case "Proclaim": {
      const { election, ...rest } = call.req;
      return { type: "proclaim", ...rest, lock: election, wallMs };
    }
    case "Resign": {
      const { election, ...rest } = call.req;
      return { type: "release", ...rest, lock: election, election: true, wallMs };
    }
    case "Upgrade":
      return { type: "upgrade", ...call.req, wallMs };
    case "Downgrade":
      return { type: "downgrade", ...call.req, wallMs };
  }
}

type WriteCall = { [N in WriteCallName]: { name: N; req: RequestOf<N> } }[WriteCallName];

type Writable<T> = { -readonly [K in keyof T]: T[K] };

// The two calls of every lock cycle are built field by field, keys in the order a spread of
// the request gives, without the spread's per-property copy (each replica builds one per entry).
function acquireCommand(req: RequestOf<"Acquire">, wallMs: number): AcquireCommand {
  const cmd = {
    type: "acquire",
    sessionId: req.sessionId,
    seq: req.seq,
    ackedUpTo: req.ackedUpTo,
    held: req.held,
    lock: req.lock,
    waitMs: req.waitMs,
  } as Writable<AcquireCommand>;
  if (req.mode !== undefined) cmd.mode = req.mode;
  if (req.permits !== undefined) cmd.permits = req.permits;
  if (req.more !== undefined) cmd.more = req.more;
  if (req.holderData !== undefined) cmd.holderData = req.holderData;
  if (req.holdMs !== undefined) cmd.holdMs = req.holdMs;
  cmd.wallMs = wallMs;
  return cmd;
}

function releaseCommand(req: RequestOf<"Release">, wallMs: number): ReleaseCommand {
  const cmd = {
    type: "release",
    sessionId: req.sessionId,
    seq: req.seq,
    ackedUpTo: req.ackedUpTo,
    held: req.held,
    lock: req.lock,
    token: req.token,
  } as Writable<ReleaseCommand>;
  if (req.successor !== undefined) cmd.successor = req.successor;
  cmd.wallMs = wallMs;
  return cmd;
}

/** Session TTL when OpenSession leaves ttl_ms at 0. */
export const DEFAULT_TTL_MS = 10_000;
