// A step-by-step environment for the pure Raft core, driven by the commands of a script
// (see datadriven.ts and testdata/*.txt). Each node is a RaftCore with an in-memory store
// and a tiny state machine; the host loop is the driver's (node/server/driver.ts): take a
// Ready, persist it, put its messages on the network, apply its committed entries
// (membership changes through applyConfigEntry), then advance. Nothing moves unless a
// command says so: messages wait on the network until delivered or dropped, and time is
// only the ticks a command gives. Election timeouts are fixed, not random: each node draws
// electionTicks + its jitter (0 unless set), so `tick-election` makes a follower campaign.
// A crash loses the core and whatever it had not persisted (the messages of a Ready not yet
// taken included); messages already on the network stay there. test/raft/README.md lists
// the commands.
import {
  NotLeaderError,
  ProposalDroppedError,
  RaftCore,
  type RaftStatus,
} from "../../node/raft/core.ts";
import { MembershipError, type MembershipChange } from "../../node/raft/membership.ts";
import type {
  Entry,
  HardState,
  Membership,
  Message,
  MessageType,
  NodeId,
  Ready,
  Snapshot,
  SoftState,
} from "../../node/raft/types.ts";
import type { Random } from "../../node/util/rng.ts";
import { type Arg, type Command, ScriptError } from "./datadriven.ts";
import {
  describeEntry,
  describeMembership,
  describeMessage,
  describeReady,
  describeSnapshot,
  describeStatus,
} from "./describe.ts";

interface NodeOptions {
  readonly electionTicks: number;
  readonly heartbeatTicks: number;
  readonly maxInflightMsgs: number;
  readonly maxBytesPerAppend: number;
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
}

/** What the node has made durable: all a restart gets back. */
interface Store {
  hardState: HardState;
  snapshot: Snapshot | null;
  entries: Entry[];
}

/** The state machine: the commands applied so far, by index, and the membership after each config entry. */
interface AppState {
  applied: number;
  commands: Array<{ index: number; data: string }>;
  memberships: Array<{ index: number; membership: Membership }>;
}

interface EnvNode {
  readonly id: NodeId;
  readonly options: NodeOptions;
  readonly initialMembership: Membership;
  core: RaftCore | null;
  store: Store;
  app: AppState;
  lastSoft: SoftState;
  jitter: number;
  nextRequestId: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A Random whose every draw gives this node an election timeout of electionTicks + jitter. */
class FixedTimeout implements Random {
  constructor(private readonly node: EnvNode) {}

  next(): number {
    // The core draws floor(next() × electionTicks); the half keeps it off a rounding edge.
    return (this.node.jitter + 0.5) / this.node.options.electionTicks;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
}

/** The state-machine snapshot body: `index=command` pairs separated by spaces. */
function encodeApp(commands: readonly { index: number; data: string }[]): Uint8Array {
  return encoder.encode(commands.map((c) => `${c.index}=${c.data}`).join(" "));
}

function decodeApp(data: Uint8Array): Array<{ index: number; data: string }> {
  const s = decoder.decode(data);
  if (s === "") return [];
  return s.split(" ").map((pair) => {
    const eq = pair.indexOf("=");
    return { index: Number(pair.slice(0, eq)), data: pair.slice(eq + 1) };
  });
}

/** Which messages on the network a deliver-msgs or drop command takes: to these nodes, on these links, of this type. */
interface Selector {
  readonly to: ReadonlySet<NodeId>;
  readonly pairs: ReadonlyArray<readonly [NodeId, NodeId]>;
  readonly type: MessageType | null;
}

const MESSAGE_TYPES: readonly MessageType[] = [
  "vote",
  "voteResp",
  "append",
  "appendResp",
  "heartbeat",
  "heartbeatResp",
  "timeoutNow",
  "readIndex",
  "readIndexResp",
  "snapshot",
];

export class InteractionEnv {
  private readonly nodes = new Map<NodeId, EnvNode>();
  /** Messages sent and not yet delivered or dropped, in the order they were sent. */
  private network: Message[] = [];
  /** Nodes cut off from every other node: messages from or to them are dropped when delivered. */
  private readonly isolated = new Set<NodeId>();
  private out: string[] = [];
  private indent = "";
  /** Set by `log-level none`: commands run without printing (for a scenario's set-up). */
  private quiet = false;

