// Linearizability checking of a recorded history against a sequential model.
//
// The engine is the Wing & Gong search with Lowe's memoisation, as in Knossos and
// Porcupine: walk a linked list of call and return events; linearize any operation whose
// call comes before the first pending return, backtrack when a return is reached with
// its operation not yet linearized, and never revisit a (set of linearized operations,
// model state) pair. An operation with an unknown outcome (ret null) has its return at
// +Infinity and never needs to be linearized: it may take effect at any point after its
// call, or never.
//
// The lock front end partitions a history by lock name (locks are independent, so the
// history is linearizable iff each partition is) and projects each session-ending event
// into every lock its session touches. Locks that multi-lock requests name together form one
// partition. A partition of exclusive locks only is checked against the exclusive lock's
// model (lock-model.ts); one using a lock kind (a mode, a semaphore, a set, or the `waits`
// flag that asks for the FIFO rules) against the kinds' model (kinds-model.ts).
import { targetOf, type LockMode, type LockTarget, type Target } from "../../../node/lock/kinds.ts";
import { kindsModel, kindsModelQueueUnseen, type KindsInput } from "./kinds-model.ts";
import { lockModel } from "./lock-model.ts";
import type {
  AcquireOutcome,
  LockInput,
  LockOutput,
  ReadOutcome,
  ReleaseOutcome,
  ValidateOutcome,
} from "./lock-model.ts";

export interface Model<S, I, O> {
  init(): S;
  /**
   * The state after the operation, or null if it cannot take effect in `state` with
   * that output. For an operation with an unknown outcome `output` is undefined: return
   * the state after some legal outcome that changes the state, or null if none does
   * (not taking effect at all is always explored by skipping the operation).
   * States are treated as immutable. `now` is at least the operation's call time, and
   * every operation that returned before it has already been linearized (it is the
   * earliest return of the operations not yet linearized), which lets a model drop state
   * that no later operation can depend on.
   */
  step(state: S, input: I, output: O | undefined, now: number): S | null;
  /**
   * Optional: true only if the operation, taken in `state` (at `now`, as in `step`), leaves
   * a state that no later step can tell from `state`, and would do so in every state the
   * search can reach from here. The search then takes it at once and never explores
   * taking it later: any linearization that takes it later is as good with it taken now.
   * This is what keeps a history with many long-pending operations that no longer matter
   * (the end of a session that holds nothing and will never act again) from doubling the
   * search for each of them.
   */
  inert?(state: S, input: I, output: O | undefined, now: number): boolean;
  /** Equal keys for equal states (memoisation). */
  key(state: S): string;
  /** Human-readable form of an operation, for failure reports. */
  describe?(input: I, output: O | undefined): string;
}

export type OpId = number | string;

export interface Operation<I, O> {
  id: OpId;
  /** Time of the call. Equal call and return times count as concurrent. */
  call: number;
  /** Time of the return; null (or Infinity) when the outcome is unknown. */
  ret: number | null;
  input: I;
  output?: O;
}

export type CheckResult =
  | { ok: true; explored: number }
  | { ok: false; reason: "not linearizable" | "budget exhausted"; explored: number; detail: string };

/** Default search budget (model steps) per partition. */
export const DEFAULT_BUDGET = 1_000_000;

const NIL = -1;

/**
 * Doubly linked list of call and return events in time order, node 0 being the head.
 * Linearizing an operation lifts its call and return out of the list; backtracking puts
 * them back (always in reverse order of lifting, so the stale links stay valid).
 */
class EventList {
  readonly next: Int32Array;
  readonly prev: Int32Array;
  readonly opOf: Int32Array;
  readonly isCall: Uint8Array;
  readonly time: Float64Array;
  /** For a call node, its return node. */
  readonly returnOf: Int32Array;

