// The in-memory view of one node's Raft log: entries after the snapshot index, which of
// them were handed to storage and which are durable, and the commit and apply marks.
// Several writes may be in flight: entries up to writtenIndex were handed out, those up to
// stableIndex are durable (stableIndex <= writtenIndex <= lastIndex).
import type { Entry } from "./types.ts";

export class RaftLog {
  /** Index and term of the last entry covered by the snapshot (0, 0 for none). */
  offset: number;
  offsetTerm: number;
  private entries: Entry[];
  /** Entries at or below this index are durable. */
  stableIndex: number;
  /** Entries at or below this index were handed to storage (durable, or being written). */
  writtenIndex: number;
  committed: number;
  /** Entries at or below this index have been handed to the host to apply. */
  applied: number;

  constructor(offset: number, offsetTerm: number, entries: readonly Entry[], committed: number) {
    this.offset = offset;
    this.offsetTerm = offsetTerm;
    this.entries = [...entries];
    for (let i = 0; i < this.entries.length; i++) {
      if (this.entries[i]!.index !== offset + 1 + i)
        throw new Error(`log not contiguous at ${offset + 1 + i}`);
    }
    this.stableIndex = this.lastIndex();
    this.writtenIndex = this.stableIndex;
    if (committed > this.lastIndex())
      throw new Error(`commit ${committed} past last index ${this.lastIndex()}`);
    this.committed = Math.max(committed, offset);
    this.applied = offset;
  }

  firstIndex(): number {
    return this.offset + 1;
  }

  lastIndex(): number {
    return this.offset + this.entries.length;
  }

  lastTerm(): number {
    return this.term(this.lastIndex()) ?? 0;
  }

  /** The term of the entry at index, or undefined when it is compacted or past the end. */
  term(index: number): number | undefined {
    if (index === this.offset) return this.offsetTerm;
    if (index < this.offset || index > this.lastIndex()) return undefined;
    return this.entries[index - this.offset - 1]!.term;
  }

  matchTerm(index: number, term: number): boolean {
    return this.term(index) === term;
  }

  entry(index: number): Entry | undefined {
    if (index <= this.offset || index > this.lastIndex()) return undefined;
    return this.entries[index - this.offset - 1];
  }

  /** Entries in [lo, hi], capped at maxBytes of data (at least one entry). */
  slice(lo: number, hi: number, maxBytes = Infinity): Entry[] {
    const out: Entry[] = [];
    let bytes = 0;
    for (let i = Math.max(lo, this.offset + 1); i <= Math.min(hi, this.lastIndex()); i++) {
      const e = this.entries[i - this.offset - 1]!;
      bytes += e.data.length + 24;
      if (out.length > 0 && bytes > maxBytes) break;
      out.push(e);
    }
    return out;
  }

  append(entries: readonly Entry[]): void {
    for (const e of entries) {
      if (e.index !== this.lastIndex() + 1)
        throw new Error(`append at ${e.index}, last is ${this.lastIndex()}`);
      this.entries.push(e);
    }
  }

  /**
   * Merge entries received from a leader after prevIndex: skip the ones already present with
   * the same term, truncate at the first conflict, append the rest. Never truncates committed entries.
   */
  merge(entries: readonly Entry[]): void {
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k]!;
      const have = this.term(e.index);
      if (have === e.term) continue;
      if (have !== undefined) {
        if (e.index <= this.committed) throw new Error(`conflict at committed index ${e.index}`);
        this.truncateFrom(e.index);
      }
      this.append(entries.slice(k));
      return;
    }
  }

  private truncateFrom(index: number): void {
    this.entries.length = index - this.offset - 1;
    // A write in flight may still hold the removed entries: stableTo's term check ignores it.
    if (this.writtenIndex >= index) this.writtenIndex = index - 1;
    if (this.stableIndex >= index) this.stableIndex = index - 1;
  }

  /** Takes the entries not yet handed to storage: they are being written from now on. */
  takeUnwritten(): Entry[] {
    const out = this.entries.slice(this.writtenIndex - this.offset);
    this.writtenIndex = this.lastIndex();
    return out;
  }

  /**
   * Mark entries up to index durable, if the entry there is still the one that was written
   * (term check): a write that completes after a newer leader replaced its entries marks nothing.
   */
  stableTo(index: number, term: number): void {
    if (this.term(index) === term && index > this.stableIndex)
      this.stableIndex = Math.min(index, this.writtenIndex);
  }

  commitTo(index: number): void {
    if (index > this.committed) {
      if (index > this.lastIndex())
        throw new Error(`commit ${index} past last index ${this.lastIndex()}`);
      this.committed = index;
    }
  }

  /** Committed entries not yet handed out for applying, up to what is durable or about to be. */
  toApply(): Entry[] {
    return this.slice(this.applied + 1, this.committed);
  }

  /**
   * The largest index at or below `index` whose term is at most `term` (for conflict hints):
   * every entry after it has a larger term, so it cannot match the other log there.
   */
  findConflictByTerm(index: number, term: number): { index: number; term: number } {
    let i = Math.min(index, this.lastIndex());
    while (i > this.offset) {
      const t = this.term(i)!;
      if (t <= term) return { index: i, term: t };
      i--;
    }
    return { index: this.offset, term: this.offsetTerm };
  }

  /** Replace the whole log with a snapshot's position. */
  restore(index: number, term: number): void {
    this.offset = index;
    this.offsetTerm = term;
    this.entries = [];
    this.stableIndex = index;
    this.writtenIndex = index;
    this.committed = index;
    this.applied = index;
  }

  /** Drop entries up to index (the host has a snapshot there). */
  compact(index: number, term: number): void {
    if (index <= this.offset) return;
    if (index > this.applied) throw new Error(`compact ${index} past applied ${this.applied}`);
    this.entries = this.entries.slice(index - this.offset);
    this.offset = index;
    this.offsetTerm = term;
  }
}
