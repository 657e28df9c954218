// The checks over one run's records: the store's admissions and counters, the reads under
// shared grants (shared-reads.ts), the cluster's grant log (from the watch), the clients'
// session deadlines against the grants that followed an expiry, exactly-once of retried
// requests as far as the client histories show it, and linearizability of the client
// histories.
import { checkLockHistory, type LockHistoryEvent } from "../verify/lock-history.ts";
import type { AcquireOutcome, ReleaseOutcome } from "../verify/lock-model.ts";
import type {
  AdmissionRecord,
  FinalRecord,
  IncrementRecord,
  OpRecord,
  RefusalRecord,
  SessionRecord,
  SharedReadRecord,
  WatchRecord,
} from "./protocol.ts";
import { checkSharedReads } from "./shared-reads.ts";

/** Model steps per lock; long runs give long per-lock histories (running out fails the run). */
const LIN_BUDGET = 50_000_000;

export interface RunRecords {
  ops: OpRecord[];
  sessions: SessionRecord[];
  increments: IncrementRecord[];
  /** The read-heavy task's reads under shared grants. */
  sharedReads: SharedReadRecord[];
  admissions: AdmissionRecord[];
  refusals: RefusalRecord[];
  watch: WatchRecord[];
  final: FinalRecord;
}

export interface CheckReport {
  violations: string[];
  counts: Record<string, number>;
  /** Checks that did not run, each with why. */
  skipped: string[];
}

export interface CheckOptions {
  /**
   * Check the client deadline (default true). Off under clock-rate faults: a node whose
   * monotonic clock runs beyond the drift bound ρ may expire a session before its client's
   * deadline, which the SPEC does not promise against.
   */
  clientDeadline?: boolean;
}

export const CLIENT_DEADLINE_SKIPPED =
  "client deadline: not checked under --clock-rate (node clocks run at rates beyond the drift bound ρ, " +
  "so a leader may expire a session before its client's deadline: the client's assumption is broken by design)";

/**
 * The fence's rule as the store's admissions show it, per key: an exclusive access's token
 * is not below any token admitted before it, in either mode, and equals one only of its own
 * grant (a shared read's admission is checked with the shared reads, shared-reads.ts); no
 * write is based on a stale read; the counter equals its admitted increments.
 */
function checkStore(r: RunRecords, out: string[], counts: Record<string, number>): void {
  const perKey = new Map<
    string,
    { highest?: { token: bigint; session: string; shared: boolean }; value: number; writes: number }
  >();
  const admittedReqs = new Set<string>();
  for (const a of r.admissions) {
    const token = BigInt(a.token);
    const s = perKey.get(a.key) ?? { value: 0, writes: 0 };
    perKey.set(a.key, s);
    const h = s.highest;
    if (a.mode === "shared") {
      // Raises only the highest token of any mode.
      if (!h || token > h.token) s.highest = { token, session: a.session, shared: true };
      continue;
    }
    if (h) {
      if (token < h.token)
        out.push(
          `store ${a.key}: token ${token} admitted after ${h.token}${h.shared ? " (shared)" : ""}`,
        );
      if (token === h.token && (h.shared || a.session !== h.session)) {
        out.push(
          `store ${a.key}: token ${token} admitted for sessions ${h.session}${h.shared ? " (shared)" : ""} and ${a.session}`,
        );
      }
    }
    if (!h || token >= h.token) s.highest = { token, session: a.session, shared: false };
    if (a.access === "write") {
      if (a.basedOn !== a.before) {
        out.push(
          `store ${a.key}: write under token ${token} (session ${a.session}) based on ${a.basedOn} overwrote ${a.before}: lost update`,
        );
      }
      if (admittedReqs.has(a.req)) out.push(`store ${a.key}: request ${a.req} applied twice`);
      admittedReqs.add(a.req);
      s.value = a.value;
      s.writes++;
    }
  }
  const acked = new Map<string, number>();
  for (const inc of r.increments) {
    if (inc.status !== 204) continue;
    acked.set(inc.key, (acked.get(inc.key) ?? 0) + 1);
    if (!admittedReqs.has(inc.req))
      out.push(
        `store ${inc.key}: acknowledged increment ${inc.req} (token ${inc.token}) not in the store's log: lost`,
      );
  }
  for (const [key, s] of perKey) {
    if (s.value !== s.writes)
      out.push(`store ${key}: counter ${s.value} after ${s.writes} admitted increments`);
    const a = acked.get(key) ?? 0;
    if (s.value < a)
      out.push(`store ${key}: counter ${s.value} below ${a} acknowledged increments`);
  }
  for (const [key, a] of acked)
    if (!perKey.has(key) && a > 0)
      out.push(`store ${key}: ${a} acknowledged increments, no writes`);
  counts["store admissions"] = r.admissions.length;
  counts["store refusals (stale tokens fenced off)"] = r.refusals.length;
  counts["stale writes fenced off"] = r.refusals.filter((x) => x.mode !== "shared").length;
  counts["increments acknowledged"] = [...acked.values()].reduce((x, y) => x + y, 0);
  // Leaders' "I lead" writes (the election's own counter, key "lead.…"), and a leader's
  // stale writes the fence refused after another took over.
  counts["leader writes acknowledged"] = [...acked.entries()]
    .filter(([key]) => key.startsWith("lead."))
    .reduce((x, [, y]) => x + y, 0);
  counts["leader writes fenced off"] = r.refusals.filter(
    (x) => x.mode !== "shared" && x.key.startsWith("lead."),
  ).length;
  counts["increments attempted"] = r.increments.length;
  counts["final counter total"] = [...perKey.values()].reduce((x, s) => x + s.value, 0);
}

