// How much client-stream work one event-loop turn may take, shared by every client stream
// of a node: a stream handles a frame's requests while the turn has units left, and hands
// the rest to a later turn, so timers, peer messages and other clients run in between
// however large or many the frames. The budget comes back once per turn of the loop (its
// `setImmediate` phase), and whoever waited longest goes first.

export class TurnBudget {
  private spent = 0;
  private refillScheduled = false;
  private waiting: Array<() => void> = [];

  constructor(readonly unitsPerTurn: number) {}

  /**
   * Takes `units` from this turn's budget; false when they do not fit what is left (the
   * first taker of a turn always gets them, so every piece of work runs in some turn).
   */
  take(units: number): boolean {
    if (this.spent > 0 && this.spent + units > this.unitsPerTurn) return false;
    this.spent += units;
    this.scheduleRefill();
    return true;
  }

  /** Runs `resume` once the budget is back (a later turn), in the order asked. */
  later(resume: () => void): void {
    this.waiting.push(resume);
    this.scheduleRefill();
  }

  private scheduleRefill(): void {
    if (this.refillScheduled) return;
    this.refillScheduled = true;
    setImmediate(() => this.refill());
  }

  private refill(): void {
    this.refillScheduled = false;
    this.spent = 0;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }
}
