// The environment of NodeHost's golden scripts: three real NodeHosts (Raft, driver, lock
// state machine, LockRequests) on the simulated network, disk and clock of a quiet cluster,
// reached by calls that go through the shipped codec and stream framing. A script starts the
// cluster with a seed, calls nodes by id with named sessions, and holds a node's applying,
// moves leadership or lets time pass; each command prints what came back and, where it
// matters, where each node stands. The same seed gives the same run, so the file is stable.
import type { Arg, Command } from "../raft/datadriven.ts";
import { ScriptError } from "../raft/datadriven.ts";
import type { ScriptEnv } from "../raft/golden-files.ts";
import type { NodeId } from "../../node/raft/types.ts";
import { CALL_NAMES, type CallName, type RequestOf } from "../../proto/lock-calls.ts";
import { show } from "../lock/lock-script.ts";
import { LockSim } from "../sim/lock-sim.ts";
import { quietSim, runFor, settleWithin } from "../sim/lock-scripted.ts";

/** The client id every call comes from (the simulated network's address of the caller). */
const CLIENT = 100;
/** Argument values read as uint64 (bigint) rather than number. */
const BIGINT_ARGS = new Set(["token", "after", "waitersAfterIndex"]);
/** Numbered writes: a session's next seq is filled in unless the script gives one. */
const SEQUENCED: ReadonlySet<CallName> = new Set(["Acquire", "Release", "CloseSession"]);

interface NamedSession {
  readonly id: bigint;
  seq: number;
}

export class HostScriptEnv implements ScriptEnv {
  private sim: LockSim | null = null;
  private readonly sessions = new Map<string, NamedSession>();
  private readonly held = new Map<NodeId, () => void>();

  async run(c: Command): Promise<string[]> {
    switch (c.name) {
      case "start":
        return this.start(c);
      case "call":
        return this.call(c);
      case "status":
        return this.status(c);
      case "run":
        return this.runFor(c);
      case "hold-apply":
        return this.holdApply(c);
      case "release-apply":
        return this.releaseApply(c);
      case "transfer":
        return this.transfer(c);
      default:
        throw new ScriptError(`line ${c.line}: unknown command "${c.name}"`);
    }
  }

  private async start(c: Command): Promise<string[]> {
    if (this.sim !== null) throw new ScriptError(`line ${c.line}: the cluster is already started`);
    const seed = Number(valueOf(c, "seed") ?? "1");
    this.sim = await quietSim(seed);
    return this.statusLines();
  }

  /** `call NODE CALL [as=NAME] [session=NAME] [sessions=A,B] [within=MS] [field=value ...]` */
  private async call(c: Command): Promise<string[]> {
    const sim = this.started(c);
    const [nodeText, name] = positional(c, 2);
    const node = this.nodeOf(nodeText!, c);
    if (!CALL_NAMES.includes(name as CallName))
      throw new ScriptError(`line ${c.line}: unknown call "${name}"`);
    const call = name as CallName;
    let as: string | null = null;
    let within = 5_000;
    const request: Record<string, unknown> = {};
    for (const arg of c.args.filter((a) => a.assigned)) {
      if (arg.key === "as") as = arg.values.join(",");
      else if (arg.key === "within") within = Number(arg.values[0]);
      else if (arg.key === "session") request.sessionId = this.session(arg.values[0]!, c).id;
      else if (arg.key === "sessions")
        request.sessionIds = arg.values.map((n) => this.session(n, c).id);
      else request[arg.key] = valueFrom(arg);
    }
    // A numbered write takes its session's next seq; only an answer uses it up (a refused
    // write is sent again with the same seq, as the client library does).
    const numbered = SEQUENCED.has(call)
      ? this.sessionById(request.sessionId as bigint | undefined, c)
      : null;
    if (numbered !== null) {
      request.seq ??= numbered.seq + 1;
      request.ackedUpTo ??= 0;
      request.held ??= [];
    }
    const reply = sim.call(CLIENT, node, call, request as RequestOf<typeof call>, within);
    const settled = await settleWithin(sim, reply, within);
    const value = settled.done ? settled.value : null;
    if (value === null || value === undefined) return ["no answer"];
    if ("failure" in value) return [`failure ${show(value.failure)}`];
    if (numbered !== null) numbered.seq = Math.max(numbered.seq, request.seq as number);
    if (as !== null) {
      const opened = value.answer as { sessionId?: bigint };
      if (opened.sessionId === undefined)
        throw new ScriptError(`line ${c.line}: as= names a session, but ${call} opened none`);
      this.sessions.set(as, { id: opened.sessionId, seq: 0 });
    }
    return [`answer ${show(value.answer)}`];
  }

