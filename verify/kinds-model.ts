// Sequential specification of the lock kinds, for the linearizability checker: locks taken
// exclusive or shared, counted semaphores with a slot per permit, and multi-lock requests,
// all under the one FIFO rule of node/lock/grant-order.ts. One model instance covers a
// group of locks that multi-lock requests tie together.
//
// What a client sees of a waiting Acquire is one call and its final answer, but the request
// acts twice: it joins the queues (and so keeps later requests out), then it is granted or
// leaves. So such an Acquire is two operations over the same interval: "join" and
// "resolve". Grants are not operations of their own: they follow deterministically from the
// queues whenever a grant or a wait ends, all grants of one such step sharing a token (the
// index of that entry), as in the state machine. Tokens are symbolic until an answer or a
// read shows them; each step's token lies above every earlier step's. An entry that ends
// several grants (a session end, a revoke of several) ends them one at a time, the session's
// in the order it got them, and hands each lock on before the next ends, as the state
// machine does (a permit's slot can depend on it).
//
// The model does not cover two Acquires of one session waiting for the same lock at once
// (the client library never sends them): such a second "join" cannot take effect.
import type { GrantMode, Target } from "../node/lock/kinds.ts";
import type { Model } from "./linearizable.ts";
import {
  forgetPast,
  type EndedSession,
  type HolderOutcome,
  type LockOutput,
} from "./lock-model.ts";

export type KindsInput =
  /** An Acquire with wait_ms 0: granted or not at once. */
  | { kind: "try"; req: string; session: bigint; targets: readonly Target[] }
  /**
   * A waiting Acquire joins the queues of all its locks, or is granted at once.
   * `neverGranted`: its answer is known and is no grant (not acquired, cancelled), so a
   * state that grants it is a dead end at once rather than at that answer. `answerUnknown`:
   * its answer never came, so once it is granted (or its session ends) nothing looks at it.
   */
  | {
      kind: "join";
      req: string;
      session: bigint;
      targets: readonly Target[];
      neverGranted?: boolean;
      answerUnknown?: boolean;
    }
  /** The waiting Acquire's final answer: granted, timed out (not acquired), cancelled, or its session ended. */
  | { kind: "resolve"; req: string; session: bigint; targets: readonly Target[] }
  | { kind: "release"; session: bigint; lock: string; token: bigint }
  /** Grants one entry of the log ended (RevokeLock, hold limit). */
  | {
      kind: "revoke";
      grants: ReadonlyArray<{
        readonly lock: string;
        readonly session: bigint;
        readonly token: bigint;
      }>;
    }
  | { kind: "read"; lock: string }
  | { kind: "validate"; lock: string; token: bigint }
  | { kind: "sessionEnd"; session: bigint; relevantUntil?: number };

interface Holder {
  readonly session: bigint;
  readonly mode: GrantMode;
  readonly slot: number;
  /** The step that granted it: its token. */
  readonly step: number;
  /** Grants in the order they were made (a session end releases them in this order). */
  readonly order: number;
}

interface LockState {
  readonly name: string;
  /** A semaphore's permit count; 0 for a lock. */
  readonly permits: number;
  /** In grant order. */
  readonly holders: readonly Holder[];
  /** Request ids in join order. */
  readonly queue: readonly string[];
}

interface Request {
  readonly id: string;
  readonly session: bigint;
  readonly targets: readonly Target[];
  readonly join: number;
  /** queued; granted (by `step`, with `slots`); held: the session held it all when it asked (not reentrant by count); ended: its session ended while it waited. */
  readonly status: "queued" | "granted" | "held" | "ended";
  readonly step: number;
  readonly slots: readonly number[];
  readonly neverGranted: boolean;
  readonly answerUnknown: boolean;
}

/** The token of one granting step: known, or only bounded. */
interface Step {
  readonly id: number;
  readonly token: bigint | null;
  readonly low: bigint;
  readonly high: bigint | null;
}

