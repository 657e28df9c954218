// An InstallSnapshot too large for one batch travels as chunks. The sender's side
// (SnapshotTransfer) keeps how far the receiver acknowledged, so a broken stream goes back
// only to that point and the same snapshot sent again (index, term and CRC-32 alike) carries
// on instead of starting over. The receiver's side (SnapshotAssembler) gathers chunks per
// sender and hands out the whole snapshot once every byte is there and its CRC-32 matches.
// Both are pure: the transport owns the streams, the timers and the counters.
import type { InstallSnapshot, NodeId } from "../raft/types.ts";
import { crc32 } from "../util/crc32.ts";
import type { SnapshotChunkMessage } from "./raft-codec.ts";

/** A chunk to send: the bytes [offset, offset + length) of the transfer's snapshot. */
export interface ChunkRange {
  readonly offset: number;
  readonly length: number;
}

/** A snapshot being sent in chunks to one peer. */
export class SnapshotTransfer {
  /** The latest message for this snapshot (a resend may carry a newer term). */
  message: InstallSnapshot;
  readonly crc: number;
  /** The next byte to send. */
  private next = 0;
  /** Bytes [0, acked) were acknowledged by the receiver: where a broken transfer resumes. */
  private acked = 0;

  constructor(message: InstallSnapshot) {
    this.message = message;
    this.crc = crc32(message.snapshot.data);
  }

  get size(): number {
    return this.message.snapshot.data.length;
  }

  /** Bytes the receiver acknowledged. */
  get acknowledged(): number {
    return this.acked;
  }

  /** Every byte was acknowledged: the receiver holds the whole body. */
  get done(): boolean {
    return this.acked >= this.size;
  }

  /** The same snapshot: index, term and body (by identity, else by length and CRC-32). */
  sameAs(message: InstallSnapshot): boolean {
    const a = this.message.snapshot;
    const b = message.snapshot;
    if (
      a.meta.index !== b.meta.index ||
      a.meta.term !== b.meta.term ||
      a.data.length !== b.data.length
    )
      return false;
    return a.data === b.data || crc32(b.data) === this.crc;
  }

  /** The next chunk of at most `chunkBytes` (it counts as sent), or null when all was sent. */
  nextChunk(chunkBytes: number): ChunkRange | null {
    if (this.next >= this.size) return null;
    const offset = this.next;
    const length = Math.min(chunkBytes, this.size - offset);
    this.next = offset + length;
    return { offset, length };
  }

  /** The receiver acknowledged the chunk that ends at `end`; true when that moved the mark. */
  acknowledge(end: number): boolean {
    if (end <= this.acked) return false;
    this.acked = end;
    return true;
  }

  /**
   * The stream broke: resend from what the receiver acknowledged, or from 0 when the peer's
   * process is gone (it lost whatever it had gathered).
   */
  rewind(peerGone: boolean): void {
    if (peerGone) this.acked = 0;
    this.next = this.acked;
  }
}

/** What one chunk did to the snapshot being gathered from its sender. */
export type AssembleOutcome =
  | { readonly kind: "whole"; readonly message: InstallSnapshot }
  /** Held, skipped (already held) or dropped for a gap: more chunks are needed. */
  | { readonly kind: "partial" }
  /** The snapshot is larger than this node takes. */
  | { readonly kind: "oversized" }
  /** Every byte arrived but the CRC-32 does not match. */
  | { readonly kind: "corrupt" };

interface Gathering {
  readonly index: number;
  readonly snapTerm: number;
  readonly total: number;
  readonly crc: number;
  readonly body: Uint8Array;
  received: number;
}

const PARTIAL: AssembleOutcome = Object.freeze({ kind: "partial" });

/** Snapshots being received in chunks, one per sender. */
export class SnapshotAssembler {
  private readonly gathering = new Map<NodeId, Gathering>();

  constructor(private readonly maxSnapshotBytes: number) {}

  /**
   * Adds a chunk. A chunk of a newer snapshot starts over; a chunk already held (a resent
   * snapshot) is skipped, so a resend continues where the last attempt stopped; a gap drops
   * what was gathered.
   */
  add(m: SnapshotChunkMessage): AssembleOutcome {
    const { offset, total, crc } = m.chunk;
    const { index, term } = m.snapshot.meta;
    if (total > this.maxSnapshotBytes) return { kind: "oversized" };
    let g = this.gathering.get(m.from);
    if (!g || g.index !== index || g.snapTerm !== term || g.total !== total || g.crc !== crc) {
      if (offset !== 0) return PARTIAL; // the start of this snapshot was lost: wait for a resend
      g = { index, snapTerm: term, total, crc, body: new Uint8Array(total), received: 0 };
      this.gathering.set(m.from, g);
    }
    const end = offset + m.snapshot.data.length;
    if (end <= g.received) return PARTIAL;
    if (offset > g.received) {
      this.gathering.delete(m.from);
      return PARTIAL;
    }
    g.body.set(m.snapshot.data.subarray(g.received - offset), g.received);
    g.received = end;
    if (g.received < total) return PARTIAL;
    this.gathering.delete(m.from);
    if (crc32(g.body) !== crc) return { kind: "corrupt" };
    const message: InstallSnapshot = {
      type: "snapshot",
      from: m.from,
      to: m.to,
      term: m.term,
      snapshot: { meta: m.snapshot.meta, data: g.body },
    };
    return { kind: "whole", message };
  }
}