  /** Run one command and return what it printed ("ok" if nothing). */
  run(c: Command): string[] {
    this.out = [];
    this.indent = "";
    try {
      this.dispatch(c);
    } catch (e) {
      if (e instanceof ScriptError)
        throw new ScriptError(`line ${c.line}: ${c.text}: ${e.message}`);
      throw e;
    }
    return this.out.length > 0 ? this.out : ["ok"];
  }

  private print(...lines: string[]): void {
    if (this.quiet) return;
    for (const l of lines) this.out.push(this.indent + l);
  }

  private withIndent(f: () => void): void {
    const saved = this.indent;
    this.indent += "  ";
    try {
      f();
    } finally {
      this.indent = saved;
    }
  }

  private dispatch(c: Command): void {
    const a = new Args(c.args);
    this.dispatchWith(c, a);
    a.checkAllUsed();
  }

  private dispatchWith(c: Command, a: Args): void {
    switch (c.name) {
      case "log-level": {
        const level = a.positional()[0];
        if (level !== "none" && level !== "all") throw new ScriptError("log-level is none or all");
        this.quiet = level === "none";
        return;
      }
      case "add-nodes":
        return this.addNodes(a);
      case "campaign":
        return this.campaign(a.id(0));
      case "tick":
        return this.tick(a.id(0), a.int(1));
      case "tick-election": {
        const n = this.node(a.id(0));
        return this.tick(n.id, n.options.electionTicks);
      }
      case "tick-heartbeat": {
        const n = this.node(a.id(0));
        return this.tick(n.id, n.options.heartbeatTicks);
      }
      case "set-jitter":
        // From the next timer reset on, this node's election timeout is electionTicks + jitter.
        this.node(a.id(0)).jitter = a.int(1);
        return;
      case "propose":
        return this.propose(a.id(0), a.words(1));
      case "propose-conf-change":
        return this.proposeConfChange(a.id(0), a);
      case "transfer-leadership":
        return this.transferLeadership(a.intOf("from"), a.intOf("to"));
      case "read-index":
        return this.readIndex(a.id(0));
      case "process-ready":
        return this.processReadyCommand(a.ids());
      case "deliver-msgs":
        return this.deliverCommand(a, a.bool("drop", false));
      case "drop":
        return this.deliverCommand(a, true);
      case "stabilize":
        return this.stabilize(a.ids());
      case "status":
        return this.print(...describeStatus(this.live(a.id(0)).status()));
      case "raft-log":
        return this.raftLog(a.id(0));
      case "app-state":
        return this.appState(a.id(0));
      case "compact":
        return this.compact(a.id(0), a.int(1));
      case "snapshot":
        return this.compact(a.id(0), this.node(a.id(0)).app.applied);
      case "report-peer-down":
        return this.observe(a.id(0), (core) => core.reportPeerDown(a.intOf("peer")));
      case "report-snapshot-failure":
        return this.observe(a.id(0), (core) => core.reportSnapshotFailure(a.intOf("peer")));
      case "report-snapshot-progress":
        return this.observe(a.id(0), (core) => core.reportSnapshotProgress(a.intOf("peer")));
      case "isolate":
        for (const id of a.ids()) this.isolated.add(this.node(id).id);
        return;
      case "heal": {
        const ids = a.ids();
        if (ids.length === 0) this.isolated.clear();
        for (const id of ids) this.isolated.delete(id);
        return;
      }
      case "crash":
        return this.crash(a.id(0));
      case "restart":
        return this.restart(a.id(0));
      default:
        throw new ScriptError(`unknown command ${c.name}`);
    }
  }

  // ------------------------------------------------------------------ nodes

  private node(id: NodeId): EnvNode {
    const n = this.nodes.get(id);
    if (!n) throw new ScriptError(`no node ${id}`);
    return n;
  }

  private live(id: NodeId): RaftCore {
    const core = this.node(id).core;
    if (!core) throw new ScriptError(`node ${id} is crashed`);
    return core;
  }

