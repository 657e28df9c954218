// The log entry format: what one entry of the lock state machine's log holds. A client's
// write (OpenSession, CloseSession, Acquire, CancelWait, Release, Campaign, Proclaim, Resign,
// Upgrade, Downgrade) is carried as the request
// bytes the client sent, inside a small envelope (the call, the leader's clock, the caller's
// identity), so no request is encoded twice and apply decodes it with the same codec that
// checked it on arrival. The node's own commands (expiry, wait timeout, hold limit, revoke,
// limits) have their own compact encoding. Deterministic: the same bytes decode to the same
// command on every replica.
import { specOf, type RequestOf } from "../../../proto/lock-calls.ts";
import { CodecError } from "../../../proto/wire.ts";
import { LIMIT_KEYS, limitsFromValues, type LockLimits } from "../limits.ts";
import { commandOfCall, type CancelReason, type Command, type WriteCallName } from "../commands.ts";
import { ByteDecodeError, ByteReader, ByteWriter } from "./bytes.ts";

/** Thrown by decodeEntry on bytes that are not an entry. */
export class CommandDecodeError extends Error {
  override readonly name = "CommandDecodeError";
}

/** 2: client writes carried as their request bytes (1 encoded every command field by field). */
const FORMAT_VERSION = 2;

/** The node's own commands: proposed by the leader, never sent by a client. */
export type NodeCommand = Extract<
  Command,
  {
    type:
      | "expireSession"
      | "cancelWait"
      | "revoke"
      | "setLimits"
      | "holdLimit"
      | "setPolicy"
      | "createToken"
      | "revokeToken";
  }
>;

const NODE_TAGS: Readonly<Record<NodeCommand["type"], number>> = {
  expireSession: 3,
  cancelWait: 5,
  revoke: 7,
  setLimits: 8,
  holdLimit: 10,
  setPolicy: 12,
  createToken: 13,
  revokeToken: 14,
};
/** A revoke an identity asked for (RevokeLock): tag 7's fields, then the caller. */
const REVOKE_BY_TAG = 11;

/** A client's write: its call, the leader's clock, the caller's identity, the request bytes. */
const CLIENT_CALL_TAG = 16;
/** Each write call by its field number on the Stream RPC (StreamRequest's `call` oneof). */
const CALL_CODES: Readonly<Record<WriteCallName, number>> = {
  OpenSession: 2,
  CloseSession: 4,
  Acquire: 5,
  CancelWait: 6,
  Release: 7,
  Campaign: 16,
  Proclaim: 17,
  Resign: 18,
  Upgrade: 20,
  Downgrade: 21,
};
const CALL_BY_CODE: ReadonlyMap<number, WriteCallName> = new Map(
  Object.entries(CALL_CODES).map(([name, code]) => [code, name as WriteCallName]),
);
const CANCEL_REASONS: readonly CancelReason[] = ["client", "timeout"];

/**
 * Entries are encoded into this one reused buffer and copied out at their exact size: one
 * small allocation per entry (kept on the V8 heap when small) instead of two.
 */
const scratch = new ByteWriter(1_024);

/**
 * The entry of a client's write: `request` is the call's request message exactly as the
 * client encoded it (checked on arrival); `identity` who sent it ("" until callers have one).
 */
export function encodeClientCall(
  call: WriteCallName,
  request: Uint8Array,
  wallMs: number,
  identity = "",
): Uint8Array {
  return scratch
    .reset()
    .u8(FORMAT_VERSION)
    .u8(CLIENT_CALL_TAG)
    .u8(CALL_CODES[call])
    .f64(wallMs)
    .str(identity)
    .raw(request)
    .copy();
}

/**
 * A command the node proposes: its own (expiry, timeouts, limits; `caller` null) or an admin
 * call's (a revoke, the policy, tokens), which carries the caller for apply to check.
 */
export function encodeNodeCommand(cmd: NodeCommand, caller: string | null = null): Uint8Array {
  const tag = cmd.type === "revoke" && caller !== null ? REVOKE_BY_TAG : NODE_TAGS[cmd.type];
  const w = scratch.reset().u8(FORMAT_VERSION).u8(tag);
  switch (cmd.type) {
    case "expireSession":
      w.u64(cmd.sessionId);
      break;
    case "holdLimit":
      w.u64(cmd.sessionId).u64(cmd.token).uint(cmd.holdMs);
      break;
    case "cancelWait":
      w.u64(cmd.sessionId)
        .str(cmd.lock)
        .uint(cmd.acquireSeq)
        .u8(CANCEL_REASONS.indexOf(cmd.reason));
      break;
    case "revoke":
      w.str(cmd.lock).u64(cmd.token);
      break;
    case "setLimits":
      w.uint(LIMIT_KEYS.length);
      for (const key of LIMIT_KEYS) w.uint(cmd.limits[key]);
      break;
    case "setPolicy":
      w.str(cmd.text).str(cmd.source ?? cmd.text);
      break;
    case "createToken":
      w.str(cmd.id).str(cmd.identity).uint(cmd.roles.length);
      for (const role of cmd.roles) w.str(role);
      w.str(cmd.hash).uint(cmd.expiresAtMs);
      break;
    case "revokeToken":
      w.str(cmd.id);
      break;
  }
  w.f64(cmd.wallMs);
  if (tag === REVOKE_BY_TAG || ADMIN_TAGS.has(tag)) w.str(caller ?? "");
  return w.copy();
}