export interface KindsState {
  /** Locks held or waited for, by name. */
  readonly locks: readonly LockState[];
  readonly requests: readonly Request[];
  readonly steps: readonly Step[];
  /** Lowest token the next step may have, less one. */
  readonly highest: bigint;
  readonly ended: readonly EndedSession[];
  readonly joins: number;
  readonly grantsMade: number;
  readonly nextStep: number;
  /** Cancelled requests that never joined: their join can no longer take effect. */
  readonly never: readonly string[];
  /** No operation shows a queue's order (see sortInterchangeable); fixed for a search. */
  readonly queueOrderUnseen: boolean;
}

const initial: KindsState = {
  locks: [],
  requests: [],
  steps: [],
  highest: 0n,
  ended: [],
  joins: 0,
  grantsMade: 0,
  nextStep: 1,
  never: [],
  queueOrderUnseen: false,
};

// ------------------------------------------------------------------ small helpers

const lockOf = (s: KindsState, name: string): LockState | undefined =>
  s.locks.find((l) => l.name === name);
const requestOf = (s: KindsState, id: string): Request | undefined =>
  s.requests.find((r) => r.id === id);
const hasEnded = (s: KindsState, session: bigint): boolean =>
  s.ended.some((e) => e.session === session);

function withLock(s: KindsState, lock: LockState): KindsState {
  const idle = lock.holders.length === 0 && lock.queue.length === 0;
  const others = s.locks.filter((l) => l.name !== lock.name);
  const placed = s.queueOrderUnseen ? { ...lock, queue: sortInterchangeable(s, lock.queue) } : lock;
  // An idle lock says nothing a missing one does not.
  const locks = idle
    ? others
    : [...others, placed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...s, locks };
}

/**
 * The queue with each run of interchangeable neighbours sorted by id: requests answered
 * with no grant (never granted in a linearization that holds) asking this lock alone in one
 * mode (one permit count). Swapping two of them changes nothing any later step sees unless
 * a read shows the queue: at the head either is granted (a dead end) or neither is, behind
 * them the same requests wait, and each leaves as it would. So the orders in which a pile of
 * waits that all time out could have joined are one state, not one per order.
 */
function sortInterchangeable(s: KindsState, queue: readonly string[]): readonly string[] {
  const classOf = (id: string): string | null => {
    const r = requestOf(s, id);
    const t = r?.targets[0];
    if (!r || !r.neverGranted || r.targets.length !== 1 || !t) return null;
    return t.mode === "permit" ? `permit/${t.permits}` : t.mode;
  };
  let sorted: string[] | null = null;
  for (let i = 0; i < queue.length;) {
    const c = classOf(queue[i] as string);
    let j = i + 1;
    if (c !== null) while (j < queue.length && classOf(queue[j] as string) === c) j++;
    if (j - i > 1) {
      const run = queue.slice(i, j);
      const ordered = [...run].sort();
      if (ordered.some((id, k) => id !== run[k])) {
        sorted ??= [...queue];
        sorted.splice(i, j - i, ...ordered);
      }
    }
    i = j;
  }
  return sorted ?? queue;
}

function withRequest(s: KindsState, r: Request): KindsState {
  const others = s.requests.filter((x) => x.id !== r.id);
  // A request with no answer matters only while it waits (a wait may end without a grant):
  // kept once it is granted, it would only split one state into two.
  return { ...s, requests: r.answerUnknown && r.status !== "queued" ? others : [...others, r] };
}

function withoutRequest(s: KindsState, id: string): KindsState {
  return { ...s, requests: s.requests.filter((x) => x.id !== id) };
}

function emptyLock(name: string, t: Target): LockState {
  return { name, permits: t.mode === "permit" ? t.permits : 0, holders: [], queue: [] };
}

