// State-machine commands, one per log entry, and their deterministic binary codec.
// Session ids and tokens are bigint (uint64); seqs, TTLs and waits are numbers.
// `wallMs` is the proposer's wall clock, kept only as display data for lock history.
import { ByteDecodeError, ByteReader, ByteWriter } from "./bytes.ts";
import { LIMIT_KEYS, type LockLimits } from "./limits.ts";

export interface OpenSessionCommand {
  readonly type: "openSession";
  /** Client-generated id so that a retried OpenSession does not open a second session. */
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

export interface AcquireCommand extends SequencedWrite {
  readonly type: "acquire";
  readonly lock: string;
  /** 0: answer at once; otherwise join the FIFO queue for at most this long. */
  readonly waitMs: number;
  readonly wallMs: number;
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

export interface ReleaseCommand extends SequencedWrite {
  readonly type: "release";
  readonly lock: string;
  readonly token: bigint;
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
 * The limits that decide apply-time answers from this entry on, on every replica alike.
 * Proposed by a leader whose cluster file asks for other limits than the replicated ones.
 */
export interface SetLimitsCommand {
  readonly type: "setLimits";
  readonly limits: LockLimits;
  readonly wallMs: number;
}

export type Command =
  | SetLimitsCommand
  | OpenSessionCommand
  | CloseSessionCommand
  | ExpireSessionCommand
  | AcquireCommand
  | CancelWaitCommand
  | ReleaseCommand
  | RevokeCommand;

export type CommandType = Command["type"];

/** Thrown by decodeCommand on bytes that are not a command. */
export class CommandDecodeError extends Error {
  override readonly name = "CommandDecodeError";
}

const FORMAT_VERSION = 1;

const TAGS: Readonly<Record<CommandType, number>> = {
  openSession: 1,
  closeSession: 2,
  expireSession: 3,
  acquire: 4,
  cancelWait: 5,
  release: 6,
  revoke: 7,
  setLimits: 8,
};

/** At most this many held seqs are decoded; validation applies the configured (smaller) limit. */
const MAX_DECODED_HELD = 4096;

/**
 * Commands are encoded into this one reused buffer and copied out at their exact size: one
 * small allocation per command (kept on the V8 heap when small) instead of two, since every
 * log entry is one.
 */
const scratch = new ByteWriter(1_024);

export function encodeCommand(cmd: Command): Uint8Array {
  const w = scratch.reset().u8(FORMAT_VERSION).u8(TAGS[cmd.type]);
  switch (cmd.type) {
    case "openSession":
      w.str(cmd.requestId).uint(cmd.ttlMs).str(cmd.clientName);
      break;
    case "closeSession":
      writeSequenced(w, cmd);
      break;
    case "expireSession":
      w.u64(cmd.sessionId);
      break;
    case "acquire":
      writeSequenced(w, cmd);
      w.str(cmd.lock).uint(cmd.waitMs);
      break;
    case "cancelWait":
      w.u64(cmd.sessionId).str(cmd.lock).uint(cmd.acquireSeq).u8(cmd.reason === "client" ? 0 : 1);
      break;
    case "release":
      writeSequenced(w, cmd);
      w.str(cmd.lock).u64(cmd.token);
      break;
    case "revoke":
      w.str(cmd.lock).u64(cmd.token);
      break;
    case "setLimits":
      w.uint(LIMIT_KEYS.length);
      for (const key of LIMIT_KEYS) w.uint(cmd.limits[key]);
      break;
  }
  w.f64(cmd.wallMs);
  return w.copy();
}

function writeSequenced(w: ByteWriter, cmd: SequencedWrite): void {
  w.u64(cmd.sessionId).uint(cmd.seq).uint(cmd.ackedUpTo).uint(cmd.held.length);
  for (const seq of cmd.held) w.uint(seq);
}

export function decodeCommand(bytes: Uint8Array): Command {
  try {
    return readCommand(new ByteReader(bytes));
  } catch (err) {
    if (err instanceof ByteDecodeError || err instanceof CommandDecodeError) {
      throw new CommandDecodeError(`malformed command: ${err.message}`);
    }
    throw err;
  }
}

function readCommand(r: ByteReader): Command {
  const version = r.u8();
  if (version !== FORMAT_VERSION) throw new CommandDecodeError(`unknown command format ${version}`);
  const tag = r.u8();
  let cmd: Command;
  switch (tag) {
    case TAGS.openSession: {
      const requestId = r.str();
      const ttlMs = r.uint();
      const clientName = r.str();
      cmd = { type: "openSession", requestId, ttlMs, clientName, wallMs: r.f64() };
      break;
    }
    case TAGS.closeSession:
      cmd = { type: "closeSession", ...readSequenced(r), wallMs: r.f64() };
      break;
    case TAGS.expireSession:
      cmd = { type: "expireSession", sessionId: r.u64(), wallMs: r.f64() };
      break;
    case TAGS.acquire: {
      const seqd = readSequenced(r);
      const lock = r.str();
      const waitMs = r.uint();
      cmd = { type: "acquire", ...seqd, lock, waitMs, wallMs: r.f64() };
      break;
    }
    case TAGS.cancelWait: {
      const sessionId = r.u64();
      const lock = r.str();
      const acquireSeq = r.uint();
      const reasonTag = r.u8();
      if (reasonTag > 1) throw new CommandDecodeError(`unknown cancel reason ${reasonTag}`);
      const reason: CancelReason = reasonTag === 0 ? "client" : "timeout";
      cmd = { type: "cancelWait", sessionId, lock, acquireSeq, reason, wallMs: r.f64() };
      break;
    }
    case TAGS.release: {
      const seqd = readSequenced(r);
      const lock = r.str();
      const token = r.u64();
      cmd = { type: "release", ...seqd, lock, token, wallMs: r.f64() };
      break;
    }
    case TAGS.revoke: {
      const lock = r.str();
      const token = r.u64();
      cmd = { type: "revoke", lock, token, wallMs: r.f64() };
      break;
    }
    case TAGS.setLimits: {
      const n = r.count();
      if (n !== LIMIT_KEYS.length) throw new CommandDecodeError(`setLimits carries ${n} limits, expected ${LIMIT_KEYS.length}`);
      const limits: Record<string, number> = {};
      for (const key of LIMIT_KEYS) limits[key] = r.uint();
      cmd = { type: "setLimits", limits: limits as unknown as LockLimits, wallMs: r.f64() };
      break;
    }
    default:
      throw new CommandDecodeError(`unknown command tag ${tag}`);
  }
  r.expectEnd();
  return cmd;
}

function readSequenced(r: ByteReader): SequencedWrite {
  const sessionId = r.u64();
  const seq = r.uint();
  const ackedUpTo = r.uint();
  const n = r.count();
  if (n > MAX_DECODED_HELD) throw new CommandDecodeError(`held list of ${n} seqs`);
  const held: number[] = [];
  for (let i = 0; i < n; i++) held.push(r.uint());
  return { sessionId, seq, ackedUpTo, held };
}
