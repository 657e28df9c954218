// The Raft consensus core: pure and deterministic. It does no I/O and keeps no timers;
// it takes ticks, messages, proposals and read requests, and hands out a Ready batch
// (state to persist, messages to send, entries to apply). Its only randomness (the
// election timeout) comes from an injected source.
//
// Rules kept here (Raft paper §5, dissertation §3.10, §6.4, §9.6):
// - an entry is committed by counting replicas only if it is of the current term (§5.4.2);
// - a new leader appends a no-op, and serves reads only once an entry of its term is committed;
// - the leader counts its own log toward commit only once it is durable (advance());
// - PreVote and CheckQuorum keep partitioned nodes from disrupting a healthy leader.
import { RaftLog } from "./log.ts";
import {
  changeMembership,
  MembershipError,
  type MemberAddress,
  type MembershipChange,
} from "./membership.ts";
import { decodeMembership, encodeMembership } from "./membership-codec.ts";
import { Progress, type ProgressState } from "./progress.ts";
import { hasQuorum, quorumValue, voteResult, type VoteResult } from "./quorum.ts";
import { ReadOnly } from "./read-only.ts";
import type {
  AppendRequest,
  AppendResponse,
  Entry,
  EntryKind,
  HardState,
  Heartbeat,
  HeartbeatResponse,
  InstallSnapshot,
  Membership,
  Message,
  NodeId,
  ReadIndexRequest,
  ReadIndexResponse,
  ReadState,
  Ready,
  Role,
  Snapshot,
  SoftState,
  TimeoutNow,
  VoteRequest,
  VoteResponse,
} from "./types.ts";
import { NONE } from "./types.ts";
import type { Random } from "../util/rng.ts";

export interface RaftConfig {
  readonly id: NodeId;
  /** Election timeout in ticks; each node draws its timeout from [electionTicks, 2 × electionTicks). */
  readonly electionTicks: number;
  readonly heartbeatTicks: number;
  /** Appends in flight per follower in replicate state. */
  readonly maxInflightMsgs: number;
  /** Bytes of entry data per append message (at least one entry is always sent). */
  readonly maxBytesPerAppend: number;
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
  readonly random: Random;
}

export interface RaftInitialState {
  readonly hardState: HardState;
  readonly membership: Membership;
  /** Snapshot position (index and term), 0/0 for none. */
  readonly snapshotIndex: number;
  readonly snapshotTerm: number;
  readonly entries: readonly Entry[];
}

export class NotLeaderError extends Error {
  constructor(readonly leader: NodeId) {
    super(leader === NONE ? "no leader" : `not the leader; leader is ${leader}`);
  }
}

export class ProposalDroppedError extends Error {}

export class RaftCore {
  readonly id: NodeId;
  private readonly cfg: RaftConfig;
  readonly log: RaftLog;

  // Soft and hard state change only inside the core; outsiders read them (or status()).
  #term: number;
  #vote: NodeId;
  #role: Role = "follower";
  #leader: NodeId = NONE;
  #membership: Membership;

  get term(): number {
    return this.#term;
  }

  get vote(): NodeId {
    return this.#vote;
  }

  get role(): Role {
    return this.#role;
  }

  get leader(): NodeId {
    return this.#leader;
  }

  get membership(): Membership {
    return this.#membership;
  }

  /** Ticks since start: a local count, only compared with itself. */
  private ticks = 0;
  private electionElapsed = 0;
  private heartbeatElapsed = 0;
  private randomizedElectionTicks = 0;
  private votes = new Map<NodeId, boolean>();
  private progress = new Map<NodeId, Progress>();
  private transferee: NodeId = NONE;
  /** Index of the last config entry proposed (or of the no-op, right after an election); no new change until it is applied. */
  private pendingConfIndex = 0;
  /** Index of this leadership's no-op (0 while not leader): entries up to it hold every earlier term's commits. */
  private leadIndex = 0;
  private transferElapsed = 0;

  /** ReadIndex state (leader): reads waiting for a commit of this term or for their quorum round. */
  private readonly readOnly = new ReadOnly();
  // Follower: reads forwarded to the leader, with the ticks each has waited. A request or
  // its answer may be lost, so one unanswered for an election timeout fails (the client
  // retries), as does every one when the leader or the term changes.
  private forwardedReads = new Map<number, number>();

  private latestSnapshot: Snapshot | null = null;
  private pendingSnapshot: Snapshot | null = null;

  private msgs: Message[] = [];
  private readStates: ReadState[] = [];
  /** The hard state last made durable (see persisted()). */
  private durableHardState: HardState;
  /** The hard state last handed out in a batch: durable, or being written. */
  private handedHardState: HardState;
  /** Batches handed out and not yet persisted, oldest first. */
  private outstanding: Ready[] = [];