/** Tags whose entries end with the caller (admin calls). */
const ADMIN_TAGS: ReadonlySet<number> = new Set([
  NODE_TAGS.setPolicy,
  NODE_TAGS.createToken,
  NODE_TAGS.revokeToken,
]);

export function isNodeCommand(cmd: Command): cmd is NodeCommand {
  return cmd.type in NODE_TAGS && !(cmd.type === "cancelWait" && cmd.reason === "client");
}

/**
 * The entry of a command. A client's write carries `sent`, the request bytes it arrived as
 * (the command is what they decode to); without them (a test, a tool) it is encoded as a
 * client would have sent it.
 */
export function encodeEntry(
  cmd: Command,
  sent?: Uint8Array,
  identity: string | null = null,
): Uint8Array {
  if (isNodeCommand(cmd))
    return encodeNodeCommand(
      cmd,
      ADMIN_CALLS.has(cmd.type) ? (identity ?? "") : cmd.type === "revoke" ? identity : null,
    );
  if (sent !== undefined) return encodeClientCall(callOf(cmd), sent, cmd.wallMs, identity ?? "");
  const { call, request } = requestOf(cmd);
  return encodeClientCall(call, request, cmd.wallMs, identity ?? "");
}

/** The node commands an admin's call proposes: their entries carry the caller. */
const ADMIN_CALLS: ReadonlySet<Command["type"]> = new Set([
  "setPolicy",
  "createToken",
  "revokeToken",
]);

const CALL_OF_TYPE: Readonly<
  Record<Exclude<Command["type"], NodeCommand["type"]> | "cancelWait", WriteCallName>
> = {
  openSession: "OpenSession",
  closeSession: "CloseSession",
  acquire: "Acquire",
  cancelWait: "CancelWait",
  release: "Release",
  proclaim: "Proclaim",
  upgrade: "Upgrade",
  downgrade: "Downgrade",
};

/** The call a client's write came as (a Campaign is an Acquire of mode leader, a Resign an election's Release). */
function callOf(
  cmd: Exclude<Command, NodeCommand> | Extract<Command, { type: "cancelWait" }>,
): WriteCallName {
  if (cmd.type === "acquire" && cmd.mode === "leader") return "Campaign";
  if (cmd.type === "release" && cmd.election === true) return "Resign";
  return CALL_OF_TYPE[cmd.type];
}

/** A client write's command as the call and request bytes a client sends for it. */
function requestOf(cmd: Command): { call: WriteCallName; request: Uint8Array } {
  switch (cmd.type) {
    case "openSession":
      return wireBytes("OpenSession", {
        ttlMs: cmd.ttlMs,
        clientName: cmd.clientName,
        requestId: cmd.requestId,
      });
    case "closeSession": {
      const { type: _t, wallMs: _w, ...req } = cmd;
      return wireBytes("CloseSession", req);
    }
    case "acquire": {
      const { type: _t, wallMs: _w, mode, ...req } = cmd;
      if (mode === "leader") {
        const { lock, holderData, waitMs, sessionId, seq, ackedUpTo, held } = req;
        const write = { sessionId, seq, ackedUpTo, held };
        return wireBytes("Campaign", { ...write, election: lock, value: holderData ?? "", waitMs });
      }
      return wireBytes("Acquire", { ...req, ...(mode !== undefined ? { mode } : {}) });
    }
    case "proclaim": {
      const { type: _t, wallMs: _w, lock, ...req } = cmd;
      return wireBytes("Proclaim", { ...req, election: lock });
    }
    case "upgrade": {
      const { type: _t, wallMs: _w, ...req } = cmd;
      return wireBytes("Upgrade", req);
    }
    case "downgrade": {
      const { type: _t, wallMs: _w, ...req } = cmd;
      return wireBytes("Downgrade", req);
    }
    case "cancelWait": {
      const { type: _t, wallMs: _w, reason: _r, ...req } = cmd;
      return wireBytes("CancelWait", req);
    }
    case "release": {
      const { type: _t, wallMs: _w, election, lock, ...req } = cmd;
      if (election === true) return wireBytes("Resign", { ...req, election: lock });
      return wireBytes("Release", { ...req, lock });
    }
    default:
      throw new RangeError(`${cmd.type} is the node's command, not a client's call`);
  }
}

