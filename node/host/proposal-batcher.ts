// Gathers the proposals of one event-loop turn into one driver.propose() call. Each call
// appends to the leader's log and sends an append to every follower at once, so proposing
// requests one by one turns N concurrent requests into N appends per follower, N
// acknowledgements and N commit updates; gathered, they travel as one append with N
// entries. The order of the proposals is kept, and each still gets its own result.

import { TurnBatcher } from "../../proto/turn-batcher.ts";

/** Proposes commands in order; one promise per command (see Driver.propose). */
export type ProposeMany<R> = (data: readonly Uint8Array[]) => Array<Promise<R>>;

interface Waiting<R> {
  readonly data: Uint8Array;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class ProposalBatcher<R> {
  private readonly waiting: TurnBatcher<Waiting<R>>;

  /**
   * @param propose where gathered proposals go
   * @param defer runs the flush after this turn's other callbacks (setImmediate on a node)
   */
  constructor(
    private readonly propose: ProposeMany<R>,
    defer: (flush: () => void) => void,
  ) {
    this.waiting = new TurnBatcher(defer, (batch) => this.proposeAll(batch));
  }

  /** Queues one command; settles as Driver.propose would for it alone. */
  submit(data: Uint8Array): Promise<R> {
    return new Promise<R>((resolve, reject) => this.waiting.add({ data, resolve, reject }));
  }

  /** Proposes everything queued now. */
  flush(): void {
    this.waiting.flushNow();
  }

  private proposeAll(batch: readonly Waiting<R>[]): void {
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