  constructor(cfg: RaftConfig, init: RaftInitialState) {
    if (cfg.id === NONE) throw new Error("node id must be non-zero");
    if (cfg.heartbeatTicks < 1 || cfg.electionTicks <= cfg.heartbeatTicks) {
      throw new Error("electionTicks must exceed heartbeatTicks ≥ 1");
    }
    this.id = cfg.id;
    this.cfg = cfg;
    this.log = new RaftLog(
      init.snapshotIndex,
      init.snapshotTerm,
      init.entries,
      init.hardState.commit,
    );
    this.#term = init.hardState.term;
    this.#vote = init.hardState.vote;
    this.#membership = init.membership;
    // Committed config entries take effect now: they are re-applied in the first batch
    // anyway, and the node must not campaign or count votes with an older membership.
    for (let i = this.log.firstIndex(); i <= this.log.committed; i++) {
      const e = this.log.entry(i)!;
      if (e.kind === "config") {
        try {
          this.#membership = decodeMembership(e.data);
        } catch {
          // a malformed config entry changes nothing
        }
      }
    }
    this.durableHardState = init.hardState;
    this.handedHardState = init.hardState;
    this.resetElectionTimer();
  }

  // ---------------------------------------------------------------- inputs

  tick(): void {
    this.ticks++;
    if (this.#role === "leader") {
      this.tickLeader();
    } else {
      this.ageForwardedReads();
      this.electionElapsed++;
      if (this.isVoter(this.id) && this.electionElapsed >= this.randomizedElectionTicks) {
        this.electionElapsed = 0;
        this.campaign(this.cfg.preVote ? "pre" : "real");
      }
    }
  }

