// The free-space reserve on the leader's side: while the data volume is below the reserve
// the node takes no proposals (it could not write them), answering RESOURCE_EXHAUSTED at
// once with the reason, and it checks free space once a second so an idle node notices
// too. Appends to a follower below the reserve wait in the store and are not acknowledged.

export interface SpaceSource {
  /** Measures free space now (updates lowOnSpace and reports crossings); false while below the reserve. */
  spaceOk(): Promise<boolean>;
  readonly lowOnSpace: boolean;
}

export class DiskGuard {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly storage: SpaceSource,
    private readonly reserveBytes: number,
    private readonly checkMs = 1_000,
  ) {}

  /** Starts the periodic check (a failing check is left to the next write to report). */
  start(): void {
    if (this.timer !== null || this.reserveBytes <= 0) return;
    this.timer = setInterval(
      () => void this.storage.spaceOk().catch(() => undefined),
      this.checkMs,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Why proposals are refused now (free space below the reserve), or null: the host's writesRefused. */
  refusal(): string | null {
    if (!this.storage.lowOnSpace) return null;
    return `free disk space on this node is below the reserve of ${this.reserveBytes} bytes: it takes no writes until space returns`;
  }
}
