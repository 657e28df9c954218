// Checks of the lock service on the simulated cluster, fed with every applied entry on
// every replica and with what clients receive:
// - G1 per lock kind, multi-lock atomicity and the FIFO rules (lock-grants.ts), and the
//   replica's tables are consistent;
// - G2: per lock, grant tokens strictly increase; across locks they do not decrease with
//   the index; a token equals epoch × 2^48 + the index of the committed command that made
//   the grant; every token a client sees is such a grant;
// - grants only to live sessions;
// - G4: one effect at most per (session, seq) of an Acquire, Release, Upgrade, Downgrade or
//   CloseSession; every later answer to a seq is the first final answer, NOT_FOUND, or
//   "request too old" (or, once the session ended and its owner is no longer remembered,
//   PERMISSION_DENIED, as for a session that never existed; UNAUTHENTICATED once the
//   caller's token is revoked);
// - replicas agree on the answer and events of every index;
// - the client deadline: no session expires before its client's own deadline.
// A call on another identity's session is no write of that session's (access.ts checks it).
import { status as Status } from "@grpc/grpc-js";
import type { Answer } from "../../../node/lock/answers.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { decodeEntry } from "../../../node/lock/codec/entries.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import type { LockReader } from "../../../node/host/node-host.ts";
import { tokenFor } from "../../../node/lock/tokens.ts";
import type { Entry, NodeId } from "../../../node/raft/types.ts";
import { SessionOwners } from "./access.ts";
import { grantDetailKey, GrantRules, type GrantStats } from "./lock-grants.ts";
import { codeOf } from "./outcomes.ts";

/** A stable text form of an answer, for comparing answers. */
export function answerKey(a: Answer): string {
  switch (a.kind) {
    case "error":
      return `error:${a.reason}`;
    case "granted":
      return `granted:${a.token}:${a.holder.sessionId}/${a.holder.clientName}/${a.holder.grantedIndex}${grantDetailKey(a)}`;
    case "notAcquired":
      return `notAcquired:${a.holder?.sessionId ?? 0n}:${a.holder?.token ?? 0n}:${a.holder?.clientName ?? ""}${a.blockedLock !== undefined ? `:${a.blockedLock}` : ""}`;
    case "sessionOpened":
      return `sessionOpened:${a.sessionId}:${a.ttlMs}`;
    default:
      return a.kind;
  }
}

export interface SessionEnd {
  readonly session: bigint;
  readonly index: number;
  readonly how: "closed" | "sessionExpired";
  /** Earliest proposal of a close or expiry of the session (a lower bound of the commit time). */
  readonly proposedAt: number;
  /** First apply on any replica. */
  readonly appliedAt: number;
}

/** Grants one committed entry ended without their clients (a hold limit, a RevokeLock). */
export interface GrantRevoke {
  readonly index: number;
  readonly grants: ReadonlyArray<{
    readonly lock: string;
    readonly session: bigint;
    readonly token: bigint;
  }>;
  /** Earliest proposal of the command (a lower bound of the commit time), else the first apply. */
  readonly proposedAt: number;
  readonly appliedAt: number;
}

export interface LockCheckStats extends GrantStats {
  grants: number;
  expiries: number;
  closes: number;
  applies: number;
  answersCompared: number;
}

export class LockChecker {
  private readonly rules: GrantRules;
  readonly stats: LockCheckStats;
  readonly sessionEnds: SessionEnd[] = [];
  readonly revokes: GrantRevoke[] = [];
  /** Client-side deadline (virtual time) of each session, the latest the client computed. */
  readonly clientDeadlines = new Map<bigint, number>();
  private readonly digests = new Map<number, string>();
  private readonly lastToken = new Map<string, bigint>();
  private lastGrantToken = 0n;
  private readonly grants = new Map<string, Set<bigint>>();
  private readonly live = new Set<bigint>();
  private readonly effects = new Map<string, number>();
  /** The first final answer of each `${session}:${seq}`, and its key. */
  private readonly firstAnswers = new Map<string, { key: string; answer: Answer }>();
  private readonly endProposals = new Map<bigint, number>();
  private readonly revokeProposals = new Map<string, number>();
  private readonly owners = new SessionOwners();
  /** What each session's client has acknowledged in the writes it sent. */
  private readonly acked = new Map<bigint, { upTo: number; held: Set<number> }>();