/** Can `t` be granted beside the lock's grants (queue aside)? */
function fits(lock: LockState, t: Target): boolean {
  if (lock.holders.length === 0) return true;
  if (t.mode === "exclusive") return false;
  if (t.mode === "shared") return lock.holders[0]?.mode === "shared";
  return lock.holders.length < lock.permits;
}

/** Is the name in use as another kind (or permit count) than `t` asks for? */
function otherKind(lock: LockState | undefined, t: Target): boolean {
  if (!lock) return false;
  return (
    lock.permits > 0 !== (t.mode === "permit") ||
    (t.mode === "permit" && lock.permits !== t.permits)
  );
}

function lowestFreeSlot(lock: LockState): number {
  const taken = new Set(lock.holders.map((h) => h.slot));
  let slot = 0;
  while (taken.has(slot)) slot++;
  return slot;
}

// ------------------------------------------------------------------ tokens

function newStep(s: KindsState): [KindsState, number] {
  const id = s.nextStep;
  const low = s.highest + 1n;
  return [
    {
      ...s,
      nextStep: id + 1,
      highest: low,
      steps: [...s.steps, { id, token: null, low, high: null }],
    },
    id,
  ];
}

/**
 * The state in which step `id` has token `token`, or null if it cannot: another token is
 * known for it, or the token is out of its bounds (above every earlier step, below every
 * later one).
 */
function fixToken(s: KindsState, id: number, token: bigint): KindsState | null {
  const step = s.steps.find((x) => x.id === id);
  if (!step) return null;
  if (step.token !== null) return step.token === token ? s : null;
  if (token < step.low || (step.high !== null && token > step.high)) return null;
  const steps = s.steps.map((x) => {
    if (x.id === id) return { ...x, token, low: token, high: token };
    if (x.token !== null) return x;
    if (x.id < id)
      return { ...x, high: x.high === null || token - 1n < x.high ? token - 1n : x.high };
    return { ...x, low: token + 1n > x.low ? token + 1n : x.low };
  });
  if (steps.some((x) => x.high !== null && x.low > x.high)) return null;
  return { ...s, steps, highest: token > s.highest ? token : s.highest };
}

/** Could step `id` have token `token`? (Without fixing it.) */
function mayHaveToken(s: KindsState, id: number, token: bigint): boolean {
  return fixToken(s, id, token) !== null;
}

function knownToken(s: KindsState, id: number): bigint | null {
  return s.steps.find((x) => x.id === id)?.token ?? null;
}

/** Drops the bounds of steps nothing refers to any more. */
function pruneSteps(s: KindsState): KindsState {
  const used = new Set<number>();
  for (const l of s.locks) for (const h of l.holders) used.add(h.step);
  for (const r of s.requests) if (r.status === "granted") used.add(r.step);
  if (s.steps.every((x) => used.has(x.id))) return s;
  return { ...s, steps: s.steps.filter((x) => used.has(x.id)) };
}

// ------------------------------------------------------------------ grants

/** Grants `req` by step `step`: a grant on every lock it names, out of every queue. */
function grantRequest(s: KindsState, req: Request, step: number): KindsState {
  let state = s;
  const slots: number[] = [];
  for (const t of req.targets) {
    const lock = lockOf(state, t.lock) ?? emptyLock(t.lock, t);
    const claimed =
      lock.holders.length === 0 && lock.queue.filter((q) => q !== req.id).length === 0
        ? { ...lock, permits: emptyLock(t.lock, t).permits }
        : lock;
    const slot = t.mode === "permit" ? lowestFreeSlot(claimed) : -1;
    slots.push(slot);
    state = withLock(
      { ...state, grantsMade: state.grantsMade + 1 },
      {
        ...claimed,
        holders: [
          ...claimed.holders,
          { session: req.session, mode: t.mode, slot, step, order: state.grantsMade },
        ],
        queue: claimed.queue.filter((q) => q !== req.id),
      },
    );
  }
  return withRequest(state, { ...req, status: "granted", step, slots });
}

