// Checks of who holds what at each committed index, for every lock kind, from the
// committed commands and what their entries produced (events, completions, timers):
// - G1 per kind: an exclusive grant is alone; a shared grant never meets an exclusive one;
//   a semaphore has at most N permits out, each in its own slot, a grant taking the lowest
//   free slot; an end ends a current grant;
// - a multi-lock Acquire is granted all at one index or not at all: the grants of an entry
//   are exactly the locks of the requests it answers "granted";
// - FIFO, as node/lock/grant-order.ts states it and from a queue model of its own: a new
//   Acquire is granted only when no request waits in a queue it joins; a waiting one only
//   when every request ahead of it in each of its queues is granted by the same entry; and
//   no request is left waiting that the rule would grant;
// - elections: a lead is alone as an exclusive grant is, a name is never an election and a
//   lock at once, and a Proclaim names the current lead;
// - handoff: a Release (or Resign) naming a successor grants that waiting session in the
//   same entry, ahead of the queue, and only after the released grant ended (never two
//   holders, even between the events of one entry);
// - upgradeable grants: at most one per lock, beside shared grants only; an Upgrade's
//   exclusive grant is the "released ... upgraded" end of the session's upgradeable grant
//   while it is the only holder, then its exclusive grant, both at the entry that answers
//   it; a Downgrade's grant likewise follows the "released ... downgraded" end of its
//   exclusive grant; each such pair answers an Upgrade or Downgrade of this entry, and each
//   granted one has its pair. A pending Upgrade (from the waiting answer and the wait it
//   starts, to the answer that ends it) lets no other grant of its lock in; it ends not
//   upgraded or cancelled with its upgradeable grant as it was, and "not the holder" only
//   with that grant ended; it is never left waiting once its session is the only holder,
//   and nothing queued for its lock is granted before it;
// - a session's successive grants of a lock carry strictly growing tokens.
import type { Answer } from "../../../node/lock/answers.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { targetsOf, type GrantMode, type Target } from "../../../node/lock/kinds.ts";
import type { ApplyOutcome, LockEvent } from "../../../node/lock/outcome.ts";

interface Grant {
  readonly session: bigint;
  readonly token: bigint;
  readonly mode: GrantMode;
  readonly slot: number;
}

interface Request {
  readonly session: bigint;
  readonly seqs: number[];
  readonly targets: readonly Target[];
  readonly joinedAt: number;
}

/** A session's Upgrade that waits: its seqs, the upgradeable grant it converts, and since when. */
interface PendingUpgrade {
  readonly lock: string;
  readonly session: bigint;
  readonly seqs: number[];
  readonly token: bigint;
  readonly since: number;
}

type ChangeReason = "upgraded" | "downgraded";

/** The new grant of an Upgrade or Downgrade: by the events (an end, then the grant), or by an answer. */
interface ModeChange {
  readonly lock: string;
  readonly session: bigint;
  readonly reason: ChangeReason;
  readonly mode: GrantMode;
  readonly token: bigint;
}

export interface GrantStats {
  sharedGrants: number;
  permitGrants: number;
  setGrants: number;
  holdLimitEnds: number;
  leaderGrants: number;
  handoffs: number;
  upgradeableGrants: number;
  /** Upgrades granted (and of them, those granted after a wait), waits that ended without one, downgrades. */
  upgrades: number;
  upgradesWaited: number;
  upgradeWaitsEnded: number;
  downgrades: number;
}

/** The successor a Release names when the entry answers it "released": a handoff. */
function handoffOf(cmd: Command | null, o: ApplyOutcome): bigint | null {
  if (cmd?.type !== "release" || cmd.successor === undefined) return null;
  return o.result.kind === "released" ? cmd.successor : null;
}