function wireBytes<N extends WriteCallName>(
  call: N,
  req: RequestOf<N>,
): { call: WriteCallName; request: Uint8Array } {
  const spec = specOf(call);
  return { call, request: spec.request.type.encode(spec.request.encode(req)).finish() };
}

/** What an entry holds: the command, and who sent it when a client or an admin did. */
export interface DecodedEntry {
  readonly command: Command;
  /** The caller (see node/auth/caller.ts) of a client's write or an admin call; null for the node's own commands. */
  readonly identity: string | null;
}

export function decodeEntry(bytes: Uint8Array): DecodedEntry {
  try {
    return readEntry(new ByteReader(bytes));
  } catch (err) {
    if (err instanceof ByteDecodeError || err instanceof CommandDecodeError) {
      throw new CommandDecodeError(`malformed entry: ${err.message}`);
    }
    if (err instanceof CodecError)
      throw new CommandDecodeError(`malformed request: ${err.message}`);
    throw err;
  }
}

/** The command of an entry's bytes (the identity aside). */
export function decodeCommand(bytes: Uint8Array): Command {
  return decodeEntry(bytes).command;
}

function readEntry(r: ByteReader): DecodedEntry {
  const version = r.u8();
  if (version !== FORMAT_VERSION) throw new CommandDecodeError(`unknown entry format ${version}`);
  const tag = r.u8();
  if (tag === CLIENT_CALL_TAG) return readClientCall(r);
  let cmd: Command;
  switch (tag) {
    case NODE_TAGS.expireSession:
      cmd = { type: "expireSession", sessionId: r.u64(), wallMs: r.f64() };
      break;
    case NODE_TAGS.holdLimit: {
      const sessionId = r.u64();
      const token = r.u64();
      const holdMs = r.uint();
      cmd = { type: "holdLimit", sessionId, token, holdMs, wallMs: r.f64() };
      break;
    }
    case NODE_TAGS.cancelWait: {
      const sessionId = r.u64();
      const lock = r.str();
      const acquireSeq = r.uint();
      const reason = CANCEL_REASONS[r.u8()];
      if (reason === undefined) throw new CommandDecodeError("unknown cancel reason");
      cmd = { type: "cancelWait", sessionId, lock, acquireSeq, reason, wallMs: r.f64() };
      break;
    }
    case NODE_TAGS.revoke:
    case REVOKE_BY_TAG: {
      const lock = r.str();
      const token = r.u64();
      cmd = { type: "revoke", lock, token, wallMs: r.f64() };
      break;
    }
    case NODE_TAGS.setPolicy: {
      const text = r.str();
      const source = r.str();
      // A source equal to the text is absent, as it was proposed: decoding gives back the command.
      cmd = { type: "setPolicy", text, ...(source !== text ? { source } : {}), wallMs: r.f64() };
      break;
    }
    case NODE_TAGS.createToken: {
      const id = r.str();
      const identity = r.str();
      const roles: string[] = [];
      for (let n = r.count(); n > 0; n--) roles.push(r.str());
      const hash = r.str();
      const expiresAtMs = r.uint();
      cmd = { type: "createToken", id, identity, roles, hash, expiresAtMs, wallMs: r.f64() };
      break;
    }
    case NODE_TAGS.revokeToken:
      cmd = { type: "revokeToken", id: r.str(), wallMs: r.f64() };
      break;
    case NODE_TAGS.setLimits: {
      const n = r.count();
      if (n !== LIMIT_KEYS.length)
        throw new CommandDecodeError(
          `setLimits carries ${n} limits, expected ${LIMIT_KEYS.length}`,
        );
      const values: number[] = [];
      for (let i = 0; i < n; i++) values.push(r.uint());
      cmd = { type: "setLimits", limits: limitsFromValues(values) as LockLimits, wallMs: r.f64() };
      break;
    }
    default:
      throw new CommandDecodeError(`unknown entry tag ${tag}`);
  }
  const identity = tag === REVOKE_BY_TAG || ADMIN_TAGS.has(tag) ? r.str() : null;
  r.expectEnd();
  return { command: cmd, identity };
}

function readClientCall(r: ByteReader): DecodedEntry {
  const code = r.u8();
  const call = CALL_BY_CODE.get(code);
  if (call === undefined) throw new CommandDecodeError(`unknown call ${code}`);
  const wallMs = r.f64();
  const identity = r.str();
  const spec = specOf(call);
  let wire;
  try {
    wire = spec.request.type.decode(r.rest());
  } catch (err) {
    throw new CommandDecodeError(
      `${call} request: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return { command: commandOfCall(call, spec.request.decode(wire), wallMs), identity };
}
