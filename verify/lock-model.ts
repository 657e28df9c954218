// Sequential specification of one lock, for the linearizability checker.
// Only what one lock needs: its holder, the current token, the highest token granted so
// far, and which of the sessions touching it have ended (close or expiry).
import type { Model } from "./linearizable.ts";

/** One lock of a multi-lock grant (the lock kinds' model only). */
export interface GrantOutcome {
  lock: string;
  token: bigint;
  slot?: number;
}

export type AcquireOutcome =
  // `slot`: of a semaphore permit; `grants`: every lock of a multi-lock Acquire, in the
  // order it named them (the lock kinds' model only).
  | { kind: "granted"; token: bigint; slot?: number; grants?: GrantOutcome[] }
  // Held by another session (also the answer of a wait that timed out). The holder's
  // session and token are checked only when given; `lock`: the lock of a set that kept it out.
  | { kind: "notAcquired"; holderSession?: bigint; holderToken?: bigint; lock?: string }
  | { kind: "sessionNotFound" }
  // CancelWait answered "cancelled": the wait left its queues, or the Acquire never took
  // effect (the lock kinds' model only: their FIFO rules need every wait in the history).
  | { kind: "cancelled" };

export type ReleaseOutcome =
  { kind: "ok" } | { kind: "failedPrecondition" } | { kind: "sessionNotFound" };

/** One current grant as GetLock shows it (the lock kinds' model only). */
export interface HolderOutcome {
  session: bigint;
  token: bigint;
  /** Absent: exclusive. */
  mode?: "shared" | "permit";
  slot?: number;
}

/**
 * GetLock: the (oldest) holder and token, both null when the lock is free. The lock kinds'
 * model also checks, when given, every current grant (`holders`, in any order) and the
 * sessions queued, in queue order (`waiters`).
 */
export type ReadOutcome = {
  kind: "read";
  holder: bigint | null;
  token: bigint | null;
  holders?: HolderOutcome[];
  waiters?: bigint[];
};

/** ValidateToken: is the token the current grant's? */
export type ValidateOutcome = { kind: "validated"; valid: boolean };

export type LockOutput = AcquireOutcome | ReleaseOutcome | ReadOutcome | ValidateOutcome;

export type LockInput =
  | { kind: "acquire"; session: bigint }
  | { kind: "release"; session: bigint; token: bigint }
  | { kind: "read" }
  | { kind: "validate"; token: bigint }
  // `relevantUntil`: the latest return of the session's acquires and releases on this
  // lock (Infinity if one has an unknown outcome; the default). Once the search is past
  // it, no operation can ask whether the session ended, and the state forgets it.
  | { kind: "sessionEnd"; session: bigint; relevantUntil?: number };

export interface LockState {
  readonly holder: bigint | null;
  /**
   * Token of the current grant. Null when the lock is free, and also while it is held
   * through a grant whose answer was lost: that token is then unknown but at least
   * `highest`, and the first observation of it (a read, a release, a re-entrant acquire)
   * fixes it.
   */
  readonly token: bigint | null;
  /** Highest token granted so far; a lower bound while the current token is unknown. */
  readonly highest: bigint;
  /** Ended sessions that later operations may still ask about, sorted by session. */
  readonly ended: readonly EndedSession[];
}

export interface EndedSession {
  readonly session: bigint;
  readonly relevantUntil: number;
}

const initialState: LockState = { holder: null, token: null, highest: 0n, ended: [] };

function hasEnded(state: LockState, session: bigint): boolean {
  return state.ended.some((e) => e.session === session);
}

/**
 * The state in which the current grant's token is `token`, or null if it cannot be:
 * the lock is free, or its token is known and differs, or an unknown token cannot be
 * that low.
 */
function withCurrentToken(state: LockState, token: bigint): LockState | null {
  if (state.holder === null) return null;
  if (state.token !== null) return state.token === token ? state : null;
  if (token < state.highest) return null;
  return { ...state, token, highest: token };
}

function freed(state: LockState): LockState {
  return { ...state, holder: null, token: null };
}

function stepAcquire(
  state: LockState,
  session: bigint,
  out: LockOutput | undefined,
): LockState | null {
  if (out === undefined) {
    // Unknown answer: the only outcome that changes anything is a grant with a token
    // above every earlier one. Any other outcome is the same as never taking effect,
    // which the checker explores by skipping the operation.
    if (state.holder !== null || hasEnded(state, session)) return null;
    return { ...state, holder: session, token: null, highest: state.highest + 1n };
  }
  switch (out.kind) {
    case "granted":
      if (state.holder === session) return withCurrentToken(state, out.token); // re-entrant
      if (state.holder !== null || hasEnded(state, session) || out.token <= state.highest)
        return null;
      return { ...state, holder: session, token: out.token, highest: out.token };
    case "notAcquired": {
      if (state.holder === null || state.holder === session) return null;
      if (out.holderSession !== undefined && out.holderSession !== state.holder) return null;
      return out.holderToken === undefined ? state : withCurrentToken(state, out.holderToken);
    }
    case "sessionNotFound":
      return hasEnded(state, session) ? state : null;
    default:
      throw new Error(`acquire cannot answer ${out.kind}`);
  }
}