  private addNodes(a: Args): void {
    const count = a.int(0);
    const first = this.nodes.size + 1;
    const ids = Array.from({ length: count }, (_, i) => first + i);
    const voters = a.has("voters") ? a.intList("voters") : a.has("learners") ? [] : ids;
    const membership: Membership = {
      voters,
      learners: a.has("learners") ? a.intList("learners") : [],
    };
    const index = a.has("index") ? a.intOf("index") : 0;
    const options: NodeOptions = {
      electionTicks: a.has("election") ? a.intOf("election") : 10,
      heartbeatTicks: a.has("heartbeat") ? a.intOf("heartbeat") : 1,
      maxInflightMsgs: a.has("max-inflight") ? a.intOf("max-inflight") : 256,
      maxBytesPerAppend: a.has("max-append-bytes") ? a.intOf("max-append-bytes") : 1 << 20,
      preVote: a.bool("prevote", false),
      checkQuorum: a.bool("checkquorum", false),
    };
    for (const id of ids) {
      // index=K: every node starts from the same snapshot at K (term 1), as if the log up to K was compacted.
      const snapshot: Snapshot | null =
        index > 0 ? { meta: { index, term: 1, membership }, data: new Uint8Array(0) } : null;
      const n: EnvNode = {
        id,
        options,
        initialMembership: membership,
        core: null,
        store: {
          hardState: { term: snapshot ? 1 : 0, vote: 0, commit: index },
          snapshot,
          entries: [],
        },
        app: { applied: 0, commands: [], memberships: [] },
        lastSoft: { role: "follower", leader: 0, term: 0 },
        jitter: 0,
        nextRequestId: 1,
      };
      this.nodes.set(id, n);
      this.boot(n);
    }
  }

  /** A new core from what the node has made durable, as the server does at start-up. */
  private boot(n: EnvNode): void {
    const { hardState, snapshot, entries } = n.store;
    const membership = snapshot?.meta.membership ?? n.initialMembership;
    const core = new RaftCore(
      { id: n.id, ...n.options, random: new FixedTimeout(n) },
      {
        hardState,
        membership,
        snapshotIndex: snapshot?.meta.index ?? 0,
        snapshotTerm: snapshot?.meta.term ?? 0,
        entries,
      },
    );
    if (snapshot) core.compact(snapshot);
    n.core = core;
    n.app = {
      applied: snapshot?.meta.index ?? 0,
      commands: snapshot ? decodeApp(snapshot.data) : [],
      memberships: [{ index: snapshot?.meta.index ?? 0, membership }],
    };
    n.lastSoft = core.softState();
    this.print(...describeStatus(core.status()));
  }

  private crash(id: NodeId): void {
    const n = this.node(id);
    this.live(id);
    n.core = null;
    this.print(`${id} crashed: what it had not persisted is lost`);
  }

  private restart(id: NodeId): void {
    const n = this.node(id);
    if (n.core) throw new ScriptError(`node ${id} is running`);
    this.boot(n);
  }

  // ------------------------------------------------------------------ inputs

  /** Run `f` on the node's core and print what changed in its role, term, vote, leader, transfer or membership. */
  private observe(id: NodeId, f: (core: RaftCore) => void): void {
    const core = this.live(id);
    const before = core.status();
    try {
      f(core);
    } finally {
      this.printChanges(id, before);
    }
  }

  /** One line per change in the node's role and term, leader, vote, transfer and membership since `b`. */
  private printChanges(id: NodeId, b: RaftStatus): void {
    const a = this.nodes.get(id)?.core?.status();
    if (!a) return;
    if (a.role !== b.role || a.term !== b.term) {
      const lead = a.role !== "leader" && a.leader !== 0 ? `, leader ${a.leader}` : "";
      this.print(`${id} became ${a.role} at term ${a.term}${lead}`);
    } else if (a.leader !== b.leader) {
      this.print(a.leader === 0 ? `${id} has no leader` : `${id} follows leader ${a.leader}`);
    }
    if (a.vote !== b.vote && a.vote !== 0 && !(a.role === "candidate" && a.vote === id))
      this.print(`${id} voted for ${a.vote} at term ${a.term}`);
    if (a.transferee !== b.transferee) {
      this.print(
        a.transferee !== 0
          ? `${id} is transferring leadership to ${a.transferee}`
          : `${id} stopped transferring leadership to ${b.transferee}`,
      );
    }
    if (describeMembership(a.membership) !== describeMembership(b.membership))
      this.print(`${id} membership is now ${describeMembership(a.membership)}`);
  }

