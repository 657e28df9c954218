// Cross-checks of the lock state's tables, run by tests, by the simulator after every
// applied entry and on every restored snapshot. Each problem is one line of text.
import { mayGrant } from "./grant-order.ts";
import { holderCount, holderOf, holdersOf, isElection } from "./holders.ts";
import type { LockState, Session, Waiter } from "./state.ts";
import { modeOf } from "./state.ts";

export function checkStateInvariants(
  sessions: ReadonlyMap<bigint, Session>,
  locks: ReadonlyMap<string, LockState>,
): string[] {
  const problems: string[] = [];
  const waiters = new Set<Waiter>();
  for (const lock of locks.values()) {
    checkHolders(lock, sessions, problems);
    if (lock.waiters?.size === 0) problems.push(`lock ${lock.name} keeps an empty queue`);
    // The paged reads continue a queue after a wait's starting index (lock-pages.ts).
    let lastWaitedFrom = 0;
    for (const w of lock.waiters?.values() ?? []) {
      waiters.add(w);
      if (w.waitedFrom <= lastWaitedFrom)
        problems.push(`the queue of ${lock.name} is not in the order its waits began`);
      lastWaitedFrom = w.waitedFrom;
      const session = sessions.get(w.sessionId);
      if (!session)
        problems.push(`lock ${lock.name} has a waiter from missing session ${w.sessionId}`);
      else if (session.waits?.get(lock.name) !== w)
        problems.push(`session ${w.sessionId} does not list its wait on ${lock.name}`);
      if (holderOf(lock, w.sessionId)) problems.push(`holder of ${lock.name} also waits for it`);
      const target = w.targets.find((t) => t.lock === lock.name);
      if (!target) problems.push(`a wait in the queue of ${lock.name} does not name it`);
      else if (
        (target.mode === "permit") !== (lock.semaphore !== null) ||
        (lock.semaphore !== null && lock.semaphore.permits !== target.permits)
      ) {
        problems.push(`a wait for ${lock.name} asks for another kind than the name's`);
      } else if ((target.mode === "leader") !== isElection(lock)) {
        problems.push(`a wait for ${lock.name} mixes an election with a lock`);
      }
    }
    if (lock.holders === null && lock.waiters === null && lock.historyLength === 0)
      problems.push(`unused lock entry ${lock.name}`);
  }
  for (const lock of locks.values()) {
    const upgrade = lock.upgrade;
    if (upgrade === null) continue;
    waiters.add(upgrade);
    const holder = holderOf(lock, upgrade.sessionId);
    if (!holder || modeOf(holder) !== "upgradeable")
      problems.push(`the pending upgrade of ${lock.name} is not of its upgradeable holder`);
    if (sessions.get(upgrade.sessionId)?.waits?.get(lock.name) !== upgrade)
      problems.push(`session ${upgrade.sessionId} does not list its upgrade of ${lock.name}`);
    const t = upgrade.targets;
    if (t.length !== 1 || t[0]?.lock !== lock.name || t[0].mode !== "exclusive")
      problems.push(`the pending upgrade of ${lock.name} asks for something else`);
  }
  // The FIFO rule was applied to the end: no waiting request could be granted now.
  for (const w of waiters) {
    if (mayGrant(w, (name) => locks.get(name)))
      problems.push(`the wait of session ${w.sessionId} for ${w.lock} could be granted`);
    for (const t of w.targets)
      if (!inQueueOf(locks.get(t.lock), w))
        problems.push(`a wait for ${w.lock} is missing from the queue of ${t.lock}`);
  }
  for (const session of sessions.values()) checkSession(session, locks, problems);
  return problems;
}

