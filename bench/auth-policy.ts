// The access policy the benchmark measures with: 1,000 roles, each granting one prefix, over
// 100 team identities (10 roles each), plus an identity that has every role and the
// identity the throughput harness runs as. Prefixes share their first segments, as a real
// tenant layout would ("team-42/app-7/"), so a lookup walks a trie that branches.

export const TEAMS = 100;
export const APPS_PER_TEAM = 10;
/** The identity the lock harness acts as under the policy (its locks are under lockbench/). */
export const BENCH_IDENTITY = "lockbench";
/** An identity with all 1,000 roles: the largest set of grants one identity has. */
export const EVERY_ROLE_IDENTITY = "auditor";

export const teamName = (t: number): string => `team-${t}`;
export const prefixOf = (t: number, a: number): string => `team-${t}/app-${a}/`;
const roleOf = (t: number, a: number): string => `team-${t}-app-${a}`;

/** Quotas the harness's identity has: high enough never to refuse it, so each is checked. */
const BENCH_QUOTAS =
  "{ sessions: 10000, heldLocks: 100000, waits: 10000, holderDataBytes: 1048576, requestRate: 1000000 }";

/** The policy's YAML text: roles (1,000 prefixes plus lockbench/) and identities. */
export function benchPolicyText(): string {
  const lines: string[] = ["version: 1", "roles:"];
  for (let t = 0; t < TEAMS; t++)
    for (let a = 0; a < APPS_PER_TEAM; a++)
      lines.push(
        `  ${roleOf(t, a)}:`,
        "    grants:",
        `      - { prefix: "${prefixOf(t, a)}", actions: [acquire, read, revoke] }`,
      );
  lines.push(
    "  lockbench-rw:",
    "    grants:",
    '      - { prefix: "lockbench/", actions: [acquire, read] }',
    `    quotas: ${BENCH_QUOTAS}`,
    "identities:",
  );
  const every: string[] = [];
  for (let t = 0; t < TEAMS; t++) {
    const roles = Array.from({ length: APPS_PER_TEAM }, (_, a) => roleOf(t, a));
    every.push(...roles);
    lines.push(`  ${teamName(t)}: { roles: [${roles.join(", ")}] }`);
  }
  lines.push(`  ${EVERY_ROLE_IDENTITY}: { roles: [${every.join(", ")}] }`);
  // The harness's identity has nine team roles besides its own: ten grants, as a team has.
  const borrowed = Array.from({ length: APPS_PER_TEAM - 1 }, (_, a) => roleOf(TEAMS - 1, a));
  lines.push(`  ${BENCH_IDENTITY}: { roles: [lockbench-rw, ${borrowed.join(", ")}] }`);
  return lines.join("\n") + "\n";
}
