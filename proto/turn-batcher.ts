// Gathers what arrives during one turn of the event loop and hands it over at once: the
// node's proposals (one append per turn instead of one per request), the client's stream
// requests (one frame) and its keepalives (one call). Shared by both ends, like the frames.

export class TurnBatcher<T> {
  private items: T[] = [];
  private scheduled = false;

  /**
   * @param defer runs the flush after this turn's other callbacks (setImmediate, or a
   *   virtual clock's zero-delay timer in a simulation)
   * @param flush takes everything gathered, in arrival order (never an empty list)
   */
  constructor(
    private readonly defer: (flush: () => void) => void,
    private readonly flush: (items: T[]) => void,
  ) {}

  add(item: T): void {
    this.items.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.flushNow());
  }

  /** Hands over what was gathered now, without waiting for the deferred flush. */
  flushNow(): void {
    this.scheduled = false;
    const items = this.items;
    if (items.length === 0) return;
    this.items = [];
    this.flush(items);
  }

  /** Items gathered and not yet handed over. */
  get size(): number {
    return this.items.length;
  }
}
