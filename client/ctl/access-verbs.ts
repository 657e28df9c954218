// palisadectl's access control verbs: the policy (acl apply, acl show), bearer tokens (token
// create, list, revoke), the caller's own rights (whoami) and what an identity may do (can).
// All but whoami need the admin role; see docs/palisadectl.md#access-control.
import { readFileSync } from "node:fs";
import { Argument } from "commander";
import type { AccessAction, CallerRights, TokenInfo } from "../types.ts";
import {
  addExamples,
  EXIT_ERROR,
  EXIT_NOT_ACQUIRED,
  EXIT_OK,
  type Ctl,
  type Output,
} from "./context.ts";
import { parseDuration, table, toJson, wallTime } from "./format.ts";

/** `can` answered no: like a lock not acquired, the answer to a question, not an error. */
const EXIT_DENIED = EXIT_NOT_ACQUIRED;

const ACTIONS: readonly AccessAction[] = [
  "acquire:exclusive",
  "acquire:shared",
  "acquire:upgradeable",
  "read",
  "revoke",
  "admin",
];

/** One error of a refused policy: the line it is on, and what is wrong there. */
export interface PolicyLineError {
  line: number;
  message: string;
}

/**
 * The errors of a refused policy from the node's message ("policy refused: line N: …;
 * line M: …"), one per line it names; null when the message is not such a refusal.
 */
export function policyErrorsOf(message: string): PolicyLineError[] | null {
  const match = /^policy refused: (line \d+: [\s\S]*)$/.exec(message);
  if (match === null) return null;
  return (match[1] as string).split(/; (?=line \d+: )/).map((part) => {
    const [, line, text] = /^line (\d+): ([\s\S]*)$/.exec(part) as RegExpExecArray;
    return { line: Number(line), message: text as string };
  });
}

function readPolicyFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`cannot read the policy file ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** "never", or the wall-clock time a token expires at. */
function expiry(ms: number): string {
  return ms === 0 ? "never" : wallTime(ms);
}

/** `whoami` in text: one field to a line, the grants and quotas one to a line below theirs. */
function describeRights(me: CallerRights): string {
  const who =
    me.identity === ""
      ? "(anonymous)"
      : me.tokenId
        ? `${me.identity} (token ${me.tokenId})`
        : me.identity;
  const grants = me.grants.map(
    (g) => `${g.prefix === "" ? "(every name)" : g.prefix}  ${g.actions.join(", ")}`,
  );
  const quotas = me.quotas.map((q) =>
    q.name === "requestRate" ? `requestRate ${q.limit}/s` : `${q.name} ${q.used} of ${q.limit}`,
  );
  const list = (label: string, items: string[], none: string): string[] =>
    items.length === 0
      ? [`${label}${none}`]
      : items.map((item, i) => `${i === 0 ? label : " ".repeat(label.length)}${item}`);
  return [
    `identity  ${who}`,
    `via       ${me.via}`,
    `roles     ${me.roles.length === 0 ? "-" : me.roles.join(", ")}`,
    `admin     ${me.admin ? "yes" : "no"}`,
    ...list("grants    ", grants, me.policyVersion === 0n ? "every action on every name" : "-"),
    ...list("quotas    ", quotas, "-"),
    `policy    ${me.policyVersion === 0n ? "none: the cluster is open" : `version ${me.policyVersion}`}`,
  ].join("\n");
}

function tokenRows(tokens: readonly TokenInfo[]): string {
  return table(
    ["ID", "IDENTITY", "ROLES", "CREATED INDEX", "CREATED AT", "EXPIRES"],
    tokens.map((t) => [
      t.tokenId,
      t.identity,
      t.roles.length === 0 ? "-" : t.roles.join(","),
      String(t.createdIndex),
      wallTime(t.createdAtMs),
      expiry(t.expiresAtMs),
    ]),
  );
}

/** Says why a policy was refused, each error with its line; answers EXIT_ERROR. */
function refusedPolicy(io: Output, json: boolean, file: string, errors: PolicyLineError[]): number {
  if (json) io.out(toJson({ file, applied: false, errors }));
  else {
    io.err(
      `policy refused: ${file} has ${errors.length === 1 ? "an error" : `${errors.length} errors`}; the policy in force is unchanged`,
    );
    for (const e of errors) io.err(`  ${file}:${e.line}: ${e.message}`);
  }
  return EXIT_ERROR;
}

/** Adds the access control verbs to palisadectl. */
export function registerAccessVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;

  const acl = program
    .command("acl")
    .description("the access policy (admin): apply a policy file, show the one in force");
  acl
    .command("apply")
    .description(
      "apply the policy in FILE (YAML or JSON) through the log and print its version; a file with errors is refused whole, each error with its line, and the policy in force stays",
    )
    .argument("<file>", "the policy file")
    .action((file: string) => {
      const text = readPolicyFile(file);
      return withClient(async (client, opts) => {
        let version: bigint;
        try {
          version = await client.admin.applyPolicy(text);
        } catch (err) {
          const { InvalidArgumentError } = await import("../errors.ts");
          const errors = err instanceof InvalidArgumentError ? policyErrorsOf(err.message) : null;
          if (errors === null) throw err;
          return refusedPolicy(io, opts.json, file, errors);
        }
        if (opts.json) io.out(toJson({ file, applied: true, version }));
        else io.out(`policy applied: version ${version}`);
        return EXIT_OK;
      });
    });
  acl
    .command("show")
    .description(
      "print the policy in force, its text exactly as applied on stdout and its version on stderr (nothing but a note when no policy was applied: the cluster is open)",
    )
    .action(() =>
      withClient(async (client, opts) => {
        const policy = await client.admin.getPolicy();
        if (opts.json) io.out(toJson(policy));
        else if (policy.version === 0n)
          io.err("no policy: the cluster is open (every caller may do everything)");
        else {
          io.err(`policy version ${policy.version}`);
          io.out(policy.text.replace(/\n$/, ""));
        }
        return EXIT_OK;
      }),
    );

  const token = program.command("token").description("bearer tokens (admin): create, list, revoke");
  token
    .command("create")
    .description(
      "create a bearer token for IDENTITY and print its secret (on stdout alone, shown this once) and its id and expiry (on stderr)",
    )
    .argument("<identity>", "the identity the token's bearer acts as")
    .option(
      "--role <role>",
      "a role besides those the policy gives the identity (admin: an admin token); repeat for more",
      (role: string, roles: string[] | undefined) => [...(roles ?? []), role],
    )
    .option(
      "--ttl <duration>",
      "how long the token is valid (default: until revoked)",
      parseDuration,
    )
    .action((identity: string, cmd: { role?: string[]; ttl?: number }) =>
      withClient(async (client, opts) => {
        const roles = cmd.role ?? [];
        const created = await client.admin.createToken(identity, {
          roles,
          ...(cmd.ttl !== undefined ? { ttlMs: cmd.ttl } : {}),
        });
        if (opts.json) {
          io.out(toJson({ identity, roles, ...created }));
          return EXIT_OK;
        }
        io.out(created.secret);
        io.err(
          `token ${created.tokenId} for identity ${identity}${roles.length > 0 ? ` with roles ${roles.join(", ")}` : ""}, expires ${expiry(created.expiresAtMs)}`,
        );
        io.err("the secret above is shown this once: the cluster keeps only its hash");
        return EXIT_OK;
      }),
    );
  token
    .command("list")
    .description(
      "the cluster's bearer tokens: id, identity, roles, when created, expiry (never a secret)",
    )
    .action(() =>
      withClient(async (client, opts) => {
        const tokens = await client.admin.listTokens();
        if (opts.json) io.out(toJson(tokens));
        else io.out(tokenRows(tokens));
        return EXIT_OK;
      }),
    );
  token
    .command("revoke")
    .description("revoke a token: calls presenting it are refused (UNAUTHENTICATED) from now on")
    .argument("<id>", "the token's id (16 hex digits, as `token list` shows it)")
    .action((tokenId: string) =>
      withClient(async (client, opts) => {
        const index = await client.admin.revokeToken(tokenId);
        if (opts.json) io.out(toJson({ tokenId, revokedAtIndex: index }));
        else io.out(`token ${tokenId} revoked at index ${index}`);
        return EXIT_OK;
      }),
    );

  program
    .command("whoami")
    .description(
      "who this caller is to the cluster (its token's or certificate's identity) and what it may do: roles, admin, grants, quotas and their use, the policy version (any caller)",
    )
    .action(() =>
      withClient(async (client, opts) => {
        const me = await client.admin.whoAmI();
        io.out(opts.json ? toJson(me) : describeRights(me));
        return EXIT_OK;
      }),
    );

  program
    .command("can")
    .description(
      "whether IDENTITY may do ACTION on the lock name LOCK under the policy in force, and why (admin); exit 0 allowed, 2 denied",
    )
    .argument("<identity>", "the identity asked about")
    .addArgument(new Argument("<action>", "the action").choices(ACTIONS))
    .argument("<lock>", "the lock name (any name for admin)")
    .action((identity: string, action: AccessAction, lock: string) =>
      withClient(async (client, opts) => {
        const answer = await client.admin.can(identity, action, lock);
        if (opts.json) io.out(toJson({ identity, action, lock, ...answer }));
        else io.out(`${answer.allowed ? "allowed" : "denied"}: ${answer.reason}`);
        return answer.allowed ? EXIT_OK : EXIT_DENIED;
      }),
    );

  addExamples(program, {
    "acl apply": ["acl apply policy.yaml", "--json acl apply policy.yaml"],
    "acl show": ["acl show", "acl show > policy.yaml"],
    "token create": [
      "token create team-a",
      "token create alice --role admin --ttl 24h",
      "token create ci --role orders-rw --role catalog-r --json",
    ],
    "token list": ["token list", "token list --json"],
    "token revoke": ["token revoke 3f9c2a7b1d4e6f80"],
    whoami: ["whoami", "whoami --json"],
    can: ["can team-a acquire:exclusive orders/42", "can ops-bot revoke orders/42"],
  });
}
