// When a waiting request is granted: the one FIFO rule for every kind of lock and for
// multi-lock requests.
//
// Every lock has one queue, across modes, in the order requests joined it (log order: a
// request joins all its queues at the index of its Acquire). After any entry that frees a
// lock or removes a waiter, waiting requests are considered in the order they joined, and
// one is granted, at that entry's index, when for every lock it names
//   (1) it is first in that lock's queue (requests granted before it in the same entry have
//       left the queue), and
//   (2) the lock can take it beside its current grants: an exclusive request needs no
//       holder, a shared one no exclusive holder, a permit a free slot.
// A new Acquire is granted at once when every lock it names has an empty queue and (2)
// holds; otherwise it waits (or, with wait_ms 0, is not acquired). An entry that ends
// several grants (a session end, a revoke of a token that shared grants share, a hold limit
// of a set) ends them one at a time, a session's in the order it got them, and hands each
// lock on before it ends the next (so a permit granted meanwhile takes the lowest slot free
// then); every grant an entry makes carries its index.
//
// So no request overtakes an earlier one in any queue they share: a queued exclusive request
// keeps later shared ones out (no writer starvation), consecutive shared requests at the
// head go in together, and a set of locks is granted all at one index and holds none of them
// before; a lock it waits for may stay free meanwhile, since the requests behind it in that
// queue may not pass it.
//
// No two waiting requests can deadlock. Take the waiting request R that joined first. A
// request ahead of R in one of its queues would have joined before R and still be waiting;
// there is none, so R is first in all its queues and waits only for current grants to end.
// A grant waits for nothing (a request holds no part of its set before all of it is
// granted), and it ends by a Release, a session end, a revoke or its hold limit, none of
// which waits for R; the entry that ends the last grant in R's way grants R. Then the
// request that joined next is in R's place. So a waiting request waits only for grants and
// for requests that joined before it, and "joined before" has no cycle. Two sets naming the
// same locks in opposite orders (A then B, B then A) are served in the order they joined,
// each whole: the deadlock of client-side recipes needs a session that holds one lock while
// it waits for another, which a set never does.
//
// A grant only adds holders and takes its request out of its queues, so it can let in only
// requests that were behind it. One pass in join order, from the heads of the queues that
// changed and adding the new head behind each grant, therefore grants exactly what the rule
// grants; the requests it looks at come in increasing join order.
import { MinHeap } from "../util/min-heap.ts";
import { fits } from "./holders.ts";
import type { LockState, Waiter } from "./state.ts";

/** Would the rule grant `waiter` now? `lockOf` finds the entry of each lock it waits for. */
export function mayGrant(waiter: Waiter, lockOf: (name: string) => LockState | undefined): boolean {
  for (const target of waiter.targets) {
    const lock = lockOf(target.lock);
    if (!lock || firstWaiter(lock) !== waiter || !fits(lock, target)) return false;
  }
  return true;
}

export function firstWaiter(lock: LockState): Waiter | null {
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
  return a.waitedFrom < b.waitedFrom || (a.waitedFrom === b.waitedFrom && a.sessionId < b.sessionId);
}
