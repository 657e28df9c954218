// The CPU cost of access control's checks, in this one process: what a node spends per
// request and per applied entry on deciding who may do what, with a policy of 1,000 prefixes
// over 100 identities (bench/auth-policy.ts).
//
//   node dist/bench/auth-check.js [--rounds N] [--json FILE]    (npm run bench -- auth)
//
// Each figure is the median over N rounds (default 7; 3N for the apply rows) of the mean
// CPU time (user and system) per operation in a loop of many; the rounds of the apply rows take turns, so machine
// noise hits each alike. Rows:
//   - parsing the policy (each node parses it when its entry applies) and the rights of one
//     identity built from it (once per identity and policy: they are cached);
//   - policy.rightsOf(identity).allows(action, name), the check an Acquire's apply makes per
//     lock, for a team (10 prefixes) and for an identity with all 1,000, on names inside and
//     outside its prefixes;
//   - what the node does at its edge: a bearer token checked (a SHA-256 and a compare, once
//     per unary call or per stream) and the requestRate quota spent (once per request);
//   - LockStateMachine.applyBytes of Acquire and Release entries (decode, resolve the
//     caller, check, grant or release, count quotas) without a policy and under the policy,
//     by a certificate caller and by a token caller.
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { AccessState } from "../node/auth/access-state.ts";
import { encodeCaller, type Caller } from "../node/auth/caller.ts";
import { Policy, type PrefixAction } from "../node/auth/policy.ts";
import { newToken } from "../node/auth/tokens.ts";
import { AccessGate } from "../node/host/access-gate.ts";
import { encodeEntry, LockStateMachine, type Command } from "../node/lock/index.ts";
import {
  benchPolicyText,
  BENCH_IDENTITY,
  EVERY_ROLE_IDENTITY,
  TEAMS,
  teamName,
} from "./auth-policy.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "7" },
    json: { type: "string" },
  },
});
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("--rounds must be a positive integer");

interface Row {
  what: string;
  /** Microseconds per operation (median of the rounds). */
  us: number;
  per: string;
}

/** Keeps the timed work observable, so the compiler cannot drop it. */
let sink = 0;

/**
 * Microseconds of CPU (user and system) this process has used: on a shared machine a
 * process waits for a core now and then, and CPU time leaves those waits out.
 */
function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Median over the rounds of the µs per call of `op`, called `n` times a round. */
function timeEach(n: number, op: (i: number) => number): number {
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = cpuUs();
    for (let i = 0; i < n; i++) sink += op(i);
    samples.push((cpuUs() - t0) / n);
  }
  return median(samples);
}

const ADMIN_CALLER = "a:ops";

/** A state machine, a session of `caller` in it, and entries ready to apply. */
class ApplyRun {
  readonly machine = new LockStateMachine();
  private index = 0;
  private seq = 0;
  private readonly session: bigint;
  readonly samples: number[] = [];
  refused = 0;

  constructor(
    readonly what: string,
    private readonly caller: string,
    setUp: (run: ApplyRun) => void,
  ) {
    setUp(this);
    const opened = this.applyAs(
      { type: "openSession", requestId: "", ttlMs: 10_000, clientName: "bench", wallMs: 0 },
      caller,
    );
    if (opened.kind !== "sessionOpened") throw new Error(`${what}: ${JSON.stringify(opened)}`);
    this.session = opened.sessionId;
  }

  /** Applies one command at the next index as `caller`; its answer. */
  applyAs(cmd: Command, caller: string): ReturnType<LockStateMachine["apply"]>["result"] {
    return this.machine.apply(++this.index, cmd, caller).result;
  }

  /** The bytes of `cycles` Acquire and Release pairs on one lock, at the next indexes. */
  entries(cycles: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    const lock = `${BENCH_IDENTITY}/apply/w0`;
    let index = this.index;
    for (let c = 0; c < cycles; c++) {
      const write = (): { sessionId: bigint; seq: number; ackedUpTo: number; held: number[] } => {
        this.seq++;
        return { sessionId: this.session, seq: this.seq, ackedUpTo: this.seq - 1, held: [] };
      };
      const acquireAt = ++index;
      out.push(
        encodeEntry(
          { type: "acquire", ...write(), lock, waitMs: 0, wallMs: 0 },
          undefined,
          this.caller,
        ),
      );
      ++index;
      out.push(
        encodeEntry(
          { type: "release", ...write(), lock, token: BigInt(acquireAt), wallMs: 0 },
          undefined,
          this.caller,
        ),
      );
    }
    return out;
  }

  /** Applies `bytes` at the next indexes; records µs per entry and counts refusals. */
  run(bytes: Uint8Array[]): void {
    const t0 = cpuUs();
    for (const entry of bytes) {
      const result = this.machine.applyBytes(++this.index, entry).result;
      if (result.kind === "error") this.refused++;
    }
    this.samples.push((cpuUs() - t0) / bytes.length);
  }
}

