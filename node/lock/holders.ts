// The current grants of one lock. Most locks have one holder at a time, kept as that one
// object; a lock held shared or a semaphore with several grants keeps them in a map by
// session, in grant order. These functions are the only readers and writers of that field.
import type { Target } from "./kinds.ts";
import type { Holder, LockState } from "./state.ts";
import { modeOf } from "./state.ts";

export function holderCount(lock: LockState): number {
  const h = lock.holders;
  return h === null ? 0 : h instanceof Map ? h.size : 1;
}

/** The oldest current grant, or null while the lock is free. */
export function firstHolder(lock: LockState): Holder | null {
  const h = lock.holders;
  if (h === null || !(h instanceof Map)) return h;
  return h.values().next().value as Holder;
}

/** Current grants in grant order. */
export function holdersOf(lock: LockState): Holder[] {
  const h = lock.holders;
  return h === null ? [] : h instanceof Map ? [...h.values()] : [h];
}

export function holderOf(lock: LockState, sessionId: bigint): Holder | undefined {
  const h = lock.holders;
  if (h === null) return undefined;
  if (h instanceof Map) return h.get(sessionId);
  return h.sessionId === sessionId ? h : undefined;
}

export function addHolder(lock: LockState, holder: Holder): void {
  const h = lock.holders;
  if (h === null) lock.holders = holder;
  else if (h instanceof Map) h.set(holder.sessionId, holder);
  else
    lock.holders = new Map([
      [h.sessionId, h],
      [holder.sessionId, holder],
    ]);
}

export function removeHolder(lock: LockState, holder: Holder): void {
  const h = lock.holders;
  if (h === holder) {
    lock.holders = null;
  } else if (h instanceof Map && h.get(holder.sessionId) === holder) {
    h.delete(holder.sessionId);
    // Back to the compact form once one grant is left.
    if (h.size === 1) lock.holders = h.values().next().value as Holder;
  }
}

/**
 * Is the name in use as an election? Its grants and waits are all of mode "leader" then
 * (an election's waits name it alone).
 */
export function isElection(lock: LockState): boolean {
  const holder = firstHolder(lock);
  if (holder !== null) return modeOf(holder) === "leader";
  if (lock.waiters === null) return false;
  const waiter = lock.waiters.values().next().value;
  return waiter?.targets[0]?.mode === "leader";
}

/** Is the lock held, or waited for: then its kind and permit count are fixed. */
export function inUse(lock: LockState): boolean {
  return lock.holders !== null || lock.waiters !== null;
}

/**
 * Can `target` be granted alongside the lock's current grants? (Queue order aside.) Shared
 * grants go beside shared ones and one upgradeable grant; an upgradeable one beside shared
 * ones only, so a lock never has two holders that may both wait to upgrade.
 */
export function fits(lock: LockState, target: Target): boolean {
  const held = holderCount(lock);
  if (held === 0) return true;
  switch (target.mode) {
    case "exclusive":
    case "leader":
      return false;
    case "shared": {
      // Several holders are never exclusive, so the first one tells.
      const mode = modeOf(firstHolder(lock) as Holder);
      return mode === "shared" || mode === "upgradeable";
    }
    case "upgradeable":
      return holdersOf(lock).every((h) => modeOf(h) === "shared");
    case "permit":
      return held < (lock.semaphore?.permits ?? 0);
  }
}

/** Is the session the lock's only holder (what a pending Upgrade waits for)? */
export function soleHolder(lock: LockState, sessionId: bigint): boolean {
  return holderCount(lock) === 1 && firstHolder(lock)?.sessionId === sessionId;
}

/** The oldest holder other than the session (whom its Upgrade waits for), or null. */
export function otherHolder(lock: LockState, sessionId: bigint): Holder | null {
  for (const h of holdersOf(lock)) if (h.sessionId !== sessionId) return h;
  return null;
}