/**
 * The grant log as the watch delivered it: at every applied index a lock has one exclusive
 * holder or any number of shared ones, tokens rise per lock (shared grants of one entry
 * share theirs), each grant matched by a distinct Acquire of its session (a retried
 * Acquire applied twice would show as a grant nobody asked for), and every acknowledged
 * grant present.
 */
export function checkGrantLog(r: RunRecords, out: string[], counts: Record<string, number>): void {
  interface Grant {
    session: string;
    token: bigint;
    shared: boolean;
  }
  const describe = (g: Grant): string =>
    `session ${g.session} token ${g.token}${g.shared ? " (shared)" : ""}`;
  const synced = BigInt(r.final.syncedIndex);
  // After a resync the holders are unknown until an exclusive grant shows them.
  const holders = new Map<string, Grant[] | "unknown">();
  const lastGrant = new Map<string, Grant & { index: string }>();
  const grants = new Map<string, number>(); // lock + session -> grants
  const granted = new Set<string>(); // lock + session + token
  let gaps = 0;
  let events = 0;
  for (const w of r.watch) {
    if (BigInt(w.index) > synced) break;
    if (w.kind === "resync") {
      gaps++;
      for (const lock of holders.keys()) holders.set(lock, "unknown");
      continue;
    }
    events++;
    const lock = w.lock ?? "";
    const grant: Grant = {
      session: w.session ?? "",
      token: BigInt(w.token ?? "0"),
      shared: w.mode === "shared",
    };
    // A lock first seen after a gap may have been granted in it.
    const current = holders.get(lock) ?? (gaps > 0 ? "unknown" : []);
    if (w.kind === "acquired") {
      if (current !== "unknown") {
        const conflicting = current.filter((h) => !grant.shared || !h.shared);
        if (conflicting.length > 0) {
          out.push(
            `log ${lock}: granted to ${describe(grant)} at index ${w.index} while ${conflicting.map(describe).join(", ")} holds it`,
          );
        }
      }
      const last = lastGrant.get(lock);
      const sameEntry = last !== undefined && last.index === w.index && last.shared && grant.shared;
      if (
        last !== undefined &&
        (grant.token < last.token || (grant.token === last.token && !sameEntry))
      ) {
        out.push(`log ${lock}: token ${grant.token} at index ${w.index} not above ${last.token}`);
      }
      lastGrant.set(lock, { ...grant, index: w.index });
      if (current !== "unknown") holders.set(lock, [...current, grant]);
      else if (!grant.shared) holders.set(lock, [grant]);
      const key = `${lock}\u0000${w.session}`;
      grants.set(key, (grants.get(key) ?? 0) + 1);
      granted.add(`${key}\u0000${grant.token}`);
    } else if (current !== "unknown") {
      const ended = current.find((h) => h.session === grant.session && h.token === grant.token);
      if (!ended) {
        const held =
          current.length === 0 ? "nobody holds it" : `${current.map(describe).join(", ")} holds it`;
        out.push(
          `log ${lock}: ${w.kind} of session ${w.session} token ${grant.token} at index ${w.index}, but ${held}`,
        );
      }
      // A mismatch is reported once: the lock's exclusive holder is then taken to be gone.
      holders.set(
        lock,
        current.filter((h) => (ended ? h !== ended : h.shared)),
      );
    }
  }
  const asked = new Map<string, number>();
  for (const op of r.ops) {
    if (op.kind !== "acquire") continue;
    const key = `${op.lock}\u0000${op.session}`;
    asked.set(key, (asked.get(key) ?? 0) + 1);
    if (gaps === 0 && op.out?.kind === "granted" && !granted.has(`${key}\u0000${op.out.token}`)) {
      out.push(
        `log ${op.lock}: acknowledged grant ${op.out.token} to session ${op.session} (${op.id}) is not in the log`,
      );
    }
  }
  for (const [key, n] of grants) {
    // The observer's sentinel and the stream load's locks are no worker's: no Acquire of theirs is recorded.
    if (key.startsWith("chaos-final/") || key.startsWith("stream-load/")) continue;
    const [lock, session] = key.split("\u0000");
    const calls = asked.get(key) ?? 0;
    if (n > calls)
      out.push(
        `log ${lock}: ${n} grants to session ${session} but it sent ${calls} Acquires (a retry applied twice?)`,
      );
  }
  counts["log events checked"] = events;
  counts["log gaps (resync)"] = gaps;
}

