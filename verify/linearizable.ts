// Linearizability checking of a recorded history against a sequential model.
//
// The engine is the Wing & Gong search with Lowe's memoisation, as in Knossos and
// Porcupine: walk a linked list of call and return events; linearize any operation whose
// call comes before the first pending return, backtrack when a return is reached with
// its operation not yet linearized, and never revisit a (set of linearized operations,
// model state) pair. An operation with an unknown outcome (ret null) has its return at
// +Infinity and never needs to be linearized: it may take effect at any point after its
// call, or never. The lock histories' front end is lock-history.ts.

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
  | {
      ok: false;
      reason: "not linearizable" | "budget exhausted";
      explored: number;
      detail: string;
    };

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
    if (!Number.isFinite(op.call))
      throw new Error(`operation ${op.id}: call time ${op.call} is not finite`);
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
  const stack: {
    call: number;
    before: S;
    set: LinearizedSet | null;
    hash: [number, number];
    inert: boolean;
  }[] = [];
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
          detail:
            `search budget of ${budget} model steps exhausted on ${ops.length} operations ` +
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
          if (afterSet.size > (best.set?.size ?? 0))
            best = { set: afterSet, stateKey: afterKey, stuckOn: NIL };
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
        return {
          ok: false,
          reason: "not linearizable",
          explored,
          detail: failureDetail(model, ops, best),
        };
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
  for (let s = best.set; s !== null && tail.length < shown; s = s.parent)
    tail.unshift(describeOp(model, ops[s.op]));
  const size = best.set?.size ?? 0;
  const skipped = size - tail.length;
  const lines = [
    `no linearization of ${ops.length} operations; the longest linearizable prefix has ${size}` +
      (tail.length > 0 ? `, ending${skipped > 0 ? ` (after ${skipped} more)` : ""}:` : ""),
    ...tail.map((t) => `  ${t}`),
    `  state then: ${best.stateKey}`,
  ];
  if (best.stuckOn !== NIL)
    lines.push(`  cannot be extended to include ${describeOp(model, ops[best.stuckOn])}`);
  return lines.join("\n");
}
