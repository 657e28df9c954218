// The access policy: roles that grant actions on lock-name prefixes and quotas, and the
// identities that have them. A policy is text (YAML, or JSON, which YAML reads too) that an
// admin applies through the log; every replica parses the same text into the same rights.
// A text with any error is refused whole, each error with its line.
//
// Grants only add: an identity's rights are the union of its roles' grants, and a name is
// allowed an action when any granted prefix of that action is a prefix of it. The role
// "admin" is built in: every action on every name, and the admin actions.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { utf8Length } from "../../proto/names.ts";

/** Actions granted on prefixes. An election's lead and a semaphore permit count as exclusive. */
export const PREFIX_ACTIONS = [
  "acquire:exclusive",
  "acquire:shared",
  "acquire:upgradeable",
  "read",
  "revoke",
] as const;
export type PrefixAction = (typeof PREFIX_ACTIONS)[number];

const BIT: Readonly<Record<PrefixAction, number>> = {
  "acquire:exclusive": 1,
  "acquire:shared": 2,
  "acquire:upgradeable": 4,
  read: 8,
  revoke: 16,
};
const ACQUIRE_BITS = 7;
const ALL_BITS = 31;
/** "acquire" in a policy file names every mode. */
const ACTION_WORDS: ReadonlyMap<string, number> = new Map([
  ["acquire", ACQUIRE_BITS],
  ...PREFIX_ACTIONS.map((a) => [a, BIT[a]] as const),
]);

export const QUOTA_KEYS = [
  "sessions",
  "heldLocks",
  "waits",
  "holderDataBytes",
  "requestRate",
] as const;
export type QuotaKey = (typeof QUOTA_KEYS)[number];
/** A missing key has no quota (the cluster's limits still apply). */
export type Quotas = Partial<Record<QuotaKey, number>>;

export const ADMIN_ROLE = "admin";
/** Identity and role names: what a certificate field or a token's identity may be. */
const NAME_RULE = /^[A-Za-z0-9._:@/=+-]{1,128}$/;
export const MAX_POLICY_BYTES = 1 << 20;

export function checkIdentityName(name: string): string | null {
  return NAME_RULE.test(name) ? null : "must be 1 to 128 letters, digits or . _ : @ / = + -";
}

export interface PolicyError {
  readonly line: number;
  readonly message: string;
}

export class PolicyParseError extends Error {
  override readonly name = "PolicyParseError";
  constructor(readonly errors: readonly PolicyError[]) {
    super(errors.map((e) => `line ${e.line}: ${e.message}`).join("; "));
  }
}

interface Grant {
  readonly prefix: string;
  readonly bits: number;
}

interface Role {
  readonly grants: readonly Grant[];
  readonly admin: boolean;
  readonly quotas: Quotas;
}

interface IdentityEntry {
  readonly roles: readonly string[];
  readonly quotas: Quotas;
}

/** A trie over the UTF-16 units of granted prefixes; each node holds the bits granted at it. */
class PrefixNode {
  bits = 0;
  children: Map<number, PrefixNode> | null = null;

  child(code: number): PrefixNode {
    this.children ??= new Map();
    let next = this.children.get(code);
    if (!next) this.children.set(code, (next = new PrefixNode()));
    return next;
  }
}

/** What one identity may do: its grants, whether it is an admin, and its quotas. */
export class Rights {
  private readonly root = new PrefixNode();
  /** Bits granted on at least one prefix. */
  private anyBits = 0;

  constructor(
    grants: readonly Grant[],
    readonly admin: boolean,
    readonly quotas: Quotas,
    /** The roles these rights come from (for whoami). */
    readonly roles: readonly string[],
  ) {
    for (const g of grants) {
      let node = this.root;
      for (let i = 0; i < g.prefix.length; i++) node = node.child(g.prefix.charCodeAt(i));
      node.bits |= g.bits;
      this.anyBits |= g.bits;
    }
  }

  /** Whether `action` is granted on the lock `name`. */
  allows(action: PrefixAction, name: string): boolean {
    return (this.bitsOn(name) & BIT[action]) !== 0;
  }

  /**
   * Whether `action` is granted on every name that starts with `prefix` (a prefix of it is
   * granted): what a List or Watch of that prefix needs.
   */
  covers(action: PrefixAction, prefix: string): boolean {
    return this.allows(action, prefix);
  }