/**
 * SPEC "Sessions", the client's deadline: while a client still believes it holds a lock
 * (before its session's client deadline, before it sent a release of that grant and before
 * it started closing the session) no other session is granted that lock. Checked on every
 * grant of a lock that follows, in the log, the end of an earlier grant of it by session
 * expiry: the earliest moment the new grant is known to exist must not come before the
 * expired holder stopped believing. "Known to exist" takes the earliest of the times that
 * bound the grant from above: its Acquire's answer, a read, validate or refused Acquire
 * that showed it, and the observer's receipt of its watch event (each comes after the grant
 * was applied). Only holders that were told of their grant (an Acquire answered granted)
 * and whose session record carries the client deadline are checked; the rest are counted.
 */
export function checkClientDeadlines(
  r: RunRecords,
  out: string[],
  counts: Record<string, number>,
): void {
  const synced = BigInt(r.final.syncedIndex);
  const key = (lock: string, session: string, token: string): string =>
    `${lock}\u0000${session}\u0000${token}`;
  // The earliest host time at which each grant (lock, session, token) is known to exist.
  const knownAt = new Map<string, { at: number; how: string }>();
  const bound = (k: string, at: number | null | undefined, how: string): void => {
    if (at === null || at === undefined) return;
    const known = knownAt.get(k);
    if (!known || at < known.at) knownAt.set(k, { at, how });
  };
  // What each holder knew: when it was told of a grant, when it first sent its release.
  const toldAt = new Map<string, number>();
  const releaseSent = new Map<string, number>();
  const validated: { lock: string; token: string; ret: number; id: string }[] = [];
  for (const op of r.ops) {
    const o = op.out;
    if (op.ret !== null && o?.kind === "granted" && op.session) {
      const k = key(op.lock, op.session, o.token);
      bound(k, op.ret, `its Acquire ${op.id} answered`);
      toldAt.set(k, Math.min(toldAt.get(k) ?? Infinity, op.ret));
    }
    if (op.ret !== null && o?.kind === "read" && o.holder !== null && o.token !== null) {
      bound(key(op.lock, o.holder, o.token), op.ret, `read ${op.id} showed it`);
    }
    if (
      op.ret !== null &&
      o?.kind === "notAcquired" &&
      o.holderSession !== undefined &&
      o.holderToken !== undefined
    ) {
      bound(
        key(op.lock, o.holderSession, o.holderToken),
        op.ret,
        `Acquire ${op.id} was refused for it`,
      );
    }
    if (op.ret !== null && o?.kind === "validated" && o.valid && op.token)
      validated.push({ lock: op.lock, token: op.token, ret: op.ret, id: op.id });
    if (op.kind === "release" && op.session && op.token) {
      const k = key(op.lock, op.session, op.token);
      releaseSent.set(k, Math.min(releaseSent.get(k) ?? Infinity, op.call));
    }
  }
  const sessions = new Map(r.sessions.map((s) => [s.session, s]));

  // The grant log: per lock the current grant, and the last grant that ended by expiry.
  const grantOf = new Map<string, string>(); // lock + token -> session (validate names no session)
  const pairs: { lock: string; expired: WatchRecord; next: WatchRecord }[] = [];
  const expiredLast = new Map<string, WatchRecord>();
  for (const w of r.watch) {
    if (BigInt(w.index) > synced) break;
    if (
      w.kind === "resync" ||
      w.lock === undefined ||
      w.session === undefined ||
      w.token === undefined
    )
      continue;
    if (w.kind === "acquired") {
      grantOf.set(`${w.lock}\u0000${w.token}`, w.session);
      bound(
        key(w.lock, w.session, w.token),
        w.at,
        `the observer received its watch event (index ${w.index})`,
      );
      // A grant after the expiry in the log (at the expiry's own index for a waiter, or
      // later) is applied after it; the first one is checked (across a resync too).
      const expired = expiredLast.get(w.lock);
      if (expired && BigInt(w.index) >= BigInt(expired.index) && expired.session !== w.session)
        pairs.push({ lock: w.lock, expired, next: w });
      expiredLast.delete(w.lock);
    } else if (w.kind === "sessionExpired") {
      expiredLast.set(w.lock, w);
    } else {
      expiredLast.delete(w.lock);
    }
  }
  for (const v of validated) {
    const session = grantOf.get(`${v.lock}\u0000${v.token}`);
    if (session !== undefined)
      bound(key(v.lock, session, v.token), v.ret, `validate ${v.id} found it valid`);
  }

  let checked = 0;
  let untold = 0; // the expired holder was never told of its grant: it believed nothing
  let unrecorded = 0; // its session record (with the deadline) or any time of the new grant is missing
  for (const { lock, expired, next } of pairs) {
    const a = key(lock, expired.session!, expired.token!);
    const record = sessions.get(expired.session!);
    const known = knownAt.get(key(lock, next.session!, next.token!));
    if (!toldAt.has(a)) {
      untold++;
      continue;
    }
    if (record?.deadline === undefined || !known) {
      unrecorded++;
      continue;
    }
    checked++;
    // The holder believes it holds the lock until the first of these.
    let believedUntil = record.deadline;
    let until = `its client deadline ${record.deadline}`;
    const release = releaseSent.get(a);
    if (release !== undefined && release < believedUntil) {
      believedUntil = release;
      until = `it sent a release at ${release}`;
    }
    if (record.closing !== undefined && record.closing < believedUntil) {
      believedUntil = record.closing;
      until = `it started closing its session at ${record.closing}`;
    }
    if (known.at < believedUntil) {
      out.push(
        `client deadline ${lock}: session ${next.session} was granted token ${next.token} (index ${next.index}), known by ${known.at} µs ` +
          `(${known.how}), ${believedUntil - known.at} µs before session ${expired.session} (${record.worker}, token ${expired.token}, ` +
          `expired at index ${expired.index}, told of its grant at ${toldAt.get(a)}) stopped believing it held the lock: ${until}`,
      );
    }
  }
  counts["client deadline pairs checked"] = checked;
  counts["client deadline pairs unchecked: untold"] = untold;
  counts["client deadline pairs unchecked: no time"] = unrecorded;
}