/** Could `req` be granted now by the FIFO rule (first in every queue it is in, fitting every lock)? */
function grantable(s: KindsState, req: Request): boolean {
  return req.targets.every((t) => {
    const lock = lockOf(s, t.lock);
    if (!lock) return true;
    if (lock.queue.length > 0 && lock.queue[0] !== req.id) return false;
    return fits(lock, t);
  });
}

/**
 * After a grant or a wait ended: grants, in join order, what the rule lets in, by the
 * entry's step `step` (made when first needed; -1: none yet). Returns the step it used,
 * or null if the rule grants a request whose answer says it was never granted.
 */
function admitInto(s: KindsState, step: number): [KindsState, number] | null {
  let state = s;
  let used = step;
  const queued = state.requests
    .filter((r) => r.status === "queued")
    .sort((a, b) => a.join - b.join);
  for (const r of queued) {
    const current = requestOf(state, r.id) as Request;
    if (!grantable(state, current)) continue;
    if (current.neverGranted) return null;
    if (used < 0) [state, used] = newStep(state);
    state = grantRequest(state, current, used);
  }
  return [state, used];
}

/** After an entry ended one grant or wait: what the rule lets in, as one step. */
function admitWaiting(s: KindsState): KindsState | null {
  const admitted = admitInto(s, -1);
  return admitted === null ? null : pruneSteps(admitted[0]);
}

function leaveQueues(s: KindsState, req: Request): KindsState {
  let state = s;
  for (const t of req.targets) {
    const lock = lockOf(state, t.lock);
    if (lock) state = withLock(state, { ...lock, queue: lock.queue.filter((q) => q !== req.id) });
  }
  return state;
}

// ------------------------------------------------------------------ operations

/** Held already, in the same modes: the grants; in another mode or only in part: null (refused). */
function heldAlready(
  s: KindsState,
  session: bigint,
  targets: readonly Target[],
): Holder[] | "none" | null {
  const held: Holder[] = [];
  for (const t of targets) {
    const h = lockOf(s, t.lock)?.holders.find((x) => x.session === session);
    if (!h) continue;
    if (h.mode !== t.mode) return null;
    held.push(h);
  }
  if (held.length === 0) return "none";
  return held.length === targets.length ? held : null;
}

/** Refused in the state machine (another kind, or a wait of the session for one of its locks): null. */
function refused(s: KindsState, session: bigint, targets: readonly Target[]): boolean {
  return targets.some((t) => {
    const lock = lockOf(s, t.lock);
    return (
      otherKind(lock, t) || lock?.queue.some((id) => requestOf(s, id)?.session === session) === true
    );
  });
}

/** A new request granted at once (every queue empty, every lock fits)? */
function grantableNow(s: KindsState, targets: readonly Target[]): boolean {
  return targets.every((t) => {
    const lock = lockOf(s, t.lock);
    return !lock || (lock.queue.length === 0 && fits(lock, t));
  });
}

function newRequest(
  s: KindsState,
  id: string,
  session: bigint,
  targets: readonly Target[],
  neverGranted = false,
  answerUnknown = false,
): Request {
  return {
    id,
    session,
    targets,
    join: s.joins,
    status: "queued",
    step: -1,
    slots: [],
    neverGranted,
    answerUnknown,
  };
}