  /** Whether any prefix grants any acquire mode: what a session needs to be of use. */
  get mayAcquire(): boolean {
    return (this.anyBits & ACQUIRE_BITS) !== 0;
  }

  /** Bits granted on `name` by any of its prefixes (the empty prefix included). */
  private bitsOn(name: string): number {
    let node: PrefixNode | undefined = this.root;
    let bits = node.bits;
    for (let i = 0; i < name.length && node.children !== null; i++) {
      node = node.children.get(name.charCodeAt(i));
      if (node === undefined) break;
      bits |= node.bits;
    }
    return bits;
  }

  /** Each granted prefix with its actions, in prefix order. */
  grants(): Array<{ prefix: string; actions: PrefixAction[] }> {
    const out: Array<{ prefix: string; actions: PrefixAction[] }> = [];
    const walk = (node: PrefixNode, prefix: string): void => {
      if (node.bits !== 0)
        out.push({ prefix, actions: PREFIX_ACTIONS.filter((a) => (node.bits & BIT[a]) !== 0) });
      if (node.children === null) return;
      for (const code of [...node.children.keys()].sort((a, b) => a - b))
        walk(node.children.get(code) as PrefixNode, prefix + String.fromCharCode(code));
    };
    walk(this.root, "");
    return out;
  }
}

/** What a caller may do where no policy is applied: every action on every name, no admin. */
export const OPEN_RIGHTS = new Rights([{ prefix: "", bits: ALL_BITS }], false, {}, []);
/** An admin's rights (an admin certificate, or the built-in admin role). */
export const ADMIN_RIGHTS = new Rights([{ prefix: "", bits: ALL_BITS }], true, {}, [ADMIN_ROLE]);
/** Nothing at all: an anonymous caller once a policy is applied. */
export const NO_RIGHTS = new Rights([], false, {}, []);

const ADMIN: Role = Object.freeze({
  grants: [{ prefix: "", bits: ALL_BITS }],
  admin: true,
  quotas: {},
});

/** A parsed policy: the text it came from and the rights it gives each identity. */
export class Policy {
  private readonly cache = new Map<string, Rights>();

  private constructor(
    readonly text: string,
    private readonly roles: ReadonlyMap<string, Role>,
    private readonly identities: ReadonlyMap<string, IdentityEntry>,
  ) {}

  /**
   * The text parsed last and its policy. A policy entry is parsed where it is proposed, where
   * it is validated for apply and where it is applied; a text of a thousand roles takes a
   * good part of a second to parse, so parsing it once per node keeps the event loop free
   * enough for heartbeats. A policy is immutable (its rights cache is a function of its text).
   */
  private static last: Policy | null = null;

  /**
   * The policy of `text` given as the plain values it reads as (by a YAML parser elsewhere),
   * or null when they are not a valid policy (parse the text then, for its errors' lines).
   */
  static fromValue(text: string, value: unknown): Policy | null {
    if (utf8Length(text) > MAX_POLICY_BYTES || utf8Length(text) < 0) return null;
    const parsed = plainPolicy(value);
    return parsed === null ? null : new Policy(text, parsed.roles, parsed.identities);
  }

  /** Parses a policy; throws PolicyParseError with every error found, each with its line. */
  static parse(text: string): Policy {
    if (Policy.last !== null && Policy.last.text === text) return Policy.last;
    const { roles, identities } = parsePolicyText(text);
    Policy.last = new Policy(text, roles, identities);
    return Policy.last;
  }

  /**
   * The policy as JSON, in a fixed form: what its log entry carries (with the text it came
   * from beside it, for display), so that every replica reads it by JSON.parse.
   */
  canonical(): string {
    const roles: Record<string, unknown> = {};
    for (const [name, role] of this.roles) {
      if (name === ADMIN_ROLE) continue;
      roles[name] = {
        grants: role.grants.map((g) => ({
          prefix: g.prefix,
          actions: PREFIX_ACTIONS.filter((a) => (g.bits & BIT[a]) !== 0),
        })),
        admin: role.admin,
        quotas: role.quotas,
      };
    }
    const identities: Record<string, unknown> = {};
    for (const [name, entry] of this.identities)
      identities[name] = { roles: entry.roles, quotas: entry.quotas };
    return JSON.stringify({ version: 1, roles, identities });
  }

  /** Role names the policy defines (the built-in admin role aside). */
  get roleNames(): string[] {
    return [...this.roles.keys()].filter((r) => r !== ADMIN_ROLE);
  }

  get identityNames(): string[] {
    return [...this.identities.keys()];
  }

