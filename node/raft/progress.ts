// What the leader knows about one follower's log, and its flow-control window.

export type ProgressState = "probe" | "replicate" | "snapshot";

export class Progress {
  /** Highest index known to match the leader's log. */
  match = 0;
  /** Next index to send. */
  next: number;
  state: ProgressState = "probe";
  /** Probe: one append was sent and no answer came yet; wait for it or the next heartbeat. */
  probeSent = false;
  /** Last index carried by each append in flight (replicate state), oldest first. */
  inflight: number[] = [];
  /** Heard from since the last CheckQuorum round. */
  recentActive = false;
  /** Snapshot state: the index of the snapshot sent, and ticks since it was sent or last made progress. */
  pendingSnapshot = 0;
  snapshotTicks = 0;
  /** The leader's tick count when match last moved. */
  lastAckTick = 0;

  constructor(next: number) {
    this.next = next;
  }

  becomeProbe(): void {
    if (this.state === "snapshot") {
      this.next = Math.max(this.match + 1, this.pendingSnapshot + 1);
      this.pendingSnapshot = 0;
    } else {
      this.next = this.match + 1;
    }
    this.state = "probe";
    this.probeSent = false;
    this.inflight = [];
  }

  becomeReplicate(): void {
    this.state = "replicate";
    this.next = this.match + 1;
    this.inflight = [];
  }

  becomeSnapshot(index: number): void {
    this.state = "snapshot";
    this.pendingSnapshot = index;
    this.snapshotTicks = 0;
    this.inflight = [];
  }

  /** An acknowledgement up to index; returns whether match moved. */
  update(index: number): boolean {
    let moved = false;
    if (index > this.match) {
      this.match = index;
      moved = true;
      this.probeSent = false;
    }
    this.next = Math.max(this.next, index + 1);
    while (this.inflight.length > 0 && this.inflight[0]! <= index) this.inflight.shift();
    return moved;
  }

  /**
   * A rejection of prevIndex `rejected`; `hint` is the highest index that may still match.
   * Returns false for a stale rejection that must be ignored.
   */
  decreaseTo(rejected: number, hint: number): boolean {
    if (this.state === "replicate") {
      if (rejected <= this.match) return false;
      this.next = Math.max(this.match + 1, Math.min(rejected, hint + 1));
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(this.match + 1, Math.min(rejected, hint + 1));
    this.probeSent = false;
    return true;
  }

  /** May another append be sent now? */
  canSend(maxInflight: number): boolean {
    switch (this.state) {
      case "probe":
        return !this.probeSent;
      case "replicate":
        return this.inflight.length < maxInflight;
      case "snapshot":
        return false;
    }
  }

  sent(lastIndex: number, entryCount: number): void {
    if (this.state === "replicate") {
      if (entryCount > 0) {
        this.next = lastIndex + 1;
        this.inflight.push(lastIndex);
      }
    } else if (this.state === "probe") {
      this.probeSent = true;
    }
  }
}
