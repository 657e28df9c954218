// Gathers the proposals of one event-loop turn into one driver.propose() call. Each call
// appends to the leader's log and sends an append to every follower at once, so proposing
// requests one by one turns N concurrent requests into N appends per follower, N
// acknowledgements and N commit updates; gathered, they travel as one append with N
// entries. The order of the proposals is kept, and each still gets its own result.

import { TurnBatcher } from "../../proto/turn-batcher.ts";

/** Told how one proposal ends: its result, or why it will not apply. */
export interface Settler<R> {
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Proposes commands in order and tells `settlers[i]` how `data[i]` ends (see
 * Driver.proposeTo); a throw ends them all.
 */
export type ProposeMany<R> = (data: readonly Uint8Array[], settlers: readonly Settler<R>[]) => void;

interface Waiting<R> extends Settler<R> {
  readonly data: Uint8Array;
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
    try {
      // Each waiting request is its own settler: no promise per command between the two.
      this.propose(
        batch.map((w) => w.data),
        batch,
      );
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
