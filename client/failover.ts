// The failover rules of a client, apart from any transport: a preferred endpoint (the last
// one that answered, or the leader named by a hint), retries on the failures that mean "try
// again elsewhere" until the call's budget or its time left runs out, a back-off once every
// endpoint failed in a row, and a node that let an attempt run out without a word (stopped,
// not dead: its connections stay open) passed over for a while, with the other attempts
// waiting on it moved on at once. An attempt that ran out sooner than the node usually
// answers is no sign of a stopped node (only of a short timeout), and nor is one that ran
// out while the node answered other calls (a busy node, one with thousands of keepalives in
// flight), so neither silences anything. A node that answers that it does not lead has its
// waiting Acquires moved on too: its log may never grant them. Connection runs gRPC calls
// through it; the simulator runs its own calls through the very same rules. Time comes from an injected ClientClock.
import { status as Status } from "@grpc/grpc-js";
import type { CallFailure } from "../proto/codec/answers.ts";
import type { ErrorReasonName } from "../proto/wire.ts";
import { sleep, type ClientClock } from "./clock.ts";
import { OutcomeUnknownError, UnavailableError } from "./errors.ts";
import { errorOf } from "./status-errors.ts";

/** How one attempt failed, as the failover rules need to know it. */
export interface AttemptFailure {
  /** The node could not or did not answer (UNAVAILABLE, DEADLINE_EXCEEDED): try again, elsewhere. */
  readonly retriable: boolean;
  /** The attempt ran out of time unanswered: the node may be stopped, pass it over for a while. */
  readonly timedOut: boolean;
  /** The leader's endpoint, when the answer named one. */
  readonly leaderHint?: string | undefined;
  /** For the message of the error thrown when no answer came. */
  readonly detail: string;
  /** The error to throw for a failure that is not retried. */
  readonly error: Error;
  /** The status code and reason an OutcomeUnknownError or UnavailableError carries. */
  readonly code?: Status | undefined;
  readonly reason?: ErrorReasonName | undefined;
}

const RETRIABLE: ReadonlySet<Status> = new Set([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED]);

/** A failed attempt as the failover rules see it; `leaderHint`: the endpoint the failure's leader names, if one. */
export function attemptFailureOf(
  failure: CallFailure,
  leaderHint: string | undefined,
): AttemptFailure {
  return {
    retriable: RETRIABLE.has(failure.code),
    timedOut: failure.code === Status.DEADLINE_EXCEEDED,
    leaderHint,
    detail: failure.message,
    error: errorOf(failure),
    code: failure.code,
    reason: failure.reason ?? undefined,
  };
}

/** How one call is made: the client's one set of call options. */
export interface CallOptions {
  /** What running out of time means: a write's outcome is unknown (OutcomeUnknownError), a read found no node (UnavailableError). */
  kind?: "write" | "read";
  /**
   * Longest wait for one attempt's answer, in ms (default: the client's call timeout); a
   * function is asked before each attempt (a session sizes them by the time left to its
   * deadline, so a node that does not answer leaves time to try the others).
   */
  attemptTimeoutMs?: number | (() => number);
  /** How long the call keeps retrying through failovers, in ms (default: the client's retry budget). */
  budgetMs?: number;
  /**
   * Time left before an answer is of no use (a session's deadline, or 0 once the session
   * ended), asked before each attempt: no attempt outlasts it, and the call gives up (as if
   * its budget ran out) once it is gone.
   */
  timeLeftMs?: () => number;
  /**
   * The node may hold its answer on purpose (an Acquire waiting in the queue): how long the
   * call took says nothing about how fast the node answers.
   */
  answerMayWait?: boolean;
  /** Ask this endpoint only (no leader following, no retry). */
  endpoint?: string;
}

/** What a call falls back on for the options it leaves out. */
export interface CallDefaults {
  readonly kind: "write" | "read";
  readonly attemptTimeoutMs: number;
  readonly budgetMs: number;
}