/** Checks a grant's answer against the request's grants: tokens, slots, the locks it lists. */
function checkGranted(
  s: KindsState,
  req: Request,
  out: Extract<LockOutput, { kind: "granted" }>,
): KindsState | null {
  const multi = req.targets.length > 1;
  if (multi !== (out.grants !== undefined)) return null;
  if (
    out.grants &&
    (out.grants.length !== req.targets.length ||
      out.grants.some((g, i) => g.lock !== req.targets[i]?.lock))
  )
    return null;
  if (req.status === "granted") {
    const state: KindsState | null = fixToken(s, req.step, out.token);
    for (const [i, g] of (out.grants ?? []).entries()) {
      if (state === null || g.token !== out.token || (g.slot ?? -1) !== req.slots[i]) return null;
    }
    if (!multi && (out.slot ?? -1) !== req.slots[0]) return null;
    return state;
  }
  if (req.status === "held") {
    // Not reentrant by count: the session's grants, as they stand.
    let state: KindsState | null = s;
    for (const [i, t] of req.targets.entries()) {
      const h = lockOf(s, t.lock)?.holders.find((x) => x.session === req.session);
      const token = out.grants ? out.grants[i]?.token : out.token;
      const slot = out.grants ? out.grants[i]?.slot : out.slot;
      if (state === null || !h || token === undefined || (slot ?? -1) !== h.slot) return null;
      state = fixToken(state, h.step, token);
    }
    return state;
  }
  return null;
}

function stepTry(
  s: KindsState,
  input: Extract<KindsInput, { kind: "try" }>,
  out: LockOutput | undefined,
): KindsState | null {
  const { session, targets } = input;
  if (out?.kind === "sessionNotFound") return hasEnded(s, session) ? s : null;
  if (out?.kind === "cancelled") return s; // cancelled before it applied: no effect
  if (hasEnded(s, session)) return null;
  const held = heldAlready(s, session, targets);
  if (held === null || refused(s, session, targets)) return null;
  if (held !== "none") {
    if (out === undefined) return null;
    return out.kind === "granted"
      ? checkGranted(s, { ...newRequest(s, input.req, session, targets), status: "held" }, out)
      : null;
  }
  const now = grantableNow(s, targets);
  if (out === undefined || out.kind === "granted") {
    if (!now) return null;
    const [stepped, step] = newStep(s);
    const granted = grantRequest(
      { ...stepped, joins: stepped.joins + 1 },
      newRequest(s, input.req, session, targets),
      step,
    );
    const req = requestOf(granted, input.req) as Request;
    const checked = out === undefined ? granted : checkGranted(granted, req, out);
    return checked === null ? null : withoutRequest(checked, input.req);
  }
  if (out.kind === "notAcquired") {
    if (now) return null;
    if (out.lock !== undefined && !targets.some((t) => t.lock === out.lock)) return null;
    return s;
  }
  throw new Error(`an Acquire cannot answer ${out.kind}`);
}

function stepJoin(s: KindsState, input: Extract<KindsInput, { kind: "join" }>): KindsState | null {
  const { session, targets } = input;
  if (s.never.includes(input.req)) return null;
  // The Acquire applied after its session ended: answered NOT_FOUND, no effect.
  if (hasEnded(s, session)) return s;
  const held = heldAlready(s, session, targets);
  if (held === null || refused(s, session, targets)) return null;
  const req = newRequest(
    s,
    input.req,
    session,
    targets,
    input.neverGranted ?? false,
    input.answerUnknown ?? false,
  );
  if (held !== "none") return withRequest(s, { ...req, status: "held" });
  const joined = { ...s, joins: s.joins + 1 };
  if (grantableNow(s, targets)) {
    if (req.neverGranted) return null;
    const [stepped, step] = newStep(joined);
    return grantRequest(stepped, req, step);
  }
  let state: KindsState = withRequest(joined, req);
  for (const t of targets) {
    const lock = lockOf(state, t.lock) ?? emptyLock(t.lock, t);
    state = withLock(state, { ...lock, queue: [...lock.queue, req.id] });
  }
  return state;
}

