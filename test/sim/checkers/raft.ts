// Raft safety invariants, checked after every simulated step and at every send, persist
// and apply. Violations are recorded, not thrown: the hooks run inside the driver, which
// would treat an exception as a storage failure.
import type { RaftCore } from "../../../node/raft/core.ts";
import type { Entry, Message, NodeId } from "../../../node/raft/types.ts";
import type { Disk } from "../sim-storage.ts";

export interface CheckedNode {
  readonly id: NodeId;
  readonly up: boolean;
  readonly instance: number;
  readonly core: RaftCore | undefined;
  readonly disk: Disk;
}

function entryKey(e: Entry): string {
  let s = `${e.kind}:`;
  for (const b of e.data) s += String.fromCharCode(b);
  return s;
}

export class RaftChecker {
  readonly violations: string[] = [];
  private leaders = new Map<number, NodeId>();
  /** Global truth: index → "term|payload" of every entry any node committed. */
  private committed = new Map<number, string>();
  /**
   * The term of the node that first saw each index committed: at least the term in which
   * it was committed (the committing leader is normally the first to see it).
   */
  private commitTerm = new Map<number, number>();
  private maxCommitted = 0;
  /** Log matching: (index, term) → payload and the term of the entry before it. */
  private entries = new Map<string, { payload: string; prevTerm: number }>();
  private applied = new Map<number, string>();
  /** Per node instance: last seen commit and applied, and the leader's log tip. */
  private seen = new Map<
    NodeId,
    {
      instance: number;
      commit: number;
      applied: number;
      leaderTerm: number;
      tipIndex: number;
      tipEntry: Entry | undefined;
    }
  >();
  checks = 0;

  fail(msg: string): void {
    if (this.violations.length < 20) this.violations.push(msg);
  }

  /** After every step. */
  step(nodes: readonly CheckedNode[], now: number): void {
    this.checks++;
    for (const n of nodes) {
      const core = n.core;
      if (!n.up || !core) continue;
      let s = this.seen.get(n.id);
      if (!s || s.instance !== n.instance) {
        s = {
          instance: n.instance,
          commit: core.log.committed,
          applied: core.log.applied,
          leaderTerm: 0,
          tipIndex: 0,
          tipEntry: undefined,
        };
        this.seen.set(n.id, s);
      }
      const log = core.log;
      // Monotonicity within one instance, and commit within the log.
      if (log.committed < s.commit)
        this.fail(`t=${now} node ${n.id}: commit went back ${s.commit} → ${log.committed}`);
      if (log.applied < s.applied)
        this.fail(`t=${now} node ${n.id}: applied went back ${s.applied} → ${log.applied}`);
      if (log.committed > log.lastIndex())
        this.fail(`t=${now} node ${n.id}: commit ${log.committed} past last ${log.lastIndex()}`);
      // Every committed entry is the same everywhere, forever.
      for (let i = Math.max(s.commit + 1, log.offset + 1); i <= log.committed; i++) {
        const e = log.entry(i)!;
        const key = `${e.term}|${entryKey(e)}`;
        const had = this.committed.get(i);
        if (had === undefined) {
          this.committed.set(i, key);
          this.commitTerm.set(i, core.term);
        } else if (had !== key)
          this.fail(
            `t=${now} node ${n.id}: committed entry ${i} differs (${key.slice(0, 40)} vs ${had.slice(0, 40)})`,
          );
      }
      this.maxCommitted = Math.max(this.maxCommitted, log.committed);
      s.commit = log.committed;
      s.applied = log.applied;

      if (core.role === "leader") {
        // Election safety: one leader per term.
        const prev = this.leaders.get(core.term);
        if (prev === undefined) this.leaders.set(core.term, n.id);
        else if (prev !== n.id)
          this.fail(`t=${now} two leaders in term ${core.term}: ${prev} and ${n.id}`);
        if (s.leaderTerm !== core.term) {
          // Leader completeness: a leader holds every entry committed in an earlier term.
          // (A leader of an old term may win its election late, after later terms committed more.)
          for (let i = log.offset + 1; i <= this.maxCommitted; i++) {
            const want = this.committed.get(i);
            const e = log.entry(i);
            if (
              want !== undefined &&
              this.commitTerm.get(i)! < core.term &&
              (!e || `${e.term}|${entryKey(e)}` !== want)
            ) {
              this.fail(`t=${now} leader ${n.id} of term ${core.term} lacks committed entry ${i}`);
              break;
            }
          }
          s.leaderTerm = core.term;
        } else if (s.tipEntry) {
          // Leader append-only: the entry at the old tip is the very same object.
          if (log.entry(s.tipIndex) !== s.tipEntry && s.tipIndex > log.offset) {
            this.fail(
              `t=${now} leader ${n.id} of term ${core.term} changed its log at ${s.tipIndex}`,
            );
          }
        }
        s.tipIndex = log.lastIndex();
        s.tipEntry = log.entry(s.tipIndex);
      } else {
        s.leaderTerm = 0;
        s.tipEntry = undefined;
      }
    }
  }

