// The lock kinds' fields of the wire messages (LockHolder, LockWaiter, LockGrant, history
// records, Watch events), each set only when it differs from an exclusive grant without
// holder data or hold limit: such a grant's messages keep the bytes they had before the
// kinds (protobufjs writes a field that is set, even to its default).
import { palisade } from "../../proto/gen/palisade.js";
import { toU64 } from "../../proto/wire.ts";
import type { GrantMode, LockTarget } from "../lock/index.ts";

const pb = palisade.v1;
const utf8 = new TextEncoder();

/** What the state's views say of a grant or a request beyond an exclusive lock. */
export interface KindView {
  readonly mode?: GrantMode;
  readonly slot?: number;
  readonly holderData?: string;
  readonly holdMs?: number;
}

export interface WireKindFields {
  mode?: palisade.v1.LockMode;
  permits?: number;
  slot?: number;
  holderData?: Uint8Array;
  holdMs?: ReturnType<typeof toU64>;
}

/** The fields of a grant or request; `permits`: its semaphore's permit count, for a permit. */
export function wireKindFields(v: KindView, permits: number | undefined): WireKindFields {
  return {
    ...(v.mode === "shared" ? { mode: pb.LockMode.LOCK_MODE_SHARED } : {}),
    ...(v.mode === "permit" ? { permits: permits ?? 0, ...(v.slot ? { slot: v.slot } : {}) } : {}),
    ...(v.holderData ? { holderData: utf8.encode(v.holderData) } : {}),
    ...(v.holdMs ? { holdMs: toU64(v.holdMs) } : {}),
  };
}

/** One lock of a multi-lock request as LockWaiter lists it. */
export function wireTarget(t: LockTarget): palisade.v1.LockTarget.$Properties {
  if (t.permits !== undefined) return { lock: t.lock, permits: toU64(t.permits) };
  return t.mode === "shared" ? { lock: t.lock, mode: pb.LockMode.LOCK_MODE_SHARED } : { lock: t.lock };
}
