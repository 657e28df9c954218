// Watch streams: each subscriber gets the retained events from its start index, then every
// new event of its prefix as entries apply. Writes respect the stream's backpressure; a
// subscriber that falls too far behind is ended with RESOURCE_EXHAUSTED rather than let
// the node's memory grow.
import * as grpc from "@grpc/grpc-js";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { palisade } from "../../proto/gen/palisade.js";
import type { LockEvent, LockEventType } from "../lock/index.ts";
import { toU64 } from "../../proto/wire.ts";
import { wireKindFields } from "../../proto/codec/fields.ts";
import { kindFieldsOf } from "../host/read-answers.ts";
import { CURRENT_INDEX_METADATA_KEY, statusError, type StatusError } from "./status.ts";
import { WatchRing } from "./watch-ring.ts";

const Kind = palisade.v1.WatchEventKind;
const KINDS: Readonly<Record<LockEventType, palisade.v1.WatchEventKind>> = {
  acquired: Kind.WATCH_EVENT_KIND_ACQUIRED,
  released: Kind.WATCH_EVENT_KIND_RELEASED,
  sessionClosed: Kind.WATCH_EVENT_KIND_SESSION_CLOSED,
  sessionExpired: Kind.WATCH_EVENT_KIND_SESSION_EXPIRED,
  revoked: Kind.WATCH_EVENT_KIND_REVOKED,
  proclaimed: Kind.WATCH_EVENT_KIND_PROCLAIMED,
};

export function toWatchEvent(e: LockEvent): palisade.v1.WatchEvent {
  return palisade.v1.WatchEvent.create({
    index: toU64(e.index),
    lock: e.lock,
    kind: KINDS[e.type],
    sessionId: toU64(e.sessionId),
    token: toU64(e.token),
    ...wireKindFields(kindFieldsOf(e, e.permits)),
    ...(e.revokedFor === "holdLimit"
      ? { revokeCause: palisade.v1.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT }
      : {}),
    ...(e.ended !== undefined ? { ended: ENDED[e.ended] } : {}),
  });
}

/** A release that another grant of the same entry completes, by what completes it. */
const ENDED: Readonly<Record<NonNullable<LockEvent["ended"]>, palisade.v1.EndReason>> = {
  handedOff: palisade.v1.EndReason.END_REASON_HANDED_OFF,
  upgraded: palisade.v1.EndReason.END_REASON_UPGRADED,
  downgraded: palisade.v1.EndReason.END_REASON_DOWNGRADED,
};

/**
 * Where a watcher's events go: a gRPC Watch (or Observe) call, or the HTTP gateway's event
 * stream. It says when it is gone ("cancelled", "close") and when it takes writes again
 * ("drain"), and ends with the status emitted as "error".
 */
export interface WatchCall<M = palisade.v1.WatchEvent> {
  on(event: "cancelled" | "close" | "drain", listener: () => void): unknown;
  emit(event: "error", status: StatusError): boolean;
  /** false: stop writing until "drain". */
  write(event: M): boolean;
}

/**
 * What a subscriber streams: the events it takes (of locks under `prefix`, then `takes`),
 * and each as the message it sends, given the event queued after it (an entry's events
 * are queued together); null sends nothing for it.
 */
export interface EventView<M> {
  readonly prefix: string;
  /** Null while the subscriber may still see these events; else why not (see WatchHub.recheck). */
  readonly stillAllowed?: () => string | null;
  takes(e: LockEvent): boolean;
  message(e: LockEvent, next: LockEvent | undefined): M | null;
}

/** Watch: every event of the locks under a prefix. */
export function watchView(
  prefix: string,
  stillAllowed?: () => string | null,
): EventView<palisade.v1.WatchEvent> {
  return {
    prefix,
    takes: () => true,
    message: (e) => toWatchEvent(e),
    ...(stillAllowed ? { stillAllowed } : {}),
  };
}

export interface WatchHubOptions {
  /** Events kept for watchers that start in the past. */
  readonly ringCapacity: number;
  /** Events queued for one slow watcher before it is dropped. */
  readonly maxQueuedPerWatcher: number;
  /** First index whose events the hub will see (applied index + 1). */
  readonly firstIndex: number;
}

class Subscriber<M> {
  private queue: LockEvent[] = [];
  private paused = false;
  closed = false;

  constructor(
    private readonly call: WatchCall<M>,
    readonly view: EventView<M>,
    /** Events below this index were already sent (or predate the start). */
    private nextIndex: number,
    private readonly maxQueued: number,
    private readonly onClose: (s: Subscriber<M>) => void,
  ) {
    call.on("cancelled", () => this.close());
    call.on("close", () => this.close());
    call.on("drain", () => {
      this.paused = false;
      this.pump();
    });
  }

