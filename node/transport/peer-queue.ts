// The outbound queue of one peer link: encoded Raft messages, bounded by count and bytes.
// When it is full the oldest message goes: Raft retransmits, and fresh messages are worth
// more than stale ones, so a slow or dead follower costs the leader one full queue at most.
import { PER_MESSAGE_OVERHEAD } from "./raft-codec.ts";

const EMPTY = new Uint8Array(0);

export class PeerQueue {
  /** Slots before `head` are consumed and hold an empty array (so a sent message is not kept). */
  private items: Uint8Array[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  get length(): number {
    return this.items.length - this.head;
  }

  get queuedBytes(): number {
    return this.bytes;
  }

  /** Adds a message; returns how many older messages were dropped to make room. */
  push(message: Uint8Array): number {
    this.items.push(message);
    this.bytes += message.length;
    let dropped = 0;
    while (this.length > this.maxCount || (this.bytes > this.maxBytes && this.length > 1)) {
      this.shift();
      dropped++;
    }
    return dropped;
  }

  /**
   * Takes messages from the front while their batch stays within `budget` bytes (each costs
   * its length plus its framing); always at least one, so an oversized message still leaves.
   */
  take(budget: number): Uint8Array[] {
    const batch: Uint8Array[] = [];
    let used = 0;
    while (this.length > 0) {
      const next = this.items[this.head];
      const cost = next.length + PER_MESSAGE_OVERHEAD;
      if (batch.length > 0 && used + cost > budget) break;
      batch.push(next);
      used += cost;
      this.shift();
    }
    return batch;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
    this.bytes = 0;
  }

  private shift(): void {
    const item = this.items[this.head];
    this.bytes -= item.length;
    this.items[this.head] = EMPTY;
    this.head++;
    // Compact now and then so the array does not keep consumed slots forever.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
