// When a waiting request is granted: the one FIFO rule for every kind of lock and for
// multi-lock requests. The rule, and why no two waiting requests can deadlock, are in
// docs/lock-kinds.md ("When a waiting request is granted").
import { MinHeap } from "../util/min-heap.ts";
import { fits, soleHolder } from "./holders.ts";
import type { LockState, Waiter } from "./state.ts";

/**
 * Would the rule grant `waiter` now? `lockOf` finds the entry of each lock it waits for. A
 * pending Upgrade is granted once its session is the lock's only holder.
 */
export function mayGrant(waiter: Waiter, lockOf: (name: string) => LockState | undefined): boolean {
  for (const target of waiter.targets) {
    const lock = lockOf(target.lock);
    if (!lock || firstWaiter(lock) !== waiter) return false;
    if (lock.upgrade === waiter ? !soleHolder(lock, waiter.sessionId) : !fits(lock, target))
      return false;
  }
  return true;
}

/** The request the lock serves next: its pending Upgrade, else the head of its queue. */
export function firstWaiter(lock: LockState): Waiter | null {
  if (lock.upgrade !== null) return lock.upgrade;
  return lock.waiters === null ? null : (lock.waiters.values().next().value as Waiter);
}

/**
 * Grants, in join order, what the rule lets in after the locks `changed` lost a grant or a
 * waiter. `grant` takes a granted request out of its queues and makes its grants.
 */
export function grantInJoinOrder(
  changed: Iterable<LockState>,
  lockOf: (name: string) => LockState | undefined,
  grant: (waiter: Waiter) => void,
): void {
  const heads = new JoinOrderHeap();
  for (const lock of changed) heads.push(firstWaiter(lock));
  for (let w = heads.pop(); w !== null; w = heads.pop()) {
    if (!mayGrant(w, lockOf)) continue;
    grant(w);
    for (const target of w.targets) {
      const lock = lockOf(target.lock);
      if (lock) heads.push(firstWaiter(lock));
    }
  }
}

/** Waiters by the index they joined at, each once. */
class JoinOrderHeap {
  private readonly heap = new MinHeap<Waiter>(before);
  private readonly queued = new Set<Waiter>();

  push(w: Waiter | null): void {
    if (w === null || this.queued.has(w)) return;
    this.queued.add(w);
    this.heap.push(w);
  }

  pop(): Waiter | null {
    const top = this.heap.pop();
    if (top === undefined) return null;
    // A waiter looked at and left waiting comes back only as a new head behind a grant.
    this.queued.delete(top);
    return top;
  }
}

/** One Acquire entry starts at most one request, so the index orders them; the session breaks no real tie. */
function before(a: Waiter, b: Waiter): boolean {
  return (
    a.waitedFrom < b.waitedFrom || (a.waitedFrom === b.waitedFrom && a.sessionId < b.sessionId)
  );
}