function stepResolve(
  s: KindsState,
  input: Extract<KindsInput, { kind: "resolve" }>,
  out: LockOutput | undefined,
): KindsState | null {
  const req = requestOf(s, input.req);
  if (out === undefined) {
    // Unknown: what changes anything is that the wait ended without a grant.
    if (!req) return null;
    if (req.status === "queued") return admitWaiting(withoutRequest(leaveQueues(s, req), req.id));
    return pruneSteps(withoutRequest(s, req.id));
  }
  switch (out.kind) {
    case "granted": {
      if (!req) return null;
      const checked = checkGranted(s, req, out);
      return checked === null ? null : pruneSteps(withoutRequest(checked, req.id));
    }
    case "notAcquired":
      // The wait ran out while the request was queued.
      if (!req || req.status !== "queued") return null;
      if (out.lock !== undefined && !req.targets.some((t) => t.lock === out.lock)) return null;
      return admitWaiting(withoutRequest(leaveQueues(s, req), req.id));
    case "cancelled":
      if (!req) return { ...s, never: [...s.never, input.req].sort() };
      if (req.status !== "queued") return null;
      return admitWaiting(withoutRequest(leaveQueues(s, req), req.id));
    case "sessionNotFound":
      if (!hasEnded(s, input.session)) return null;
      return req ? pruneSteps(withoutRequest(s, req.id)) : s;
    default:
      throw new Error(`an Acquire cannot answer ${out.kind}`);
  }
}

function stepRelease(
  s: KindsState,
  input: Extract<KindsInput, { kind: "release" }>,
  out: LockOutput | undefined,
): KindsState | null {
  const lock = lockOf(s, input.lock);
  const h = lock?.holders.find((x) => x.session === input.session);
  const release = (): KindsState | null => {
    if (!lock || !h) return null;
    const fixed = fixToken(s, h.step, input.token);
    if (fixed === null) return null;
    const slotFreed = { ...lock, holders: lock.holders.filter((x) => x !== h) };
    return admitWaiting(withLock(fixed, slotFreed));
  };
  if (out === undefined) return release();
  switch (out.kind) {
    case "ok":
      return release();
    case "failedPrecondition":
      // With an unknown token the release may have named another one.
      return h && knownToken(s, h.step) === input.token ? null : s;
    case "sessionNotFound":
      return hasEnded(s, input.session) ? s : null;
    default:
      throw new Error(`a Release cannot answer ${out.kind}`);
  }
}

/** Grants the log ended at one entry, in the order it ended them, each lock handed on before the next ends. */
function stepRevoke(
  s: KindsState,
  input: Extract<KindsInput, { kind: "revoke" }>,
): KindsState | null {
  let state: KindsState | null = s;
  let step = -1;
  for (const g of input.grants) {
    const lock: LockState | undefined = state === null ? undefined : lockOf(state, g.lock);
    const h = lock?.holders.find((x) => x.session === g.session);
    if (state === null || !lock || !h) return null;
    state = fixToken(state, h.step, g.token);
    if (state === null) return null;
    const admitted = admitInto(
      withLock(state, { ...lock, holders: lock.holders.filter((x) => x !== h) }),
      step,
    );
    if (admitted === null) return null;
    [state, step] = admitted;
  }
  return state === null ? null : pruneSteps(state);
}

function stepRead(
  s: KindsState,
  input: Extract<KindsInput, { kind: "read" }>,
  out: LockOutput | undefined,
): KindsState | null {
  if (out === undefined) return null;
  if (out.kind !== "read") throw new Error(`a read cannot answer ${out.kind}`);
  const lock = lockOf(s, input.lock);
  const holders = lock?.holders ?? [];
  if (out.waiters !== undefined) {
    const queued = (lock?.queue ?? []).map((id) => requestOf(s, id)?.session);
    if (queued.length !== out.waiters.length || queued.some((x, i) => x !== out.waiters?.[i]))
      return null;
  }
  if (out.holder === null) return holders.length === 0 && out.token === null ? s : null;
  const first = holders[0];
  if (!first || first.session !== out.holder || out.token === null) return null;
  let state: KindsState | null = fixToken(s, first.step, out.token);
  if (out.holders !== undefined) {
    if (out.holders.length !== holders.length) return null;
    for (const o of out.holders) {
      const h = holders.find((x) => x.session === o.session);
      if (state === null || !h || !sameHolder(h, o)) return null;
      state = fixToken(state, h.step, o.token);
    }
  }
  return state;
}

