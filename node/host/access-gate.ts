// Access control at the edge of a node: who a request comes from (its bearer token, else its
// certificate, else nobody: a cluster without TLS), and the checks a node makes itself:
// reads, keepalives and the admin calls, which are not log entries. Writes are checked where
// they apply, from the caller their entry carries (node/lock/state-machine.ts). Every refusal
// is logged as one structured line and counted by reason.
import type { AccessState, Principal } from "../auth/access-state.ts";
import { ANONYMOUS, type Caller } from "../auth/caller.ts";
import type { PrefixAction } from "../auth/policy.ts";
import { parseToken, secretMatches } from "../auth/tokens.ts";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { RequestFailure } from "./failures.ts";
import { RateLimiter } from "./rate-limiter.ts";
import type { PeerIdentity } from "../ops/tls.ts";

/** What the gate logs with (a pino logger is one). */
export interface AuditLogger {
  warn(fields: object, message: string): void;
}

export interface AccessGateOptions {
  /** Certificates are required and carry the caller's identity. */
  readonly tls: boolean;
  /** Which certificate field names an identity. */
  readonly certIdentity: "cn" | "dns" | "uri";
  /** Certificate identities that are admins whatever the policy says. */
  readonly admins: readonly string[];
  /** The replicated access state as this node has applied it. */
  readonly state: () => Pick<AccessState, "resolve" | "tokens" | "policy">;
  readonly wallMs: () => number;
  /** Monotonic milliseconds, for the requestRate quota. */
  readonly now?: () => number;
  readonly logger: AuditLogger;
  /** A refusal, by reason (a label of palisade_auth_denied_total). */
  readonly onDenied?: (reason: DenialReason) => void;
}

export type DenialReason =
  "unauthenticated" | "permission" | "not_owner" | "quota" | "admin_required";

/** The reasons of refusals that say something about the caller's rights. */
const AUDITED: ReadonlyMap<ErrorReasonName, DenialReason> = new Map([
  ["ERROR_REASON_UNAUTHENTICATED", "unauthenticated"],
  ["ERROR_REASON_PERMISSION_DENIED", "permission"],
  ["ERROR_REASON_QUOTA_EXCEEDED", "quota"],
]);

export class AccessGate {
  private readonly admins: ReadonlySet<string>;
  /** One token bucket per identity under a requestRate quota, by that rate. */
  private readonly rates = new Map<number, RateLimiter>();

  constructor(private readonly o: AccessGateOptions) {
    this.admins = new Set(o.admins);
  }

  /**
   * Spends one request of the caller's requestRate quota (requests per second at each
   * node, a burst of one second's worth); refuses it with QUOTA_EXCEEDED past the quota.
   * Identities without one are limited by the node's request limit alone.
   */
  spendRate(caller: Caller, call: string): void {
    if (this.o.state().policy === null || this.o.now === undefined) return;
    const who = this.principal(caller, call);
    const rate = who.rights.quotas.requestRate;
    if (rate === undefined) return;
    let limiter = this.rates.get(rate);
    if (limiter === undefined) {
      const now = this.o.now;
      // A quota of 0 refuses every request: a bucket that never fills.
      limiter = new RateLimiter({ ratePerSecond: Math.max(rate, 1e-9), burst: rate, now });
      this.rates.set(rate, limiter);
    }
    if (rate > 0 && limiter.take(who.name)) return;
    throw this.refuse(
      caller,
      call,
      "",
      "quota",
      "ERROR_REASON_QUOTA_EXCEEDED",
      `quota requestRate of identity ${who.name === "" ? "(anonymous)" : who.name} is ${rate} requests per second at each node`,
    );
  }

  /** Whether a policy is in force (else the cluster is open: see docs/access-control.md). */
  get policyApplied(): boolean {
    return this.o.state().policy !== null;
  }

