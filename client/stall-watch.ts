// Watches the event loop for stalls. A timer that was due during a stall fires late, so a
// session's deadline check alone would notice a stall only after it; this tells the check
// how long the loop may have been blocked since the last look, so a stall that may have
// outlived the deadline counts as loss. Gaps are measured on both the monotonic and the
// wall clock (elapsedMs), so a system suspend, which stops the monotonic clock, counts too.
//
// One sampler serves every session of the process (one per clock): a timer every
// `resolutionMs` records the longest gap between its runs. (perf_hooks.monitorEventLoopDelay is not used: its reset()
// forgets the interval in progress, so a stall that began just after a reset went unseen;
// and one histogram per session cost a wakeup per session per interval.) Each session keeps
// its own view ("since my last look") over the folds of the shared maximum.
import { elapsedMs, instantOf, type ClientClock, type Instant, type Timer } from "./clock.ts";

class SharedSampler {
  private readonly watchers = new Set<StallWatch>();
  private timer: Timer | null = null;
  /** The folds after `firstSeq − 1`: folds[i] is the longest gap of fold `firstSeq + i`, in ms. */
  private folds: number[] = [];
  private firstSeq = 1;
  private seq = 0;
  /**
   * How many watchers have seen up to each fold: the folds up to the smallest such seq can
   * go. Counted rather than found by walking the watchers, so a look costs the same with
   * 100,000 sessions in the process as with one.
   */
  private readonly seenCounts = new Map<number, number>();
  private lastSample: Instant = { monotonicMs: 0, wallMs: 0 };
  private lastFoldAt = 0;
  /** Longest gap between samples since the last fold (a gap includes the interval itself). */
  private currentMaxMs = 0;

  constructor(
    private readonly clock: ClientClock,
    readonly resolutionMs: number,
  ) {}

  /** Registers a watcher; returns the seq its view starts after. */
  add(w: StallWatch): number {
    if (this.watchers.size === 0) {
      this.lastSample = instantOf(this.clock);
      this.lastFoldAt = this.lastSample.monotonicMs;
      this.currentMaxMs = 0;
      this.timer = this.clock.setInterval(() => this.sample(), this.resolutionMs);
    }
    this.watchers.add(w);
    this.count(this.seq, 1);
    return this.seq;
  }

  remove(w: StallWatch): void {
    if (!this.watchers.delete(w)) return;
    this.count(w.seenUpTo, -1);
    if (this.watchers.size > 0) {
      this.prune();
      return;
    }
    this.timer?.cancel();
    this.timer = null;
    this.folds = [];
    this.firstSeq = this.seq + 1;
    this.seenCounts.clear();
  }

  /**
   * The longest gap in the folds after `since`, in the part not folded yet, and in the gap
   * still open (a stall that just ended, before the sampler ran again); and the seq to start
   * from next time. Folds at most once per interval, however many sessions look.
   */
  maxSince(since: number): { maxMs: number; seq: number } {
    const now = instantOf(this.clock);
    let maxMs = Math.max(this.currentMaxMs, elapsedMs(this.lastSample, now));
    if (now.monotonicMs - this.lastFoldAt >= this.resolutionMs) this.fold(now);
    for (let i = Math.max(0, since + 1 - this.firstSeq); i < this.folds.length; i++) {
      if (this.folds[i]! > maxMs) maxMs = this.folds[i]!;
    }
    return { maxMs, seq: this.seq };
  }

  /** A watcher that had seen up to `from` has now seen up to `to`. */
  moved(from: number, to: number): void {
    if (from === to) return;
    this.count(from, -1);
    this.count(to, 1);
  }

  /** Drops the folds every watcher has seen (the seq a watcher saw up to only grows). */
  prune(): void {
    let drop = 0;
    while (this.firstSeq + drop <= this.seq && !this.seenCounts.has(this.firstSeq + drop - 1))
      drop++;
    if (drop === 0) return;
    this.folds.splice(0, drop);
    this.firstSeq += drop;
  }

  private count(seq: number, delta: number): void {
    const n = (this.seenCounts.get(seq) ?? 0) + delta;
    if (n > 0) this.seenCounts.set(seq, n);
    else this.seenCounts.delete(seq);
  }

  private sample(): void {
    const now = instantOf(this.clock);
    this.currentMaxMs = Math.max(this.currentMaxMs, elapsedMs(this.lastSample, now));
    this.lastSample = now;
  }

  private fold(now: Instant): void {
    this.sample();
    this.seq++;
    this.folds.push(this.currentMaxMs);
    this.currentMaxMs = 0;
    this.lastFoldAt = now.monotonicMs;
  }
}

/** One sampler per clock and resolution. */
const samplers = new WeakMap<ClientClock, Map<number, SharedSampler>>();

function samplerFor(clock: ClientClock, resolutionMs: number): SharedSampler {
  let byResolution = samplers.get(clock);
  if (!byResolution) {
    byResolution = new Map();
    samplers.set(clock, byResolution);
  }
  let s = byResolution.get(resolutionMs);
  if (!s) {
    s = new SharedSampler(clock, resolutionMs);
    byResolution.set(resolutionMs, s);
  }
  return s;
}

export class StallWatch {
  private readonly sampler: SharedSampler;
  private retained = false;
  /** The last fold this watcher has taken into account. */
  seenUpTo = 0;

  constructor(clock: ClientClock, resolutionMs = 10) {
    this.sampler = samplerFor(clock, resolutionMs);
  }

  /** Starts watching (the shared sampler runs while any watcher is retained). */
  retain(): void {
    if (this.retained) return;
    this.retained = true;
    this.seenUpTo = this.sampler.add(this);
  }

  release(): void {
    if (!this.retained) return;
    this.retained = false;
    this.sampler.remove(this);
  }

  /**
   * The longest time, in ms, the event loop may have gone without running timers since the
   * last call (at least about one sampling interval).
   */
  takeMaxStallMs(): number {
    if (!this.retained) return 0;
    const { maxMs, seq } = this.sampler.maxSince(this.seenUpTo);
    this.sampler.moved(this.seenUpTo, seq);
    this.seenUpTo = seq;
    this.sampler.prune();
    return maxMs;
  }
}