  constructor(calls: readonly number[], returns: readonly number[]) {
    const events: { time: number; isCall: boolean; op: number }[] = [];
    calls.forEach((time, op) => events.push({ time, isCall: true, op }));
    returns.forEach((time, op) => events.push({ time, isCall: false, op }));
    events.sort((a, b) => {
      if (a.time !== b.time) return a.time < b.time ? -1 : 1;
      if (a.isCall !== b.isCall) return a.isCall ? -1 : 1; // touching intervals overlap
      return a.op - b.op;
    });
    const size = events.length + 1;
    this.next = new Int32Array(size).fill(NIL);
    this.prev = new Int32Array(size).fill(NIL);
    this.opOf = new Int32Array(size).fill(NIL);
    this.isCall = new Uint8Array(size);
    this.time = new Float64Array(size);
    this.returnOf = new Int32Array(size).fill(NIL);
    const returnNode = new Int32Array(calls.length);
    events.forEach((e, k) => {
      const node = k + 1;
      this.opOf[node] = e.op;
      this.isCall[node] = e.isCall ? 1 : 0;
      this.time[node] = e.time;
      this.prev[node] = node - 1;
      this.next[node - 1] = node;
      if (!e.isCall) returnNode[e.op] = node;
    });
    for (let node = 1; node < size; node++) {
      if (this.isCall[node] === 1) this.returnOf[node] = returnNode[this.opOf[node]];
    }
  }

  first(): number {
    return this.next[0];
  }

  /** The earliest return still in the list: every operation that returned before it is linearized. */
  firstReturnTime(): number {
    let node = this.next[0];
    while (node !== NIL && this.isCall[node] === 1) node = this.next[node];
    return node === NIL ? Infinity : this.time[node];
  }

  lift(call: number): void {
    const { next, prev } = this;
    next[prev[call]] = next[call];
    prev[next[call]] = prev[call]; // a call is always followed by at least its return
    const ret = this.returnOf[call];
    next[prev[ret]] = next[ret];
    if (next[ret] !== NIL) prev[next[ret]] = prev[ret];
  }

  unlift(call: number): void {
    const { next, prev } = this;
    const ret = this.returnOf[call];
    next[prev[ret]] = ret;
    if (next[ret] !== NIL) prev[next[ret]] = ret;
    next[prev[call]] = call;
    prev[next[call]] = call;
  }
}

/**
 * The set of linearized operations as a persistent list in linearization order: a new
 * entry shares its whole past with the entry it extends, so memoising a set costs O(1).
 */
interface LinearizedSet {
  readonly op: number;
  readonly size: number;
  readonly parent: LinearizedSet | null;
}

/** Equal as sets? Only the parts above the shared past need comparing. */
function sameSet(a: LinearizedSet, b: LinearizedSet): boolean {
  if (a.size !== b.size) return false;
  const onlyA = new Set<number>();
  const onlyB: number[] = [];
  let x: LinearizedSet | null = a;
  let y: LinearizedSet | null = b;
  while (x !== y && x !== null && y !== null) {
    onlyA.add(x.op);
    onlyB.push(y.op);
    x = x.parent;
    y = y.parent;
  }
  return onlyB.every((op) => onlyA.has(op));
}

/**
 * Lowe's memo of visited (linearized set, model state) pairs. Sets are hashed
 * incrementally (Zobrist: XOR of a fixed random word pair per operation); a hash match is
 * confirmed by comparing the sets, so the memo is exact.
 */
class VisitedMemo {
  private readonly entries = new Map<string, LinearizedSet[]>();
  private readonly lo: Uint32Array;
  private readonly hi: Uint32Array;

  constructor(opCount: number) {
    this.lo = new Uint32Array(opCount);
    this.hi = new Uint32Array(opCount);
    let seed = 0x9e3779b9;
    const next = (): number => {
      // xorshift32 with a fixed seed: the same history is always searched the same way.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let i = 0; i < opCount; i++) {
      this.lo[i] = next();
      this.hi[i] = next();
    }
  }

  /** The hash of a set with `op` added or removed. */
  toggle(hash: readonly [number, number], op: number): [number, number] {
    return [(hash[0] ^ this.lo[op]) >>> 0, (hash[1] ^ this.hi[op]) >>> 0];
  }