function sameHolder(h: Holder, o: HolderOutcome): boolean {
  return (o.mode ?? "exclusive") === h.mode && (o.slot ?? -1) === h.slot;
}

function stepValidate(
  s: KindsState,
  input: Extract<KindsInput, { kind: "validate" }>,
  out: LockOutput | undefined,
): KindsState | null {
  if (out === undefined) return null;
  if (out.kind !== "validated") throw new Error(`a validation cannot answer ${out.kind}`);
  const holders = lockOf(s, input.lock)?.holders ?? [];
  // Checked without fixing a token (several grants may share or await one): accepts a little more.
  if (out.valid) return holders.some((h) => mayHaveToken(s, h.step, input.token)) ? s : null;
  return holders.some((h) => knownToken(s, h.step) === input.token) ? null : s;
}

/** A close or expiry: the session's waits end, then its grants one at a time in the order it got them, all in one entry's step. */
function stepSessionEnd(s: KindsState, session: bigint, relevantUntil: number): KindsState | null {
  const ended = hasEnded(s, session)
    ? s.ended
    : [...s.ended, { session, relevantUntil }].sort((a, b) => (a.session < b.session ? -1 : 1));
  let state: KindsState = { ...s, ended };
  for (const lock of state.locks) {
    const gone = lock.queue.filter((id) => requestOf(state, id)?.session === session);
    if (gone.length > 0)
      state = withLock(state, { ...lock, queue: lock.queue.filter((id) => !gone.includes(id)) });
  }
  const endsWait = (r: Request): boolean => r.session === session && r.status === "queued";
  const requests = state.requests
    .filter((r) => !(endsWait(r) && r.answerUnknown))
    .map((r) => (endsWait(r) ? { ...r, status: "ended" as const } : r));
  state = { ...state, requests };
  let admitted = admitInto(state, -1);
  if (admitted === null) return null;
  [state] = admitted;
  const held = state.locks.flatMap((l) =>
    l.holders.filter((h) => h.session === session).map((h) => ({ lock: l.name, order: h.order })),
  );
  for (const { lock: name } of held.sort((a, b) => a.order - b.order)) {
    const lock = lockOf(state, name) as LockState;
    admitted = admitInto(
      withLock(state, { ...lock, holders: lock.holders.filter((h) => h.session !== session) }),
      admitted[1],
    );
    if (admitted === null) return null;
    [state] = admitted;
  }
  return pruneSteps(state);
}

/**
 * Taking the operation changes nothing now or later: the end of a session that holds and
 * waits for nothing here and whose operations are all linearized; an operation of an ended
 * session that cannot take effect any more (a join answered as if not found; a try or a
 * release of unknown outcome, as an ended session holds nothing and is granted nothing).
 */
function inert(
  s: KindsState,
  input: KindsInput,
  output: LockOutput | undefined,
  now: number,
): boolean {
  switch (input.kind) {
    case "sessionEnd":
      return (
        (input.relevantUntil ?? Infinity) < now &&
        !s.requests.some((r) => r.session === input.session) &&
        !s.locks.some((l) => l.holders.some((h) => h.session === input.session))
      );
    case "join":
      return hasEnded(s, input.session) && !s.never.includes(input.req);
    case "try":
    case "release":
      return output === undefined && hasEnded(s, input.session);
    default:
      return false;
  }
}

// ------------------------------------------------------------------ the model

function describeTargets(targets: readonly Target[]): string {
  return targets
    .map((t) =>
      t.mode === "permit"
        ? `${t.lock}/${t.permits}`
        : t.mode === "shared"
          ? `${t.lock}(s)`
          : t.lock,
    )
    .join("+");
}

