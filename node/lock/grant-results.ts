// What a grant, or a request left out, answers and emits: the answer the Acquire's seqs
// get (every lock's grant with its mode, permits and slot, and the holder with its client
// name, as the client is told them) and the "acquired" event of each lock.
import type { AcquireAnswer, LockGrantInfo, LockHolderInfo } from "../../proto/lock-values.ts";
import { firstHolder } from "./holders.ts";
import type { Target } from "./kinds.ts";
import type { LockEvent } from "./outcome.ts";
import type { Holder, HistoryRecord, LockState } from "./state.ts";

/** A grant as an answer names its holder. */
export function holderRef(h: Holder): LockHolderInfo {
  return {
    sessionId: h.sessionId,
    clientName: h.clientName,
    token: h.token,
    grantedIndex: BigInt(h.grantedAt),
  };
}

function grantOf(g: Holder, t: Target): LockGrantInfo {
  if (t.mode !== "permit") return { lock: g.lock, token: g.token, mode: t.mode };
  return {
    lock: g.lock,
    token: g.token,
    mode: "permit",
    permits: t.permits,
    slot: g.terms?.slot ?? 0,
  };
}

/** A grant's answer: every lock's grant, in the order the request named them (`grants[i]` is of `targets[i]`). */
export function grantedAnswer(
  grants: readonly Holder[],
  targets: readonly Target[],
): AcquireAnswer {
  const first = grants[0] as Holder;
  return {
    kind: "granted",
    token: first.token,
    holder: holderRef(first),
    grants: grants.map((g, i) => grantOf(g, targets[i] as Target)),
  };
}

/** Not acquired, naming the oldest holder of the lock that kept the request out (none if only a queue did). */
export function notAcquired(
  t: Target,
  lock: LockState | undefined,
  targets: number,
): AcquireAnswer {
  const h = lock ? firstHolder(lock) : null;
  const holder = h === null ? null : holderRef(h);
  return targets > 1
    ? { kind: "notAcquired", holder, blockedLock: t.lock }
    : { kind: "notAcquired", holder };
}

/** The "acquired" event of a grant, with the grant's kind fields when it has any. */
export function acquiredEvent(
  index: number,
  wallMs: number,
  r: HistoryRecord,
  lock: LockState,
): LockEvent {
  const event: LockEvent = {
    type: "acquired",
    index,
    lock: lock.name,
    sessionId: r.sessionId,
    token: r.token,
    wallMs,
  };
  const t = r.terms;
  if (t === null) return event;
  return {
    ...event,
    ...(t.mode !== "exclusive" ? { mode: t.mode } : {}),
    ...(t.slot >= 0 ? { slot: t.slot, permits: lock.semaphore?.permits ?? 0 } : {}),
    ...(t.holderData !== "" ? { holderData: t.holderData } : {}),
    ...(t.holdMs > 0 ? { holdMs: t.holdMs } : {}),
  };
}
