// Identities on the simulated cluster (SimOptions.access): each client slot acts as one of
// two tenants, by the identity of its certificate (one slot of team B by a bearer token once
// the admin's token is committed); an admin creates the token at the start and applies a
// policy with quotas at a random time (retrying through faults until the log has it); and
// clients now and then call on a session of the other tenant's, or on one that never
// existed, which must be refused PERMISSION_DENIED. What the committed log does with all of
// it is checked by checkers/access.ts.
import { status as Status } from "@grpc/grpc-js";
import { ANONYMOUS, encodeCaller, type Caller } from "../../node/auth/caller.ts";
import type { Command } from "../../node/lock/commands.ts";
import type { LockStateMachine } from "../../node/lock/state-machine.ts";
import { tokenFor } from "../../node/lock/tokens.ts";
import type { SeededRandom } from "../../node/util/rng.ts";
import type { NodeHost } from "../../node/host/node-host.ts";
import type { NodeId } from "../../node/raft/types.ts";
import type { CallFailure } from "../../proto/codec/answers.ts";
import type { AnswerOf, CallName, RequestOf } from "../../proto/lock-calls.ts";
import type { SimCluster } from "./cluster.ts";
import type { LockResult } from "./sim-transport.ts";

/** What the identities use of the simulated lock service (lock-sim.ts). */
export interface AccessSim {
  readonly c: SimCluster<LockResult>;
  readonly hosts: ReadonlyMap<NodeId, { readonly host: NodeHost }>;
  /** The state at the highest index applied anywhere. */
  readonly committedState: LockStateMachine;
  /** One call from a client endpoint to a node, outside any client library. */
  call<N extends CallName>(
    from: number,
    to: NodeId,
    name: N,
    request: RequestOf<N>,
    timeoutMs: number,
  ): Promise<{ answer: AnswerOf<N> } | { failure: CallFailure } | null>;
}

/** The policy an admin applies: the tenants' rights on the workload's names, and their quotas. */
export const SIM_POLICY = `roles:
  tenant-a:
    grants:
      - { prefix: lock-, actions: [acquire, read, revoke] }
      - { prefix: rw-, actions: [acquire, read] }
      - { prefix: sem-, actions: [acquire, read] }
      - { prefix: set-, actions: [acquire, read] }
      - { prefix: up-, actions: [acquire, read] }
      - { prefix: election-1, actions: [acquire, read] }
    quotas: { sessions: 2, heldLocks: 4, waits: 2, holderDataBytes: 40 }
  tenant-b:
    grants:
      - { prefix: lock-, actions: [acquire, read] }
      - { prefix: rw-, actions: [acquire:shared, read] }
      - { prefix: sem-, actions: [acquire, read] }
      - { prefix: set-, actions: [acquire:shared, read] }
      - { prefix: up-, actions: [acquire:shared, acquire:upgradeable, read] }
      - { prefix: election-, actions: [acquire, read] }
    quotas: { sessions: 2, heldLocks: 3, waits: 1 }
identities:
  team-a: { roles: [tenant-a] }
  team-b: { roles: [tenant-b] }
`;

export const TENANTS = ["team-a", "team-b"];
const ADMIN: Caller = { kind: "admin", name: "ops", tokenId: "" };
/** How long after its token is committed the token's slot uses it (every replica has it by then, faults aside). */
const TOKEN_SETTLE_MS = 300;
/** Between two attempts of an admin call that the log does not have yet. */
const ADMIN_RETRY_MS = 300;

export interface AccessRunStats {
  adminProposals: number;
  policiesApplied: number;
  intrusions: number;
  intrusionsRefused: number;
}

/** A session call naming `session`, with the seq and what it acknowledges of `seq`'s writes. */
function foreignCalls(
  session: bigint,
  seq: number,
  lock: string,
  token: bigint,
): Array<{ [N in CallName]: [N, RequestOf<N>] }[CallName]> {
  const w = { sessionId: session, seq, ackedUpTo: seq - 1, held: [] };
  return [
    ["Acquire", { ...w, lock: "lock-1", waitMs: 0 }],
    ["Release", { ...w, lock, token }],
    ["CloseSession", w],
    ["CancelWait", { sessionId: session, lock, acquireSeq: seq }],
    ["Upgrade", { ...w, lock, token, waitMs: 0 }],
    ["Downgrade", { ...w, lock, token, mode: "shared" }],
    ["Campaign", { ...w, election: "election-1", value: "", waitMs: 0 }],
    ["Proclaim", { ...w, election: "election-1", token, value: "not yours" }],
    ["Resign", { ...w, election: "election-1", token }],
  ];
}