function applyRows(text: string): { rows: Row[]; entryBytes: Record<string, number> } {
  const withPolicy = (run: ApplyRun): void => {
    const r = run.applyAs({ type: "setPolicy", text, wallMs: 0 }, ADMIN_CALLER);
    if (r.kind !== "policySet") throw new Error(`policy not applied: ${JSON.stringify(r)}`);
  };
  const token = newToken();
  const tokenCaller = encodeCaller({ kind: "token", name: BENCH_IDENTITY, tokenId: token.id });
  const runs = [
    new ApplyRun("no policy, anonymous caller (a cluster without TLS)", "", () => undefined),
    new ApplyRun("no policy, certificate caller", `c:${BENCH_IDENTITY}`, () => undefined),
    new ApplyRun("1,000-prefix policy, certificate caller", `c:${BENCH_IDENTITY}`, withPolicy),
    new ApplyRun("1,000-prefix policy, token caller", tokenCaller, (run) => {
      withPolicy(run);
      const r = run.applyAs(
        {
          type: "createToken",
          id: token.id,
          identity: BENCH_IDENTITY,
          roles: [],
          hash: token.hash,
          expiresAtMs: 0,
          wallMs: 0,
        },
        ADMIN_CALLER,
      );
      if (r.kind !== "tokenCreated") throw new Error(`token not created: ${JSON.stringify(r)}`);
    }),
  ];
  // Many short rounds in turn: the median of each leaves out the rounds machine noise hit.
  const cycles = 5_000;
  // One unrecorded round first: the JIT warms on every path.
  for (const run of runs) run.run(run.entries(2_000));
  for (const run of runs) run.samples.length = 0;
  // Each round starts with the next variant, so none always follows the same one (and pays
  // for the garbage it left).
  for (let r = 0; r < 3 * ROUNDS; r++)
    for (let k = 0; k < runs.length; k++) {
      const run = runs[(r + k) % runs.length] as ApplyRun;
      run.run(run.entries(cycles));
    }
  const rows: Row[] = [];
  for (const run of runs) {
    if (run.refused > 0) throw new Error(`${run.what}: ${run.refused} entries were refused`);
    rows.push({
      what: `apply an Acquire or Release entry: ${run.what}`,
      us: median(run.samples),
      per: "applied entry, every node",
    });
  }
  const sample = (caller: string): number =>
    encodeEntry(
      {
        type: "acquire",
        sessionId: 1n << 40n,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        lock: `${BENCH_IDENTITY}/apply/w0`,
        waitMs: 0,
        wallMs: 0,
      },
      undefined,
      caller,
    ).length;
  return {
    rows,
    entryBytes: {
      anonymous: sample(""),
      certificate: sample(`c:${BENCH_IDENTITY}`),
      token: sample(tokenCaller),
    },
  };
}

/**
 * The policy's text with a comment of its own: Policy.parse keeps the last text it parsed,
 * and each timed parse must be of a text not parsed before, as a new policy is.
 */
let variant = 0;
const fresh = (text: string): string => `${text}# variant ${++variant}\n`;

function checkRows(text: string): Row[] {
  const rows: Row[] = [];
  const parseUs = timeEach(3, () => (Policy.parse(fresh(text)).roleNames.length > 0 ? 1 : 0));
  rows.push({
    what: "parse the policy's YAML text (1,000 roles, 101 identities)",
    us: parseUs,
    per: "ApplyPolicy, on the node that takes it",
  });
  // Its entry as apply takes it: the canonical JSON, validated, then set (one parse: the
  // text is kept between). A distinct text each time: a role of its own name.
  const canonical = Policy.parse(text).canonical();
  const freshJson = (): string =>
    canonical.replace('"roles":{', `"roles":{"variant-${++variant}":{},`);
  const jsonUs = timeEach(3, () => (Policy.parse(freshJson()).roleNames.length > 0 ? 1 : 0));
  rows.push({ what: "parse the policy's canonical JSON", us: jsonUs, per: "parse" });
  const machine = new LockStateMachine();
  let index = 0;
  const applyUs = timeEach(3, () => {
    const cmd = { type: "setPolicy", text: freshJson(), source: text, wallMs: 0 } as const;
    const r = machine.apply(++index, cmd, ADMIN_CALLER);
    return r.result.kind === "policySet" ? 1 : 0;
  });
  rows.push({ what: "apply the policy's entry", us: applyUs, per: "policy change, every node" });
  // Rights are built on an identity's first use under a policy, then cached: time the
  // first use on policies not used before.
  const firstUse = (who: (p: Policy) => number, count: number): number =>
    median(
      Array.from({ length: ROUNDS }, () => Policy.parse(fresh(text))).map((p) => {
        const t0 = cpuUs();
        sink += who(p);
        return (cpuUs() - t0) / count;
      }),
    );
  const teamUs = firstUse((p) => {
    let roles = 0;
    for (let t = 0; t < TEAMS; t++) roles += p.rightsOf(teamName(t)).roles.length;
    return roles;
  }, TEAMS);
  rows.push({
    what: "rights of a team identity, first use",
    us: teamUs,
    per: "identity and policy",
  });
  const everyUs = firstUse((p) => p.rightsOf(EVERY_ROLE_IDENTITY).roles.length, 1);
  rows.push({
    what: "rights of the identity with all 1,000 roles, first use",
    us: everyUs,
    per: "identity and policy",
  });
  const policy = Policy.parse(text);
  const n = 1_000_000;
  const check = (who: string, action: PrefixAction, name: string, what: string): void => {
    const us = timeEach(n, () => (policy.rightsOf(who).allows(action, name) ? 1 : 0));
    rows.push({ what: `rightsOf(id).allows(): ${what}`, us, per: "lock named by an entry" });
  };
  check(
    "team-42",
    "acquire:exclusive",
    "team-42/app-7/orders/12345",
    "team (10 prefixes), name inside",
  );
  check(
    "team-42",
    "acquire:exclusive",
    "team-42/billing/orders/12345",
    "team, name outside (shares team-42/)",
  );
  check("team-42", "read", "zeta/orders/12345", "team, name outside (no shared start)");
  check(
    EVERY_ROLE_IDENTITY,
    "acquire:exclusive",
    "team-42/app-7/orders/12345",
    "1,000 prefixes, name inside",
  );
  check(
    EVERY_ROLE_IDENTITY,
    "acquire:exclusive",
    "team-42/app-x/orders/12345",
    "1,000 prefixes, name outside",
  );
  const unknown = timeEach(n, () =>
    policy.rightsOf("nobody").allows("read", "team-42/app-7/x") ? 1 : 0,
  );
  rows.push({
    what: "rightsOf(id).allows(): identity the policy does not name",
    us: unknown,
    per: "lock named by an entry",
  });
  return rows;
}

