// The leader's ReadIndex bookkeeping (Raft dissertation §6.4). A read first waits until an
// entry of the leader's term is committed (before that, the leader's commit index may lag
// what an earlier leader committed); it then takes the commit index and the heartbeat round
// being collected, and is confirmed once a quorum of voters has answered that round or a
// later one. A round goes out with the next batch, after the reads that take it arrived,
// so no read is confirmed by a round that left before it.
import { quorumValue } from "./quorum.ts";
import type { NodeId } from "./types.ts";

/** A read and who asked: NONE (0) for this node's own, otherwise the follower that forwarded it. */
export interface ReadRequest {
  readonly requestId: number;
  readonly from: NodeId;
}

export interface PendingRead extends ReadRequest {
  /** The commit index when the read was taken: the index the read may be served at. */
  readonly index: number;
  readonly round: number;
}

export class ReadOnly {
  private awaitingCommit: ReadRequest[] = [];
  private pending: PendingRead[] = [];
  /** The last round number handed out. Rounds only grow, across terms too. */
  private round = 0;
  /** The round collected since the last batch, to broadcast with the next one (0: none). */
  private roundToSend = 0;
  /** The highest round each voter has answered, this term. */
  private acks = new Map<NodeId, number>();

  /** A read that must wait until an entry of the leader's term is committed. */
  waitForCommit(read: ReadRequest): void {
    this.awaitingCommit.push(read);
  }

  hasAwaitingCommit(): boolean {
    return this.awaitingCommit.length > 0;
  }

  /** The reads that waited for the commit, in order; they are no longer held here. */
  takeAwaitingCommit(): ReadRequest[] {
    const reads = this.awaitingCommit;
    this.awaitingCommit = [];
    return reads;
  }

  /** A read at `index`, to be confirmed by the round collected now (a new one if none is). */
  add(read: ReadRequest, index: number): void {
    if (this.roundToSend === 0) this.roundToSend = ++this.round;
    this.pending.push({
      requestId: read.requestId,
      from: read.from,
      index,
      round: this.roundToSend,
    });
  }

  hasRoundToSend(): boolean {
    return this.roundToSend !== 0;
  }

  /** The round to broadcast with the next batch (0: none); it is then no longer collected. */
  takeRoundToSend(): number {
    const r = this.roundToSend;
    this.roundToSend = 0;
    return r;
  }

  /** The round a periodic heartbeat carries: the latest while reads wait, so a lost round is asked again. */
  heartbeatRound(): number {
    return this.pending.length > 0 ? this.round : 0;
  }

  /** Voter `from` answered heartbeats up to `round`. */
  ack(from: NodeId, round: number): void {
    if (round > (this.acks.get(from) ?? 0)) this.acks.set(from, round);
  }

  /**
   * The reads whose round a quorum of `voters` has answered, oldest first, taken out.
   * `self` (the leader) counts as having answered every round.
   */
  release(voters: readonly NodeId[], self: NodeId): PendingRead[] {
    if (this.pending.length === 0) return [];
    const confirmed = quorumValue(voters, (v) => (v === self ? Infinity : (this.acks.get(v) ?? 0)));
    const out: PendingRead[] = [];
    while (this.pending.length > 0 && this.pending[0]!.round <= confirmed)
      out.push(this.pending.shift()!);
    if (this.pending.length === 0) this.roundToSend = 0;
    return out;
  }

  /** A new term as leader: answers given to an earlier leadership do not count. */
  resetAcks(): void {
    this.acks = new Map();
  }

  /** Leadership is lost: every read held (those waiting for the commit first), to fail. */
  abandon(): ReadRequest[] {
    const reads: ReadRequest[] = [...this.awaitingCommit, ...this.pending];
    this.awaitingCommit = [];
    this.pending = [];
    this.roundToSend = 0;
    return reads;
  }
}
