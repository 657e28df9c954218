// Reads checked against the committed log. Every entry is recorded at its first apply on
// any replica (applied implies committed, so these form the committed log, and the first
// apply of an index never comes before that of the index below it). At the end a
// reference state machine replays the log in index order; each read is compared, when the
// replay reaches the applied index `a` the replica read at, with the reference's answer
// there. Freshness: a read must see every entry committed before its call, so its read
// index r and `a` are at least the highest index applied anywhere before the call.
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";
import type { Entry } from "../../../node/raft/types.ts";
import { answerRead, type ReadAnswer, type ReadQuery } from "../lock-host.ts";

export interface RecordedRead {
  readonly client: number;
  readonly query: ReadQuery;
  /** Virtual time of the first send, and of the reply's arrival. */
  readonly call: number;
  readonly ret: number;
  /** The confirmed read index and the replica's applied index when it read. */
  readonly readIndex: number;
  readonly applied: number;
  readonly answer: ReadAnswer;
}

/** GetLock and ValidateToken touch one lock; the others span locks. */
export function isCrossLock(q: ReadQuery): boolean {
  return q.op === "listLocks" || q.op === "listSessions" || q.op === "getSession";
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

function describe(q: ReadQuery): string {
  return JSON.stringify(q, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

export class ReadChecker {
  readonly reads: RecordedRead[] = [];
  private readonly log = new Map<number, Entry>();
  /** First-apply time of each index, in index order from 1 (non-decreasing). */
  private readonly appliedAt: number[] = [];
  private readonly violations: string[] = [];

  constructor(private readonly limits: Partial<LockLimits>) {}

  /** After each entry applied on any replica. */
  applied(entry: Entry, now: number): void {
    if (this.log.has(entry.index)) return;
    if (entry.index !== this.log.size + 1) {
      this.violations.push(`read check: index ${entry.index} applied first while ${this.log.size + 1} was never applied anywhere`);
    }
    this.log.set(entry.index, entry);
    this.appliedAt[entry.index] = now;
  }

  record(read: RecordedRead): void {
    this.reads.push(read);
  }

  /** The highest index first applied anywhere strictly before `t` (0 if none). */
  private committedBefore(t: number): number {
    let lo = 0;
    let hi = this.log.size;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.appliedAt[mid] ?? Infinity) < t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  check(): ReadCheckResult {
    const out = [...this.violations];
    const where = (r: RecordedRead): string =>
      `client ${r.client} ${describe(r.query)} [t=${r.call}, t=${r.ret}] read index ${r.readIndex} applied ${r.applied}`;
    for (const r of this.reads) {
      const floor = this.committedBefore(r.call);
      if (r.readIndex > r.applied) out.push(`read: ${where(r)}: read before applying its read index`);
      if (r.applied < floor) out.push(`stale read: ${where(r)}: index ${floor} was committed before the call`);
      else if (r.readIndex < floor) out.push(`stale read index: ${where(r)}: index ${floor} was committed before the call`);
    }
    const byApplied = [...this.reads].sort((x, y) => x.applied - y.applied);
    const ref = new LockStateMachine(this.limits);
    let index = 0;
    let checked = 0;
    let crossLockChecked = 0;
    for (const r of byApplied) {
      while (index < r.applied) {
        index++;
        const entry = this.log.get(index);
        if (entry === undefined) {
          out.push(`read check: index ${index} was never applied anywhere, yet ${where(r)}`);
          return { violations: out, checked, crossLockChecked };
        }
        if (entry.kind === "normal") ref.applyBytes(entry.index, entry.data);
        else ref.skip(entry.index);
      }
      checked++;
      if (isCrossLock(r.query)) crossLockChecked++;
      const want = readAnswerKey(answerRead(ref, r.query));
      const got = readAnswerKey(r.answer);
      if (want !== got) out.push(`read: ${where(r)} answered ${got}, the committed log at ${r.applied} gives ${want}`);
    }
    return { violations: out, checked, crossLockChecked };
  }
}