  constructor(
    private readonly fail: (msg: string) => void,
    private readonly epoch = 0,
  ) {
    this.rules = new GrantRules(fail);
    // The rules count the grants of each kind into the same object.
    this.stats = Object.assign(this.rules.stats, {
      grants: 0,
      expiries: 0,
      closes: 0,
      applies: 0,
      answersCompared: 0,
    });
  }

  /** A close or expiry of `session` was proposed at `now`. */
  endProposed(session: bigint, now: number): void {
    if (!this.endProposals.has(session)) this.endProposals.set(session, now);
  }

  /** A hold-limit revoke of the session's grant `token` was proposed at `now`. */
  revokeProposed(session: bigint, token: bigint, now: number): void {
    const key = `${session}:${token}`;
    if (!this.revokeProposals.has(key)) this.revokeProposals.set(key, now);
  }

  /** After each entry applied on a replica; `outcome` is null for entries without a command. */
  applied(
    node: NodeId,
    entry: Entry,
    outcome: ApplyOutcome | null,
    sm: LockReader,
    now: number,
  ): void {
    this.stats.applies++;
    for (const p of sm.checkInvariants())
      this.fail(`t=${now} node ${node} index ${entry.index}: ${p}`);
    const digest = outcome === null ? "-" : digestOf(outcome);
    const seen = this.digests.get(entry.index);
    if (seen !== undefined) {
      if (seen !== digest)
        this.fail(`index ${entry.index}: node ${node} applied ${digest}, another replica ${seen}`);
      return;
    }
    this.digests.set(entry.index, digest);
    if (outcome === null) return;
    let cmd: Command | null;
    let identity: string | null = null;
    try {
      ({ command: cmd, identity } = decodeEntry(entry.data));
    } catch {
      cmd = null;
    }
    // Another identity's call names a session that is not its own: no write of that session.
    if (cmd !== null && this.owners.foreign(cmd, identity) !== null) cmd = null;
    this.owners.entry(identity, outcome);
    this.committed(entry.index, cmd, outcome, now);
  }

  /** The committed history, seen once per index (at its first apply anywhere). */
  private committed(index: number, cmd: Command | null, o: ApplyOutcome, now: number): void {
    if (o.result.kind === "error" && codeOf(o.result) === Status.INVALID_ARGUMENT) {
      this.fail(`index ${index}: ${cmd?.type ?? "entry"} refused as invalid: ${o.result.message}`);
    }
    for (const s of o.timers.sessionsOpened) this.live.add(s.id);
    const expected = tokenFor(this.epoch, index);
    this.rules.entry(index, cmd, o, expected);
    for (const e of o.events) {
      if (e.type !== "acquired") continue;
      this.stats.grants++;
      if (e.token !== expected)
        this.fail(
          `token: index ${index} grants ${e.lock} with token ${e.token}, expected ${expected}`,
        );
      const last = this.lastToken.get(e.lock) ?? 0n;
      // Shared and upgradeable grants and permits of one entry share its token; an exclusive grant's is its own.
      const sameEntry =
        e.token === last &&
        (e.mode === "shared" || e.mode === "upgradeable" || e.mode === "permit");
      if (e.token <= last && !sameEntry)
        this.fail(`G2: ${e.lock} granted with token ${e.token} after ${last}`);
      if (e.token < this.lastGrantToken)
        this.fail(
          `G2: token ${e.token} at index ${index} below earlier grant ${this.lastGrantToken}`,
        );
      if (!this.live.has(e.sessionId))
        this.fail(
          `grant of ${e.lock} at index ${index} to session ${e.sessionId}, which is not live`,
        );
      this.lastToken.set(e.lock, e.token);
      this.lastGrantToken = e.token;
      let set = this.grants.get(e.lock);
      if (!set) this.grants.set(e.lock, (set = new Set()));
      set.add(e.token);
    }
    const revoked = o.events
      .filter((e) => e.type === "revoked")
      .map((e) => ({ lock: e.lock, session: e.sessionId, token: e.token }));
    if (revoked.length > 0) {
      const first = revoked[0] as { session: bigint; token: bigint };
      const proposedAt = Math.min(
        this.revokeProposals.get(`${first.session}:${first.token}`) ?? now,
        now,
      );
      this.revokes.push({ index, grants: revoked, proposedAt, appliedAt: now });
    }
    for (const id of o.timers.sessionsEnded) {
      this.live.delete(id);
      const how = cmd?.type === "closeSession" ? "closed" : "sessionExpired";
      if (how === "closed") this.stats.closes++;
      else this.stats.expiries++;
      this.sessionEnds.push({
        session: id,
        index,
        how,
        proposedAt: this.endProposals.get(id) ?? 0,
        appliedAt: now,
      });
    }
    if (cmd) this.exactlyOnce(index, cmd, o);
  }