/** One attempt in flight on an endpoint; `moved` when it was cancelled to try another node. */
export interface Attempt {
  moved: boolean;
  cancel: () => void;
  /** Its answer may wait on purpose (a queued Acquire): moved off a node that stops leading. */
  readonly waits?: boolean;
}

/** Reasons with which a node says it does not lead: a wait it holds can no longer be answered there. */
const NOT_LEADING: ReadonlySet<ErrorReasonName> = new Set([
  "ERROR_REASON_NOT_LEADER",
  "ERROR_REASON_NO_LEADER",
]);

/**
 * An attempt that ran out counts as the node's silence only when it waited at least this many
 * times the node's usual answer time (a loaded node answering in 300 ms does not look
 * stopped to a 100 ms keepalive attempt; a stopped one looks so to any attempt).
 */
const SILENT_AFTER = 2;
/** Weight of the newest answer time in the smoothed one. */
const ANSWER_SMOOTHING = 0.25;
/**
 * An attempt on a node that answers promptly gives up after this many times its usual answer
 * time (never sooner than PATIENCE_FLOOR_MS), not at the call timeout: a stopped leader (SIGSTOP,
 * a long pause) keeps its connections open and answers nothing, and the cluster elects
 * another within about a second. Calls whose answer may wait on purpose are exempt.
 */
const PATIENCE_FACTOR = 10;
export const PATIENCE_FLOOR_MS = 1_000;

export type AttemptFn<Res> = (
  endpoint: string,
  timeoutMs: number,
  attempt: Attempt,
) => Promise<Res>;

/** Reasons with which a node that answered says no leader could serve the call. */
const LEADERLESS: ReadonlySet<ErrorReasonName> = new Set([
  "ERROR_REASON_NOT_LEADER",
  "ERROR_REASON_NO_LEADER",
  "ERROR_REASON_READ_NOT_CONFIRMED",
]);

/**
 * Refusals the log keeps no answer for: the node turned the request away before it was
 * logged, or the state machine refused it without recording it. After an earlier attempt
 * of the same write that may have been logged (it went unanswered, or was lost with a
 * leader), such a refusal says nothing of the write's outcome, so the write is sent again.
 */
const UNRECORDED: ReadonlySet<ErrorReasonName> = new Set([
  "ERROR_REASON_TOO_MANY_IN_FLIGHT",
  "ERROR_REASON_RATE_LIMITED",
  "ERROR_REASON_DISK_RESERVE",
  "ERROR_REASON_TOO_MANY_WAITS_ON_STREAM",
]);

/** Longest pause before a write refused as above is sent again. */
const UNRECORDED_PAUSE_MAX_MS = 1_000;

/** The node answered that no leader is known to it (a hint names one it knows). */
const leaderless = (f: AttemptFailure): boolean =>
  !f.leaderHint && f.reason !== undefined && LEADERLESS.has(f.reason);

/** What an endpoint's last failure says of it: whether the node answered, and in a few words. */
export function endpointState(f: AttemptFailure): { answered: boolean; words: string } {
  if (f.leaderHint) return { answered: true, words: `says ${f.leaderHint} leads` };
  if (leaderless(f)) return { answered: true, words: "no leader known there" };
  if (f.reason !== undefined) return { answered: true, words: f.detail };
  if (f.timedOut) return { answered: false, words: "no answer" };
  const d = f.detail;
  if (/ECONNREFUSED/.test(d)) return { answered: false, words: "refused" };
  if (/ENOTFOUND|EAI_AGAIN|Name resolution failed/i.test(d))
    return { answered: false, words: "name not found" };
  if (/EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/.test(d))
    return { answered: false, words: "unreachable" };
  if (/self[- ]signed|unable to (?:verify|get local issuer)|UNABLE_TO_VERIFY|CERT_/i.test(d))
    return { answered: false, words: "certificate signed by an unknown CA" };
  if (/wrong version number|packet length too long|WRONG_VERSION/i.test(d))
    return { answered: false, words: "the server does not use TLS (connect without TLS)" };
  if (/Failed to connect|Protocol error|Connection dropped|ECONNRESET|socket hang up/i.test(d))
    return {
      answered: false,
      words: `connection failed (does the server require TLS?): ${shortDetail(d)}`,
    };
  return { answered: false, words: shortDetail(d) };
}