  /**
   * Tick until the election timer fires (the core has no other way to start a campaign):
   * at most electionTicks + jitter ticks, fewer if the role or term changes first. A node
   * already campaigning, whose role and term stay, gets the full count.
   */
  private campaign(id: NodeId): void {
    const n = this.node(id);
    const core = this.live(id);
    const start = core.status();
    if (start.role === "leader") throw new ScriptError(`node ${id} is the leader`);
    for (let i = 0; i < n.options.electionTicks + n.jitter; i++) {
      this.observe(id, (c) => c.tick());
      const s = core.status();
      if (s.role !== start.role || s.term !== start.term) return;
    }
  }

  private tick(id: NodeId, count: number): void {
    this.observe(id, (core) => {
      for (let i = 0; i < count; i++) core.tick();
    });
  }

  private propose(id: NodeId, data: readonly string[]): void {
    if (data.length === 0) throw new ScriptError("propose needs data");
    this.observe(id, (core) => {
      try {
        const at = core.propose(data.map((d) => encoder.encode(d)));
        for (let i = 0; i < data.length; i++)
          this.print(`proposed ${at.term}/${at.index + i} ${JSON.stringify(data[i])}`);
      } catch (e) {
        this.printRefusal(e);
      }
    });
  }

  private proposeConfChange(id: NodeId, a: Args): void {
    const change: MembershipChange = a.has("add-learner")
      ? { type: "addLearner", node: a.intOf("add-learner") }
      : a.has("promote")
        ? { type: "promote", node: a.intOf("promote") }
        : a.has("remove")
          ? { type: "remove", node: a.intOf("remove") }
          : (() => {
              throw new ScriptError("propose-conf-change needs add-learner=, promote= or remove=");
            })();
    this.observe(id, (core) => {
      try {
        const at = core.proposeMembershipChange(change);
        this.print(`proposed ${at.term}/${at.index} config`);
      } catch (e) {
        this.printRefusal(e);
      }
    });
  }

  private transferLeadership(from: NodeId, to: NodeId): void {
    this.observe(from, (core) => {
      try {
        core.transferLeadership(to);
      } catch (e) {
        this.printRefusal(e);
      }
    });
  }

  /** What the core refused, as the host would see it; anything else is a bug and fails the test. */
  private printRefusal(e: unknown): void {
    if (
      e instanceof NotLeaderError ||
      e instanceof ProposalDroppedError ||
      e instanceof MembershipError
    ) {
      this.print(`refused: ${e.message}`);
      return;
    }
    if (e instanceof Error && e.message.startsWith("cannot transfer leadership")) {
      this.print(`refused: ${e.message}`);
      return;
    }
    throw e;
  }

  private readIndex(id: NodeId): void {
    const n = this.node(id);
    const requestId = n.nextRequestId++;
    this.observe(id, (core) => core.readIndex(requestId));
    this.print(`read request ${requestId}`);
  }

  // ------------------------------------------------------------------ the host loop

  private processReadyCommand(ids: readonly NodeId[]): void {
    if (ids.length === 0) throw new ScriptError("process-ready needs node ids");
    for (const id of ids) {
      if (ids.length === 1) {
        this.processReady(id);
        continue;
      }
      this.print(`> ${id} handling Ready`);
      this.withIndent(() => this.processReady(id));
    }
  }

  /** One turn of the driver's loop: persist, send, apply, advance. */
  private processReady(id: NodeId): void {
    const n = this.node(id);
    this.observe(id, (core) => {
      const rd = core.ready();
      this.print(...describeReady(rd, n.lastSoft));
      n.lastSoft = rd.soft;
      this.network.push(...rd.earlyMessages);
      this.persist(n, rd);
      if (rd.snapshot) this.restoreApp(n, rd.snapshot);
      this.network.push(...rd.messages);
      for (const e of rd.committed) this.apply(n, core, e);
      core.advance(rd);
    });
  }