export class GrantRules {
  readonly stats: GrantStats = {
    sharedGrants: 0,
    permitGrants: 0,
    setGrants: 0,
    holdLimitEnds: 0,
    leaderGrants: 0,
    handoffs: 0,
    upgradeableGrants: 0,
    upgrades: 0,
    upgradesWaited: 0,
    upgradeWaitsEnded: 0,
    downgrades: 0,
  };
  private readonly grants = new Map<string, Grant[]>();
  /** A semaphore's permit count while it has grants. */
  private readonly permits = new Map<string, number>();
  private readonly queues = new Map<string, Request[]>();
  /** `${session}:${seq}` of every seq of a waiting request. */
  private readonly requests = new Map<string, Request>();
  /** Pending Upgrades by lock, and by `${session}:${seq}` of each of their seqs. */
  private readonly upgrades = new Map<string, PendingUpgrade>();
  private readonly upgradeSeqs = new Map<string, PendingUpgrade>();
  /** `${session}:${seq}` of the Upgrades applied so far (a retry gets its first answer again). */
  private readonly upgradesSeen = new Set<string>();
  /** The token of each session's latest grant of each lock, by `${session}/${lock}`. */
  private readonly sessionTokens = new Map<string, bigint>();

  constructor(private readonly fail: (msg: string) => void) {}

  /** One committed entry, at its first apply anywhere. `token`: the token a grant by this entry carries. */
  entry(index: number, cmd: Command | null, o: ApplyOutcome, token: bigint): void {
    // Upgrades this entry ends without a grant are over before its events: an entry is one
    // step, and the grants their end lets in (behind a timed-out or cancelled Upgrade, or
    // once the upgradeable grant ended) come in the same step.
    const ending = this.upgradesEnding(o);
    const answered = this.answeredChanges(index, cmd, o, token);
    const granted = this.answeredGrants(index, cmd, o, token);
    for (const c of answered)
      granted.push({
        session: c.session,
        targets: [{ lock: c.lock, mode: c.mode, permits: 0 }],
      });
    this.allOrNothing(index, o.events, granted);
    this.handoff(index, cmd, o);
    const changing = new Map<string, Omit<ModeChange, "mode">>();
    const changes: ModeChange[] = [];
    for (const e of o.events) {
      if (e.type === "acquired") this.acquired(index, e, changing, changes);
      else if (e.type === "proclaimed") this.proclaimed(index, e);
      else this.ended(index, e, changing);
    }
    for (const c of changing.values())
      this.fail(
        `${c.reason}: index ${index} ends the grant of ${c.lock} by ${c.session} as ${c.reason}, and no grant of it to that session follows`,
      );
    this.changesAnswered(index, changes, answered);
    for (const c of o.completions) this.leave(c.sessionId, c.seq);
    if (cmd?.type === "acquire" && o.result.kind === "waiting") this.join(index, cmd, o);
    if (cmd?.type === "upgrade") this.upgradeAnswered(index, cmd, o);
    this.upgradesEnded(index, ending);
    this.nothingLeftWaiting(index);
  }

  /**
   * The pending Upgrades whose seqs this entry answers other than "granted" (timed out,
   * cancelled, not the holder, session ended), with that answer: they wait no more.
   */
  private upgradesEnding(o: ApplyOutcome): Array<{ upgrade: PendingUpgrade; answer: Answer }> {
    const out: Array<{ upgrade: PendingUpgrade; answer: Answer }> = [];
    for (const c of o.completions) {
      const u = this.upgradeSeqs.get(`${c.sessionId}:${c.seq}`);
      if (!u || c.answer.kind === "granted") continue;
      this.dropUpgrade(u);
      out.push({ upgrade: u, answer: c.answer });
    }
    return out;
  }

  /** An Upgrade's wait ended (granted or not): it leaves the lock. */
  private dropUpgrade(u: PendingUpgrade): void {
    if (this.upgrades.get(u.lock) === u) this.upgrades.delete(u.lock);
    for (const s of u.seqs) this.upgradeSeqs.delete(`${u.session}:${s}`);
  }