  private exactlyOnce(index: number, cmd: Command, o: ApplyOutcome): void {
    if (
      cmd.type === "acquire" ||
      cmd.type === "release" ||
      cmd.type === "closeSession" ||
      cmd.type === "upgrade" ||
      cmd.type === "downgrade"
    ) {
      const key = `${cmd.sessionId}:${cmd.seq}`;
      let effect: boolean;
      if (cmd.type === "acquire" || cmd.type === "upgrade" || cmd.type === "downgrade") {
        // A new grant of the lock to the session (a Downgrade's, an Upgrade's) or a wait started.
        effect =
          o.events.some(
            (e) =>
              e.type === "acquired" &&
              e.sessionId === cmd.sessionId &&
              e.lock === cmd.lock &&
              e.index === index,
          ) ||
          o.timers.waitsStarted.some(
            (w) => w.sessionId === cmd.sessionId && w.acquireSeq === cmd.seq,
          );
      } else if (cmd.type === "release") {
        effect = o.events.some(
          (e) => e.type === "released" && e.sessionId === cmd.sessionId && e.lock === cmd.lock,
        );
      } else {
        effect = o.timers.sessionsEnded.includes(cmd.sessionId);
      }
      if (effect) {
        const n = (this.effects.get(key) ?? 0) + 1;
        this.effects.set(key, n);
        if (n > 1)
          this.fail(
            `G4: session ${cmd.sessionId} seq ${cmd.seq} (${cmd.type}) took effect again at index ${index}`,
          );
      }
      this.finalAnswer(cmd.sessionId, cmd.seq, o.result, `index ${index}`);
    }
    if (cmd.type === "cancelWait" && o.result.kind !== "error")
      this.finalAnswer(cmd.sessionId, cmd.acquireSeq, o.result, `cancel at index ${index}`);
    for (const c of o.completions)
      this.finalAnswer(c.sessionId, c.seq, c.answer, `completion at index ${index}`);
  }

  /** Records the first final answer of a seq and compares later ones with it. */
  private finalAnswer(session: bigint, seq: number, a: Answer, where: string): void {
    if (a.kind === "waiting") return;
    if (
      a.kind === "error" &&
      (codeOf(a) === Status.NOT_FOUND ||
        codeOf(a) === Status.RESOURCE_EXHAUSTED ||
        a.reason === "ERROR_REASON_REQUEST_TOO_OLD" ||
        a.reason === "ERROR_REASON_UNAUTHENTICATED" ||
        (a.reason === "ERROR_REASON_PERMISSION_DENIED" && !this.live.has(session)))
    )
      return;
    const key = `${session}:${seq}`;
    const k = answerKey(a);
    const first = this.firstAnswers.get(key);
    if (first === undefined) this.firstAnswers.set(key, { key: k, answer: a });
    else if (first.key !== k)
      this.fail(`G4: session ${session} seq ${seq} answered ${k} (${where}) after ${first.key}`);
  }

  /** A client sent a write acknowledging the answers to seqs up to `ackedUpTo` and to `held`. */
  clientAcked(session: bigint, ackedUpTo: number, held: readonly number[]): void {
    let acked = this.acked.get(session);
    if (acked === undefined) this.acked.set(session, (acked = { upTo: 0, held: new Set() }));
    acked.upTo = Math.max(acked.upTo, ackedUpTo);
    for (const seq of held) acked.held.add(seq);
  }

