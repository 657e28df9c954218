// Reads checked against the committed log, by what the client saw: each read's answer, as
// it arrived through the codec, must be the answer of the committed state at some index
// the read may have read at. Every entry is recorded at its first apply on any replica
// (applied implies committed, so these form the committed log, and the first apply of an
// index never comes before that of the index below it). A linearizable read reads at an
// index no lower than the highest applied anywhere before its call (a lower one would miss
// an entry committed before it) and no higher than the highest applied anywhere when its
// answer arrived (the replica applied it before answering). At the end a reference state
// machine replays the log in index order, and each read's answer is compared with the
// reference's, made by the node's own read code (node/host/read-answers.ts) and sent
// through the codec, at every index of that range until one matches.
import { RequestFailure } from "../../../node/host/failures.ts";
import { answerRead, type ReadName } from "../../../node/host/read-answers.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";
import type { Entry } from "../../../node/raft/types.ts";
import {
  decodeAnswer,
  encodeAnswer,
  type AnswerOf,
  type RequestOf,
} from "../../../proto/lock-calls.ts";

/** A read call: its name and request. */
export type ReadCall = {
  [N in ReadName]: { readonly name: N; readonly request: RequestOf<N> };
}[ReadName];
/** A read's answer; null for a GetSession of a session the state does not have (answered NOT_FOUND). */
export type ReadAnswer = AnswerOf<ReadName> | null;

export interface RecordedRead {
  readonly client: number;
  readonly read: ReadCall;
  /** Virtual time of the first send, and of the answer's arrival. */
  readonly call: number;
  readonly ret: number;
  readonly answer: ReadAnswer;
}

/** GetLock and ValidateToken touch one lock; the others span locks. */
export function isCrossLock(read: ReadCall): boolean {
  return read.name === "ListLocks" || read.name === "ListSessions" || read.name === "GetSession";
}

export interface ReadCheckResult {
  violations: string[];
  /** Reads compared with the reference, all and those that span locks. */
  checked: number;
  crossLockChecked: number;
}

/** A stable text form of a read answer (bigints as decimal), for comparing answers. */
export function readAnswerKey(a: ReadAnswer): string {
  return JSON.stringify(a, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

function describe(read: ReadCall): string {
  return `${read.name} ${JSON.stringify(read.request, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))}`;
}

/** The reference's answer to a read, as it reaches a client: made by the node's read code, then encoded and decoded. */
export function referenceAnswer(state: LockStateMachine, read: ReadCall): ReadAnswer {
  try {
    const answer = answerRead(read.name, read.request as never, state) as AnswerOf<
      typeof read.name
    >;
    return decodeAnswer(read.name, encodeAnswer(read.name, answer as never)) as ReadAnswer;
  } catch (err) {
    if (err instanceof RequestFailure && err.reason === "ERROR_REASON_SESSION_NOT_FOUND")
      return null;
    throw err;
  }
}

interface Pending {
  readonly read: RecordedRead;
  /** The lowest and highest index it may have read at. */
  readonly from: number;
  readonly to: number;
  readonly key: string;
}

export class ReadChecker {
  readonly reads: RecordedRead[] = [];
  private readonly log = new Map<number, Entry>();
  /** First-apply time of each index, in index order from 1 (non-decreasing). */
  private readonly appliedAt: number[] = [];
  private readonly violations: string[] = [];

  /**
   * The identity a client reads as, whose own sessions alone its ListSessions shows (as the
   * node filters them for any caller but an admin); null: it sees every session.
   */
  identityOf: (client: number) => string | null = () => null;

  constructor(private readonly limits: Partial<LockLimits>) {}

  /** The reference's answer to a recorded read, as its client's identity sees it. */
  private expected(ref: LockStateMachine, r: RecordedRead): string {
    const answer = referenceAnswer(ref, r.read);
    const name = this.identityOf(r.client);
    if (name === null || r.read.name !== "ListSessions" || answer === null)
      return readAnswerKey(answer);
    const all = answer as AnswerOf<"ListSessions">;
    const own = all.sessions.filter((s) => ref.sessionOwner(s.sessionId) === name);
    return readAnswerKey({ ...all, sessions: own } as unknown as ReadAnswer);
  }

  /** After each entry applied on any replica. */
  applied(entry: Entry, now: number): void {
    if (this.log.has(entry.index)) return;
    if (entry.index !== this.log.size + 1) {
      this.violations.push(
        `read check: index ${entry.index} applied first while ${this.log.size + 1} was never applied anywhere`,
      );
    }
    this.log.set(entry.index, entry);
    this.appliedAt[entry.index] = now;
  }

  record(read: RecordedRead): void {
    this.reads.push(read);
  }

  /** The highest index first applied anywhere strictly before `t` (0 if none); `orAt` counts those applied at `t` too. */
  private appliedBefore(t: number, orAt = false): number {
    let lo = 0;
    let hi = this.log.size;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const at = this.appliedAt[mid] ?? Infinity;
      if (at < t || (orAt && at === t)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  check(): ReadCheckResult {
    const out = [...this.violations];
    const pending: Pending[] = this.reads
      .map((read) => ({
        read,
        from: this.appliedBefore(read.call),
        to: this.appliedBefore(read.ret, true),
        key: readAnswerKey(read.answer),
      }))
      .sort((x, y) => x.from - y.from);
    const ref = new LockStateMachine(this.limits);
    let next = 0;
    let active: Pending[] = [];
    let checked = 0;
    let crossLockChecked = 0;
    const last = Math.max(0, ...pending.map((p) => p.to));
    for (let index = 0; index <= last; index++) {
      if (index > 0) {
        const entry = this.log.get(index);
        if (entry === undefined) {
          out.push(
            `read check: index ${index} was never applied anywhere, yet a read may have read at it`,
          );
          break;
        }
        if (entry.kind === "normal") ref.applyBytes(entry.index, entry.data);
        else ref.skip(entry.index);
      }
      while (next < pending.length && (pending[next] as Pending).from <= index)
        active.push(pending[next++] as Pending);
      const left: Pending[] = [];
      for (const p of active) {
        if (this.expected(ref, p.read) === p.key) {
          checked++;
          if (isCrossLock(p.read.read)) crossLockChecked++;
        } else if (index >= p.to) {
          const r = p.read;
          out.push(
            `read: client ${r.client} ${describe(r.read)} [t=${r.call}, t=${r.ret}] answered ${p.key}, which the committed log gives at no index in ${p.from}..${p.to}`,
          );
        } else {
          left.push(p);
        }
      }
      active = left;
    }
    return { violations: out, checked, crossLockChecked };
  }
}