  /**
   * The Upgrades and Downgrades this entry answers with a new grant: an Upgrade or a
   * Downgrade granted by it (a retry answered again carries an earlier entry's token), and
   * the pending Upgrades it grants.
   */
  private answeredChanges(
    index: number,
    cmd: Command | null,
    o: ApplyOutcome,
    token: bigint,
  ): ModeChange[] {
    const out: ModeChange[] = [];
    const r = o.result;
    if (
      (cmd?.type === "upgrade" || cmd?.type === "downgrade") &&
      r.kind === "granted" &&
      r.token === token
    ) {
      const mode = r.grants[0]?.mode ?? "exclusive";
      const reason = cmd.type === "upgrade" ? "upgraded" : "downgraded";
      if (cmd.type === "upgrade" ? mode !== "exclusive" : mode !== cmd.mode)
        this.fail(
          `${reason}: index ${index} answers the ${cmd.type} of ${cmd.lock} by ${cmd.sessionId} with a grant in ${mode} mode`,
        );
      out.push({ lock: cmd.lock, session: cmd.sessionId, reason, mode, token });
    }
    const seen = new Set<PendingUpgrade>();
    for (const c of o.completions) {
      const u = this.upgradeSeqs.get(`${c.sessionId}:${c.seq}`);
      if (!u || c.answer.kind !== "granted" || seen.has(u)) continue;
      seen.add(u);
      this.stats.upgradesWaited++;
      const mode = c.answer.grants[0]?.mode ?? "exclusive";
      out.push({
        lock: u.lock,
        session: u.session,
        reason: "upgraded",
        mode,
        token: c.answer.token,
      });
    }
    return out;
  }

  /** Every pair of an end and a new grant answers a change of this entry, and every change has its pair. */
  private changesAnswered(
    index: number,
    changes: readonly ModeChange[],
    answered: readonly ModeChange[],
  ): void {
    const key = (c: ModeChange): string =>
      `${c.reason} of ${c.lock} by ${c.session} to ${c.mode} with token ${c.token}`;
    const asked = new Set(answered.map(key));
    const made = new Set(changes.map(key));
    for (const c of changes)
      if (!asked.has(key(c)))
        this.fail(`${c.reason}: index ${index} makes the ${key(c)}, which no answer of it gives`);
    for (const c of answered)
      if (!made.has(key(c)))
        this.fail(
          `${c.reason}: index ${index} answers the ${key(c)}, but its events do not end the old grant and make that one`,
        );
  }

  /** An Upgrade's answer at its own entry: it starts a wait, joins one, or is answered at once. */
  private upgradeAnswered(
    index: number,
    cmd: Extract<Command, { type: "upgrade" }>,
    o: ApplyOutcome,
  ): void {
    const key = `${cmd.sessionId}:${cmd.seq}`;
    const current = this.grants.get(cmd.lock) ?? [];
    const own = current.find((g) => g.session === cmd.sessionId);
    // A seq seen before (answered, or waiting then) is answered as it was then, not as now.
    const first = !this.upgradesSeen.has(key);
    this.upgradesSeen.add(key);
    if (o.result.kind !== "waiting") {
      if (first && o.result.kind === "notAcquired" && own && current.length === 1)
        this.fail(
          `upgrade: index ${index} answers the Upgrade of ${cmd.lock} by ${cmd.sessionId} "not upgraded" while it is the only holder`,
        );
      return;
    }
    const started = o.timers.waitsStarted.some(
      (w) => w.sessionId === cmd.sessionId && w.acquireSeq === cmd.seq,
    );
    const u = this.upgrades.get(cmd.lock);
    if (!started) {
      // A retry of a waiting seq, or a second Upgrade joining the wait.
      if (!u || u.session !== cmd.sessionId) {
        this.fail(
          `upgrade: index ${index}: seq ${cmd.seq} of session ${cmd.sessionId} waits, but no Upgrade of ${cmd.lock} by it waits to join`,
        );
        return;
      }
      if (!u.seqs.includes(cmd.seq)) u.seqs.push(cmd.seq);
      this.upgradeSeqs.set(key, u);
      return;
    }
    if (u)
      this.fail(
        `upgrade: index ${index}: session ${cmd.sessionId} waits to upgrade ${cmd.lock} while the Upgrade of session ${u.session} waits since index ${u.since}`,
      );
    if (!own || own.mode !== "upgradeable" || own.token !== cmd.token)
      this.fail(
        `upgrade: index ${index}: session ${cmd.sessionId} waits to upgrade ${cmd.lock} with token ${cmd.token}, which is not its upgradeable grant (${own ? `${own.mode} ${own.token}` : "none"})`,
      );
    const pending: PendingUpgrade = {
      lock: cmd.lock,
      session: cmd.sessionId,
      seqs: [cmd.seq],
      token: cmd.token,
      since: index,
    };
    this.upgrades.set(cmd.lock, pending);
    this.upgradeSeqs.set(key, pending);
  }

