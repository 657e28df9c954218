// A FIFO mutex per key: one holder per key, the others queued in arrival order.
// The queue of a key is dropped when its last holder leaves, so idle keys cost nothing.

export class KeyedMutex {
  private readonly queues = new Map<string, Array<() => void>>();

  /** Resolves with a release function once the caller holds `key`. */
  async lock(key: string): Promise<() => void> {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = [];
      this.queues.set(key, queue);
    } else {
      const waiting = queue;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.queues.get(key);
      const next = current?.shift();
      if (next) next();
      else this.queues.delete(key);
    };
  }

  /** Runs `body` while holding `key`. */
  async run<T>(key: string, body: () => Promise<T> | T): Promise<T> {
    const release = await this.lock(key);
    try {
      return await body();
    } finally {
      release();
    }
  }

  /** How many callers wait for `key` (not counting the holder). */
  waiting(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Whether someone holds `key`. */
  held(key: string): boolean {
    return this.queues.has(key);
  }
}
