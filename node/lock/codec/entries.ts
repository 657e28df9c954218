// The deterministic binary codec of state-machine commands: one command per log entry.
import type { LockMode, LockTarget } from "../kinds.ts";
import { LIMIT_KEYS, limitsFromValues, type LockLimits } from "../limits.ts";
import type {
  AcquireCommand,
  Command,
  CancelReason,
  CommandType,
  SequencedWrite,
} from "../commands.ts";
import { ByteDecodeError, ByteReader, ByteWriter } from "./bytes.ts";

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
  holdLimit: 10,
};
/** An Acquire using any of the lock kinds' fields; tag 4 keeps the exclusive Acquire's bytes. */
const ACQUIRE_KINDS_TAG = 9;
/** How a target is asked for: a lock's mode, or a semaphore permit (then its permit count follows). */
const TARGET_CODES = { exclusive: 0, shared: 1, permit: 2 } as const;

/** At most this many held seqs are decoded; validation applies the configured (smaller) limit. */
const MAX_DECODED_HELD = 4096;
/** At most this many more locks of an Acquire are decoded; validation applies the configured limit. */
const MAX_DECODED_TARGETS = 4096;

/**
 * Commands are encoded into this one reused buffer and copied out at their exact size: one
 * small allocation per command (kept on the V8 heap when small) instead of two, since every
 * log entry is one.
 */
const scratch = new ByteWriter(1_024);

export function encodeCommand(cmd: Command): Uint8Array {
  const w = scratch
    .reset()
    .u8(FORMAT_VERSION)
    .u8(cmd.type === "acquire" && usesKinds(cmd) ? ACQUIRE_KINDS_TAG : TAGS[cmd.type]);
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
      if (usesKinds(cmd)) {
        writeTarget(w, cmd);
        w.uint(cmd.more?.length ?? 0);
        for (const t of cmd.more ?? []) writeTarget(w.str(t.lock), t);
        w.str(cmd.holderData ?? "").uint(cmd.holdMs ?? 0);
      }
      break;
    case "holdLimit":
      w.u64(cmd.sessionId).u64(cmd.token).uint(cmd.holdMs);
      break;
    case "cancelWait":
      w.u64(cmd.sessionId)
        .str(cmd.lock)
        .uint(cmd.acquireSeq)
        .u8(cmd.reason === "client" ? 0 : 1);
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

/** Does the Acquire use a field of the lock kinds (any but an explicit exclusive mode)? */
function usesKinds(cmd: AcquireCommand): boolean {
  return (
    (cmd.mode !== undefined && cmd.mode !== "exclusive") ||
    cmd.permits !== undefined ||
    (cmd.more !== undefined && cmd.more.length > 0) ||
    (cmd.holderData !== undefined && cmd.holderData !== "") ||
    (cmd.holdMs !== undefined && cmd.holdMs !== 0)
  );
}

function writeTarget(w: ByteWriter, t: LockTarget): void {
  if (t.permits !== undefined) {
    w.u8(TARGET_CODES.permit).uint(t.permits);
    return;
  }
  const mode = t.mode ?? "exclusive";
  // Validation refuses any other mode before a command is encoded.
  if (mode !== "exclusive" && mode !== "shared")
    throw new RangeError(`cannot encode lock mode ${String(mode)}`);
  w.u8(TARGET_CODES[mode]);
}

/** A target's mode or permits, as the client named it (exclusive left out). */
function readTarget(r: ByteReader): { mode?: LockMode; permits?: number } {
  const code = r.u8();
  switch (code) {
    case TARGET_CODES.exclusive:
      return {};
    case TARGET_CODES.shared:
      return { mode: "shared" };
    case TARGET_CODES.permit:
      return { permits: r.uint() };
    default:
      throw new CommandDecodeError(`unknown lock target ${code}`);
  }
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
    case ACQUIRE_KINDS_TAG: {
      const seqd = readSequenced(r);
      const lock = r.str();
      const waitMs = r.uint();
      const first = readTarget(r);
      const n = r.count();
      if (n > MAX_DECODED_TARGETS) throw new CommandDecodeError(`an Acquire of ${n + 1} locks`);
      const more: LockTarget[] = [];
      for (let i = 0; i < n; i++) {
        const name = r.str();
        more.push({ lock: name, ...readTarget(r) });
      }
      const holderData = r.str();
      const holdMs = r.uint();
      cmd = {
        type: "acquire",
        ...seqd,
        lock,
        waitMs,
        wallMs: r.f64(),
        ...first,
        ...(n > 0 ? { more } : {}),
        ...(holderData !== "" ? { holderData } : {}),
        ...(holdMs !== 0 ? { holdMs } : {}),
      };
      break;
    }
    case TAGS.holdLimit: {
      const sessionId = r.u64();
      const token = r.u64();
      const holdMs = r.uint();
      cmd = { type: "holdLimit", sessionId, token, holdMs, wallMs: r.f64() };
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
      // Entries written before the later limits existed carry fewer: those keep their defaults.
      const n = r.count();
      if (n > LIMIT_KEYS.length)
        throw new CommandDecodeError(
          `setLimits carries ${n} limits, expected at most ${LIMIT_KEYS.length}`,
        );
      const values: number[] = [];
      for (let i = 0; i < n; i++) values.push(r.uint());
      cmd = { type: "setLimits", limits: limitsFromValues(values) as LockLimits, wallMs: r.f64() };
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