  /**
   * Upgrades that ended without a grant: not upgraded (timed out) or cancelled leave the
   * upgradeable grant as it was; "not the holder" only once it ended.
   */
  private upgradesEnded(
    index: number,
    ending: ReadonlyArray<{ upgrade: PendingUpgrade; answer: Answer }>,
  ): void {
    for (const { upgrade: u, answer } of ending) {
      this.stats.upgradeWaitsEnded++;
      const held = (this.grants.get(u.lock) ?? []).find((g) => g.session === u.session);
      const what = `the Upgrade of ${u.lock} by ${u.session} (waiting since index ${u.since})`;
      if (answer.kind === "notAcquired" || answer.kind === "cancelled") {
        if (!held || held.token !== u.token || held.mode !== "upgradeable")
          this.fail(
            `upgrade: index ${index} ends ${what} ${answer.kind}, but its upgradeable grant ${u.token} did not go on (now ${held ? `${held.mode} ${held.token}` : "none"})`,
          );
      } else if (answer.kind === "error" && answer.reason === "ERROR_REASON_NOT_HOLDER") {
        if (held?.token === u.token)
          this.fail(
            `upgrade: index ${index} ends ${what} as not the holder while its upgradeable grant ${u.token} goes on`,
          );
      }
    }
  }

  /**
   * The requests this entry answers "granted" with a new grant (an Acquire granted at once,
   * waits granted), each checked against the queues as they were before the entry.
   */
  private answeredGrants(
    index: number,
    cmd: Command | null,
    o: ApplyOutcome,
    token: bigint,
  ): Array<{ session: bigint; targets: readonly Target[] }> {
    const out: Array<{ session: bigint; targets: readonly Target[] }> = [];
    if (cmd?.type === "acquire" && o.result.kind === "granted" && o.result.token === token) {
      const targets = targetsOf(cmd);
      for (const t of targets) {
        const ahead = this.queues.get(t.lock) ?? [];
        if (ahead.length > 0)
          this.fail(
            `FIFO: index ${index} grants ${t.lock} to session ${cmd.sessionId} at once while session ${ahead[0]?.session} waits for it since index ${ahead[0]?.joinedAt}`,
          );
      }
      out.push({ session: cmd.sessionId, targets });
    }
    const grantedNow = new Set<Request>();
    // Requests whose wait this entry ends in any way: none of them waits after it.
    const leaving = new Set<Request>();
    for (const c of o.completions) {
      const r = this.requests.get(`${c.sessionId}:${c.seq}`);
      if (r) leaving.add(r);
    }
    for (const c of o.completions) {
      const r = this.requests.get(`${c.sessionId}:${c.seq}`);
      if (r && c.answer.kind === "granted") grantedNow.add(r);
      // A pending Upgrade's grant is checked with the mode changes.
      const upgrade = this.upgradeSeqs.has(`${c.sessionId}:${c.seq}`);
      if (!r && !upgrade && c.answer.kind === "granted")
        this.fail(
          `index ${index} grants seq ${c.seq} of session ${c.sessionId}, which was not waiting`,
        );
    }
    // A handoff's successor goes ahead of the queue by name (checked in handoff()).
    const successor = handoffOf(cmd, o);
    for (const r of grantedNow) {
      for (const t of r.targets) {
        if (successor !== null && r.session === successor) continue;
        for (const ahead of this.queues.get(t.lock) ?? []) {
          if (ahead === r) break;
          if (!leaving.has(ahead)) {
            this.fail(
              `FIFO: index ${index} grants ${t.lock} to session ${r.session} (waiting since index ${r.joinedAt}) while session ${ahead.session}, ahead of it since index ${ahead.joinedAt}, still waits`,
            );
          }
        }
      }
      out.push({ session: r.session, targets: r.targets });
    }
    return out;
  }

