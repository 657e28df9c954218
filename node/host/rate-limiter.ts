// A token bucket per client identity. Buckets refill lazily from the injected clock, so
// an idle identity costs nothing but its map entry; full buckets are the first dropped
// when the map grows past its bound (dropping one is the same as keeping it).

export interface RateLimiterOptions {
  /** Tokens added per second; 0 turns limiting off. */
  readonly ratePerSecond: number;
  /** Bucket size: requests allowed at once. */
  readonly burst: number;
  /** Monotonic milliseconds. */
  readonly now: () => number;
  /** Identities tracked before idle ones are forgotten (default 100,000). */
  readonly maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rate: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(options: RateLimiterOptions) {
    this.rate = options.ratePerSecond;
    this.burst = Math.max(1, options.burst);
    this.now = options.now;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  /**
   * Takes `cost` tokens for `key`; false when its bucket has too few (the request is
   * refused). A request costing more than the burst needs a full bucket and leaves it in
   * debt, so no size of request is refused for ever and the rate still holds.
   */
  take(key: string, cost = 1): boolean {
    if (!this.enabled) return true;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.forgetIdle(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
      bucket.at = now;
    }
    if (bucket.tokens < Math.min(cost, this.burst)) return false;
    bucket.tokens -= cost;
    return true;
  }

  /** Identities tracked now (for tests). */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops buckets that have refilled; if none has, the oldest half (they refill soonest). */
  private forgetIdle(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
    if (this.buckets.size < this.maxKeys) return;
    let drop = Math.ceil(this.buckets.size / 2);
    for (const key of this.buckets.keys()) {
      if (drop-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}