  hasRole(role: string): boolean {
    return this.roles.has(role);
  }

  /**
   * The rights of `identity` with `extraRoles` besides those the policy binds to it (a
   * token's roles). Roles the policy does not define give nothing.
   */
  rightsOf(identity: string, extraRoles: readonly string[] = []): Rights {
    const key = extraRoles.length === 0 ? identity : `${identity}\n${extraRoles.join("\n")}`;
    let rights = this.cache.get(key);
    if (rights === undefined) {
      rights = this.build(identity, extraRoles);
      // Bounded: a policy has few identities, but tokens and certificates may name many.
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(key, rights);
    }
    return rights;
  }

  private build(identity: string, extraRoles: readonly string[]): Rights {
    const entry = this.identities.get(identity);
    const names = [...new Set([...(entry?.roles ?? []), ...extraRoles])].filter((r) =>
      this.roles.has(r),
    );
    const roles = names.map((r) => this.roles.get(r) as Role);
    const quotas: Record<string, number> = {};
    for (const role of roles)
      for (const [key, value] of Object.entries(role.quotas))
        quotas[key] = Math.max(quotas[key] ?? 0, value);
    Object.assign(quotas, entry?.quotas ?? {});
    return new Rights(
      roles.flatMap((r) => r.grants),
      roles.some((r) => r.admin),
      quotas,
      names,
    );
  }
}

// ---------------------------------------------------------------- parsing

type Errors = PolicyError[];

interface Parsed {
  roles: Map<string, Role>;
  identities: Map<string, IdentityEntry>;
}

/**
 * A JSON text is read by JSON.parse (a thousand roles in about a millisecond, where the
 * YAML parser takes hundreds): what a policy entry carries is JSON (Policy.canonical), so
 * every apply and restore takes this path. Null when the text is not JSON or has errors:
 * the YAML path then reports them with their lines.
 */