  /** The grants of an entry are exactly the locks of the requests it grants: no part of a set alone. */
  private allOrNothing(
    index: number,
    events: readonly LockEvent[],
    granted: ReadonlyArray<{ session: bigint; targets: readonly Target[] }>,
  ): void {
    const want = new Map<bigint, string[]>();
    for (const g of granted) {
      want.set(g.session, [...(want.get(g.session) ?? []), ...g.targets.map((t) => t.lock)]);
      if (g.targets.length > 1) this.stats.setGrants++;
    }
    const got = new Map<bigint, string[]>();
    for (const e of events)
      if (e.type === "acquired") got.set(e.sessionId, [...(got.get(e.sessionId) ?? []), e.lock]);
    for (const session of new Set([...want.keys(), ...got.keys()])) {
      const w = [...(want.get(session) ?? [])].sort();
      const g = [...(got.get(session) ?? [])].sort();
      if (w.join("\u0000") !== g.join("\u0000")) {
        this.fail(
          `multi-lock: index ${index} grants [${g.join(", ")}] to session ${session}, but the requests it grants name [${w.join(", ")}]`,
        );
      }
    }
  }

  /**
   * A Release naming a successor that this entry answers "released": its events are the
   * grant's end, then the successor's grant, and nothing of that lock between them.
   */
  private handoff(index: number, cmd: Command | null, o: ApplyOutcome): void {
    const successor = handoffOf(cmd, o);
    if (successor === null || cmd?.type !== "release") return;
    const of = o.events.filter((e) => e.lock === cmd.lock);
    // A retry answered with its first answer changes nothing.
    if (of.length === 0) return;
    this.stats.handoffs++;
    const [end, grant] = of;
    if (
      end?.type !== "released" ||
      end.sessionId !== cmd.sessionId ||
      grant?.type !== "acquired" ||
      grant.sessionId !== successor
    ) {
      this.fail(
        `handoff: index ${index} releases ${cmd.lock} to session ${successor}, but its events are ${of.map((e) => `${e.type}:${e.sessionId}`).join(", ")}`,
      );
    }
  }

  /** A new value of a lead: only by the session that leads, under its token. */
  private proclaimed(index: number, e: LockEvent): void {
    const current = this.grants.get(e.lock) ?? [];
    if (
      !current.some((g) => g.session === e.sessionId && g.token === e.token && g.mode === "leader")
    )
      this.fail(
        `election: index ${index} takes a value of ${e.lock} from ${e.sessionId}/${e.token}, which does not lead it`,
      );
  }