  private status(c: Command): string[] {
    this.started(c);
    return this.statusLines();
  }

  private async runFor(c: Command): Promise<string[]> {
    const sim = this.started(c);
    const [ms] = positional(c, 1);
    await runFor(sim, Number(ms));
    return this.statusLines();
  }

  /** Holds a node's applying: committed entries wait until release-apply (as while a snapshot is encoded). */
  private holdApply(c: Command): string[] {
    const sim = this.started(c);
    const node = this.nodeOf(positional(c, 1)[0]!, c);
    if (this.held.has(node)) throw new ScriptError(`line ${c.line}: node ${node} is already held`);
    this.held.set(node, sim.hosts.get(node)!.host.driver.holdApply());
    return [`node ${node} holds its applying at ${sim.hosts.get(node)!.host.driver.applied}`];
  }

  private async releaseApply(c: Command): Promise<string[]> {
    const sim = this.started(c);
    const node = this.nodeOf(positional(c, 1)[0]!, c);
    const release = this.held.get(node);
    if (release === undefined) throw new ScriptError(`line ${c.line}: node ${node} is not held`);
    this.held.delete(node);
    release();
    await runFor(sim, 50);
    return this.statusLines();
  }

  /** Moves leadership to a node and runs until it leads (at most 3 s of simulated time). */
  private async transfer(c: Command): Promise<string[]> {
    const sim = this.started(c);
    const to = this.nodeOf(positional(c, 1)[0]!, c);
    const leader = sim.c.leader();
    if (leader === undefined) throw new ScriptError(`line ${c.line}: no leader to transfer from`);
    sim.hosts.get(leader.id)!.host.driver.transferLeadership(to);
    const end = sim.c.sched.now + 3_000;
    while (sim.c.leader()?.id !== to && sim.c.sched.now < end) await runFor(sim, 5);
    return this.statusLines();
  }

  /** One line per node: role, term, the leader it knows, commit and applied index. */
  private statusLines(): string[] {
    const sim = this.sim!;
    return [...sim.hosts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([id, server]) => {
        const s = server.host.raftStatus();
        return `node ${id}: ${s.role} term=${s.term} leader=${s.leader} commit=${s.commit} applied=${server.host.driver.applied}`;
      });
  }

  private started(c: Command): LockSim {
    if (this.sim === null) throw new ScriptError(`line ${c.line}: "start" the cluster first`);
    return this.sim;
  }

  private nodeOf(text: string, c: Command): NodeId {
    const id = Number(text);
    if (!this.sim!.hosts.has(id)) throw new ScriptError(`line ${c.line}: no node ${text}`);
    return id;
  }

  private session(name: string, c: Command): NamedSession {
    const s = this.sessions.get(name);
    if (s === undefined) throw new ScriptError(`line ${c.line}: no session ${name}`);
    return s;
  }

  private sessionById(id: bigint | undefined, c: Command): NamedSession {
    for (const s of this.sessions.values()) if (s.id === id) return s;
    throw new ScriptError(`line ${c.line}: a numbered write needs session=NAME`);
  }
}

function positional(c: Command, count: number): string[] {
  const args = c.args.filter((a) => !a.assigned).map((a) => a.key);
  if (args.length !== count)
    throw new ScriptError(`line ${c.line}: "${c.name}" takes ${count} plain argument(s)`);
  return args;
}

function valueOf(c: Command, key: string): string | undefined {
  return c.args.find((a) => a.assigned && a.key === key)?.values.join(",");
}

/** A field's value: bigint for uint64 fields, a number for digits, a list for a,b, else text. */
function valueFrom(arg: Arg): unknown {
  const one = (v: string): unknown =>
    BIGINT_ARGS.has(arg.key) ? BigInt(v) : /^-?\d+$/.test(v) ? Number(v) : v;
  return arg.values.length > 1 ? arg.values.map(one) : one(arg.values[0] ?? "");
}
