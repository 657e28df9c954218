// Checks of access control on the committed log, fed every entry at its first apply with
// the committed state before and after it:
// - a session call by another identity than the session's (or naming a session that never
//   existed) never takes effect: it is refused PERMISSION_DENIED and changes nothing but
//   the applied index;
// - once a policy applies, no identity's use of a quota grows past the quota;
// - every identity's quota use equals a recount from the state (a restored snapshot).
import type { Answer } from "../../../node/lock/answers.ts";
import { decodeCaller } from "../../../node/auth/caller.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { decodeEntry } from "../../../node/lock/codec/entries.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";

const QUOTA_KEYS = ["sessions", "heldLocks", "waits", "holderDataBytes"] as const;

/** The session a client's session call names; null for any other command. */
function sessionCalled(cmd: Command, identity: string | null): bigint | null {
  if (identity === null) return null;
  switch (cmd.type) {
    case "acquire":
    case "release":
    case "closeSession":
    case "cancelWait":
    case "proclaim":
    case "upgrade":
    case "downgrade":
      return cmd.sessionId;
    default:
      return null;
  }
}

/**
 * The identity of each session opened in the log, from the entries that opened them, and
 * whether a policy applies: a session serves its identity's callers, and while no policy
 * applies a session without an owner (an anonymous caller's) serves every caller.
 */
export class SessionOwners {
  private readonly owners = new Map<bigint, string>();
  private policy = false;

  /** After an entry applied: records the owner of a session it opened, and a policy. */
  entry(identity: string | null, o: ApplyOutcome): void {
    if (o.result.kind === "policySet") this.policy = true;
    for (const s of o.timers.sessionsOpened)
      this.owners.set(s.id, decodeCaller(identity ?? "").name);
  }

  /**
   * The session an entry's call names when that session does not serve the caller (or the
   * log never opened it and the caller is named); null otherwise.
   */
  foreign(cmd: Command, identity: string | null): bigint | null {
    const session = sessionCalled(cmd, identity);
    if (session === null) return null;
    const name = decodeCaller(identity ?? "").name;
    const owner = this.owners.get(session);
    if (owner === undefined) return name !== "" ? session : null;
    return owner === name || (owner === "" && !this.policy) ? null : session;
  }
}

export interface AccessStats {
  foreignEntries: number;
  /** Entries sent by a bearer token's caller. */
  tokenEntries: number;
  permissionDenied: number;
  quotaRefusals: number;
  unauthenticated: number;
  recounts: number;
}

interface Before {
  readonly foreign: bigint | null;
  readonly bytes: Uint8Array | null;
  readonly usage: string;
  readonly policy: boolean;
}

function reasonOf(a: Answer): string {
  return a.kind === "error" ? a.reason : a.kind;
}

export class AccessChecker {
  readonly stats: AccessStats = {
    foreignEntries: 0,
    tokenEntries: 0,
    permissionDenied: 0,
    quotaRefusals: 0,
    unauthenticated: 0,
    recounts: 0,
  };
  private readonly owners = new SessionOwners();
  private pending: Before | null = null;
  private entries = 0;

  constructor(
    private readonly fail: (msg: string) => void,
    /** The identities whose quota use is followed. */
    private readonly identities: readonly string[],
    /** A recount every this many entries. */
    private readonly recountEvery = 25,
  ) {}

  /** Before the committed state applies entry `data`. */
  before(data: Uint8Array, state: LockStateMachine): void {
    let foreign: bigint | null = null;
    try {
      const { command, identity } = decodeEntry(data);
      foreign = this.owners.foreign(command, identity);
    } catch {
      // Not a command: nothing to check.
    }
    this.pending = {
      foreign,
      bytes: foreign !== null ? state.snapshot() : null,
      usage: JSON.stringify(this.usage(state)),
      policy: state.accessState.policy !== null,
    };
  }

  /** After the committed state applied entry `index` (`data`) with outcome `o`. */
  committed(index: number, data: Uint8Array, o: ApplyOutcome, state: LockStateMachine): void {
    const before = this.pending;
    this.pending = null;
    if (before === null) return;
    let identity: string | null;
    try {
      identity = decodeEntry(data).identity;
    } catch {
      return;
    }
    this.owners.entry(identity, o);
    if (identity?.startsWith("t:") === true) this.stats.tokenEntries++;
    const reason = reasonOf(o.result);
    if (reason === "ERROR_REASON_PERMISSION_DENIED") this.stats.permissionDenied++;
    if (reason === "ERROR_REASON_QUOTA_EXCEEDED") this.stats.quotaRefusals++;
    if (reason === "ERROR_REASON_UNAUTHENTICATED") this.stats.unauthenticated++;
    if (before.foreign !== null) this.foreignEntry(index, identity, before, o, state);
    if (before.policy) this.quotasKept(index, JSON.parse(before.usage), state);
    if (++this.entries % this.recountEvery === 0) this.recount(state, `index ${index}`);
  }

  private foreignEntry(
    index: number,
    identity: string | null,
    before: Before,
    o: ApplyOutcome,
    state: LockStateMachine,
  ): void {
    this.stats.foreignEntries++;
    const what = `index ${index}: a call of ${JSON.stringify(identity)} on session ${before.foreign}, not its own,`;
    const reason = reasonOf(o.result);
    if (reason !== "ERROR_REASON_PERMISSION_DENIED" && reason !== "ERROR_REASON_UNAUTHENTICATED")
      this.fail(`${what} answered ${reason}`);
    const effects =
      o.events.length +
      o.completions.length +
      Object.values(o.timers).reduce((n, list) => n + list.length, 0);
    const unchanged = LockStateMachine.restore(before.bytes as Uint8Array);
    unchanged.skip(index);
    if (effects > 0 || !sameBytes(unchanged.snapshot(), state.snapshot()))
      this.fail(`${what} changed the state`);
  }

  /** No use that grew in this entry is past its quota. */
  private quotasKept(
    index: number,
    was: Record<string, Record<string, number>>,
    state: LockStateMachine,
  ): void {
    const policy = state.accessState.policy;
    if (policy === null) return;
    const now = this.usage(state);
    for (const name of this.identities) {
      const quotas = policy.rightsOf(name).quotas;
      for (const key of QUOTA_KEYS) {
        const quota = quotas[key];
        const used = now[name]?.[key] ?? 0;
        if (quota !== undefined && used > (was[name]?.[key] ?? 0) && used > quota)
          this.fail(`index ${index}: identity ${name} uses ${used} of its quota ${key} ${quota}`);
      }
    }
  }

  /** Every identity's use equals a count made afresh from the state. */
  recount(state: LockStateMachine, where: string): void {
    this.stats.recounts++;
    const counted = JSON.stringify(this.usage(LockStateMachine.restore(state.snapshot())));
    const kept = JSON.stringify(this.usage(state));
    if (counted !== kept) this.fail(`${where}: quota use ${kept}, recounted ${counted}`);
  }

  private usage(state: LockStateMachine): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const name of this.identities) out[name] = { ...state.accessState.usageOf(name) };
    return out;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