  private acquired(
    index: number,
    e: LockEvent,
    changing: Map<string, Omit<ModeChange, "mode">>,
    changes: ModeChange[],
  ): void {
    const mode = e.mode ?? "exclusive";
    const current = this.grants.get(e.lock) ?? [];
    const where = `index ${index} grants ${e.lock}${mode === "exclusive" ? "" : ` (${mode})`} to ${e.sessionId}`;
    // The grant that completes an Upgrade or Downgrade comes right after its end.
    const change = changing.get(e.lock);
    changing.delete(e.lock);
    if (change) {
      const ok =
        change.session === e.sessionId &&
        (change.reason === "upgraded"
          ? mode === "exclusive"
          : mode === "shared" || mode === "upgradeable");
      if (!ok)
        this.fail(
          `${change.reason}: index ${index} ends the grant of ${e.lock} by ${change.session} as ${change.reason}, then grants it in ${mode} mode to ${e.sessionId}`,
        );
      changes.push({ ...change, mode, token: e.token });
      if (change.reason === "upgraded") this.stats.upgrades++;
      else this.stats.downgrades++;
    }
    const upgrade = this.upgrades.get(e.lock);
    if (upgrade && !(change?.reason === "upgraded" && upgrade.session === e.sessionId))
      this.fail(
        `upgrade: ${where} while the Upgrade of session ${upgrade.session} waits (since index ${upgrade.since})`,
      );
    const key = `${e.sessionId}/${e.lock}`;
    const before = this.sessionTokens.get(key);
    if (before !== undefined && e.token <= before)
      this.fail(`tokens: ${where} with token ${e.token}, not above its earlier grant's ${before}`);
    this.sessionTokens.set(key, e.token);
    if (current.some((g) => g.session === e.sessionId))
      this.fail(`G1: ${where}, which holds it already`);
    if (mode === "upgradeable") {
      this.stats.upgradeableGrants++;
      const other = current.find((g) => g.mode !== "shared");
      if (other) this.fail(`G1: ${where} while ${other.session} holds it ${other.mode}`);
    }
    const exclusive = current.find((g) => g.mode === "exclusive" || g.mode === "leader");
    if ((mode === "exclusive" || mode === "leader") && current.length > 0)
      this.fail(`G1: ${where} while ${current[0]?.session} holds it`);
    if ((mode === "leader") !== current.some((g) => g.mode === "leader") && current.length > 0)
      this.fail(`kinds: ${where}, held as ${current[0]?.mode}`);
    if (mode === "leader") this.stats.leaderGrants++;
    else if (mode === "shared" && exclusive)
      this.fail(`G1: ${where} while ${exclusive.session} holds it exclusive`);
    let slot = -1;
    if (mode === "permit") {
      this.stats.permitGrants++;
      const permits = e.permits ?? 0;
      const known = this.permits.get(e.lock);
      if (current.some((g) => g.mode !== "permit"))
        this.fail(`kinds: ${where} as a semaphore while it is held as a lock`);
      if (known !== undefined && known !== permits)
        this.fail(
          `kinds: ${where} as a semaphore of ${permits} permits while it is held with ${known}`,
        );
      if (current.length >= permits)
        this.fail(`G1: ${where}, the ${current.length + 1}th permit of ${permits}`);
      slot = e.slot ?? -1;
      const taken = new Set(current.map((g) => g.slot));
      let lowest = 0;
      while (taken.has(lowest)) lowest++;
      if (slot !== lowest)
        this.fail(`semaphore: ${where} slot ${slot}; the lowest free slot was ${lowest}`);
      this.permits.set(e.lock, permits);
    } else {
      if (mode === "shared") this.stats.sharedGrants++;
      if (current.some((g) => g.mode === "permit"))
        this.fail(`kinds: ${where} as a lock while it is held as a semaphore`);
    }
    this.grants.set(e.lock, [...current, { session: e.sessionId, token: e.token, mode, slot }]);
  }

  private ended(
    index: number,
    e: LockEvent,
    changing: Map<string, Omit<ModeChange, "mode">>,
  ): void {
    const current = this.grants.get(e.lock) ?? [];
    const grant = current.find((g) => g.session === e.sessionId && g.token === e.token);
    if (!grant) {
      const held = current.map((g) => `${g.session}/${g.token}`).join(", ") || "nobody";
      this.fail(
        `index ${index}: ${e.type} of ${e.lock} by ${e.sessionId}/${e.token}, but the holder is ${held}`,
      );
      return;
    }
    if (e.revokedFor === "holdLimit") this.stats.holdLimitEnds++;
    const reason = e.ended === "upgraded" || e.ended === "downgraded" ? e.ended : null;
    if (reason !== null) {
      const others = current.filter((g) => g !== grant);
      if (e.type !== "released")
        this.fail(
          `${reason}: index ${index} ends the grant of ${e.lock} by ${e.sessionId} as ${e.type}`,
        );
      if (reason === "upgraded" && grant.mode !== "upgradeable")
        this.fail(
          `upgraded: index ${index} upgrades the ${grant.mode} grant of ${e.lock} by ${e.sessionId}`,
        );
      if (reason === "upgraded" && others.length > 0)
        this.fail(
          `upgraded: index ${index} upgrades the grant of ${e.lock} by ${e.sessionId} while ${others.map((g) => `${g.session} (${g.mode})`).join(", ")} holds it too`,
        );
      if (reason === "downgraded" && grant.mode !== "exclusive")
        this.fail(
          `downgraded: index ${index} downgrades the ${grant.mode} grant of ${e.lock} by ${e.sessionId}`,
        );
      changing.set(e.lock, { lock: e.lock, session: e.sessionId, reason, token: e.token });
    }
    // A grant whose Upgrade waits ends only by that Upgrade, or answers it "not the holder" (over before the events).
    const upgrade = this.upgrades.get(e.lock);
    if (upgrade?.session === e.sessionId && reason !== "upgraded")
      this.fail(
        `upgrade: index ${index} ends the grant of ${e.lock} by ${e.sessionId} (${e.type}) while its Upgrade waits, and does not answer that Upgrade`,
      );
    const left = current.filter((g) => g !== grant);
    if (left.length > 0) this.grants.set(e.lock, left);
    else {
      this.grants.delete(e.lock);
      this.permits.delete(e.lock);
    }
  }

