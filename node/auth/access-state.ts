// The replicated part of access control: the applied policy and the log index it applied
// at, the bearer tokens (their hashes, never their secrets), and how much of each quota
// every identity uses. Changed only by applying log entries, kept in snapshots, so every
// replica resolves a caller to the same rights at the same index.
import {
  ADMIN_RIGHTS,
  NO_RIGHTS,
  OPEN_RIGHTS,
  Policy,
  type QuotaKey,
  type Rights,
} from "./policy.ts";
import type { Caller } from "./caller.ts";

export interface TokenRecord {
  readonly id: string;
  /** The identity the token's bearer acts as. */
  readonly identity: string;
  /** Roles the token has besides its identity's ("admin" makes its bearer an admin). */
  readonly roles: readonly string[];
  /** SHA-256 of the secret, hex. */
  readonly hash: string;
  /** Log index of the entry that created it. */
  readonly createdAt: number;
  /** The leader's clock at creation (display only). */
  readonly createdWallMs: number;
  /** Expiry on the proposing leader's clock; 0: none. */
  readonly expiresAtMs: number;
}

/** A caller resolved against the applied policy and tokens. */
export interface Principal {
  /** The identity sessions belong to ("" anonymous). */
  readonly name: string;
  readonly rights: Rights;
}

/** Use of the quotas of one identity (requestRate is a rate, kept by each node). */
export interface Usage {
  sessions: number;
  heldLocks: number;
  waits: number;
  holderDataBytes: number;
}

const ANONYMOUS_OPEN: Principal = Object.freeze({ name: "", rights: ADMIN_RIGHTS });
const ANONYMOUS_CLOSED: Principal = Object.freeze({ name: "", rights: NO_RIGHTS });

export class AccessState {
  private policyValue: Policy | null = null;
  private policyIndexValue = 0;
  private policySourceValue = "";
  readonly tokens = new Map<string, TokenRecord>();
  private readonly usage = new Map<string, Usage>();

  /** The applied policy; null while the cluster is open (no policy ever applied). */
  get policy(): Policy | null {
    return this.policyValue;
  }

  /** Log index of the policy's entry (its version); 0 while open. */
  get policyIndex(): number {
    return this.policyIndexValue;
  }

  /**
   * Whether a session of `owner` is `name`'s to use: its own, or, while no policy is
   * applied, a session that has no owner (opened before callers had identities, as in a
   * cluster that ran an older version: a rolling upgrade keeps its sessions).
   */
  owns(name: string, owner: string): boolean {
    return owner === name || (owner === "" && this.policyValue === null);
  }

  /** The text the policy was applied as (YAML or JSON), for display; "" while open. */
  get policySource(): string {
    return this.policySourceValue;
  }

  setPolicy(policy: Policy, index: number, source = policy.text): void {
    this.policyValue = policy;
    this.policyIndexValue = index;
    this.policySourceValue = source;
  }

  /**
   * The principal a caller stands for at `nowMs` (the entry's leader clock at apply, the
   * node's clock at the edge), or why it stands for none (a token that is revoked,
   * unknown or expired).
   */
  resolve(caller: Caller, nowMs: number): Principal | string {
    const policy = this.policyValue;
    switch (caller.kind) {
      case "admin":
        return { name: caller.name, rights: ADMIN_RIGHTS };
      case "anonymous":
        // Without a policy an anonymous caller (a cluster without TLS) may do anything.
        return policy === null ? ANONYMOUS_OPEN : ANONYMOUS_CLOSED;
      case "certificate":
        return { name: caller.name, rights: policy?.rightsOf(caller.name) ?? OPEN_RIGHTS };
      case "token": {
        const token = this.tokens.get(caller.tokenId);
        if (token === undefined) return `token ${caller.tokenId} is revoked or unknown`;
        if (token.expiresAtMs > 0 && nowMs >= token.expiresAtMs)
          return `token ${caller.tokenId} expired at ${new Date(token.expiresAtMs).toISOString()}`;
        const rights =
          policy?.rightsOf(token.identity, token.roles) ??
          (token.roles.includes("admin") ? ADMIN_RIGHTS : OPEN_RIGHTS);
        return { name: token.identity, rights };
      }
    }
  }

  usageOf(name: string): Usage {
    let usage = this.usage.get(name);
    if (usage === undefined) {
      usage = { sessions: 0, heldLocks: 0, waits: 0, holderDataBytes: 0 };
      this.usage.set(name, usage);
    }
    return usage;
  }

  /** Adds `delta` to one use of `name`; an identity that uses nothing leaves the table. */
  count(name: string, key: Exclude<QuotaKey, "requestRate">, delta: number): void {
    const usage = this.usageOf(name);
    usage[key] += delta;
    if (
      usage.sessions === 0 &&
      usage.heldLocks === 0 &&
      usage.waits === 0 &&
      usage.holderDataBytes === 0
    )
      this.usage.delete(name);
  }

  /** Why `adding` more of `key` is past the principal's quota, or null when it fits. */
  quotaRefusal(
    who: Principal,
    key: Exclude<QuotaKey, "requestRate">,
    adding: number,
  ): string | null {
    const quota = who.rights.quotas[key];
    if (quota === undefined || adding === 0) return null;
    const used = this.usage.get(who.name)?.[key] ?? 0;
    if (used + adding <= quota) return null;
    return `quota ${key} of identity ${who.name === "" ? "(anonymous)" : who.name} is ${quota}; it uses ${used} and asks for ${adding} more`;
  }

  /** Forgets every use (before it is counted again from a restored state). */
  clearUsage(): void {
    this.usage.clear();
  }
}