  /** Records the pair; false if it was already visited. */
  add(hash: readonly [number, number], set: LinearizedSet, stateKey: string): boolean {
    const key = `${hash[0]}:${hash[1]}:${stateKey}`;
    const same = this.entries.get(key);
    if (same === undefined) {
      this.entries.set(key, [set]);
      return true;
    }
    if (same.some((other) => sameSet(other, set))) return false;
    same.push(set);
    return true;
  }
}

function validateOperations<I, O>(ops: readonly Operation<I, O>[]): void {
  for (const op of ops) {
    if (!Number.isFinite(op.call)) throw new Error(`operation ${op.id}: call time ${op.call} is not finite`);
    if (op.ret !== null && !(op.ret >= op.call)) {
      throw new Error(`operation ${op.id}: returns at ${op.ret} before its call at ${op.call}`);
    }
  }
}

function describeOp<S, I, O>(model: Model<S, I, O>, op: Operation<I, O>): string {
  const what = model.describe ? model.describe(op.input, op.output) : "";
  const ret = op.ret === null || op.ret === Infinity ? "?" : String(op.ret);
  return `#${op.id} [${op.call}, ${ret}] ${what}`.trimEnd();
}

/**
 * Is the history linearizable with respect to the model? Explores at most `budget`
 * model steps; running out is reported as a failure ("budget exhausted"), never a pass.
 */
export function checkLinearizable<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly Operation<I, O>[],
  budget: number = DEFAULT_BUDGET,
): CheckResult {
  validateOperations(ops);
  const unknown = ops.map((op) => op.ret === null || op.ret === Infinity);
  const list = new EventList(
    ops.map((op) => op.call),
    ops.map((op) => op.ret ?? Infinity),
  );
  const memo = new VisitedMemo(ops.length);
  // `inert`: the operation was taken at once (Model.inert), so backtracking past it
  // explores nothing more at its frame.
  const stack: { call: number; before: S; set: LinearizedSet | null; hash: [number, number]; inert: boolean }[] = [];
  let state = model.init();
  let set: LinearizedSet | null = null;
  let hash: [number, number] = [0, 0];
  let explored = 0;

  // The deepest point reached, for the failure report.
  let best: Deepest = { set: null, stateKey: model.key(state), stuckOn: NIL };

  let entry = list.first();
  let now = list.firstReturnTime();
  while (entry !== NIL) {
    const op = list.opOf[entry];
    if (list.isCall[entry] === 1) {
      if (++explored > budget) {
        return {
          ok: false,
          reason: "budget exhausted",
          explored: explored - 1,
          detail: `search budget of ${budget} model steps exhausted on ${ops.length} operations ` +
            `(deepest partial linearization: ${best.set?.size ?? 0} operations); the history is unchecked`,
        };
      }
      const { input, output } = ops[op];
      const inert = model.inert?.(state, input, output, now) ?? false;
      const after = inert ? state : model.step(state, input, output, now);
      if (after !== null) {
        const afterKey = model.key(after);
        const afterSet: LinearizedSet = { op, size: (set?.size ?? 0) + 1, parent: set };
        const afterHash = memo.toggle(hash, op);
        if (memo.add(afterHash, afterSet, afterKey)) {
          stack.push({ call: entry, before: state, set, hash, inert });
          state = after;
          set = afterSet;
          hash = afterHash;
          list.lift(entry);
          if (afterSet.size > (best.set?.size ?? 0)) best = { set: afterSet, stateKey: afterKey, stuckOn: NIL };
          entry = list.first();
          now = list.firstReturnTime();
          continue;
        }
      }
      entry = list.next[entry];
    } else {
      // Only unknown outcomes are left (their returns sort last): every operation that
      // returned has been linearized.
      if (unknown[op]) return { ok: true, explored };
      if (set === best.set && best.stuckOn === NIL) best.stuckOn = op;
      let frame = stack.pop();
      // Past an inert operation's frame there is nothing else to try there.
      while (frame?.inert === true) {
        list.unlift(frame.call);
        frame = stack.pop();
      }
      if (frame === undefined) {
        return { ok: false, reason: "not linearizable", explored, detail: failureDetail(model, ops, best) };
      }
      state = frame.before;
      set = frame.set;
      hash = frame.hash;
      list.unlift(frame.call);
      entry = list.next[frame.call];
      now = list.firstReturnTime();
    }
  }
  return { ok: true, explored };
}