function parseJsonPolicy(text: string): Parsed | null {
  if (!/^\s*\{/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return plainPolicy(value);
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const KEYS = (v: Plain, allowed: readonly string[]): boolean =>
  Object.keys(v).every((k) => allowed.includes(k));

/**
 * The roles and identities of a policy given as plain values, when it is valid by the rules
 * the YAML path checks; null at the first problem (the YAML path then names every one).
 */
function plainPolicy(value: unknown): Parsed | null {
  if (!isPlain(value) || !KEYS(value, ["version", "roles", "identities"])) return null;
  if (value.version !== undefined && value.version !== 1) return null;
  const roles = new Map<string, Role>([[ADMIN_ROLE, ADMIN]]);
  const identities = new Map<string, IdentityEntry>();
  const rolesIn = value.roles ?? {};
  const identitiesIn = value.identities ?? {};
  if (!isPlain(rolesIn) || !isPlain(identitiesIn)) return null;
  for (const [name, body] of Object.entries(rolesIn)) {
    if (name === ADMIN_ROLE || checkIdentityName(name) !== null) return null;
    if (!isPlain(body) || !KEYS(body, ["grants", "admin", "quotas"])) return null;
    const grants: Grant[] = [];
    // Present but empty (null) is an error on the YAML path too.
    const grantsIn = body.grants === undefined ? [] : body.grants;
    if (!Array.isArray(grantsIn)) return null;
    for (const g of grantsIn) {
      if (!isPlain(g) || !KEYS(g, ["prefix", "actions"])) return null;
      if (typeof g.prefix !== "string" || checkPrefix(g.prefix) !== null) return null;
      if (!Array.isArray(g.actions) || g.actions.length === 0) return null;
      let bits = 0;
      for (const a of g.actions) {
        const bit = typeof a === "string" ? ACTION_WORDS.get(a) : undefined;
        if (bit === undefined) return null;
        bits |= bit;
      }
      grants.push({ prefix: g.prefix, bits });
    }
    if (body.admin !== undefined && typeof body.admin !== "boolean") return null;
    const quotas = plainQuotas(body.quotas);
    if (quotas === null) return null;
    roles.set(name, { grants, admin: body.admin === true, quotas });
  }
  for (const [name, body] of Object.entries(identitiesIn)) {
    if (checkIdentityName(name) !== null) return null;
    if (!isPlain(body) || !KEYS(body, ["roles", "quotas"])) return null;
    const list = body.roles === undefined ? [] : body.roles;
    if (!Array.isArray(list) || !list.every((r) => typeof r === "string" && roles.has(r)))
      return null;
    const quotas = plainQuotas(body.quotas);
    if (quotas === null) return null;
    identities.set(name, { roles: list as string[], quotas });
  }
  return { roles, identities };
}

function plainQuotas(value: unknown): Quotas | null {
  if (value === undefined) return {};
  if (!isPlain(value)) return null;
  const quotas: Record<string, number> = {};
  for (const [key, n] of Object.entries(value)) {
    if (!(QUOTA_KEYS as readonly string[]).includes(key)) return null;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return null;
    quotas[key] = n;
  }
  return quotas;
}

function parsePolicyText(text: string): Parsed {
  if (utf8Length(text) > MAX_POLICY_BYTES || utf8Length(text) < 0)
    throw new PolicyParseError([
      { line: 1, message: `a policy is at most ${MAX_POLICY_BYTES} bytes of UTF-8` },
    ]);
  const fast = parseJsonPolicy(text);
  if (fast !== null) return fast;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const errors: Errors = [];
  const lineOf = (node: unknown): number => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : 1;
  };
  for (const e of doc.errors)
    errors.push({ line: e.linePos?.[0]?.line ?? lines.linePos(e.pos[0]).line, message: e.message });
  if (errors.length > 0) throw new PolicyParseError(errors);
  return checkDocument(doc.contents, lineOf, errors);
}

/** The roles and identities of a parsed document; throws PolicyParseError with every error. */
function checkDocument(top: unknown, lineOf: (node: unknown) => number, errors: Errors): Parsed {
  const err = (node: unknown, message: string): void => {
    errors.push({ line: lineOf(node), message });
  };
  const roles = new Map<string, Role>([[ADMIN_ROLE, ADMIN]]);
  const identities = new Map<string, IdentityEntry>();
  if (!isMap(top)) {
    err(top, "a policy is a mapping with `roles` and `identities`");
    throw new PolicyParseError(errors);
  }
  const roleRefs: Array<{ role: string; node: unknown }> = [];
  for (const pair of top.items) {
    const key = scalarText(pair.key);
    if (key === "version") {
      if (!isScalar(pair.value) || pair.value.value !== 1) err(pair.value, "version must be 1");
    } else if (key === "roles") {
      eachEntry(pair.value, "roles", err, (name, nameNode, body) => {
        if (name === ADMIN_ROLE) return err(nameNode, `role "${ADMIN_ROLE}" is built in`);
        const bad = checkIdentityName(name);
        if (bad) return err(nameNode, `role name "${name}" ${bad}`);
        const role = parseRole(body, err);
        if (role) roles.set(name, role);
      });
    } else if (key === "identities") {
      eachEntry(pair.value, "identities", err, (name, nameNode, body) => {
        const bad = checkIdentityName(name);
        if (bad) return err(nameNode, `identity name "${name}" ${bad}`);
        const entry = parseIdentity(body, err, roleRefs);
        if (entry) identities.set(name, entry);
      });
    } else {
      err(pair.key, `unknown key "${key}" (a policy has version, roles and identities)`);
    }
  }
  for (const ref of roleRefs)
    if (!roles.has(ref.role)) err(ref.node, `role "${ref.role}" is not defined`);
  if (errors.length > 0) throw new PolicyParseError(errors.sort((a, b) => a.line - b.line));
  return { roles, identities };
}

function scalarText(node: unknown): string | null {
  return isScalar(node) && typeof node.value === "string" ? node.value : null;
}

type Report = (node: unknown, message: string) => void;

function eachEntry(
  node: unknown,
  what: string,
  err: Report,
  each: (name: string, nameNode: unknown, body: unknown) => void,
): void {
  if (node === null || (isScalar(node) && node.value === null)) return;
  if (!isMap(node)) return err(node, `${what} is a mapping of names`);
  for (const pair of node.items) {
    const name = scalarText(pair.key);
    if (name === null) err(pair.key, `a name in ${what} must be a string`);
    else each(name, pair.key, pair.value);
  }
}

function parseRole(body: unknown, err: Report): Role | null {
  if (!isMap(body)) {
    err(body, "a role is a mapping with grants, admin and quotas");
    return null;
  }
  const grants: Grant[] = [];
  let admin = false;
  let quotas: Quotas = {};
  for (const pair of body.items) {
    const key = scalarText(pair.key);
    if (key === "grants") {
      if (!isSeq(pair.value)) {
        err(pair.value, "grants is a list of { prefix, actions }");
        continue;
      }
      for (const item of pair.value.items) {
        const grant = parseGrant(item, err);
        if (grant) grants.push(grant);
      }
    } else if (key === "admin") {
      if (!isScalar(pair.value) || typeof pair.value.value !== "boolean")
        err(pair.value, "admin is true or false");
      else admin = pair.value.value;
    } else if (key === "quotas") {
      quotas = parseQuotas(pair.value, err);
    } else {
      err(pair.key, `unknown key "${key}" in a role (grants, admin, quotas)`);
    }
  }
  return { grants, admin, quotas };
}

function parseGrant(item: unknown, err: Report): Grant | null {
  if (!isMap(item)) {
    err(item, "a grant is { prefix, actions }");
    return null;
  }
  let prefix: string | null = null;
  let bits = 0;
  for (const pair of item.items) {
    const key = scalarText(pair.key);
    if (key === "prefix") {
      // A prefix left empty (YAML's null) is a slip, not every name: that is written "".
      const value = isScalar(pair.value) ? pair.value.value : null;
      prefix = value === null || value === undefined ? null : String(value);
      const bad =
        prefix === null ? 'prefix must be a string ("" for every name)' : checkPrefix(prefix);
      if (bad) {
        err(pair.value, bad);
        prefix = null;
      }
    } else if (key === "actions") {
      if (!isSeq(pair.value) || pair.value.items.length === 0) {
        err(pair.value, `actions is a non-empty list of ${[...ACTION_WORDS.keys()].join(", ")}`);
        continue;
      }
      for (const a of pair.value.items) {
        const word = scalarText(a);
        const bit = word === null ? undefined : ACTION_WORDS.get(word);
        if (bit === undefined)
          err(
            a,
            `unknown action ${JSON.stringify(word ?? (a as YamlNode)?.toString())} (${[...ACTION_WORDS.keys()].join(", ")})`,
          );
        else bits |= bit;
      }
    } else {
      err(pair.key, `unknown key "${key}" in a grant (prefix, actions)`);
    }
  }
  if (prefix === null || bits === 0) {
    if (prefix === null && !item.items.some((p) => scalarText(p.key) === "prefix"))
      err(item, 'a grant needs a prefix ("" for every name)');
    if (!item.items.some((p) => scalarText(p.key) === "actions"))
      err(item, "a grant needs actions");
    return null;
  }
  return { prefix, bits };
}

function checkPrefix(prefix: string): string | null {
  const bytes = utf8Length(prefix);
  if (bytes < 0) return "prefix is not valid UTF-8";
  if (bytes > 256) return "prefix is longer than a lock name may be (256 bytes)";
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return `prefix has a control character at ${i}`;
  }
  return null;
}

function parseQuotas(node: unknown, err: Report): Quotas {
  const quotas: Record<string, number> = {};
  if (!isMap(node)) {
    err(node, `quotas is a mapping of ${QUOTA_KEYS.join(", ")}`);
    return quotas;
  }
  for (const pair of node.items) {
    const key = scalarText(pair.key);
    if (key === null || !(QUOTA_KEYS as readonly string[]).includes(key)) {
      err(pair.key, `unknown quota "${key}" (${QUOTA_KEYS.join(", ")})`);
      continue;
    }
    const value = isScalar(pair.value) ? pair.value.value : null;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
      err(pair.value, `quota ${key} must be a non-negative integer`);
    else quotas[key] = value;
  }
  return quotas;
}

function parseIdentity(
  body: unknown,
  err: Report,
  roleRefs: Array<{ role: string; node: unknown }>,
): IdentityEntry | null {
  if (!isMap(body)) {
    err(body, "an identity is a mapping with roles and quotas");
    return null;
  }
  const roles: string[] = [];
  let quotas: Quotas = {};
  for (const pair of body.items) {
    const key = scalarText(pair.key);
    if (key === "roles") {
      if (!isSeq(pair.value)) {
        err(pair.value, "roles is a list of role names");
        continue;
      }
      for (const r of pair.value.items) {
        const role = scalarText(r);
        if (role === null) err(r, "a role name must be a string");
        else {
          roles.push(role);
          roleRefs.push({ role, node: r });
        }
      }
    } else if (key === "quotas") {
      quotas = parseQuotas(pair.value, err);
    } else {
      err(pair.key, `unknown key "${key}" in an identity (roles, quotas)`);
    }
  }
  return { roles, quotas };
}