/** A transport's failure text without what the endpoint's name already says, times and empty notes. */
function shortDetail(detail: string): string {
  return detail
    .replace(/^the stream to \S+ broke: /, "")
    .replace(/ \(\d{4}-\d\d-\d\dT[^)]*\)/g, "")
    .replace(/\.? ?Resolution note: ?$/, "")
    .trim();
}

/**
 * Why a call got no answer, naming each endpoint's last failure: "no leader: 1 of 3 members
 * reachable (…)" when a node answered that none leads, "no member reachable (…)" when none
 * answered, and otherwise "no answer within the time given (…)".
 */
export function giveUpCause(
  endpoints: readonly string[],
  failed: ReadonlyMap<string, AttemptFailure>,
  last: AttemptFailure,
): string {
  const states = endpoints.flatMap((e) => {
    const f = failed.get(e);
    return f === undefined ? [] : [{ endpoint: e, ...endpointState(f) }];
  });
  // Every failure came from an attempt moved off its node: only the last one can be told.
  if (states.length === 0) return `no answer within the time given (${shortDetail(last.detail)})`;
  const list = states.map((s) => `${s.endpoint} ${s.words}`).join(", ");
  const answered = states.filter((s) => s.answered).length;
  const noLeader = [last, ...failed.values()].some(leaderless);
  if (noLeader) return `no leader: ${answered} of ${endpoints.length} members reachable (${list})`;
  if (answered === 0) return `no member reachable (${list})`;
  return `no answer within the time given (${list})`;
}

export class Failover {
  private readonly endpoints: string[];
  private preferred = 0;
  private closed = false;
  private readonly inFlight = new Map<string, Set<Attempt>>();
  /** Endpoints that let an attempt run out unanswered, until when (monotonic ms): passed over, and their hints not followed. */
  private readonly silentUntil = new Map<string, number>();
  /** How long each endpoint takes to answer, smoothed (ms). */
  private readonly answerMs = new Map<string, number>();
  /** When each endpoint last answered any call (monotonic ms). */
  private readonly lastAnswerAt = new Map<string, number>();

  /**
   * `pause` waits out a back-off; by default on `clock`, whose timers do not keep a process
   * alive, so a caller that awaits the call itself (a command-line tool) passes one that does.
   */
  constructor(
    endpoints: readonly string[],
    private readonly clock: ClientClock,
    private readonly classify: (err: unknown) => AttemptFailure,
    private readonly pause: (ms: number) => Promise<void> = (ms) => sleep(clock, ms),
  ) {
    if (endpoints.length === 0) throw new Error("at least one endpoint is needed");
    this.endpoints = [...endpoints];
  }

  /** The endpoint requests go to first. */
  get current(): string {
    return this.endpoints[this.preferred] as string;
  }

  get allEndpoints(): readonly string[] {
    return this.endpoints;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
  }

