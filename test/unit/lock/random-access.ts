// Identities in random logs: sessions opened by two tenants (team B by certificate or by a
// bearer token) and by anonymous callers; a policy with quotas applied at a random entry,
// the token revoked at a later one; now and then a session call sent by another identity
// than the session's. After each entry it checks that a call on another identity's session
// (or by a revoked token) changed nothing, that no identity's use of a quota grew past the
// quota once a policy applied, and that every identity's use equals a recount from the state
// (a snapshot's restore counts it afresh).
import type { Answer } from "../../../node/lock/answers.ts";
import type { Command } from "../../../node/lock/commands.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import type { SeededRandom } from "../../../node/util/rng.ts";

export const ADMIN = "a:ops";
export const TEAM_A = "c:team-a";
export const TEAM_B = "c:team-b";
export const ANONYMOUS = "";
export const TOKEN_ID = "00000000000000b0";
export const VIA_TOKEN = `t:${TOKEN_ID}:team-b`;

/**
 * The tenants on the random logs' names (locks a, b, c; semaphores s, t): each has a lock
 * of its own, they share b in different modes, and each has a semaphore; team B's token adds
 * the other semaphore. Team A's quotas are tight, team B's looser.
 */
export const POLICY = `roles:
  tenant-a:
    grants:
      - { prefix: a, actions: [acquire, read, revoke] }
      - { prefix: b, actions: [acquire:shared, acquire:upgradeable, read] }
      - { prefix: s, actions: [acquire] }
    quotas: { sessions: 2, heldLocks: 3, waits: 1, holderDataBytes: 4 }
  tenant-b:
    grants:
      - { prefix: b, actions: [acquire, revoke] }
      - { prefix: c, actions: [acquire, read] }
      - { prefix: t, actions: [acquire] }
    quotas: { sessions: 3, heldLocks: 8, waits: 1 }
  semaphore-s:
    grants:
      - { prefix: s, actions: [acquire:exclusive] }
identities:
  team-a: { roles: [tenant-a] }
  team-b: { roles: [tenant-b] }
`;

const IDENTITIES = ["team-a", "team-b", ""];
const QUOTA_KEYS = ["sessions", "heldLocks", "waits", "holderDataBytes"] as const;

/** Counts of what the identities met, for a test to see that a run reached each case. */
export interface AccessStats {
  foreign: number;
  unauthenticated: number;
  denied: number;
  quotas: Record<string, number>;
}

function reasonOf(a: Answer): string {
  return a.kind === "error" ? a.reason : a.kind;
}

/** How the identities of one random log act, and the checks of each entry. */
export class AccessPlay {
  readonly stats: AccessStats = { foreign: 0, unauthenticated: 0, denied: 0, quotas: {} };
  private readonly policyAt: number;
  private readonly revokeAt: number;
  private tokenLive = false;

  constructor(
    private readonly rng: SeededRandom,
    length: number,
  ) {
    this.policyAt = rng.int(Math.floor(length / 5), Math.floor((length * 3) / 5));
    this.revokeAt = rng.int(this.policyAt + 1, length);
  }

  /** The admin's entry at index `next`, if one is due: the token first, then the policy, then the token's revoke. */
  adminEntry(next: number): Command | null {
    if (next === 1) {
      this.tokenLive = true;
      return {
        type: "createToken",
        id: TOKEN_ID,
        identity: "team-b",
        roles: ["semaphore-s"],
        hash: "0f".repeat(32),
        expiresAtMs: 0,
        wallMs: 0,
      };
    }
    if (next === this.policyAt) return { type: "setPolicy", text: POLICY, wallMs: next };
    if (next === this.revokeAt) {
      this.tokenLive = false;
      return { type: "revokeToken", id: TOKEN_ID, wallMs: next };
    }
    return null;
  }

  /** The caller of a new session: a tenant (team B now and then by its token) or an anonymous caller. */
  opener(): string {
    return this.rng.pick(
      this.tokenLive ? [TEAM_A, TEAM_B, VIA_TOKEN, ANONYMOUS] : [TEAM_A, TEAM_B, ANONYMOUS],
    );
  }

  /** The caller of a RevokeLock: the admin, a tenant, or an anonymous caller. */
  revoker(): string {
    return this.rng.pick([ADMIN, TEAM_A, TEAM_B, ANONYMOUS]);
  }