function acquireOut(o: OpRecord["out"]): AcquireOutcome | undefined {
  if (!o) return undefined;
  if (o.kind === "granted") return { kind: "granted", token: BigInt(o.token) };
  if (o.kind === "sessionNotFound") return { kind: "sessionNotFound" };
  if (o.kind === "notAcquired") {
    return {
      kind: "notAcquired",
      ...(o.holderSession !== undefined ? { holderSession: BigInt(o.holderSession) } : {}),
      ...(o.holderToken !== undefined ? { holderToken: BigInt(o.holderToken) } : {}),
    };
  }
  throw new Error(`acquire answered ${o.kind}`);
}

function releaseOut(o: OpRecord["out"]): ReleaseOutcome | undefined {
  if (!o) return undefined;
  if (o.kind === "ok" || o.kind === "failedPrecondition" || o.kind === "sessionNotFound")
    return { kind: o.kind };
  throw new Error(`release answered ${o.kind}`);
}

/** Client histories as checker events, with a session-end window for every ended session. */
export function lockHistory(r: RunRecords): LockHistoryEvent[] {
  const events: LockHistoryEvent[] = [];
  // A lock taken shared is checked against the lock kinds' model, with its FIFO rules: each
  // of its Acquires says whether it waited (a try is one step, a wait a join and an answer).
  const sharedLocks = new Set(
    r.ops.filter((op) => op.kind === "acquire" && op.mode === "shared").map((op) => op.lock),
  );
  // Per session: the latest call of an operation that showed it alive, and the earliest
  // return that showed it ended.
  const aliveAt = new Map<string, number>();
  const endedBy = new Map<string, number>();
  const alive = (s: string | undefined | null, call: number): void => {
    if (s) aliveAt.set(s, Math.max(aliveAt.get(s) ?? -Infinity, call));
  };
  for (const op of r.ops) {
    const o = op.out;
    if (o?.kind === "sessionNotFound" && op.session && op.ret !== null) {
      endedBy.set(op.session, Math.min(endedBy.get(op.session) ?? Infinity, op.ret));
    } else if (o && op.session) alive(op.session, op.call);
    if (o?.kind === "read") alive(o.holder, op.call);
    if (o?.kind === "notAcquired") alive(o.holderSession, op.call);
    const base = { id: op.id, call: op.call, lock: op.lock };
    // SPEC G4: a retried write answered NOT_FOUND may have taken effect (once) before its
    // session ended; only the session's end is certain. So it counts as an unknown outcome
    // (which cannot take effect after the end), and the end is bounded by its return above.
    const known = o?.kind === "sessionNotFound" ? undefined : o;
    const ret = known ? op.ret : null;
    switch (op.kind) {
      case "acquire":
        events.push({
          ...base,
          kind: "acquire",
          session: BigInt(op.session ?? "0"),
          ret,
          ...(known ? { out: acquireOut(known) } : {}),
          ...(op.mode === "shared" ? { mode: "shared" as const } : {}),
          ...(sharedLocks.has(op.lock) && op.waitMs !== undefined ? { waits: op.waitMs > 0 } : {}),
        });
        break;
      case "release":
        events.push({
          ...base,
          kind: "release",
          session: BigInt(op.session ?? "0"),
          token: BigInt(op.token ?? "0"),
          ret,
          ...(known ? { out: releaseOut(known) } : {}),
        });
        break;
      case "read":
        if (o?.kind === "read") {
          events.push({
            ...base,
            kind: "read",
            ret: op.ret,
            out: {
              kind: "read",
              holder: o.holder === null ? null : BigInt(o.holder),
              token: o.token === null ? null : BigInt(o.token),
            },
          });
        }
        break;
      case "validate":
        if (o?.kind === "validated")
          events.push({
            ...base,
            kind: "validate",
            token: BigInt(op.token ?? "0"),
            ret: op.ret,
            out: { kind: "validated", valid: o.valid },
          });
        break;
    }
  }
  const live = new Set(r.final.live);
  // A session seen only in operations (its worker's record never came) still gets its end.
  const sessions = new Map(r.sessions.map((s) => [s.session, s]));
  for (const op of r.ops) {
    if (op.session && !sessions.has(op.session))
      sessions.set(op.session, {
        t: "session",
        worker: op.worker,
        session: op.session,
        opened: op.call,
      });
  }
  for (const s of sessions.values()) {
    if (live.has(s.session)) continue;
    let ret = Math.min(endedBy.get(s.session) ?? Infinity, s.closeRet ?? Infinity, r.final.ret);
    const call = Math.min(Math.max(s.opened, aliveAt.get(s.session) ?? -Infinity), ret);
    ret = Math.max(ret, call);
    events.push({
      id: `end-${s.session}`,
      kind: "sessionEnd",
      session: BigInt(s.session),
      call,
      ret,
    });
  }
  return events;
}