function edgeRows(text: string): Row[] {
  const state = new AccessState();
  state.setPolicy(Policy.parse(text), 1);
  const token = newToken();
  state.tokens.set(token.id, {
    id: token.id,
    identity: BENCH_IDENTITY,
    roles: [],
    hash: token.hash,
    createdAt: 2,
    createdWallMs: 0,
    expiresAtMs: 0,
  });
  let clockMs = 0;
  const gate = new AccessGate({
    tls: false,
    certIdentity: "cn",
    admins: [],
    state: () => state,
    wallMs: () => 0,
    // A clock that moves 1 ms a call: the loop outruns any real quota, and a refusal would
    // time the refusal's log line instead.
    now: () => ++clockMs,
    logger: { warn: () => undefined },
  });
  const header = `Bearer ${token.secret}`;
  const callerUs = timeEach(200_000, () => gate.callerOf(null, header, "Acquire").name.length);
  const caller: Caller = gate.callerOf(null, header, "Acquire");
  const cert: Caller = { kind: "certificate", name: teamName(1), tokenId: "" };
  const rateUs = timeEach(1_000_000, () => {
    gate.spendRate(caller, "Acquire");
    return 1;
  });
  const noQuotaUs = timeEach(1_000_000, () => {
    gate.spendRate(cert, "Acquire");
    return 1;
  });
  return [
    {
      what: "bearer token checked (parse, SHA-256, compare)",
      us: callerUs,
      per: "unary call or stream",
    },
    {
      what: "requestRate quota spent (identity with a quota)",
      us: rateUs,
      per: "request, at its node",
    },
    {
      what: "requestRate looked up (identity without a quota)",
      us: noQuotaUs,
      per: "request, at its node",
    },
  ];
}

const fmt = (us: number): string =>
  us >= 1_000
    ? `${(us / 1_000).toFixed(1)} ms`
    : us >= 10
      ? `${us.toFixed(1)} µs`
      : `${us.toFixed(3)} µs`;

function main(): void {
  const text = benchPolicyText();
  const loadStart = loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  const rows = [...checkRows(text), ...edgeRows(text)];
  const apply = applyRows(text);
  rows.push(...apply.rows);
  const header = [
    `access control, CPU per check: node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"})`,
    `load average at start ${loadStart}, at end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}; CPU time, median of ${ROUNDS} rounds (${3 * ROUNDS} for the apply rows)`,
    `policy: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB of YAML, 1,000 prefixes over ${TEAMS} team identities (10 each)`,
    `entry bytes of an Acquire by caller: anonymous ${apply.entryBytes["anonymous"]}, certificate ${apply.entryBytes["certificate"]}, token ${apply.entryBytes["token"]}`,
  ];
  const table = [
    "| check | CPU time | paid once per |",
    "|---|---:|---|",
    ...rows.map((r) => `| ${r.what} | ${fmt(r.us)} | ${r.per} |`),
  ];
  process.stdout.write(`${header.join("\n")}\n\n${table.join("\n")}\n`);
  if (values.json)
    writeFileSync(
      values.json,
      JSON.stringify({ header, rows, entryBytes: apply.entryBytes, sink: sink % 2 }, null, 2) +
        "\n",
    );
}

main();
