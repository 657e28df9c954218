// When this process applied each log index, kept in a bounded table rather than a record
// per grant: a grant's token carries the index that granted it, so the time its hold began
// is looked up here when it ends. Samples are taken at most once per millisecond; when the
// table is full, every other sample of its older half is dropped, so recent indexes keep
// millisecond resolution and older ones a coarser one (a hold's start can read early by
// the gap between the two samples around it, which grows with the hold's age).

/** Samples kept; two Float64Arrays of this length (128 KiB in all). */
const CAPACITY = 8_192;
/** A new sample only once the clock moved this far (ms) since the last one. */
const RESOLUTION_MS = 1;

export class ApplyClock {
  private readonly indexes = new Float64Array(CAPACITY);
  private readonly times = new Float64Array(CAPACITY);
  private count = 0;
  /** Indexes below this were not applied by this process since the state was last replaced. */
  private floor = 0;

  /** `index` was applied at `now` (indexes only grow between resets). */
  record(index: number, now: number): void {
    if (this.count === 0) this.floor = Math.max(this.floor, index);
    else if (now - (this.times[this.count - 1] as number) < RESOLUTION_MS) return;
    if (this.count === CAPACITY) this.thin();
    this.indexes[this.count] = index;
    this.times[this.count] = now;
    this.count++;
  }

  /**
   * When `index` was applied here, at most a sample's gap early; null when this process did
   * not apply it (before a restart, or inside an installed snapshot).
   */
  timeOf(index: number): number | null {
    if (this.count === 0 || index < this.floor) return null;
    // The last sample at or before `index`.
    if ((this.indexes[0] as number) > index) return null;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.indexes[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.times[lo] as number;
  }

  /**
   * The applied state was replaced: nothing before it was applied here, and neither was
   * anything up to `above` (the highest grant index the new state holds).
   */
  reset(above = 0): void {
    this.count = 0;
    this.floor = above + 1;
  }

  /** Drops every other sample of the older half, keeping the oldest. */
  private thin(): void {
    const half = CAPACITY >> 1;
    let out = 0;
    for (let i = 0; i < half; i += 2, out++) {
      this.indexes[out] = this.indexes[i] as number;
      this.times[out] = this.times[i] as number;
    }
    for (let i = half; i < CAPACITY; i++, out++) {
      this.indexes[out] = this.indexes[i] as number;
      this.times[out] = this.times[i] as number;
    }
    this.count = out;
  }
}