function checkHolders(
  lock: LockState,
  sessions: ReadonlyMap<bigint, Session>,
  problems: string[],
): void {
  const holders = holdersOf(lock);
  // The paged reads continue a holder list after a grant's token (lock-pages.ts).
  if (holders.some((h, i) => i > 0 && h.token < (holders[i - 1] as typeof h).token))
    problems.push(`the holders of ${lock.name} are not in grant order`);
  for (const holder of holders) {
    const session = sessions.get(holder.sessionId);
    if (!session) problems.push(`lock ${lock.name} held by missing session ${holder.sessionId}`);
    else if (!session.held.has(lock.name))
      problems.push(`session ${holder.sessionId} does not list held lock ${lock.name}`);
    if (holder.lock !== lock.name)
      problems.push(`lock ${lock.name} holds a grant of ${holder.lock}`);
  }
  if (lock.holders instanceof Map && lock.holders.size < 2)
    problems.push(`lock ${lock.name} keeps ${lock.holders.size} holders in a map`);
  const modes = new Set(holders.map(modeOf));
  const semaphore = lock.semaphore;
  if (semaphore !== null) {
    if (holders.length > 0 && (modes.size !== 1 || !modes.has("permit")))
      problems.push(`semaphore ${lock.name} has a grant that is not a permit`);
    if (holders.length > semaphore.permits)
      problems.push(
        `semaphore ${lock.name} has ${holders.length} grants of ${semaphore.permits} permits`,
      );
    const slots = new Set(holders.map((h) => h.terms?.slot ?? -1));
    if (slots.size !== holders.length || [...slots].some((s) => s < 0 || s >= semaphore.permits))
      problems.push(`semaphore ${lock.name} has slots out of range or taken twice`);
    if (semaphore.slots.used !== holders.length)
      problems.push(
        `semaphore ${lock.name} counts ${semaphore.slots.used} slots taken for ${holders.length} grants`,
      );
  } else {
    if (modes.has("permit")) problems.push(`lock ${lock.name} has a permit grant`);
    if (modes.has("exclusive") && holderCount(lock) > 1)
      problems.push(`lock ${lock.name} has an exclusive grant beside others`);
    if (modes.has("leader") && holderCount(lock) > 1)
      problems.push(`election ${lock.name} has ${holderCount(lock)} leaders`);
    if (holders.filter((h) => modeOf(h) === "upgradeable").length > 1)
      problems.push(`lock ${lock.name} has more than one upgradeable grant`);
  }
}

/** Is the wait the lock's pending upgrade or in its queue? */
function inQueueOf(lock: LockState | undefined, w: Waiter): boolean {
  return lock?.upgrade === w || lock?.waiters?.get(w.sessionId) === w;
}

function checkSession(
  session: Session,
  locks: ReadonlyMap<string, LockState>,
  problems: string[],
): void {
  for (const name of session.held) {
    const lock = locks.get(name);
    if (!lock || !holderOf(lock, session.id))
      problems.push(`session ${session.id} lists ${name} but does not hold it`);
  }
  let pendingSeqs = 0;
  for (const [name, w] of session.waits ?? []) {
    if (!w.targets.some((t) => t.lock === name))
      problems.push(`session ${session.id} lists a wait under ${name}, which it does not name`);
    if (!inQueueOf(locks.get(name), w))
      problems.push(`session ${session.id} lists a wait on ${name} that the lock does not have`);
  }
  for (const w of new Set(session.waits?.values() ?? [])) {
    pendingSeqs += w.seqs.length;
    for (const seq of w.seqs)
      if (session.pending?.get(seq) !== w.lock)
        problems.push(`seq ${seq} of session ${session.id} not pending`);
  }
  if (pendingSeqs !== (session.pending?.size ?? 0))
    problems.push(`session ${session.id} pending count mismatch`);
  if (session.waits?.size === 0 || session.pending?.size === 0 || session.dropped?.size === 0)
    problems.push(`session ${session.id} keeps an empty table`);
  for (const seq of session.answers.keys())
    if (seq <= session.mark) problems.push(`session ${session.id} keeps acknowledged seq ${seq}`);
}