  private tickLeader(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    for (const pr of this.progress.values()) {
      if (pr.state === "snapshot" && ++pr.snapshotTicks >= this.cfg.electionTicks) pr.becomeProbe();
    }
    if (this.electionElapsed >= this.cfg.electionTicks) {
      this.electionElapsed = 0;
      if (this.cfg.checkQuorum) {
        const active = hasQuorum(
          this.voters(),
          (v) => v === this.id || this.progress.get(v)?.recentActive === true,
        );
        for (const pr of this.progress.values()) pr.recentActive = false;
        if (!active) {
          this.becomeFollower(this.#term, NONE);
          return;
        }
      }
      if (this.transferee !== NONE) this.transferee = NONE; // transfer timed out
    }
    if (this.heartbeatElapsed >= this.cfg.heartbeatTicks) {
      this.heartbeatElapsed = 0;
      // Reads still waiting ride on every heartbeat, so a lost round is retried.
      this.broadcastHeartbeat(this.readOnly.heartbeatRound());
    }
  }

  /** Propose commands. Returns the index of the first; they occupy consecutive indexes in the current term. */
  propose(
    data: readonly Uint8Array[],
    kind: EntryKind = "normal",
  ): { index: number; term: number } {
    if (this.#role !== "leader") throw new NotLeaderError(this.#leader);
    if (this.transferee !== NONE) throw new ProposalDroppedError("leadership transfer in progress");
    const first = this.log.lastIndex() + 1;
    this.log.append(data.map((d, i) => ({ term: this.#term, index: first + i, kind, data: d })));
    this.broadcastAppend();
    this.maybeCommitSingle();
    return { index: first, term: this.#term };
  }

  /**
   * Propose one membership change. Refused while the previous change (or, on a new leader,
   * its own no-op) is not yet applied here, so changes never overlap.
   */
  proposeMembershipChange(
    change: MembershipChange,
    address?: MemberAddress,
  ): { index: number; term: number } {
    if (this.#role !== "leader") throw new NotLeaderError(this.#leader);
    if (this.transferee !== NONE) throw new ProposalDroppedError("leadership transfer in progress");
    if (this.pendingConfIndex > this.log.applied) {
      throw new MembershipError(
        "the previous membership change (or this leader's first entry) is not applied yet; retry shortly",
      );
    }
    let next = changeMembership(this.#membership, change);
    const addresses = { ...(this.#membership.addresses ?? {}) };
    if (change.type === "addLearner" && address) addresses[String(change.node)] = address;
    if (change.type === "remove") delete addresses[String(change.node)];
    next = {
      voters: next.voters,
      learners: next.learners,
      ...(next.retired?.length ? { retired: next.retired } : {}),
    };
    if (Object.keys(addresses).length > 0) next = { ...next, addresses };
    const index = this.log.lastIndex() + 1;
    this.log.append([{ term: this.#term, index, kind: "config", data: encodeMembership(next) }]);
    this.pendingConfIndex = index;
    this.broadcastAppend();
    this.maybeCommitSingle();
    return { index, term: this.#term };
  }

  /** A config entry is being applied: from now on this node uses the membership it carries. */
  applyConfigEntry(entry: Entry): void {
    let next: Membership;
    try {
      next = decodeMembership(entry.data);
    } catch {
      return; // a malformed config entry changes nothing (the leader never proposes one)
    }
    this.#membership = next;
    if (this.#role !== "leader") return;
    for (const p of this.peers()) {
      if (!this.progress.has(p)) {
        const pr = new Progress(this.log.lastIndex() + 1);
        pr.recentActive = true;
        pr.lastAckTick = this.ticks;
        this.progress.set(p, pr);
      }
    }
    for (const p of [...this.progress.keys()])
      if (!this.peers().includes(p)) this.progress.delete(p);
    if (this.transferee !== NONE && !this.isVoter(this.transferee)) this.transferee = NONE;
    if (!this.isVoter(this.id)) {
      // A leader removed from the voters steps down; the others elect a new one.
      this.handOverOnRemoval();
      this.becomeFollower(this.#term, NONE);
      return;
    }
    if (this.maybeCommit()) this.broadcastAppend(true);
    this.releaseConfirmedReads();
    for (const p of this.progress.keys()) this.sendAppend(p);
  }

  /**
   * This leader's own removal is committed and applied. Before it steps down it tells the
   * remaining members (a heartbeat carries the commit, which they would otherwise learn only
   * from the next leader), and asks the remaining voter with the most of the log to campaign
   * at once (TimeoutNow), so no one waits out this leader's lease first.
   */
  private handOverOnRemoval(): void {
    this.broadcastHeartbeat(0);
    let to = NONE;
    let best = -1;
    for (const v of this.voters()) {
      const match = this.progress.get(v)?.match ?? 0;
      if (match > best) {
        to = v;
        best = match;
      }
    }
    // It must hold every committed entry (the removal included) to be able to win.
    if (to !== NONE && best >= this.log.committed)
      this.send<TimeoutNow>({ type: "timeoutNow", to, term: this.#term });
  }

  /**
   * Ask for a linearizable read point. The answer arrives as a ReadState with this
   * requestId (index 0 means it failed: leadership lost or unknown).
   */
  readIndex(requestId: number): void {
    if (this.#role === "leader") {
      this.leaderReadIndex(requestId, NONE);
    } else if (this.#leader !== NONE) {
      this.forwardedReads.set(requestId, 0);
      this.send<ReadIndexRequest>({
        type: "readIndex",
        to: this.#leader,
        term: this.#term,
        requestId,
      });
    } else {
      this.readStates.push({ requestId, index: 0 });
    }
  }

  /** Start moving leadership to `to` (TimeoutNow once it has caught up). */
  transferLeadership(to: NodeId): void {
    if (this.#role !== "leader") throw new NotLeaderError(this.#leader);
    if (to === this.id || !this.isVoter(to)) throw new Error(`cannot transfer leadership to ${to}`);
    this.transferee = to;
    this.electionElapsed = 0;
    const pr = this.progress.get(to)!;
    if (pr.match === this.log.lastIndex())
      this.send<TimeoutNow>({ type: "timeoutNow", to, term: this.#term });
    else this.sendAppend(to);
  }

  /** The host took a snapshot at `snapshot.meta.index` (≤ applied): compact the log and keep it for slow followers. */
  compact(snapshot: Snapshot): void {
    this.latestSnapshot = snapshot;
    this.log.compact(snapshot.meta.index, snapshot.meta.term);
  }

  /**
   * The host saw its connection to `peer` closed or refused, so that peer's process is
   * probably gone. If it is this follower's leader, stop counting on it: the node no longer
   * refuses other candidates on the leader's behalf, and it campaigns after the random part
   * of its election timeout instead of the whole of it, so a crashed leader is replaced in
   * a fraction of an election timeout. Only timing changes: a false report (a leader that is
   * alive but unreachable for a moment) costs at most a PreVote round, which the other
   * followers refuse while they still hear from the leader; a heartbeat restores the leader.
   */
  reportPeerDown(peer: NodeId): void {
    if (this.#role === "leader" || peer === this.id || peer !== this.#leader) return;
    this.#leader = NONE;
    this.electionElapsed = Math.max(this.electionElapsed, this.cfg.electionTicks);
  }

  /**
   * The transport could not deliver a snapshot: probe again now. If the follower still
   * needs it, its refusal brings the snapshot back here, and the transport resumes it.
   */
  reportSnapshotFailure(to: NodeId): void {
    const pr = this.progress.get(to);
    if (this.#role !== "leader" || pr?.state !== "snapshot") return;
    pr.becomeProbe();
    this.sendAppend(to);
  }

  /**
   * The peer acknowledged more of the snapshot being sent to it: the snapshot state times
   * out an election timeout after the last progress, not after the start, so a large
   * snapshot on a slow link is not sent again while it is still arriving.
   */
  reportSnapshotProgress(to: NodeId): void {
    const pr = this.progress.get(to);
    if (this.#role === "leader" && pr?.state === "snapshot") pr.snapshotTicks = 0;
  }

  /**
   * Whether stepping this InstallSnapshot now would replace the log and the state machine
   * (rather than be refused as stale or only move the commit index), so the host can check
   * the body first.
   */
  wouldInstallSnapshot(m: InstallSnapshot): boolean {
    const { index, term } = m.snapshot.meta;
    return (
      m.to === this.id &&
      m.term >= this.#term &&
      index > this.log.committed &&
      !this.log.matchTerm(index, term)
    );
  }

  step(m: Message): void {
    if (m.to !== this.id) return;
    if (m.term > this.#term) {
      if (m.type === "vote") {
        const inLease =
          this.cfg.checkQuorum &&
          this.#leader !== NONE &&
          this.electionElapsed < this.cfg.electionTicks;
        if (inLease && !m.transfer) return; // a healthy leader exists: ignore a disruptive candidate
      }
      if (m.type === "vote" && m.pre) {
        // a PreVote never changes our term
      } else if (m.type === "voteResp" && m.pre && m.granted) {
        // a granted PreVote answer carries the future term; it does not move ours
      } else {
        const leader =
          m.type === "append" || m.type === "heartbeat" || m.type === "snapshot" ? m.from : NONE;
        this.becomeFollower(m.term, leader);
      }
    } else if (m.term < this.#term) {
      if (
        (this.cfg.checkQuorum || this.cfg.preVote) &&
        (m.type === "append" || m.type === "heartbeat")
      ) {
        // Tell a stale leader about the newer term so it steps down.
        this.send<AppendResponse>({
          type: "appendResp",
          to: m.from,
          term: this.#term,
          success: false,
          index: 0,
          hintIndex: 0,
          hintTerm: 0,
        });
      } else if (m.type === "vote" && m.pre) {
        this.send<VoteResponse>({
          type: "voteResp",
          to: m.from,
          term: this.#term,
          pre: true,
          granted: false,
        });
      }
      return;
    }

    switch (m.type) {
      case "vote":
        return this.handleVote(m);
      case "voteResp":
        return this.handleVoteResponse(m);
      case "append":
        return this.handleAppend(m);
      case "heartbeat":
        return this.handleHeartbeat(m);
      case "snapshot":
        return this.handleSnapshot(m);
      case "appendResp":
        return this.handleAppendResponse(m);
      case "heartbeatResp":
        return this.handleHeartbeatResponse(m);
      case "timeoutNow":
        if (this.#role !== "leader" && this.isVoter(this.id)) this.campaign("transfer");
        return;
      case "readIndex":
        if (this.#role === "leader") this.leaderReadIndex(m.requestId, m.from);
        else
          this.send<ReadIndexResponse>({
            type: "readIndexResp",
            to: m.from,
            term: this.#term,
            requestId: m.requestId,
            index: 0,
          });
        return;
      case "readIndexResp":
        if (this.forwardedReads.delete(m.requestId))
          this.readStates.push({ requestId: m.requestId, index: m.index });
        return;
    }
  }

  // ---------------------------------------------------------------- elections

  private campaign(kind: "pre" | "real" | "transfer"): void {
    if (kind === "pre") {
      this.#role = "precandidate";
      this.#leader = NONE;
      this.failForwardedReads();
    } else {
      this.becomeCandidate();
    }
    const pre = kind === "pre";
    const term = pre ? this.#term + 1 : this.#term;
    this.votes = new Map([[this.id, true]]);
    if (this.tally() === "won") {
      if (pre) this.campaign("real");
      else this.becomeLeader();
      return;
    }
    for (const v of this.voters()) {
      if (v === this.id) continue;
      this.send<VoteRequest>({
        type: "vote",
        to: v,
        term,
        pre,
        lastIndex: this.log.lastIndex(),
        lastTerm: this.log.lastTerm(),
        transfer: kind === "transfer",
      });
    }
  }

  private handleVote(m: VoteRequest): void {
    const upToDate =
      m.lastTerm > this.log.lastTerm() ||
      (m.lastTerm === this.log.lastTerm() && m.lastIndex >= this.log.lastIndex());
    // A PreVote for a later term can be granted whatever our vote in this one.
    const canVote =
      this.#vote === m.from ||
      (this.#vote === NONE && this.#leader === NONE) ||
      (m.pre && m.term > this.#term);
    const granted = canVote && upToDate;
    if (granted && !m.pre) {
      this.#vote = m.from;
      this.electionElapsed = 0;
    }
    // A granted PreVote answers with the candidate's term so it can count it.
    this.send<VoteResponse>({
      type: "voteResp",
      to: m.from,
      term: granted && m.pre ? m.term : this.#term,
      pre: m.pre,
      granted,
    });
  }

  private handleVoteResponse(m: VoteResponse): void {
    const expected = m.pre ? "precandidate" : "candidate";
    if (this.#role !== expected || !this.isVoter(m.from)) return;
    if (!this.votes.has(m.from)) this.votes.set(m.from, m.granted);
    const result = this.tally();
    if (result === "won") {
      if (m.pre) this.campaign("real");
      else this.becomeLeader();
    } else if (result === "lost") {
      this.becomeFollower(this.#term, NONE);
    }
  }

  private tally(): VoteResult {
    return voteResult(this.voters(), this.votes);
  }

  private becomeFollower(term: number, leader: NodeId): void {
    const wasLeader = this.#role === "leader";
    // An answer to a forwarded read comes from the leader of the term it was asked in.
    if (leader !== this.#leader || term > this.#term) this.failForwardedReads();
    if (term > this.#term) {
      this.#term = term;
      this.#vote = NONE;
    }
    this.#role = "follower";
    this.#leader = leader;
    this.electionElapsed = 0;
    this.resetElectionTimer();
    if (wasLeader) this.abandonLeadership();
  }

  private becomeCandidate(): void {
    const wasLeader = this.#role === "leader";
    this.#role = "candidate";
    this.#term += 1;
    this.#vote = this.id;
    this.#leader = NONE;
    this.electionElapsed = 0;
    this.resetElectionTimer();
    this.failForwardedReads();
    if (wasLeader) this.abandonLeadership();
  }

  private becomeLeader(): void {
    this.#role = "leader";
    this.#leader = this.id;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.transferee = NONE;
    this.progress = new Map();
    for (const p of this.peers()) {
      const pr = new Progress(this.log.lastIndex() + 1);
      pr.recentActive = true;
      this.progress.set(p, pr);
    }
    this.readOnly.resetAcks();
    // The no-op lets the leader commit entries of earlier terms and start serving reads.
    this.log.append([
      { term: this.#term, index: this.log.lastIndex() + 1, kind: "noop", data: new Uint8Array(0) },
    ]);
    this.pendingConfIndex = this.log.lastIndex();
    this.leadIndex = this.pendingConfIndex;
    this.broadcastAppend();
    this.maybeCommitSingle();
  }

  private abandonLeadership(): void {
    for (const r of this.readOnly.abandon()) this.failRead(r.requestId, r.from);
    this.transferee = NONE;
  }

  private failRead(requestId: number, from: NodeId): void {
    if (from === NONE) this.readStates.push({ requestId, index: 0 });
    else
      this.send<ReadIndexResponse>({
        type: "readIndexResp",
        to: from,
        term: this.#term,
        requestId,
        index: 0,
      });
  }

  private failForwardedReads(): void {
    for (const id of this.forwardedReads.keys()) this.readStates.push({ requestId: id, index: 0 });
    this.forwardedReads.clear();
  }

  private ageForwardedReads(): void {
    for (const [id, waited] of this.forwardedReads) {
      if (waited + 1 < this.cfg.electionTicks) {
        this.forwardedReads.set(id, waited + 1);
      } else {
        this.forwardedReads.delete(id);
        this.readStates.push({ requestId: id, index: 0 });
      }
    }
  }

  private resetElectionTimer(): void {
    const e = this.cfg.electionTicks;
    this.randomizedElectionTicks = e + Math.floor(this.cfg.random.next() * e);
  }

  // ---------------------------------------------------------------- follower side

  private handleAppend(m: AppendRequest): void {
    this.electionElapsed = 0;
    this.#leader = m.from;
    if (this.#role !== "follower") this.becomeFollower(m.term, m.from);
    const log = this.log;
    if (m.prevIndex < log.committed) {
      // Everything up to our commit index already matches the leader's log.
      this.send<AppendResponse>({
        type: "appendResp",
        to: m.from,
        term: this.#term,
        success: true,
        index: log.committed,
        hintIndex: 0,
        hintTerm: 0,
      });
      return;
    }
    if (log.matchTerm(m.prevIndex, m.prevTerm)) {
      log.merge(m.entries);
      const lastNew = m.prevIndex + m.entries.length;
      log.commitTo(Math.min(m.commit, lastNew));
      this.send<AppendResponse>({
        type: "appendResp",
        to: m.from,
        term: this.#term,
        success: true,
        index: lastNew,
        hintIndex: 0,
        hintTerm: 0,
      });
      return;
    }
    const hint = log.findConflictByTerm(Math.min(m.prevIndex, log.lastIndex()), m.prevTerm);
    this.send<AppendResponse>({
      type: "appendResp",
      to: m.from,
      term: this.#term,
      success: false,
      index: m.prevIndex,
      hintIndex: hint.index,
      hintTerm: hint.term,
    });
  }

  private handleHeartbeat(m: Heartbeat): void {
    this.electionElapsed = 0;
    this.#leader = m.from;
    if (this.#role !== "follower") this.becomeFollower(m.term, m.from);
    // The leader sends min(our match, its commit), so this never commits a divergent entry.
    this.log.commitTo(Math.min(m.commit, this.log.lastIndex()));
    this.send<HeartbeatResponse>({
      type: "heartbeatResp",
      to: m.from,
      term: this.#term,
      round: m.round,
    });
  }

  private handleSnapshot(m: InstallSnapshot): void {
    this.electionElapsed = 0;
    this.#leader = m.from;
    if (this.#role !== "follower") this.becomeFollower(m.term, m.from);
    const meta = m.snapshot.meta;
    const log = this.log;
    if (meta.index <= log.committed) {
      this.send<AppendResponse>({
        type: "appendResp",
        to: m.from,
        term: this.#term,
        success: true,
        index: log.committed,
        hintIndex: 0,
        hintTerm: 0,
      });
      return;
    }
    if (log.matchTerm(meta.index, meta.term)) {
      // We already have the snapshot's last entry: just fast-forward the commit.
      log.commitTo(meta.index);
    } else {
      log.restore(meta.index, meta.term);
      this.#membership = meta.membership;
      this.pendingSnapshot = m.snapshot;
      this.latestSnapshot = m.snapshot;
    }
    // Only the snapshot's index is known to match: entries after it may be stale ones of an
    // older term, and the leader must not count them toward commit.
    this.send<AppendResponse>({
      type: "appendResp",
      to: m.from,
      term: this.#term,
      success: true,
      index: meta.index,
      hintIndex: 0,
      hintTerm: 0,
    });
  }

  // ---------------------------------------------------------------- leader side

  private handleAppendResponse(m: AppendResponse): void {
    if (this.#role !== "leader") return;
    const pr = this.progress.get(m.from);
    if (!pr) return;
    pr.recentActive = true;
    if (!m.success) {
      let hint = m.hintIndex;
      if (m.hintTerm > 0) hint = this.log.findConflictByTerm(m.hintIndex, m.hintTerm).index;
      if (pr.decreaseTo(m.index, hint)) {
        if (pr.state === "replicate") pr.becomeProbe();
        this.sendAppend(m.from);
      }
      return;
    }
    const moved = pr.update(m.index);
    if (moved) pr.lastAckTick = this.ticks;
    if (pr.state === "probe" && moved) pr.becomeReplicate();
    else if (pr.state === "snapshot" && pr.match >= pr.pendingSnapshot) pr.becomeProbe();
    if (moved) {
      if (this.maybeCommit()) this.broadcastAppend(true);
      if (m.from === this.transferee && pr.match === this.log.lastIndex()) {
        this.send<TimeoutNow>({ type: "timeoutNow", to: m.from, term: this.#term });
      }
    }
    // Keep the window full.
    while (pr.next <= this.log.lastIndex() && pr.canSend(this.cfg.maxInflightMsgs)) {
      if (!this.sendAppend(m.from)) break;
    }
  }

  private handleHeartbeatResponse(m: HeartbeatResponse): void {
    if (this.#role !== "leader") return;
    const pr = this.progress.get(m.from);
    if (!pr) return;
    pr.recentActive = true;
    pr.probeSent = false;
    // Entries outstanding with no acknowledgement for an election timeout, while the
    // follower answers heartbeats: the appends were lost. Probe again from the last match.
    if (
      pr.state === "replicate" &&
      pr.match < this.log.lastIndex() &&
      this.ticks - pr.lastAckTick > this.cfg.electionTicks
    ) {
      pr.becomeProbe();
      pr.lastAckTick = this.ticks;
    }
    if (pr.state === "replicate" && pr.match < this.log.lastIndex()) {
      // The follower answers heartbeats but not every append in flight: one may be lost. Free
      // a slot of a full window and send from `next` even with nothing new, so a follower
      // missing entries rejects it and is probed back within a heartbeat, not a timeout.
      if (!pr.canSend(this.cfg.maxInflightMsgs)) pr.inflight.shift();
      this.sendAppend(m.from, true);
    } else if (pr.match < this.log.lastIndex()) {
      this.sendAppend(m.from);
    }
    if (m.round > 0 && this.isVoter(m.from)) {
      this.readOnly.ack(m.from, m.round);
      this.releaseConfirmedReads();
    }
  }

  /** Send the next append to `to` if its window allows; returns whether one was sent. */
  private sendAppend(to: NodeId, allowEmpty = false): boolean {
    const pr = this.progress.get(to);
    if (!pr || !pr.canSend(this.cfg.maxInflightMsgs)) return false;
    const prevIndex = pr.next - 1;
    const prevTerm = this.log.term(prevIndex);
    if (prevTerm === undefined) {
      // The entries this follower needs were compacted: send the snapshot.
      const snap = this.latestSnapshot;
      if (!snap) return false;
      pr.becomeSnapshot(snap.meta.index);
      this.send<InstallSnapshot>({ type: "snapshot", to, term: this.#term, snapshot: snap });
      return true;
    }
    const entries = this.log.slice(pr.next, this.log.lastIndex(), this.cfg.maxBytesPerAppend);
    if (entries.length === 0 && !allowEmpty && pr.state === "replicate") return false;
    this.send<AppendRequest>({
      type: "append",
      to,
      term: this.#term,
      prevIndex,
      prevTerm,
      entries,
      commit: this.log.committed,
    });
    pr.sent(prevIndex + entries.length, entries.length);
    return true;
  }

  private broadcastAppend(commitChanged = false): void {
    for (const p of this.progress.keys()) this.sendAppend(p, commitChanged);
  }

  private broadcastHeartbeat(round: number): void {
    for (const [p, pr] of this.progress) {
      this.send<Heartbeat>({
        type: "heartbeat",
        to: p,
        term: this.#term,
        commit: Math.min(pr.match, this.log.committed),
        round,
      });
    }
  }

  /** Commit by counting durable replicas, only for an entry of the current term. */
  private maybeCommit(): boolean {
    const candidate = quorumValue(this.voters(), (v) =>
      v === this.id ? this.log.stableIndex : (this.progress.get(v)?.match ?? 0),
    );
    if (candidate > this.log.committed && this.log.term(candidate) === this.#term) {
      this.log.commitTo(candidate);
      this.onCommitAdvanced();
      return true;
    }
    return false;
  }

  private maybeCommitSingle(): void {
    if (this.voters().length === 1) this.maybeCommit();
  }

  private onCommitAdvanced(): void {
    if (this.readOnly.hasAwaitingCommit() && this.committedInTerm()) {
      for (const r of this.readOnly.takeAwaitingCommit()) this.leaderReadIndex(r.requestId, r.from);
    }
  }

  private committedInTerm(): boolean {
    return this.log.term(this.log.committed) === this.#term;
  }

  private leaderReadIndex(requestId: number, from: NodeId): void {
    if (!this.committedInTerm()) {
      this.readOnly.waitForCommit({ requestId, from });
      return;
    }
    this.readOnly.add({ requestId, from }, this.log.committed);
    this.releaseConfirmedReads();
  }

  /** Release reads whose quorum round has been acknowledged by a majority (ourselves included). */
  private releaseConfirmedReads(): void {
    for (const r of this.readOnly.release(this.voters(), this.id)) {
      if (r.from === NONE) this.readStates.push({ requestId: r.requestId, index: r.index });
      else
        this.send<ReadIndexResponse>({
          type: "readIndexResp",
          to: r.from,
          term: this.#term,
          requestId: r.requestId,
          index: r.index,
        });
    }
  }

  // ---------------------------------------------------------------- output

  private send<M extends Message>(m: Omit<M, "from">): void {
    this.msgs.push({ ...m, from: this.id } as unknown as Message);
  }

  hardState(): HardState {
    return { term: this.#term, vote: this.#vote, commit: this.log.committed };
  }

  softState(): SoftState {
    return { role: this.#role, leader: this.#leader, term: this.#term };
  }

  hasReady(): boolean {
    if (this.msgs.length > 0 || this.readStates.length > 0 || this.pendingSnapshot) return true;
    if (this.readOnly.hasRoundToSend()) return true;
    if (this.log.writtenIndex < this.log.lastIndex()) return true;
    if (this.log.committed > this.log.applied) return true;
    return !sameHardState(this.hardState(), this.handedHardState);
  }

  /**
   * Take the next batch: write it, send its messages, apply its entries, then call
   * persisted() with it once its write is durable. Several batches may be out at once (a
   * host that writes asynchronously takes the next batch while earlier ones are being
   * written); their writes must complete, and persisted() be called, in the order they were
   * taken. Each batch's `messages` may leave only once its write and every earlier one are
   * durable. Its committed entries are handed out for applying now: they are durable on a
   * quorum, even where this node's own write of them is still in flight.
   */
  ready(): Ready {
    if (this.readOnly.hasRoundToSend()) {
      // One quorum round confirms every read collected since the last batch.
      this.broadcastHeartbeat(this.readOnly.takeRoundToSend());
    }
    const hs = this.hardState();
    const handed = this.handedHardState;
    const entries = this.log.takeUnwritten();
    const snapshot = this.pendingSnapshot;
    const early: Message[] = [];
    const late: Message[] = [];
    for (const m of this.msgs) (this.canGoEarly(m) ? early : late).push(m);
    const committed = this.log.toApply();
    const rd: Ready = {
      hardState: sameHardState(hs, handed) ? null : hs,
      entries,
      snapshot,
      mustSync:
        entries.length > 0 ||
        snapshot !== null ||
        hs.term !== handed.term ||
        hs.vote !== handed.vote,
      earlyMessages: early,
      messages: late,
      committed,
      readStates: this.readStates,
      soft: this.softState(),
    };
    this.handedHardState = hs;
    this.msgs = [];
    this.readStates = [];
    this.pendingSnapshot = null;
    const lastCommitted = committed[committed.length - 1];
    if (lastCommitted) this.log.applied = Math.max(this.log.applied, lastCommitted.index);
    if (snapshot) this.log.applied = Math.max(this.log.applied, snapshot.meta.index);
    this.outstanding.push(rd);
    return rd;
  }

  /**
   * A leader's messages that need nothing of this node's own pending writes: appends,
   * heartbeats, snapshots and TimeoutNow of the term already durable here. A leader's appends
   * may leave before its own write of the same entries (it counts itself toward commit only
   * once they are durable), so a host may send these also while a batch is out, so that
   * followers write the next entries while the leader writes the current ones.
   */
  private canGoEarly(m: Message): boolean {
    return (
      this.#role === "leader" &&
      m.term === this.durableHardState.term &&
      (m.type === "append" ||
        m.type === "heartbeat" ||
        m.type === "snapshot" ||
        m.type === "timeoutNow")
    );
  }

  /**
   * Takes the messages that could go early (see canGoEarly) out of the next batch. Callable
   * while a batch is out, between ready() and advance(); the rest wait for the next ready().
   */
  takeEarlyMessages(): Message[] {
    if (this.#role !== "leader" || this.msgs.length === 0) return [];
    const early: Message[] = [];
    const rest: Message[] = [];
    for (const m of this.msgs) (this.canGoEarly(m) ? early : rest).push(m);
    this.msgs = rest;
    return early;
  }

  /**
   * The write of `rd` is durable (and every batch taken before it was persisted): its entries
   * and hard state count from now on. Our own entries count toward commit only now.
   */
  persisted(rd: Ready): void {
    const oldest = this.outstanding[0];
    if (oldest === undefined) throw new Error("persisted() without a batch out");
    if (oldest !== rd) throw new Error("batches must be persisted in the order they were taken");
    this.outstanding.shift();
    if (rd.hardState) this.durableHardState = rd.hardState;
    const last = rd.entries[rd.entries.length - 1];
    if (last) this.log.stableTo(last.index, last.term);
    if (this.#role === "leader" && last && this.maybeCommit()) this.broadcastAppend(true);
  }

  /** For a host that writes one batch at a time: the batch is persisted, sent and applied. */
  advance(rd: Ready): void {
    this.persisted(rd);
  }

  /** Batches taken and not yet persisted. */
  get batchesOut(): number {
    return this.outstanding.length;
  }

  // ---------------------------------------------------------------- membership helpers

  voters(): readonly NodeId[] {
    return this.#membership.voters;
  }

  private peers(): NodeId[] {
    return [...this.#membership.voters, ...this.#membership.learners].filter((p) => p !== this.id);
  }

  private isVoter(id: NodeId): boolean {
    return this.#membership.voters.includes(id);
  }

  /** For status reporting: follower progress as seen by the leader. */
  progressOf(id: NodeId): { match: number; next: number; state: string } | undefined {
    const pr = this.progress.get(id);
    return pr && { match: pr.match, next: pr.next, state: pr.state };
  }

  /**
   * A copy of this node's Raft state for reporting and tests. Nothing in it refers to the
   * core's own objects, so a caller can keep or change it without affecting the node.
   */
  /**
   * The index of the no-op this node appended when it became leader, or 0 while it does not
   * lead. Once it is applied, the applied state holds every entry an earlier leader committed.
   */
  get leadershipIndex(): number {
    return this.#role === "leader" ? this.leadIndex : 0;
  }

  status(): RaftStatus {
    const m = this.#membership;
    const membership: Membership = {
      voters: [...m.voters],
      learners: [...m.learners],
      ...(m.addresses
        ? {
            addresses: Object.fromEntries(
              Object.entries(m.addresses).map(([id, a]) => [id, { ...a }]),
            ),
          }
        : {}),
      ...(m.retired ? { retired: [...m.retired] } : {}),
    };
    const progress: PeerProgress[] = [];
    if (this.#role === "leader") {
      for (const [id, pr] of this.progress) {
        progress.push({
          id,
          match: pr.match,
          next: pr.next,
          state: pr.state,
          recentActive: pr.recentActive,
          probeSent: pr.probeSent,
          inflight: pr.inflight.length,
          pendingSnapshot: pr.pendingSnapshot,
        });
      }
      progress.sort((a, b) => a.id - b.id);
    }
    return {
      id: this.id,
      term: this.#term,
      vote: this.#vote,
      role: this.#role,
      leader: this.#leader,
      commit: this.log.committed,
      applied: this.log.applied,
      lastIndex: this.log.lastIndex(),
      lastTerm: this.log.lastTerm(),
      durableIndex: this.log.stableIndex,
      snapshot: { index: this.log.offset, term: this.log.offsetTerm },
      membership,
      progress,
      transferee: this.#role === "leader" ? this.transferee : NONE,
    };
  }
}

function sameHardState(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}

/** What a leader knows of one other member's log (see RaftCore.status()). */
export interface PeerProgress {
  readonly id: NodeId;
  /** Highest index known to match the leader's log. */
  readonly match: number;
  /** Next index the leader will send. */
  readonly next: number;
  readonly state: ProgressState;
  /** The member answered since the last CheckQuorum round. */
  readonly recentActive: boolean;
  /** Probe state: an append is out and unanswered, so the leader waits before sending another. */
  readonly probeSent: boolean;
  /** Appends sent and not yet acknowledged (replicate state). */
  readonly inflight: number;
  /** Snapshot state: the index of the snapshot being sent (0 otherwise). */
  readonly pendingSnapshot: number;
}

/** A read-only view of one node's Raft state (see RaftCore.status()). */
export interface RaftStatus {
  readonly id: NodeId;
  readonly term: number;
  readonly vote: NodeId;
  readonly role: Role;
  /** The leader this node knows of (NONE when none). */
  readonly leader: NodeId;
  readonly commit: number;
  /** Entries up to here have been handed to the host to apply. */
  readonly applied: number;
  readonly lastIndex: number;
  readonly lastTerm: number;
  /** Entries up to here are durable on this node. */
  readonly durableIndex: number;
  /** The position the log starts after (the last snapshot's index and term; 0/0 for none). */
  readonly snapshot: { readonly index: number; readonly term: number };
  readonly membership: Membership;
  /** On a leader, every other member's progress by id; empty on other roles. */
  readonly progress: readonly PeerProgress[];
  /** On a leader, the voter leadership is being handed to; NONE when no transfer is in progress. */
  readonly transferee: NodeId;
}