  /**
   * The caller of a request: a bearer token (`authorization: Bearer …`) when one is sent,
   * else the client certificate, else anonymous (a cluster without TLS). Throws a
   * RequestFailure for a token that is malformed, unknown, revoked or expired, and for a
   * certificate without the identity field the cluster file names.
   */
  callerOf(cert: PeerIdentity | null, authorization: string | undefined, call: string): Caller {
    if (authorization !== undefined && authorization !== "") {
      const parsed = bearerToken(authorization);
      if (parsed === null)
        throw this.refuse(
          ANONYMOUS,
          call,
          "",
          "unauthenticated",
          "ERROR_REASON_UNAUTHENTICATED",
          "the authorization header is not a Palisade bearer token (Bearer pal_<id>_<secret>)",
        );
      const token = this.o.state().tokens.get(parsed.id);
      if (token === undefined || !secretMatches(parsed.secretPart, token.hash))
        throw this.refuse(
          ANONYMOUS,
          call,
          "",
          "unauthenticated",
          "ERROR_REASON_UNAUTHENTICATED",
          `token ${parsed.id} is unknown or revoked`,
        );
      const caller: Caller = { kind: "token", name: token.identity, tokenId: token.id };
      this.principal(caller, call); // refuses an expired token
      return caller;
    }
    if (!this.o.tls || cert === null) return ANONYMOUS;
    const name = this.certName(cert);
    if (cert.role === "admin") return { kind: "admin", name: name ?? cert.cn, tokenId: "" };
    if (name === null)
      throw this.refuse(
        ANONYMOUS,
        call,
        "",
        "permission",
        "ERROR_REASON_PERMISSION_DENIED",
        `certificate ${cert.subject} has no ${this.o.certIdentity.toUpperCase()} field to name its identity (auth.certIdentity)`,
      );
    if (this.admins.has(name)) return { kind: "admin", name, tokenId: "" };
    return { kind: "certificate", name, tokenId: "" };
  }

  /**
   * Whether `authorization` presents a bearer token this node has no record of: one whose
   * creating entry this node has not applied yet, or one revoked or never created.
   */
  unknownToken(authorization: string | undefined): boolean {
    const parsed = bearerToken(authorization);
    return parsed !== null && !this.o.state().tokens.has(parsed.id);
  }

  private certName(cert: PeerIdentity): string | null {
    switch (this.o.certIdentity) {
      case "cn":
        return cert.cn === "" ? null : cert.cn;
      case "dns":
        return cert.dns[0] ?? null;
      case "uri":
        return cert.uri[0] ?? null;
    }
  }

  /** The caller's rights now (a token revoked since the call began is refused here). */
  principal(caller: Caller, call: string): Principal {
    const resolved = this.o.state().resolve(caller, this.o.wallMs());
    if (typeof resolved === "string")
      throw this.refuse(
        caller,
        call,
        "",
        "unauthenticated",
        "ERROR_REASON_UNAUTHENTICATED",
        resolved,
      );
    return resolved;
  }

  /** Refuses unless `action` is granted on every name under `prefix` (a name is its own prefix). */
  require(caller: Caller, call: string, action: PrefixAction, prefix: string): Principal {
    const who = this.principal(caller, call);
    if (!who.rights.covers(action, prefix))
      throw this.refuse(
        caller,
        call,
        prefix,
        "permission",
        "ERROR_REASON_PERMISSION_DENIED",
        `${nameOf(caller)} lacks permission ${action} on ${prefix === "" ? "every lock name" : prefix}`,
      );
    return who;
  }

  requireAdmin(caller: Caller, call: string): Principal {
    const who = this.principal(caller, call);
    if (!who.rights.admin)
      throw this.refuse(
        caller,
        call,
        "",
        "admin_required",
        "ERROR_REASON_PERMISSION_DENIED",
        `${call} needs the admin role; ${nameOf(caller)} does not have it`,
      );
    return who;
  }

  /** Logs and counts a refusal decided elsewhere (at apply, or a session that is not the caller's). */
  audit(
    caller: Caller,
    call: string,
    prefix: string,
    reason: ErrorReasonName,
    message: string,
  ): void {
    const label = AUDITED.get(reason);
    if (label === undefined) return;
    this.record(
      caller,
      call,
      prefix,
      message.includes("is not a session of") ? "not_owner" : label,
      message,
    );
  }

  /** Counts and logs a refusal and returns the failure to throw. */
  refuse(
    caller: Caller,
    call: string,
    prefix: string,
    label: DenialReason,
    reason: ErrorReasonName,
    message: string,
  ): RequestFailure {
    this.record(caller, call, prefix, label, message);
    return new RequestFailure(reason, message);
  }

  private record(
    caller: Caller,
    call: string,
    prefix: string,
    label: DenialReason,
    message: string,
  ): void {
    this.o.onDenied?.(label);
    this.o.logger.warn(
      {
        audit: "denied",
        identity: caller.name,
        via: caller.kind,
        ...(caller.tokenId !== "" ? { tokenId: caller.tokenId } : {}),
        call,
        prefix,
        reason: label,
      },
      message,
    );
  }
}

/** The token an authorization header presents; null when it presents none in a token's form. */
function bearerToken(authorization: string | undefined): { id: string; secretPart: string } | null {
  const match = /^Bearer\s+(\S+)$/i.exec((authorization ?? "").trim());
  return match ? parseToken(match[1] as string) : null;
}

function nameOf(caller: Caller): string {
  return caller.kind === "anonymous" ? "an anonymous caller" : `identity ${caller.name}`;
}
