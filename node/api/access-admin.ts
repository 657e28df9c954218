// The AdminService calls of access control: the policy (applied through the log), bearer
// tokens (created with a secret shown once; only its hash reaches the log), and what an
// identity may do (WhoAmI for the caller itself, Can for any identity).
import { palisade } from "../../proto/gen/palisade.js";
import { toU64 } from "../../proto/wire.ts";
import { numberField, stringField } from "../../proto/codec/fields.ts";
import type { AdminServiceHandlers } from "../../proto/grpc.ts";
import { encodeCaller, type Caller } from "../auth/caller.ts";
import {
  checkIdentityName,
  Policy,
  PolicyParseError,
  PREFIX_ACTIONS,
  QUOTA_KEYS,
  type PrefixAction,
} from "../auth/policy.ts";
import { newToken } from "../auth/tokens.ts";
import { parseYamlOffThread } from "../auth/yaml-off-thread.ts";
import { callerOfCall } from "./callers.ts";
import type { ServiceContext } from "./context.ts";
import { fail, unary } from "./handler.ts";

const pb = palisade.v1;

type AccessHandlers = Pick<
  AdminServiceHandlers,
  "ApplyPolicy" | "GetPolicy" | "CreateToken" | "ListTokens" | "RevokeToken" | "WhoAmI" | "Can"
>;

/** Most roles a token may carry. */
const MAX_TOKEN_ROLES = 16;