  /** A client received a final answer for a seq. */
  clientAnswer(session: bigint, seq: number, a: Answer): void {
    this.clientAnswerAs(session, seq, a, answerKey);
  }

  /**
   * A client received a final answer for a seq through a call whose answer says less than
   * the state machine's (an Upgrade's, a Downgrade's): `seen` is what it said in the words
   * of `view`, or the error it was, compared with `view` of the first final answer.
   */
  clientAnswerAs(
    session: bigint,
    seq: number,
    seen: string | Answer,
    view: (a: Answer) => string,
  ): void {
    this.stats.answersCompared++;
    const error = typeof seen === "string" || seen.kind !== "error" ? null : seen;
    if (error !== null && codeOf(error) === Status.NOT_FOUND) return;
    if (error?.reason === "ERROR_REASON_REQUEST_TOO_OLD") {
      // An attempt still on its way when the client learnt the answer otherwise (a
      // CancelWait told it) and acknowledged it: its answer is harmless.
      const acked = this.acked.get(session);
      if (acked !== undefined && (seq <= acked.upTo || acked.held.has(seq))) return;
      this.fail(
        `G4: client of session ${session} got "request too old" for seq ${seq}, whose answer it never had`,
      );
      return;
    }
    const key = typeof seen === "string" ? seen : error !== null ? answerKey(error) : view(seen);
    const first = this.firstAnswers.get(`${session}:${seq}`);
    if (first === undefined) {
      if (error === null)
        this.fail(
          `client of session ${session} got ${key} for seq ${seq}, an answer no committed entry gave`,
        );
      return;
    }
    const expected = first.answer.kind === "error" ? first.key : view(first.answer);
    if (expected !== key)
      this.fail(
        `G4: client of session ${session} got ${key} for seq ${seq}, first answer was ${expected}`,
      );
  }

  /** A client was told it holds `lock` with `token`: it must be a committed grant of that lock. */
  tokenSeen(lock: string, token: bigint, session: bigint): void {
    if (!this.grants.get(lock)?.has(token))
      this.fail(
        `client of session ${session} got token ${token} for ${lock}, not a committed grant of it`,
      );
  }

  clientDeadline(session: bigint, virtualDeadline: number): void {
    const d = this.clientDeadlines.get(session);
    if (d === undefined || virtualDeadline > d) this.clientDeadlines.set(session, virtualDeadline);
  }

  /** The client-deadline promise: every expiry took effect no earlier than the client's deadline. */
  checkDeadlines(): string[] {
    const out: string[] = [];
    for (const end of this.sessionEnds) {
      if (end.how !== "sessionExpired") continue;
      const d = this.clientDeadlines.get(end.session);
      if (d !== undefined && end.appliedAt < d) {
        out.push(
          `client deadline: session ${end.session} expired at t=${end.appliedAt.toFixed(1)} (index ${end.index}) before its client's deadline t=${d.toFixed(1)}`,
        );
      }
    }
    return out;
  }
}

function digestOf(o: ApplyOutcome): string {
  const kinds = (e: ApplyOutcome["events"][number]): string =>
    [e.mode, e.slot, e.permits, e.holderData, e.holdMs, e.revokedFor, e.ended].some(
      (x) => x !== undefined,
    )
      ? `/${e.mode ?? ""}/${e.slot ?? ""}/${e.permits ?? ""}/${JSON.stringify(e.holderData ?? "")}/${e.holdMs ?? ""}/${e.revokedFor ?? ""}/${e.ended ?? ""}`
      : "";
  const events = o.events
    .map((e) => `${e.type}/${e.lock}/${e.sessionId}/${e.token}${kinds(e)}`)
    .join(",");
  const completions = o.completions
    .map((c) => `${c.sessionId}:${c.seq}=${answerKey(c.answer)}`)
    .join(",");
  return `${answerKey(o.result)} [${events}] [${completions}]`;
}