  /**
   * The caller of a session call on `session`: one of the callers it serves (its identity's;
   * any caller's while no policy applies, for a session without an owner), or now and then
   * one it does not serve (`foreign`).
   */
  callerFor(machine: LockStateMachine, session: bigint): { caller: string; foreign: boolean } {
    const owner = machine.sessionOwner(session) ?? "";
    const callers = [TEAM_A, TEAM_B, ...(this.tokenLive ? [VIA_TOKEN] : []), ANONYMOUS];
    const serves = (caller: string): boolean =>
      machine.accessState.owns(caller === VIA_TOKEN ? "team-b" : caller.slice(2), owner);
    const others = callers.filter((c) => !serves(c));
    if (others.length > 0 && this.rng.chance(0.1))
      return { caller: this.rng.pick(others), foreign: true };
    const own = callers.filter(serves);
    return { caller: own.length === 0 ? ANONYMOUS : this.rng.pick(own), foreign: false };
  }

  /** What the checks need of the state before an entry. */
  before(machine: LockStateMachine, cmd: Command, keepState: boolean): Before {
    return {
      bytes: keepState ? machine.snapshot() : null,
      usage: usageOf(machine),
      policy: machine.accessState.policy !== null,
      live: "sessionId" in cmd && machine.hasSession(cmd.sessionId),
    };
  }

  /** Checks one applied entry; throws on a broken rule. */
  check(
    cmd: Command,
    caller: string | null,
    foreign: boolean,
    before: Before,
    out: ApplyOutcome,
    machine: LockStateMachine,
  ): void {
    const where = `entry ${out.index} (${cmd.type} by ${JSON.stringify(caller)})`;
    const reason = reasonOf(out.result);
    if (reason === "ERROR_REASON_UNAUTHENTICATED") this.stats.unauthenticated++;
    if (reason === "ERROR_REASON_PERMISSION_DENIED") this.stats.denied++;
    if (reason === "ERROR_REASON_QUOTA_EXCEEDED" && out.result.kind === "error") {
      const quota = /^quota (\w+)/.exec(out.result.message)?.[1] ?? "?";
      this.stats.quotas[quota] = (this.stats.quotas[quota] ?? 0) + 1;
    }
    if (foreign) {
      this.stats.foreign++;
      // An anonymous caller in an open cluster is told NOT_FOUND of a session that ended
      // long ago (its owner forgotten), as before identities.
      const forgotten =
        reason === "ERROR_REASON_SESSION_NOT_FOUND" &&
        caller === ANONYMOUS &&
        !before.policy &&
        !before.live;
      if (
        reason !== "ERROR_REASON_PERMISSION_DENIED" &&
        reason !== "ERROR_REASON_UNAUTHENTICATED" &&
        !forgotten
      )
        throw new Error(`${where}: a call on another identity's session answered ${reason}`);
    }
    if (before.bytes !== null && (foreign || reason === "ERROR_REASON_UNAUTHENTICATED")) {
      // Nothing changed but the applied index.
      const unchanged = LockStateMachine.restore(before.bytes);
      unchanged.skip(out.index);
      const effects =
        out.events.length +
        out.completions.length +
        Object.values(out.timers).reduce((n, list) => n + list.length, 0);
      if (effects > 0 || !sameBytes(unchanged.snapshot(), machine.snapshot()))
        throw new Error(`${where}: refused as ${reason}, it changed the state`);
    }
    const after = usageOf(machine);
    const policy = machine.accessState.policy;
    if (before.policy && policy !== null) {
      for (const name of IDENTITIES) {
        const quotas = policy.rightsOf(name).quotas;
        for (const key of QUOTA_KEYS) {
          const was = before.usage[name]?.[key] ?? 0;
          const now = after[name]?.[key] ?? 0;
          const quota = quotas[key];
          if (now > was && quota !== undefined && now > quota)
            throw new Error(
              `${where}: ${name || "anonymous"} uses ${now} of quota ${key} ${quota}`,
            );
        }
      }
    }
    // A recount after each entry that changed the state (an answer, events, timers).
    const changed =
      out.result.kind !== "error" ||
      out.events.length > 0 ||
      Object.values(out.timers).some((list) => list.length > 0);
    if (!changed) return;
    const recounted = usageOf(LockStateMachine.restore(machine.snapshot()));
    if (JSON.stringify(recounted) !== JSON.stringify(after))
      throw new Error(
        `${where}: quota use ${JSON.stringify(after)}, recounted from the state ${JSON.stringify(recounted)}`,
      );
  }
}

export interface Before {
  readonly bytes: Uint8Array | null;
  readonly usage: Record<string, Record<string, number>>;
  readonly policy: boolean;
  /** The session the command names was live. */
  readonly live: boolean;
}

function usageOf(machine: LockStateMachine): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const name of IDENTITIES) out[name] = { ...machine.accessState.usageOf(name) };
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