export class SimAccess {
  readonly stats: AccessRunStats = {
    adminProposals: 0,
    policiesApplied: 0,
    intrusions: 0,
    intrusionsRefused: 0,
  };
  private token: { caller: Caller; usableFrom: number } | null = null;
  private tokenAttempts = 0;

  constructor(
    private readonly sim: AccessSim,
    private readonly rng: SeededRandom,
    /** When the admin applies the policy, and the end of the run's admin calls. */
    private readonly policyAtMs: number,
    private readonly until: number,
  ) {}

  /** The tenant a client slot acts as. */
  identityOf(endpoint: number): string {
    return endpoint < 100 ? "" : (TENANTS[(endpoint - 100) % 2] as string);
  }

  /** The caller of a frame from `endpoint`: a tenant's certificate, or team B's token on one slot. */
  callerOf(endpoint: number): Caller {
    const name = this.identityOf(endpoint);
    if (name === "") return ANONYMOUS;
    const token = this.token;
    if ((endpoint - 100) % 4 === 3 && token !== null && this.sim.c.sched.now >= token.usableFrom)
      return token.caller;
    return { kind: "certificate", name, tokenId: "" };
  }

  /** Starts the admin: team B's token now, the policy at its time. */
  start(): void {
    this.admin(
      () => {
        const id = (0xb000 + ++this.tokenAttempts).toString(16).padStart(16, "0");
        return {
          type: "createToken",
          id,
          identity: "team-b",
          roles: [],
          hash: "5a".repeat(32),
          expiresAtMs: 0,
          wallMs: 0,
        };
      },
      (state) => {
        const t = [...state.accessState.tokens.values()].find((r) => r.identity === "team-b");
        if (t === undefined) return false;
        this.token ??= {
          caller: { kind: "token", name: t.identity, tokenId: t.id },
          usableFrom: this.sim.c.sched.now + TOKEN_SETTLE_MS,
        };
        return true;
      },
      0,
    );
    this.admin(
      () => ({ type: "setPolicy", text: SIM_POLICY, wallMs: 0 }),
      (state) => {
        if (state.accessState.policy === null) return false;
        this.stats.policiesApplied = 1;
        return true;
      },
      this.policyAtMs,
    );
  }

  /** Proposes `cmd` as the admin through the leader, again now and then, until `done` says the log has it. */
  private admin(
    cmd: () => Command,
    done: (state: LockStateMachine) => boolean,
    atMs: number,
  ): void {
    const sched = this.sim.c.sched;
    const attempt = (): void => {
      if (done(this.sim.committedState) || sched.now >= this.until) return;
      const leader = this.sim.c.leader();
      const host = leader === undefined ? undefined : this.sim.hosts.get(leader.id)?.host;
      if (host?.isLeader === true) {
        this.stats.adminProposals++;
        host.propose(cmd(), undefined, encodeCaller(ADMIN)).catch(() => undefined);
      }
      sched.after(ADMIN_RETRY_MS, "admin-call", attempt);
    };
    sched.after(atMs, "admin-call", attempt);
  }

  /**
   * A session call from `endpoint` naming a session of the other tenant's (one of
   * `sessions`, with what it holds in the committed state) or one that never existed, sent
   * to the leader outside any client library: refused PERMISSION_DENIED, or not answered.
   */
  async intrude(
    endpoint: number,
    sessions: ReadonlyMap<bigint, { readonly endpoint: number }>,
  ): Promise<string | null> {
    const rng = this.rng;
    const me = this.identityOf(endpoint);
    const others = [...sessions]
      .filter(([, c]) => this.identityOf(c.endpoint) !== me)
      .map(([id]) => id);
    const victim =
      others.length > 0 && rng.chance(0.8)
        ? rng.pick(others)
        : tokenFor(0, 2 ** 47 + rng.int(0, 1_000_000));
    const held = this.sim.committedState.getSession(victim)?.held ?? [];
    const h = held.length > 0 ? rng.pick(held) : { lock: "lock-1", token: 1n };
    const [name, request] = rng.pick(foreignCalls(victim, rng.int(1, 40), h.lock, h.token));
    const to = this.sim.c.leader()?.id ?? rng.pick(this.sim.c.nodes).id;
    this.stats.intrusions++;
    const out = await this.sim.call(endpoint, to, name, request as never, 500);
    if (out === null) return null;
    const what = `a ${name} of identity ${me} naming session ${victim} (not its own)`;
    if ("answer" in out) return `${what} succeeded`;
    const f = out.failure;
    if (f.reason === "ERROR_REASON_PERMISSION_DENIED") {
      this.stats.intrusionsRefused++;
      return null;
    }
    // The node could not serve it (not the leader, no quorum): no answer.
    if (f.reason === null || f.code === Status.UNAVAILABLE) return null;
    return `${what} answered ${f.reason}: ${f.message}`;
  }
}
