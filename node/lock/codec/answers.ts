// The binary form of the state machine's answers, as the exactly-once table keeps them in
// snapshots.
import { palisade } from "../../../proto/gen/palisade.js";
import type { GrantMode, LockGrantInfo, LockHolderInfo } from "../../../proto/lock-values.ts";
import type { ErrorReasonName } from "../../../proto/wire.ts";
import { fail, type Answer } from "../answers.ts";
import { ByteDecodeError, type ByteReader, type ByteWriter } from "./bytes.ts";

/** Each answer kind and grant mode by its code; records, so a new one cannot be left out. */
const KIND_CODE: Readonly<Record<Answer["kind"], number>> = {
  sessionOpened: 0,
  sessionClosed: 1,
  sessionExpired: 2,
  granted: 3,
  notAcquired: 4,
  cancelled: 5,
  waiting: 6,
  released: 7,
  revoked: 8,
  limitsSet: 9,
  error: 10,
  proclaimed: 11,
  policySet: 12,
  tokenCreated: 13,
  tokenRevoked: 14,
};
const MODE_CODE: Readonly<Record<GrantMode, number>> = {
  exclusive: 0,
  shared: 1,
  permit: 2,
  leader: 3,
  upgradeable: 4,
};
const KINDS = codeTable(KIND_CODE);
const MODES = codeTable(MODE_CODE);

function codeTable<K extends string>(codes: Readonly<Record<K, number>>): K[] {
  const table: K[] = [];
  for (const [name, code] of Object.entries(codes) as Array<[K, number]>) table[code] = name;
  return table;
}
const REASONS = palisade.v1.ErrorReason;

export function writeAnswer(w: ByteWriter, answer: Answer): void {
  w.u8(KIND_CODE[answer.kind]);
  switch (answer.kind) {
    case "sessionOpened":
      w.u64(answer.sessionId).uint(answer.ttlMs);
      return;
    case "granted":
      w.u64(answer.token);
      writeHolder(w, answer.holder);
      w.uint(answer.grants.length);
      for (const g of answer.grants)
        w.str(g.lock)
          .u64(g.token)
          .u8(MODE_CODE[g.mode])
          .uint(g.permits ?? 0)
          .uint(g.slot ?? 0);
      return;
    case "notAcquired":
      w.bool(answer.holder !== null);
      if (answer.holder !== null) writeHolder(w, answer.holder);
      w.str(answer.blockedLock ?? "");
      return;
    case "error":
      w.uint(REASONS[answer.reason]).str(answer.message);
      return;
    default:
      return;
  }
}

function writeHolder(w: ByteWriter, h: LockHolderInfo): void {
  w.u64(h.sessionId).str(h.clientName).u64(h.token).u64(h.grantedIndex);
}

function readHolder(r: ByteReader): LockHolderInfo {
  return { sessionId: r.u64(), clientName: r.str(), token: r.u64(), grantedIndex: r.u64() };
}

function readGrant(r: ByteReader): LockGrantInfo {
  const lock = r.str();
  const token = r.u64();
  const mode = MODES[r.u8()];
  const permits = r.uint();
  const slot = r.uint();
  if (mode === undefined) throw new ByteDecodeError("unknown grant mode");
  return mode === "permit" ? { lock, token, mode, permits, slot } : { lock, token, mode };
}

export function readAnswer(r: ByteReader): Answer {
  const kind = KINDS[r.u8()];
  switch (kind) {
    case "sessionOpened":
      return { kind, sessionId: r.u64(), ttlMs: r.uint() };
    case "granted": {
      const token = r.u64();
      const holder = readHolder(r);
      const grants: LockGrantInfo[] = [];
      for (let n = r.count(); n > 0; n--) grants.push(readGrant(r));
      return { kind, token, holder, grants };
    }
    case "notAcquired": {
      const holder = r.bool() ? readHolder(r) : null;
      const blockedLock = r.str();
      return blockedLock === "" ? { kind, holder } : { kind, holder, blockedLock };
    }
    case "error": {
      const reason = REASONS[r.uint()] as ErrorReasonName | "ERROR_REASON_UNSPECIFIED" | undefined;
      if (reason === undefined || reason === "ERROR_REASON_UNSPECIFIED")
        throw new ByteDecodeError("unknown error reason");
      return fail(reason, r.str());
    }
    case undefined:
      throw new ByteDecodeError("unknown answer kind");
    default:
      return { kind };
  }
}
