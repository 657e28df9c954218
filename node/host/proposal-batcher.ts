// Gathers the proposals of one event-loop turn into one driver.propose() call. Each call
// appends to the leader's log and sends an append to every follower at once, so proposing
// requests one by one turns N concurrent requests into N appends per follower, N
// acknowledgements and N commit updates; gathered, they travel as one append with N
// entries. The order of the proposals is kept, and each still gets its own result.

/** Proposes commands in order; one promise per command (see Driver.propose). */
export type ProposeMany<R> = (data: readonly Uint8Array[]) => Array<Promise<R>>;

interface Waiting<R> {
  readonly data: Uint8Array;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class ProposalBatcher<R> {
  private waiting: Waiting<R>[] = [];
  private scheduled = false;

  /**
   * @param propose where gathered proposals go
   * @param defer runs the flush after this turn's other callbacks (setImmediate on a node)
   */
  constructor(
    private readonly propose: ProposeMany<R>,
    private readonly defer: (flush: () => void) => void,
  ) {}

  /** Queues one command; settles as Driver.propose would for it alone. */
  submit(data: Uint8Array): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ data, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      this.defer(() => this.flush());
    });
  }

  /** Proposes everything queued now. */
  flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    let results: Array<Promise<R>>;
    try {
      results = this.propose(batch.map((w) => w.data));
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const result = results[i];
      if (result) result.then(w.resolve, w.reject);
      else w.reject(new Error("proposal was not accepted"));
    });
  }
}