function describeOutput(out: LockOutput | undefined): string {
  if (out === undefined) return "?";
  switch (out.kind) {
    case "granted":
      return `granted(${out.token}${out.slot !== undefined ? ` slot ${out.slot}` : ""})`;
    case "notAcquired":
      return `notAcquired(${out.lock ?? ""})`;
    case "read":
      return out.holder === null
        ? "free"
        : `held(${(out.holders ?? [{ session: out.holder, token: out.token }]).map((h) => `s${h.session}:${h.token}`).join(",")})${out.waiters ? ` waiters ${out.waiters.map((w) => `s${w}`).join(",")}` : ""}`;
    case "validated":
      return out.valid ? "valid" : "invalid";
    default:
      return out.kind;
  }
}

function describeInput(input: KindsInput): string {
  switch (input.kind) {
    case "try":
    case "join":
    case "resolve":
      return `${input.kind}(s${input.session} ${describeTargets(input.targets)})`;
    case "release":
      return `release(s${input.session}, ${input.lock}, ${input.token})`;
    case "revoke":
      return `revoke(${input.grants.map((g) => `s${g.session} ${g.lock} ${g.token}`).join(", ")})`;
    case "read":
      return `read(${input.lock})`;
    case "validate":
      return `validate(${input.lock}, ${input.token})`;
    case "sessionEnd":
      return `sessionEnd(s${input.session})`;
  }
}

function stateKey(s: KindsState): string {
  const locks = s.locks.map(
    (l) =>
      `${l.name}${l.permits > 0 ? `/${l.permits}` : ""}[${l.holders.map((h) => `s${h.session}${h.mode[0]}${h.slot >= 0 ? h.slot : ""}@${h.step}#${h.order}`).join(" ")}|${l.queue.join(" ")}]`,
  );
  const requests = s.requests
    .map((r) => `${r.id}:${r.status}${r.status === "granted" ? `@${r.step}` : ""}`)
    .sort();
  const steps = s.steps.map((x) => `${x.id}=${x.token ?? `${x.low}..${x.high ?? ""}`}`);
  return `${locks.join(" ")} ; ${requests.join(",")} ; ${steps.join(",")} ; highest ${s.highest} ; ended {${s.ended.map((e) => e.session).join(",")}} ; never {${s.never.join(",")}}`;
}

/** The lock kinds' model for a history in which reads may show the order of a queue (`waiters`). */
export const kindsModel: Model<KindsState, KindsInput, LockOutput> = {
  init: () => initial,
  step(current, input, output, now) {
    const s = forgetPast(current, now);
    switch (input.kind) {
      case "try":
        return stepTry(s, input, output);
      case "join":
        return stepJoin(s, input);
      case "resolve":
        return stepResolve(s, input, output);
      case "release":
        return stepRelease(s, input, output);
      case "revoke":
        return stepRevoke(s, input);
      case "read":
        return stepRead(s, input, output);
      case "validate":
        return stepValidate(s, input, output);
      case "sessionEnd":
        return stepSessionEnd(s, input.session, input.relevantUntil ?? Infinity);
    }
  },
  inert: (s, input, output, now) => inert(forgetPast(s, now), input, output, now),
  key: stateKey,
  describe: (input, output) =>
    input.kind === "sessionEnd" || input.kind === "join" || input.kind === "revoke"
      ? describeInput(input)
      : `${describeInput(input)} -> ${describeOutput(output)}`,
};

/**
 * The same model for a history in which no read shows the order of a queue: it then keeps
 * interchangeable waiters in one order (sortInterchangeable), which the search needs when
 * many waits time out behind a held lock at once.
 */
export const kindsModelQueueUnseen: Model<KindsState, KindsInput, LockOutput> = {
  ...kindsModel,
  init: () => ({ ...initial, queueOrderUnseen: true }),
};