  private persist(n: EnvNode, rd: Ready): void {
    const s = n.store;
    if (rd.snapshot) {
      s.snapshot = rd.snapshot;
      s.entries = [];
    }
    if (rd.entries.length > 0) {
      const first = rd.entries[0]!.index;
      s.entries = s.entries.filter((e) => e.index < first).concat(rd.entries);
    }
    if (rd.hardState) s.hardState = rd.hardState;
    const offset = s.snapshot?.meta.index ?? 0;
    s.entries.forEach((e, i) => {
      if (e.index !== offset + 1 + i)
        throw new Error(`node ${n.id}: stored log not contiguous at ${offset + 1 + i}`);
    });
  }

  private restoreApp(n: EnvNode, snapshot: Snapshot): void {
    n.app = {
      applied: snapshot.meta.index,
      commands: decodeApp(snapshot.data),
      memberships: [{ index: snapshot.meta.index, membership: snapshot.meta.membership }],
    };
  }

  private apply(n: EnvNode, core: RaftCore, e: Entry): void {
    if (e.index !== n.app.applied + 1)
      throw new Error(`node ${n.id}: applies ${e.index} after ${n.app.applied}`);
    if (e.kind === "config") {
      core.applyConfigEntry(e);
      n.app.memberships.push({ index: e.index, membership: core.status().membership });
    } else if (e.kind === "normal") {
      n.app.commands.push({ index: e.index, data: decoder.decode(e.data) });
    }
    n.app.applied = e.index;
  }

  // ------------------------------------------------------------------ the network

  private selector(a: Args): Selector {
    const to = new Set<NodeId>();
    const pairs: Array<[NodeId, NodeId]> = [];
    for (const w of a.positional()) {
      const m = /^(\d+)->(\d+)$/.exec(w);
      if (m) pairs.push([Number(m[1]), Number(m[2])]);
      else to.add(parseId(w));
    }
    let type: MessageType | null = null;
    if (a.has("type")) {
      const t = a.stringOf("type");
      if (!MESSAGE_TYPES.includes(t as MessageType))
        throw new ScriptError(`unknown message type ${t}`);
      type = t as MessageType;
    }
    return { to, pairs, type };
  }

  private matches(m: Message, s: Selector): boolean {
    if (s.type !== null && m.type !== s.type) return false;
    if (s.to.size === 0 && s.pairs.length === 0) return true;
    return s.to.has(m.to) || s.pairs.some(([f, t]) => m.from === f && m.to === t);
  }

  private deliverCommand(a: Args, drop: boolean): void {
    const s = this.selector(a);
    const chosen = this.network.filter((m) => this.matches(m, s));
    this.network = this.network.filter((m) => !this.matches(m, s));
    if (chosen.length === 0) {
      this.print("no messages");
      return;
    }
    for (const m of chosen) this.deliver(m, drop);
  }