  /**
   * Runs `attempt` on the preferred endpoint, following leader hints and retrying the
   * retriable failures elsewhere until the budget (or the time left) runs out. A retry of a
   * write keeps its seq (the caller builds the request per attempt), so retrying is safe.
   */
  async call<Res>(
    attempt: AttemptFn<Res>,
    what: string,
    opts: CallOptions,
    defaults: CallDefaults,
  ): Promise<Res> {
    const timeout = opts.attemptTimeoutMs ?? defaults.attemptTimeoutMs;
    const attemptTimeout = (): number => (typeof timeout === "function" ? timeout() : timeout);
    const now = (): number => this.clock.monotonicMs();
    const giveUpAt = now() + (opts.budgetMs ?? defaults.budgetMs);
    const kind = opts.kind ?? defaults.kind;
    let failuresInRow = 0;
    /** Refusals in a row of a write an earlier attempt may have logged (see UNRECORDED). */
    let unrecordedInRow = 0;
    /** An earlier attempt may have been logged: it was not refused as not led there. */
    let mayBeLogged = false;
    let last: AttemptFailure | undefined;
    /** Each endpoint's last failure in this call: what the error says when it gives up. */
    const failed = new Map<string, AttemptFailure>();
    for (;;) {
      const left = opts.timeLeftMs?.() ?? Infinity;
      if (left <= 0 || this.closed) break;
      const endpoint = this.current;
      const patience = opts.answerMayWait ? Infinity : this.patienceFor(endpoint);
      const timeoutMs = Math.max(1, Math.min(attemptTimeout(), left, patience));
      const a: Attempt = {
        moved: false,
        cancel: () => undefined,
        waits: opts.answerMayWait === true,
      };
      this.track(endpoint, a, true);
      const sentAt = now();
      try {
        const response = await attempt(endpoint, timeoutMs, a);
        this.silentUntil.delete(endpoint);
        this.lastAnswerAt.set(endpoint, now());
        if (!opts.answerMayWait) this.answered(endpoint, now() - sentAt);
        return response;
      } catch (err) {
        this.track(endpoint, a, false);
        const failure = this.classify(err);
        if (!a.moved) {
          if (!failure.timedOut) {
            this.lastAnswerAt.set(endpoint, now());
            if (!opts.answerMayWait) this.answered(endpoint, now() - sentAt);
          }
          const sendAgain =
            kind === "write" &&
            mayBeLogged &&
            failure.reason !== undefined &&
            UNRECORDED.has(failure.reason);
          if (!failure.retriable && !sendAgain) throw failure.error;
          if (sendAgain) {
            // The node answered and leads: try it again after a pause, not another node.
            last = failure;
            failed.set(endpoint, failure);
            unrecordedInRow += 1;
            const pause = Math.min(
              50 * 2 ** (unrecordedInRow - 1),
              UNRECORDED_PAUSE_MAX_MS,
              Math.max(0, giveUpAt - now()),
              opts.timeLeftMs?.() ?? Infinity,
            );
            if (pause > 0) await this.pause(pause);
            if (this.closed || now() >= giveUpAt) break;
            continue;
          }
          if (failure.timedOut) {
            const answeredMeanwhile = (this.lastAnswerAt.get(endpoint) ?? -Infinity) > sentAt;
            if (
              !answeredMeanwhile &&
              timeoutMs >= SILENT_AFTER * (this.answerMs.get(endpoint) ?? 0)
            )
              this.silenced(endpoint, timeoutMs);
          } else {
            this.silentUntil.delete(endpoint);
            if (failure.reason !== undefined && NOT_LEADING.has(failure.reason))
              this.moveWaits(endpoint);
          }
        }
        last = failure;
        mayBeLogged ||= a.moved || failure.reason === undefined || !LEADERLESS.has(failure.reason);
        // A node's own answer earlier in the call says more than a later attempt cut short.
        if (!a.moved && !(failure.timedOut && failed.get(endpoint)?.reason !== undefined))
          failed.set(endpoint, failure);
        failuresInRow += 1;
        const hinted = a.moved ? undefined : this.endpointOf(failure.leaderHint);
        if (hinted !== undefined && hinted !== endpoint && !this.isSilent(hinted)) {
          this.preferred = this.endpoints.indexOf(hinted);
        } else if (this.current === endpoint) {
          this.preferred = this.nextAnswering(endpoint);
        }
      } finally {
        this.track(endpoint, a, false);
      }
      if (this.closed || now() >= giveUpAt) break;
      // Once every endpoint failed in a row, back off (an election is probably under way).
      if (failuresInRow >= this.endpoints.length) {
        const rounds = Math.floor(failuresInRow / this.endpoints.length);
        const pause = Math.min(
          50 * 2 ** (rounds - 1),
          500,
          Math.max(0, giveUpAt - now()),
          opts.timeLeftMs?.() ?? Infinity,
        );
        if (pause > 0) await this.pause(pause);
      }
    }
    const message = `${what}: ${
      last === undefined
        ? `no answer within the time given (${this.closed ? "client is closed" : "no time left to try"})`
        : giveUpCause(this.endpoints, failed, last)
    }`;
    throw kind === "write"
      ? new OutcomeUnknownError(message, last?.code, last?.reason)
      : new UnavailableError(message, last?.code, last?.reason);
  }

