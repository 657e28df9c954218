// What a node's client streams are configured with: their limits, the request budget, the
// per-turn work budget and the metrics observer. Apart from lock-stream.ts so the service
// context can name them without importing the stream itself.
import type { TurnBudget } from "./turn-budget.ts";

export interface StreamLimits {
  /** Calls running (Acquires aside) plus answers not yet written, before the stream stops reading. */
  readonly maxInFlight: number;
  /** Acquires from arrival to answer; one more is refused with TOO_MANY_WAITS_ON_STREAM. */
  readonly maxWaits: number;
  /** Requests one frame may carry; more ends the stream with RESOURCE_EXHAUSTED. */
  readonly maxRequestsPerFrame: number;
  /** Bytes of one frame received; more ends the stream with RESOURCE_EXHAUSTED. */
  readonly maxFrameBytes: number;
  /** Bytes of one request; a larger one is answered RESOURCE_EXHAUSTED without being decoded. */
  readonly maxRequestBytes: number;
  /** Bytes of one frame sent (the node's message limit). */
  readonly maxAnswerFrameBytes: number;
}

/** What the stream needs beyond the calls: the per-client request budget, under TLS the caller's identity. */
export interface StreamOptions {
  readonly limits?: StreamLimits;
  /** Takes `cost` from the request budget of `key` (see rateKey, requestCost); false: over the rate. */
  readonly takeBudget?: (key: string, cost: number) => boolean;
  /** Certificates carry the caller's identity (mTLS). */
  readonly tls?: boolean;
  /** Counts what the streams carry (the node's metrics). */
  readonly observer?: StreamObserver;
  /** The per-turn work budget (default: one for the whole process). */
  readonly turns?: TurnBudget;
}

export interface StreamObserver {
  /** A stream opened (+1) or closed (-1). */
  streamsChanged(delta: 1 | -1): void;
  /** A frame arrived carrying `requests`, or left carrying `answers`. */
  frameIn(requests: number): void;
  frameOut(answers: number): void;
}