  /** Step one message into its recipient, or drop it (asked to, recipient crashed, or either end isolated). */
  private deliver(m: Message, drop: boolean): void {
    const n = this.nodes.get(m.to);
    const cut = this.isolated.has(m.from) || this.isolated.has(m.to);
    if (drop || cut || !n?.core) {
      const why = drop ? "" : cut ? " (isolated)" : !n ? " (no such node)" : " (crashed)";
      this.print(`dropped${why}: ${describeMessage(m)}`);
      return;
    }
    this.print(describeMessage(m));
    this.observe(m.to, (core) => {
      try {
        core.step(m);
      } catch (e) {
        this.print(`step failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  }

  /** Handle Readys and deliver messages among `ids` (all nodes if none) until nothing is left to do. */
  private stabilize(ids: readonly NodeId[]): void {
    const set = ids.length > 0 ? ids.map((id) => this.node(id).id) : [...this.nodes.keys()];
    for (let round = 0; ; round++) {
      if (round > 1000) throw new ScriptError("stabilize did not settle after 1000 rounds");
      let done = true;
      for (const id of set) {
        if (!this.nodes.get(id)!.core?.hasReady()) continue;
        done = false;
        this.print(`> ${id} handling Ready`);
        this.withIndent(() => this.processReady(id));
      }
      for (const id of set) {
        const inbox = this.network.filter((m) => m.to === id);
        if (inbox.length === 0) continue;
        done = false;
        this.network = this.network.filter((m) => m.to !== id);
        this.print(`> ${id} receiving messages`);
        this.withIndent(() => {
          for (const m of inbox) this.deliver(m, false);
        });
      }
      if (done) return;
    }
  }

  // ------------------------------------------------------------------ inspection and compaction

  private raftLog(id: NodeId): void {
    const s = this.node(id).store;
    if (s.snapshot) this.print(`snapshot ${s.snapshot.meta.term}/${s.snapshot.meta.index}`);
    if (s.entries.length === 0) this.print("no entries");
    this.print(...s.entries.map(describeEntry));
  }

  private appState(id: NodeId): void {
    const app = this.node(id).app;
    const cmds = app.commands.map((c) => `${c.index}=${c.data}`).join(" ");
    this.print(`applied=${app.applied} commands:[${cmds}]`);
  }

  /** The host took a snapshot of its state machine at `index` (≤ applied): store it and compact the log. */
  private compact(id: NodeId, index: number): void {
    const n = this.node(id);
    const core = this.live(id);
    if (index > n.app.applied)
      throw new ScriptError(`node ${id} has applied only up to ${n.app.applied}`);
    const entry = n.store.entries.find((e) => e.index === index);
    if (!entry) throw new ScriptError(`node ${id} has no stored entry ${index}`);
    const membership = [...n.app.memberships].reverse().find((m) => m.index <= index)!.membership;
    const snapshot: Snapshot = {
      meta: { index, term: entry.term, membership },
      data: encodeApp(n.app.commands.filter((c) => c.index <= index)),
    };
    n.store.snapshot = snapshot;
    n.store.entries = n.store.entries.filter((e) => e.index > index);
    this.observe(id, () => core.compact(snapshot));
    this.print(`snapshot ${describeSnapshot(snapshot)}`);
  }
}

function parseId(w: string): NodeId {
  const id = Number(w);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ScriptError(`not a node id: ${w}`);
  return id;
}

/** A command's arguments, with errors that name the missing or malformed one. */
class Args {
  private readonly used = new Set<string>();

  constructor(private readonly args: readonly Arg[]) {}

  /** Throw on a key=value the command never looked at (a typo would otherwise be ignored). */
  checkAllUsed(): void {
    const unused = this.args.filter((x) => x.assigned && !this.used.has(x.key));
    if (unused.length > 0)
      throw new ScriptError(`unknown argument ${unused.map((x) => x.key).join(", ")}`);
  }

  positional(): string[] {
    return this.args.filter((x) => !x.assigned).map((x) => x.key);
  }

  /** The positional node ids. */
  ids(): NodeId[] {
    return this.positional().map(parseId);
  }

  id(i: number): NodeId {
    const w = this.positional()[i];
    if (w === undefined) throw new ScriptError(`missing argument ${i + 1}`);
    return parseId(w);
  }

  int(i: number): number {
    const w = this.positional()[i];
    const v = Number(w);
    if (w === undefined || !Number.isSafeInteger(v))
      throw new ScriptError(`argument ${i + 1} must be an integer`);
    return v;
  }

  words(from: number): string[] {
    return this.positional().slice(from);
  }

  has(key: string): boolean {
    const found = this.args.some((x) => x.assigned && x.key === key);
    if (found) this.used.add(key);
    return found;
  }

  private values(key: string): readonly string[] {
    const x = this.args.find((y) => y.assigned && y.key === key);
    if (!x) throw new ScriptError(`missing ${key}=`);
    this.used.add(key);
    return x.values;
  }

  stringOf(key: string): string {
    const v = this.values(key);
    if (v.length !== 1) throw new ScriptError(`${key}= needs one value`);
    return v[0]!;
  }

  intOf(key: string): number {
    const v = Number(this.stringOf(key));
    if (!Number.isSafeInteger(v)) throw new ScriptError(`${key}= must be an integer`);
    return v;
  }

  intList(key: string): NodeId[] {
    return this.values(key).map(parseId);
  }

  bool(key: string, dflt: boolean): boolean {
    if (!this.has(key)) return dflt;
    const v = this.stringOf(key);
    if (v !== "true" && v !== "false") throw new ScriptError(`${key}= must be true or false`);
    return v === "true";
  }
}
