// How many accesses a fence admitted and refused: a small counter any adapter keeps, for
// the user to export (to Prometheus, logs, a health page). No dependency: subscribe with
// onDecision and feed your own metrics library, or read snapshot() when scraped.

export type FenceDecision = "admitted" | "rejected";

export interface FenceCountsSnapshot {
  readonly admitted: number;
  readonly rejected: number;
}

export type FenceDecisionListener = (decision: FenceDecision, resource: string) => void;

export class FenceCounter {
  private admittedCount = 0;
  private rejectedCount = 0;
  private readonly listeners = new Set<FenceDecisionListener>();

  /** Accesses whose token was admitted (the effect ran, or was about to). */
  get admitted(): number {
    return this.admittedCount;
  }

  /** Accesses refused because a higher token had been admitted (FenceRejectedError). */
  get rejected(): number {
    return this.rejectedCount;
  }

  snapshot(): FenceCountsSnapshot {
    return { admitted: this.admittedCount, rejected: this.rejectedCount };
  }

  /** Calls `listener` on every decision; returns a function that stops it. A throwing listener does not affect the access. */
  onDecision(listener: FenceDecisionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records one decision (the adapters call this). */
  count(decision: FenceDecision, resource: string): void {
    if (decision === "admitted") this.admittedCount++;
    else this.rejectedCount++;
    for (const listener of this.listeners) {
      try {
        listener(decision, resource);
      } catch {
        // A metrics hook must never change whether an access runs.
      }
    }
  }
}