  /** A seq's wait ended (granted, cancelled, timed out, session ended): the request leaves every queue. */
  private leave(session: bigint, seq: number): void {
    const u = this.upgradeSeqs.get(`${session}:${seq}`);
    if (u) this.dropUpgrade(u);
    const r = this.requests.get(`${session}:${seq}`);
    if (!r) return;
    for (const s of r.seqs) this.requests.delete(`${session}:${s}`);
    for (const t of r.targets) {
      const q = (this.queues.get(t.lock) ?? []).filter((x) => x !== r);
      if (q.length > 0) this.queues.set(t.lock, q);
      else this.queues.delete(t.lock);
    }
  }

  private join(index: number, cmd: Extract<Command, { type: "acquire" }>, o: ApplyOutcome): void {
    const started = o.timers.waitsStarted.some(
      (w) => w.sessionId === cmd.sessionId && w.acquireSeq === cmd.seq,
    );
    if (!started) {
      // Joined the session's wait for the same locks (or a retry of a seq already waiting).
      const r = (this.queues.get(cmd.lock) ?? []).find((x) => x.session === cmd.sessionId);
      if (!r) {
        this.fail(
          `index ${index}: seq ${cmd.seq} of session ${cmd.sessionId} waits, but the session has no wait for ${cmd.lock} to join`,
        );
        return;
      }
      if (!r.seqs.includes(cmd.seq)) r.seqs.push(cmd.seq);
      this.requests.set(`${cmd.sessionId}:${cmd.seq}`, r);
      return;
    }
    const r: Request = {
      session: cmd.sessionId,
      seqs: [cmd.seq],
      targets: targetsOf(cmd),
      joinedAt: index,
    };
    this.requests.set(`${cmd.sessionId}:${cmd.seq}`, r);
    for (const t of r.targets) this.queues.set(t.lock, [...(this.queues.get(t.lock) ?? []), r]);
  }

  /** The rule grants whatever it can: a request first in all its queues whose locks can take it must not be left waiting. */
  private nothingLeftWaiting(index: number): void {
    const heads = new Set<Request>();
    for (const q of this.queues.values()) if (q[0]) heads.add(q[0]);
    for (const u of this.upgrades.values()) {
      const current = this.grants.get(u.lock) ?? [];
      if (current.length === 1 && current[0]?.session === u.session)
        this.fail(
          `upgrade: after index ${index} the Upgrade of ${u.lock} by session ${u.session} (since index ${u.since}) could be granted`,
        );
    }
    for (const r of heads) {
      // A pending Upgrade goes before every queued request of its lock.
      const could = r.targets.every(
        (t) => this.queues.get(t.lock)?.[0] === r && !this.upgrades.has(t.lock) && this.fits(t),
      );
      if (could)
        this.fail(
          `FIFO: after index ${index} the wait of session ${r.session} (since index ${r.joinedAt}) for ${r.targets.map((t) => t.lock).join(", ")} could be granted`,
        );
    }
  }

  private fits(t: Target): boolean {
    const current = this.grants.get(t.lock) ?? [];
    if (current.length === 0) return true;
    if (t.mode === "exclusive" || t.mode === "leader") return false;
    if (t.mode === "shared")
      return current.every((g) => g.mode === "shared" || g.mode === "upgradeable");
    if (t.mode === "upgradeable") return current.every((g) => g.mode === "shared");
    return current.length < t.permits;
  }
}

/** A stable text form of a grant answer's grants: each lock with its token, mode, permits and slot. */
export function grantDetailKey(a: Extract<Answer, { kind: "granted" }>): string {
  return `:[${a.grants.map((g) => `${g.lock}=${g.token}/${g.mode}${g.mode === "permit" ? `/${g.permits ?? 0}/${g.slot ?? 0}` : ""}`).join(",")}]`;
}