export function runChecks(r: RunRecords, options: CheckOptions = {}): CheckReport {
  const violations: string[] = [];
  const counts: Record<string, number> = {};
  const skipped: string[] = [];
  checkStore(r, violations, counts);
  checkSharedReads(r, violations, counts);
  checkGrantLog(r, violations, counts);
  if (options.clientDeadline ?? true) checkClientDeadlines(r, violations, counts);
  else skipped.push(CLIENT_DEADLINE_SKIPPED);
  const history = lockHistory(r);
  const lin = checkLockHistory(history, LIN_BUDGET);
  if (!lin.ok) violations.push(`linearizability:\n${lin.detail}`);
  counts["operations checked (linearizability)"] = history.length;
  counts["locks checked"] = lin.perLock.size;
  counts["model steps explored"] = lin.explored;
  // How close the costliest lock came to the budget (running out of it fails the run).
  counts[`model steps, costliest lock (budget ${LIN_BUDGET / 1e6} M)`] = Math.max(
    0,
    ...[...lin.perLock.values()].map((v) => v.explored),
  );
  const unknown = r.ops.filter((o) => o.ret === null).length;
  counts["operations with unknown outcome"] = unknown;
  counts["writes answered NOT_FOUND (checked as unknown)"] = r.ops.filter(
    (o) => o.out?.kind === "sessionNotFound",
  ).length;
  counts["sessions"] = r.sessions.length;
  return { violations, counts, skipped };
}