  /** Entries a node is about to persist (log matching, checked inductively on (index, term, previous term)). */
  persisted(node: CheckedNode, entries: readonly Entry[]): void {
    const core = node.core;
    if (!core) return;
    for (const e of entries) {
      const prevTerm = core.log.term(e.index - 1);
      const key = `${e.index}:${e.term}`;
      const had = this.entries.get(key);
      const payload = entryKey(e);
      if (!had) {
        this.entries.set(key, { payload, prevTerm: prevTerm ?? -1 });
      } else {
        if (had.payload !== payload)
          this.fail(`log matching: two different entries at index ${e.index} term ${e.term}`);
        if (prevTerm !== undefined && had.prevTerm !== -1 && had.prevTerm !== prevTerm) {
          this.fail(
            `log matching: entry ${e.index}/${e.term} follows term ${prevTerm} on node ${node.id} but ${had.prevTerm} elsewhere`,
          );
        }
      }
    }
  }

  /** State machine safety: no two nodes apply different entries at one index. */
  appliedEntry(node: CheckedNode, e: Entry): void {
    const key = `${e.term}|${entryKey(e)}`;
    const had = this.applied.get(e.index);
    if (had === undefined) this.applied.set(e.index, key);
    else if (had !== key) this.fail(`node ${node.id} applied a different entry at ${e.index}`);
    const want = this.committed.get(e.index);
    if (want !== undefined && want !== key)
      this.fail(`node ${node.id} applied ${e.index} unlike the committed entry`);
  }

  /**
   * The entry an acknowledgement of `index` speaks for is on the node's disk: the one in its
   * log now, or, when the node moved on to a snapshot from the leader (stepped while the
   * acknowledgement's write was in flight), the entry committed there.
   */
  private ackedEntryOnDisk(node: CheckedNode, index: number): boolean {
    const disk = node.disk;
    const core = node.core;
    if (core === undefined || index > core.log.offset)
      return disk.term(index) === core?.log.term(index);
    const snapshotIndex = disk.snapshot?.meta.index ?? 0;
    if (index <= snapshotIndex) return true;
    const stored = disk.entries.find((e) => e.index === index);
    if (stored === undefined) return false;
    const want = this.committed.get(index);
    return want === undefined || want === `${stored.term}|${entryKey(stored)}`;
  }

  /** Durability of acknowledgements, at the moment a message leaves. */
  sending(node: CheckedNode, m: Message): void {
    const disk = node.disk;
    // An acknowledgement of term T is covered once the disk is durably past T: one write
    // batch may both acknowledge in T and move on to T+1, which is the same as two writes
    // with no crash between them and a slow network.
    if (disk.hardState.term > m.term) return;
    if (m.type === "voteResp" && m.granted && !m.pre) {
      if (disk.hardState.term !== m.term || disk.hardState.vote !== m.to) {
        this.fail(
          `node ${node.id} granted its vote in term ${m.term} to ${m.to} before it was durable (disk: term ${disk.hardState.term} vote ${disk.hardState.vote})`,
        );
      }
    } else if (m.type === "appendResp" && m.success) {
      if (disk.lastIndex() < m.index || !this.ackedEntryOnDisk(node, m.index)) {
        this.fail(
          `node ${node.id} acknowledged index ${m.index} (term ${m.term}) before it was durable (disk last ${disk.lastIndex()})`,
        );
      }
      if (disk.hardState.term < m.term)
        this.fail(
          `node ${node.id} acknowledged in term ${m.term} with durable term ${disk.hardState.term}`,
        );
    } else if (m.type === "vote" && !m.pre) {
      if (disk.hardState.term < m.term || disk.hardState.vote !== node.id) {
        this.fail(
          `node ${node.id} asked for votes in term ${m.term} before its own vote was durable`,
        );
      }
    }
  }

  get committedCount(): number {
    return this.maxCommitted;
  }

  get leaderTerms(): number {
    return this.leaders.size;
  }
}
