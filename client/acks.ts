// The client's side of exactly-once: which seqs it holds answers for. Every write carries
// the acknowledged-up-to mark (highest m such that the answers to 1..m are all held) and
// the seqs above m whose answers are held, so the server can drop those answers.

/** Most seqs above the mark a request lists as held (SPEC "Exactly-once"). */
export const MAX_HELD = 64;

export class AckTracker {
  private mark = 0;
  private readonly heldAbove = new Set<number>();
  private next = 1;

  /** The seq for the next write (1, 2, 3, ...). */
  allocate(): number {
    return this.next++;
  }

  /** The seq the next write will get, without taking it. */
  peek(): number {
    return this.next;
  }

  /** Records that the answer to `seq` is held (its final answer arrived, or it is abandoned for good). */
  answered(seq: number): void {
    if (seq <= this.mark) return;
    this.heldAbove.add(seq);
    while (this.heldAbove.delete(this.mark + 1)) this.mark += 1;
  }

  /** Whether the answer to `seq` is held. */
  isAnswered(seq: number): boolean {
    return seq <= this.mark || this.heldAbove.has(seq);
  }

  /** Seqs allocated whose answers are not held yet. */
  get outstanding(): number {
    return this.next - 1 - this.mark - this.heldAbove.size;
  }

  /** What a write carries now. */
  acks(): { ackedUpTo: number; held: number[] } {
    const held = [...this.heldAbove].sort((a, b) => a - b).slice(0, MAX_HELD);
    return { ackedUpTo: this.mark, held };
  }

  /**
   * What the write with `seq` carries now. A write may list only held seqs below its own
   * (the server refuses others), and a write retried after later ones were answered has
   * such seqs above it.
   */
  acksFor(seq: number): { ackedUpTo: number; held: number[] } {
    const held = [...this.heldAbove]
      .filter((s) => s < seq)
      .sort((a, b) => a - b)
      .slice(0, MAX_HELD);
    // Never its own seq or above: a write whose answer came another way (a CancelWait) must
    // not be sent again, and if it is, it must still be a valid request.
    return { ackedUpTo: Math.min(this.mark, seq - 1), held };
  }
}
