// Watches the event loop for stalls (perf_hooks.monitorEventLoopDelay). A timer that was
// due during a stall fires late, so a session's deadline check alone would notice a stall
// only after it; this tells the check how long the loop may have been blocked since the
// last look, so a stall that may have outlived the deadline counts as loss.
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

export class StallWatch {
  private readonly histogram: IntervalHistogram;
  private users = 0;

  constructor(private readonly resolutionMs = 10) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  }

  /** Starts sampling (reference counted, one per open session). */
  retain(): void {
    if (this.users++ === 0) this.histogram.enable();
  }

  release(): void {
    if (this.users > 0 && --this.users === 0) this.histogram.disable();
  }

  /** The longest loop delay seen since the last call, in ms, plus one sampling interval; then resets. */
  takeMaxStallMs(): number {
    if (this.users === 0) return 0;
    const maxNs = this.histogram.max;
    this.histogram.reset();
    // An empty histogram reports a huge max; nothing was sampled yet, so nothing stalled.
    if (!Number.isFinite(maxNs) || maxNs <= 0 || maxNs > 9e18) return 0;
    return maxNs / 1e6 + this.resolutionMs;
  }
}