  /** How long an attempt on `endpoint` may wait before the node counts as stopped (see PATIENCE_FACTOR). */
  private patienceFor(endpoint: string): number {
    const usual = this.answerMs.get(endpoint);
    return usual === undefined ? Infinity : Math.max(PATIENCE_FLOOR_MS, PATIENCE_FACTOR * usual);
  }

  /** An answer (or an error the node sent) from `endpoint` after `ms`. */
  private answered(endpoint: string, ms: number): void {
    const before = this.answerMs.get(endpoint);
    this.answerMs.set(
      endpoint,
      before === undefined ? ms : before + ANSWER_SMOOTHING * (ms - before),
    );
  }

  private track(endpoint: string, attempt: Attempt, add: boolean): void {
    let set = this.inFlight.get(endpoint);
    if (add) {
      if (!set) this.inFlight.set(endpoint, (set = new Set()));
      set.add(attempt);
    } else if (set) {
      set.delete(attempt);
      if (set.size === 0) this.inFlight.delete(endpoint);
    }
  }

  /**
   * `endpoint` let an attempt of `forMs` run out without answering: pass it over for as
   * long, and move the other attempts waiting on it (a waiting Acquire among them) to the
   * next node now. A write moved keeps its seq, so moving it is safe.
   */
  private silenced(endpoint: string, forMs: number): void {
    this.silentUntil.set(endpoint, this.clock.monotonicMs() + forMs);
    for (const other of this.inFlight.get(endpoint) ?? []) {
      if (other.moved) continue;
      other.moved = true;
      other.cancel();
    }
  }

  /**
   * `endpoint` answers but says it does not lead: the waits on it are answered from its own
   * log, which may not move again (a leader cut off from its quorum answers at once, so it
   * never looks silent). Move them on, as from a silent node; each keeps its seq.
   */
  private moveWaits(endpoint: string): void {
    for (const other of this.inFlight.get(endpoint) ?? []) {
      if (other.moved || !other.waits) continue;
      other.moved = true;
      other.cancel();
    }
  }

  private isSilent(endpoint: string): boolean {
    const until = this.silentUntil.get(endpoint);
    if (until === undefined) return false;
    if (until > this.clock.monotonicMs()) return true;
    this.silentUntil.delete(endpoint);
    return false;
  }

  /** The index of the next endpoint after `endpoint` that is not passed over (the next one if all are). */
  private nextAnswering(endpoint: string): number {
    const from = this.endpoints.indexOf(endpoint);
    const n = this.endpoints.length;
    for (let i = 1; i <= n; i++) {
      const j = (from + i) % n;
      if (!this.isSilent(this.endpoints[j] as string)) return j;
    }
    return (from + 1) % n;
  }

  /** A hinted endpoint: a known one, or a new one that joins the list. */
  private endpointOf(hint: string | undefined): string | undefined {
    if (hint === undefined || hint === "") return undefined;
    if (!this.endpoints.includes(hint)) this.endpoints.push(hint);
    return hint;
  }
}