function stepRelease(
  state: LockState,
  session: bigint,
  token: bigint,
  out: LockOutput | undefined,
): LockState | null {
  const releasable = state.holder === session ? withCurrentToken(state, token) : null;
  if (out === undefined) return releasable === null ? null : freed(releasable);
  switch (out.kind) {
    case "ok":
      return releasable === null ? null : freed(releasable);
    case "failedPrecondition":
      // With an unknown current token the release may have named another one.
      return state.holder === session && state.token === token ? null : state;
    case "sessionNotFound":
      return hasEnded(state, session) ? state : null;
    default:
      throw new Error(`release cannot answer ${out.kind}`);
  }
}

function stepRead(state: LockState, out: LockOutput | undefined): LockState | null {
  if (out === undefined) return null; // an unanswered read has no effect
  if (out.kind !== "read") throw new Error(`read cannot answer ${out.kind}`);
  if (out.holder === null) return state.holder === null && out.token === null ? state : null;
  if (state.holder !== out.holder || out.token === null) return null;
  return withCurrentToken(state, out.token);
}

function stepValidate(
  state: LockState,
  token: bigint,
  out: LockOutput | undefined,
): LockState | null {
  if (out === undefined) return null;
  if (out.kind !== "validated") throw new Error(`validate cannot answer ${out.kind}`);
  if (out.valid) return withCurrentToken(state, token);
  // "Not valid" is legal unless the token is known to be the current one. An unknown
  // current token is not narrowed by it (the check may accept a little more).
  return state.holder !== null && state.token === token ? null : state;
}

function stepSessionEnd(state: LockState, session: bigint, relevantUntil: number): LockState {
  const ended = hasEnded(state, session)
    ? state.ended
    : [...state.ended, { session, relevantUntil }].sort((a, b) => (a.session < b.session ? -1 : 1));
  const after = { ...state, ended };
  return state.holder === session ? freed(after) : after;
}

/**
 * Drops ended sessions whose operations have all returned before `now`: by then they
 * are all linearized, so nothing can ask about them again. (Both lock models.)
 */
export function forgetPast<S extends { readonly ended: readonly EndedSession[] }>(
  state: S,
  now: number,
): S {
  if (!state.ended.some((e) => e.relevantUntil < now)) return state;
  return { ...state, ended: state.ended.filter((e) => e.relevantUntil >= now) };
}

/**
 * Taking the operation changes nothing now or later: the end of a session that does not
 * hold the lock and whose operations are all linearized, or an acquire or release of
 * unknown outcome by an ended session (which holds nothing and is granted nothing).
 */
function inert(
  state: LockState,
  input: LockInput,
  output: LockOutput | undefined,
  now: number,
): boolean {
  switch (input.kind) {
    case "sessionEnd":
      return state.holder !== input.session && (input.relevantUntil ?? Infinity) < now;
    case "acquire":
    case "release":
      return output === undefined && hasEnded(state, input.session);
    default:
      return false;
  }
}

function describeOutput(out: LockOutput | undefined): string {
  if (out === undefined) return "?";
  switch (out.kind) {
    case "granted":
      return `granted(${out.token})`;
    case "notAcquired":
      return `notAcquired(holder=${out.holderSession ?? "any"}, token=${out.holderToken ?? "any"})`;
    case "read":
      return out.holder === null ? "free" : `held(${out.holder}, ${out.token})`;
    case "validated":
      return out.valid ? "valid" : "invalid";
    default:
      return out.kind;
  }
}

function describeInput(input: LockInput): string {
  switch (input.kind) {
    case "acquire":
      return `acquire(s${input.session})`;
    case "release":
      return `release(s${input.session}, ${input.token})`;
    case "read":
      return "read()";
    case "validate":
      return `validate(${input.token})`;
    case "sessionEnd":
      return `sessionEnd(s${input.session})`;
  }
}

export const lockModel: Model<LockState, LockInput, LockOutput> = {
  init: () => initialState,
  step(current, input, output, now) {
    const state = forgetPast(current, now);
    switch (input.kind) {
      case "acquire":
        return stepAcquire(state, input.session, output);
      case "release":
        return stepRelease(state, input.session, input.token, output);
      case "read":
        return stepRead(state, output);
      case "validate":
        return stepValidate(state, input.token, output);
      case "sessionEnd":
        return stepSessionEnd(state, input.session, input.relevantUntil ?? Infinity);
    }
  },
  inert: (state, input, output, now) => inert(forgetPast(state, now), input, output, now),
  // Readable, since failure reports print it.
  key: (s) =>
    `${s.holder === null ? "free" : `s${s.holder} holds ${s.token ?? "?"}`}, highest ${s.highest}, ended {${s.ended.map((e) => e.session).join(",")}}`,
  describe: (input, output) =>
    input.kind === "sessionEnd"
      ? describeInput(input)
      : `${describeInput(input)} -> ${describeOutput(output)}`,
};