  offer(events: readonly LockEvent[]): void {
    if (this.closed) return;
    for (const e of events) {
      if (e.index < this.nextIndex || !e.lock.startsWith(this.view.prefix)) continue;
      if (!this.view.takes(e)) continue;
      this.queue.push(e);
    }
    if (this.queue.length > this.maxQueued) {
      this.fail(
        "ERROR_REASON_WATCH_TOO_SLOW",
        `watcher fell more than ${this.maxQueued} events behind; re-read state and resume with from_index after the last event received`,
      );
      return;
    }
    this.pump();
  }

  fail(reason: ErrorReasonName, details: string, metadata?: grpc.Metadata): void {
    if (this.closed) return;
    this.close();
    this.call.emit("error", statusError(reason, details, metadata));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.onClose(this);
  }

  private pump(): void {
    while (!this.closed && !this.paused && this.queue.length > 0) {
      const e = this.queue.shift() as LockEvent;
      this.nextIndex = e.index;
      const message = this.view.message(e, this.queue[0]);
      if (message !== null && !this.call.write(message)) this.paused = true;
    }
  }
}

export class WatchHub {
  private readonly ring: WatchRing;
  private readonly subscribers = new Set<Subscriber<unknown>>();
  private readonly maxQueued: number;

  constructor(options: WatchHubOptions) {
    this.ring = new WatchRing(options.ringCapacity, options.firstIndex);
    this.maxQueued = options.maxQueuedPerWatcher;
  }

  get watchers(): number {
    return this.subscribers.size;
  }

  /** Events of one applied entry. */
  publish(events: readonly LockEvent[]): void {
    if (events.length === 0) return;
    this.ring.append(events);
    for (const s of this.subscribers) s.offer(events);
  }

  /**
   * The state was replaced by a snapshot at `index`: events up to it are unknown here.
   * Watchers are ended with OUT_OF_RANGE so they re-read state and resume.
   */
  reset(index: number): void {
    this.ring.reset(index + 1);
    for (const s of [...this.subscribers]) {
      s.fail(
        "ERROR_REASON_SNAPSHOT_INSTALLED",
        `this node installed a snapshot at index ${index}; re-read state and resume from ${index + 1}`,
        currentIndexMetadata(index),
      );
    }
  }

  /**
   * Starts streaming to `call`. fromIndex 0 means "new events only". Below the first
   * retained index the call ends with OUT_OF_RANGE carrying the current index.
   */
  attach(
    call: WatchCall,
    prefix: string,
    fromIndex: number,
    appliedIndex: number,
    stillAllowed?: () => string | null,
  ): void {
    this.subscribe(call, watchView(prefix, stillAllowed), fromIndex, appliedIndex);
  }

  /**
   * Access changed (a policy applied, a token revoked): every stream whose caller may no
   * longer see its events ends with PERMISSION_DENIED.
   */
  recheck(): void {
    for (const s of [...this.subscribers]) {
      const refusal = s.view.stillAllowed?.() ?? null;
      if (refusal !== null) s.fail("ERROR_REASON_PERMISSION_DENIED", refusal);
    }
  }

  /** Streams the events `view` takes, as its messages: attach's rules otherwise. */
  subscribe<M>(
    call: WatchCall<M>,
    view: EventView<M>,
    fromIndex: number,
    appliedIndex: number,
  ): void {
    const start = fromIndex === 0 ? appliedIndex + 1 : fromIndex;
    const found = this.ring.since(start, view.prefix);
    if (found.kind === "outOfRange") {
      call.emit(
        "error",
        statusError(
          "ERROR_REASON_BELOW_RETENTION",
          `from_index ${fromIndex} is below the first retained index ${found.firstRetained}; ` +
            `the current index is ${appliedIndex}: re-read state and watch from ${appliedIndex + 1}`,
          currentIndexMetadata(appliedIndex),
        ),
      );
      return;
    }
    const sub: Subscriber<M> = new Subscriber(call, view, start, this.maxQueued, (s) =>
      this.subscribers.delete(s as Subscriber<unknown>),
    );
    this.subscribers.add(sub as Subscriber<unknown>);
    sub.offer(found.events);
  }

  /** Ends every stream (the node is stopping). */
  closeAll(): void {
    for (const s of [...this.subscribers])
      s.fail(
        "ERROR_REASON_SHUTTING_DOWN",
        "this node is shutting down; resume the watch on another node",
      );
  }
}

function currentIndexMetadata(index: number): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set(CURRENT_INDEX_METADATA_KEY, String(index));
  return md;
}
