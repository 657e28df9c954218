// What a grant, or a request left out, answers and emits: the answer the Acquire's seqs
// get and the "acquired" event of each lock.
import type { LockGrant, OkAnswer } from "./answers.ts";
import { firstHolder } from "./holders.ts";
import type { Target } from "./kinds.ts";
import type { LockEvent } from "./outcome.ts";
import type { Holder, HistoryRecord, LockState } from "./state.ts";

/** A grant's answer: its token (and slot), or for a multi-lock Acquire every lock's. */
export function grantedAnswer(grants: readonly Holder[], targets: number): OkAnswer {
  const first = grants[0] as Holder;
  if (targets === 1) {
    const slot = first.terms?.slot ?? -1;
    return slot >= 0 ? { code: "OK", kind: "granted", token: first.token, slot } : { code: "OK", kind: "granted", token: first.token };
  }
  const list: LockGrant[] = grants.map((g) => {
    const slot = g.terms?.slot ?? -1;
    return slot >= 0 ? { lock: g.lock, token: g.token, slot } : { lock: g.lock, token: g.token };
  });
  return { code: "OK", kind: "granted", token: first.token, grants: list };
}

/** Not acquired, naming the oldest holder of the lock that kept the request out (0 and 0 if only a queue did). */
export function notAcquired(t: Target, lock: LockState | undefined, targets: number): OkAnswer {
  const h = lock ? firstHolder(lock) : null;
  const base = { code: "OK", kind: "notAcquired", holderSessionId: h?.sessionId ?? 0n, holderToken: h?.token ?? 0n } as const;
  return targets > 1 ? { ...base, lock: t.lock } : base;
}

/** The "acquired" event of a grant, with the grant's kind fields when it has any. */
export function acquiredEvent(index: number, wallMs: number, r: HistoryRecord, lock: LockState): LockEvent {
  const event: LockEvent = { type: "acquired", index, lock: lock.name, sessionId: r.sessionId, token: r.token, wallMs };
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