export function accessAdminHandlers(ctx: ServiceContext): AccessHandlers {
  const { host, admin } = ctx;
  const gate = ctx.locks.gate;
  /** The caller of an admin call, refused unless it has the admin role. */
  const adminCaller = (call: Parameters<typeof callerOfCall>[1], name: string): Caller => {
    const caller = callerOfCall(gate, call, name);
    gate.requireAdmin(caller, name);
    return caller;
  };
  return {
    ApplyPolicy: unary(ctx, "ApplyPolicy", async (call) => {
      const caller = adminCaller(call, "ApplyPolicy");
      const source = stringField(call.request.text, "text");
      // Parsed here, once, with every error's line: the entry carries the policy as JSON,
      // which every replica reads in milliseconds (a large YAML text takes far longer).
      // A YAML text is read on a worker thread; only one with errors is parsed here, for lines.
      let text: string;
      try {
        const offThread = /^\s*\{/.test(source) ? null : await parseYamlOffThread(source);
        const read = offThread?.kind === "value" ? Policy.fromValue(source, offThread.value) : null;
        text = (read ?? Policy.parse(source)).canonical();
      } catch (error) {
        if (error instanceof PolicyParseError)
          fail("ERROR_REASON_INVALID_ARGUMENT", `policy refused: ${error.message}`);
        throw error;
      }
      const version = await admin.proposeAccess(
        { type: "setPolicy", text, source, wallMs: host.wallMs() },
        encodeCaller(caller),
      );
      ctx.logger.info(
        { audit: "policy", identity: caller.name, via: caller.kind, version },
        `access policy applied at index ${version} by ${caller.name || "an anonymous caller"}`,
      );
      return pb.ApplyPolicyResponse.create({ version: toU64(version) });
    }),

    GetPolicy: unary(ctx, "GetPolicy", async (call) => {
      adminCaller(call, "GetPolicy");
      await ctx.locks.read(() => null);
      const access = host.state.accessState;
      return pb.GetPolicyResponse.create({
        text: access.policySource,
        version: toU64(access.policyIndex),
      });
    }),

    CreateToken: unary(ctx, "CreateToken", async (call) => {
      const caller = adminCaller(call, "CreateToken");
      const identity = stringField(call.request.identity, "identity");
      const bad = checkIdentityName(identity);
      if (bad !== null) fail("ERROR_REASON_INVALID_ARGUMENT", `identity ${bad}`);
      const roles = (call.request.roles ?? []).map((r) => stringField(r, "roles"));
      if (roles.length > MAX_TOKEN_ROLES)
        fail("ERROR_REASON_INVALID_ARGUMENT", `a token has at most ${MAX_TOKEN_ROLES} roles`);
      const ttlMs = numberField(call.request.ttlMs, "ttl_ms");
      const token = newToken();
      const expiresAtMs = ttlMs === 0 ? 0 : host.wallMs() + ttlMs;
      await admin.proposeAccess(
        {
          type: "createToken",
          id: token.id,
          identity,
          roles,
          hash: token.hash,
          expiresAtMs,
          wallMs: host.wallMs(),
        },
        encodeCaller(caller),
      );
      ctx.logger.info(
        { audit: "token", identity: caller.name, tokenId: token.id, for: identity, roles },
        `token ${token.id} created for identity ${identity}`,
      );
      return pb.CreateTokenResponse.create({
        tokenId: token.id,
        secret: token.secret,
        expiresAtMs: toU64(expiresAtMs),
      });
    }),

    ListTokens: unary(ctx, "ListTokens", async (call) => {
      adminCaller(call, "ListTokens");
      await ctx.locks.read(() => null);
      const tokens = [...host.state.accessState.tokens.values()].map((t) => ({
        tokenId: t.id,
        identity: t.identity,
        roles: [...t.roles],
        createdIndex: toU64(t.createdAt),
        createdMs: toU64(Math.max(0, Math.round(t.createdWallMs))),
        expiresAtMs: toU64(t.expiresAtMs),
      }));
      return pb.ListTokensResponse.create({ tokens });
    }),

    RevokeToken: unary(ctx, "RevokeToken", async (call) => {
      const caller = adminCaller(call, "RevokeToken");
      const id = stringField(call.request.tokenId, "token_id");
      if (!/^[0-9a-f]{16}$/.test(id))
        fail("ERROR_REASON_INVALID_ARGUMENT", "token_id must be 16 hex digits");
      const index = await admin.proposeAccess(
        { type: "revokeToken", id, wallMs: host.wallMs() },
        encodeCaller(caller),
      );
      ctx.logger.info(
        { audit: "token", identity: caller.name, tokenId: id, revokedAt: index },
        `token ${id} revoked at index ${index}`,
      );
      return pb.RevokeTokenResponse.create({ index: toU64(index) });
    }),

    WhoAmI: unary(ctx, "WhoAmI", async (call) => {
      const caller = callerOfCall(gate, call, "WhoAmI");
      await ctx.locks.read(() => null);
      const who = gate.principal(caller, "WhoAmI");
      const access = host.state.accessState;
      const usage = access.usageOf(who.name);
      return pb.WhoAmIResponse.create({
        identity: who.name,
        via: caller.kind,
        tokenId: caller.tokenId,
        roles: [...who.rights.roles],
        admin: who.rights.admin,
        grants: who.rights.grants(),
        quotas: QUOTA_KEYS.flatMap((name) => {
          const limit = who.rights.quotas[name];
          if (limit === undefined) return [];
          const used = name === "requestRate" ? 0 : usage[name];
          return [{ name, limit: toU64(limit), used: toU64(used) }];
        }),
        policyVersion: toU64(access.policyIndex),
      });
    }),

    Can: unary(ctx, "Can", async (call) => {
      adminCaller(call, "Can");
      const identity = stringField(call.request.identity, "identity");
      const action = stringField(call.request.action, "action");
      const lock = stringField(call.request.lock, "lock");
      if (action !== "admin" && !(PREFIX_ACTIONS as readonly string[]).includes(action))
        fail(
          "ERROR_REASON_INVALID_ARGUMENT",
          `action must be one of ${[...PREFIX_ACTIONS, "admin"].join(", ")}`,
        );
      await ctx.locks.read(() => null);
      const access = host.state.accessState;
      const version = toU64(access.policyIndex);
      const policy = access.policy;
      if (policy === null)
        return pb.CanResponse.create({
          allowed: action !== "admin",
          reason:
            action === "admin"
              ? "no policy is applied: only admin certificates, cluster-file admins and admin tokens are admins"
              : "no policy is applied: every identity may do every action",
          policyVersion: version,
        });
      const rights = policy.rightsOf(identity);
      const allowed =
        action === "admin" ? rights.admin : rights.allows(action as PrefixAction, lock);
      const roles = rights.roles.length === 0 ? "no role" : `roles ${rights.roles.join(", ")}`;
      return pb.CanResponse.create({
        allowed,
        reason: allowed
          ? `granted by ${roles}`
          : `no grant of ${action}${action === "admin" ? "" : ` on ${lock}`} in ${roles}`,
        policyVersion: version,
      });
    }),
  };
}