interface Deepest {
  set: LinearizedSet | null;
  stateKey: string;
  /** The operation whose return stopped the search from extending `set`. */
  stuckOn: number;
}

function failureDetail<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly Operation<I, O>[],
  best: Deepest,
): string {
  const shown = 6;
  const tail: string[] = [];
  for (let s = best.set; s !== null && tail.length < shown; s = s.parent) tail.unshift(describeOp(model, ops[s.op]));
  const size = best.set?.size ?? 0;
  const skipped = size - tail.length;
  const lines = [
    `no linearization of ${ops.length} operations; the longest linearizable prefix has ${size}` +
      (tail.length > 0 ? `, ending${skipped > 0 ? ` (after ${skipped} more)` : ""}:` : ""),
    ...tail.map((t) => `  ${t}`),
    `  state then: ${best.stateKey}`,
  ];
  if (best.stuckOn !== NIL) lines.push(`  cannot be extended to include ${describeOp(model, ops[best.stuckOn])}`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------
// Lock histories

interface Timed {
  id: OpId;
  call: number;
}

/**
 * An Acquire: of `lock` alone (exclusive unless `mode` says shared; a semaphore permit with
 * `permits`), or with the `more` locks of a multi-lock request. `waits`: whether it asked
 * for a wait (wait_ms > 0); given, the kinds' model checks the FIFO rules for it, which
 * needs every Acquire of those locks in the history, cancelled ones included.
 */
export type AcquireEvent = Timed & {
  kind: "acquire";
  lock: string;
  session: bigint;
  ret: number | null;
  out?: AcquireOutcome;
  mode?: LockMode;
  permits?: number;
  more?: readonly LockTarget[];
  waits?: boolean;
};

/** One client-visible operation on a lock, or the end of a session (from the log). */
export type LockHistoryEvent =
  | AcquireEvent
  | (Timed & { kind: "release"; lock: string; session: bigint; token: bigint; ret: number | null; out?: ReleaseOutcome })
  | (Timed & { kind: "read"; lock: string; ret: number | null; out?: ReadOutcome })
  | (Timed & { kind: "validate"; lock: string; token: bigint; ret: number | null; out?: ValidateOutcome })
  // Close or expiry, taken from the committed log: its outcome is always known.
  | (Timed & { kind: "sessionEnd"; session: bigint; ret: number })
  // The grants one entry of the committed log ended without their clients (a RevokeLock, a
  // hold limit), taken from the log like a session end (the lock kinds' model only).
  | (Timed & { kind: "revoke"; grants: ReadonlyArray<{ lock: string; session: bigint; token: bigint }>; ret: number });

export interface LockHistoryResult {
  ok: boolean;
  /** Verdict per lock name (per group of locks that multi-lock requests tie, names joined by "+"). */
  perLock: Map<string, CheckResult>;
  /** Model steps over all locks. */
  explored: number;
  /** One paragraph per failing lock; empty when ok. */
  detail: string;
}

type LockOperation = Operation<LockInput, LockOutput>;

function toOperation(e: Exclude<LockHistoryEvent, { kind: "sessionEnd" | "revoke" }>): LockOperation | null {
  if (e.ret === null && e.out !== undefined) throw new Error(`event ${e.id}: an output without a return time`);
  if (e.ret !== null && e.out === undefined) throw new Error(`event ${e.id}: returned without an output`);
  const base = { id: e.id, call: e.call, ret: e.ret, output: e.out };
  switch (e.kind) {
    case "acquire":
      return { ...base, input: { kind: "acquire", session: e.session } };
    case "release":
      return { ...base, input: { kind: "release", session: e.session, token: e.token } };
    case "read":
      // A read without an answer constrains nothing.
      return e.ret === null ? null : { ...base, input: { kind: "read" } };
    case "validate":
      return e.ret === null ? null : { ...base, input: { kind: "validate", token: e.token } };
  }
}

/** Sessions whose end matters to a lock: those acting on it or named as its holder. */
function sessionsTouching(e: Exclude<LockHistoryEvent, { kind: "sessionEnd" | "revoke" }>): bigint[] {
  const sessions: bigint[] = [];
  if (e.kind === "acquire" || e.kind === "release") sessions.push(e.session);
  if (e.kind === "acquire" && e.out?.kind === "notAcquired" && e.out.holderSession !== undefined) {
    sessions.push(e.out.holderSession);
  }
  if (e.kind === "read" && e.out?.holder != null) sessions.push(e.out.holder);
  return sessions;
}

/** Splits a history into one operation list per lock, session ends projected in. */
export function partitionByLock(events: readonly LockHistoryEvent[]): Map<string, LockOperation[]> {
  // Per lock: its operations, and for each session touching it the latest return of that
  // session's acquires and releases there (Infinity while one has an unknown outcome).
  const perLock = new Map<string, { ops: LockOperation[]; sessions: Map<bigint, number> }>();
  const ends: Extract<LockHistoryEvent, { kind: "sessionEnd" }>[] = [];
  for (const e of events) {
    if (e.kind === "sessionEnd") {
      ends.push(e);
      continue;
    }
    if (e.kind === "revoke") throw new Error(`event ${e.id}: a revoke needs the lock kinds' model`);
    let part = perLock.get(e.lock);
    if (part === undefined) {
      part = { ops: [], sessions: new Map() };
      perLock.set(e.lock, part);
    }
    const op = toOperation(e);
    if (op !== null) part.ops.push(op);
    for (const s of sessionsTouching(e)) {
      const acts = (e.kind === "acquire" || e.kind === "release") && e.session === s;
      const lastRet = acts ? (e.ret ?? Infinity) : -Infinity;
      part.sessions.set(s, Math.max(part.sessions.get(s) ?? -Infinity, lastRet));
    }
  }
  const result = new Map<string, LockOperation[]>();
  for (const [lock, part] of perLock) {
    const projected: LockOperation[] = [];
    for (const e of ends) {
      const lastRet = part.sessions.get(e.session);
      if (lastRet === undefined) continue;
      const input: LockInput = { kind: "sessionEnd", session: e.session, relevantUntil: lastRet };
      projected.push({ id: e.id, call: e.call, ret: e.ret, input });
    }
    result.set(lock, [...part.ops, ...projected]);
  }
  return result;
}

/**
 * Checks a lock-service history lock by lock (group by group where multi-lock requests tie
 * locks together). `budget` applies to each partition; one whose search runs out of budget
 * fails the whole check.
 */
export function checkLockHistory(events: readonly LockHistoryEvent[], budget: number = DEFAULT_BUDGET): LockHistoryResult {
  const perLock = new Map<string, CheckResult>();
  let explored = 0;
  const failures: string[] = [];
  const record = (name: string, result: CheckResult): void => {
    perLock.set(name, result);
    explored += result.explored;
    if (!result.ok) failures.push(`lock ${JSON.stringify(name)}: ${result.reason}\n${result.detail}`);
  };
  const { exclusive, kinds } = splitByKind(events);
  const partitions = [...partitionByLock(exclusive)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [lock, ops] of partitions) record(lock, checkLinearizable(lockModel, ops, budget));
  for (const [group, ops] of [...kindsPartitions(kinds)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const queueSeen = ops.some((op) => op.input.kind === "read" && op.output?.kind === "read" && op.output.waiters !== undefined);
    record(group, checkLinearizable(queueSeen ? kindsModel : kindsModelQueueUnseen, ops, budget));
  }
  return { ok: failures.length === 0, perLock, explored, detail: failures.join("\n\n") };
}

// ---------------------------------------------------------------------------------------
// Lock kinds

type KindsOperation = Operation<KindsInput, LockOutput>;
type LockEvent = Exclude<LockHistoryEvent, { kind: "sessionEnd" }>;

/** Does the event need the kinds' model? */
function usesKinds(e: LockEvent): boolean {
  if (e.kind === "acquire") {
    return e.mode !== undefined || e.permits !== undefined || (e.more !== undefined && e.more.length > 0) || e.waits !== undefined || e.out?.kind === "cancelled";
  }
  return e.kind === "revoke" || (e.kind === "read" && (e.out?.holders !== undefined || e.out?.waiters !== undefined));
}

/** The locks an event names; those of a multi-lock Acquire form one group. */
function locksOf(e: LockEvent): string[] {
  if (e.kind === "revoke") return e.grants.map((g) => g.lock);
  return e.kind === "acquire" ? [e.lock, ...(e.more ?? []).map((t) => t.lock)] : [e.lock];
}

/**
 * The group of each lock: locks named together by a multi-lock request are one group, named
 * by its locks joined with "+"; a lock that any event uses a kind on is in the kinds' model.
 */
function groupsOf(events: readonly LockEvent[]): { group: Map<string, string>; kinds: Set<string> } {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(x, root);
    return root;
  };
  for (const e of events) {
    for (const lock of locksOf(e)) if (!parent.has(lock)) parent.set(lock, lock);
    if (e.kind !== "acquire") continue;
    const [first, ...rest] = locksOf(e);
    for (const other of rest) {
      if (!parent.has(other)) parent.set(other, other);
      const a = find(first as string);
      const b = find(other);
      if (a !== b) parent.set(b, a);
    }
  }
  const members = new Map<string, string[]>();
  for (const lock of parent.keys()) {
    const root = find(lock);
    members.set(root, [...(members.get(root) ?? []), lock]);
  }
  const group = new Map<string, string>();
  for (const locks of members.values()) {
    const name = locks.sort().join("+");
    for (const lock of locks) group.set(lock, name);
  }
  const kinds = new Set<string>();
  for (const e of events) if (usesKinds(e)) for (const lock of locksOf(e)) kinds.add(group.get(lock) as string);
  for (const name of new Set(group.values())) if (name.includes("+")) kinds.add(name);
  return { group, kinds };
}

/** The history for the exclusive lock's model, and the events (with every session end) of groups that use a kind. */
function splitByKind(events: readonly LockHistoryEvent[]): { exclusive: LockHistoryEvent[]; kinds: LockHistoryEvent[] } {
  const ops = events.filter((e): e is LockEvent => e.kind !== "sessionEnd");
  const { group, kinds: kindGroups } = groupsOf(ops);
  const exclusive: LockHistoryEvent[] = [];
  const kinds: LockHistoryEvent[] = [];
  for (const e of events) {
    if (e.kind === "sessionEnd") {
      exclusive.push(e);
      kinds.push(e);
    } else if (e.kind === "revoke" || kindGroups.has(group.get(e.lock) as string)) kinds.push(e);
    else exclusive.push(e);
  }
  return { exclusive, kinds };
}

function targetsOfEvent(e: AcquireEvent): Target[] {
  const first: LockTarget = { lock: e.lock, ...(e.mode !== undefined ? { mode: e.mode } : {}), ...(e.permits !== undefined ? { permits: e.permits } : {}) };
  return [first, ...(e.more ?? [])].map(targetOf);
}

/**
 * The kinds' model's operations of one event. A waiting Acquire is a "join" and a "resolve"
 * over its interval; its join is of unknown outcome when its answer is (or is "cancelled":
 * a CancelWait may have come first, and then the Acquire never joined).
 */
function kindsOperations(e: Exclude<LockEvent, { kind: "revoke" }>): KindsOperation[] {
  if (e.ret === null && e.out !== undefined) throw new Error(`event ${e.id}: an output without a return time`);
  if (e.ret !== null && e.out === undefined) throw new Error(`event ${e.id}: returned without an output`);
  const base = { call: e.call, ret: e.ret, output: e.out as LockOutput | undefined };
  switch (e.kind) {
    case "acquire": {
      const request = { req: String(e.id), session: e.session, targets: targetsOfEvent(e) };
      if (e.waits === false) return [{ ...base, id: e.id, input: { kind: "try", ...request } }];
      const joinKnown = e.ret !== null && e.out?.kind !== "cancelled";
      const neverGranted = e.out?.kind === "notAcquired" || e.out?.kind === "cancelled";
      const answerUnknown = e.ret === null;
      const flags = { ...(neverGranted ? { neverGranted } : {}), ...(answerUnknown ? { answerUnknown } : {}) };
      return [
        { id: `${e.id}:join`, call: e.call, ret: joinKnown ? e.ret : null, input: { kind: "join", ...request, ...flags } },
        { ...base, id: `${e.id}:resolve`, input: { kind: "resolve", ...request } },
      ];
    }
    case "release":
      return [{ ...base, id: e.id, input: { kind: "release", session: e.session, lock: e.lock, token: e.token } }];
    case "read":
      return e.ret === null ? [] : [{ ...base, id: e.id, input: { kind: "read", lock: e.lock } }];
    case "validate":
      return e.ret === null ? [] : [{ ...base, id: e.id, input: { kind: "validate", lock: e.lock, token: e.token } }];
  }
}

/** The kinds' model's operations per group, session ends projected into the groups they matter to. */
export function kindsPartitions(events: readonly LockHistoryEvent[]): Map<string, KindsOperation[]> {
  const ops = events.filter((e): e is LockEvent => e.kind !== "sessionEnd");
  const { group } = groupsOf(ops);
  const parts = new Map<string, { ops: KindsOperation[]; sessions: Map<bigint, number> }>();
  const partOf = (name: string): { ops: KindsOperation[]; sessions: Map<bigint, number> } => {
    let part = parts.get(name);
    if (part === undefined) parts.set(name, (part = { ops: [], sessions: new Map() }));
    return part;
  };
  for (const e of ops) {
    if (e.kind === "revoke") {
      // One operation per group: the grants of one entry end in one step of each group's model.
      const byGroup = new Map<string, Array<{ lock: string; session: bigint; token: bigint }>>();
      for (const g of e.grants) byGroup.set(group.get(g.lock) as string, [...(byGroup.get(group.get(g.lock) as string) ?? []), g]);
      for (const [name, grants] of byGroup) {
        const part = partOf(name);
        part.ops.push({ id: `${e.id}:${name}`, call: e.call, ret: e.ret, input: { kind: "revoke", grants } });
        for (const g of grants) part.sessions.set(g.session, Math.max(part.sessions.get(g.session) ?? -Infinity, -Infinity));
      }
      continue;
    }
    const part = partOf(group.get(e.lock) as string);
    part.ops.push(...kindsOperations(e));
    const touching: bigint[] = [];
    if (e.kind === "acquire" || e.kind === "release") touching.push(e.session);
    if (e.kind === "acquire" && e.out?.kind === "notAcquired" && e.out.holderSession !== undefined) touching.push(e.out.holderSession);
    if (e.kind === "read") {
      if (e.out?.holder != null) touching.push(e.out.holder);
      for (const h of e.out?.holders ?? []) touching.push(h.session);
      for (const w of e.out?.waiters ?? []) touching.push(w);
    }
    for (const s of touching) {
      const acts = (e.kind === "acquire" || e.kind === "release") && e.session === s;
      const lastRet = acts ? (e.ret ?? Infinity) : -Infinity;
      part.sessions.set(s, Math.max(part.sessions.get(s) ?? -Infinity, lastRet));
    }
  }
  const result = new Map<string, KindsOperation[]>();
  for (const [name, part] of parts) {
    const projected: KindsOperation[] = [];
    for (const e of events) {
      if (e.kind !== "sessionEnd") continue;
      const lastRet = part.sessions.get(e.session);
      if (lastRet === undefined) continue;
      projected.push({ id: e.id, call: e.call, ret: e.ret, input: { kind: "sessionEnd", session: e.session, relevantUntil: lastRet } });
    }
    result.set(name, [...part.ops, ...projected]);
  }
  return result;
}
