// Watch streams that survive failover: events carry their log index, so after a broken
// stream the watcher resumes on another node from the last index it delivered, skipping
// the events of that index it already delivered (one entry can yield several events).
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../proto/grpc.ts";
import { toU64, u64 } from "../proto/wire.ts";
import { CURRENT_INDEX_METADATA_KEY } from "../proto/wire.ts";
import { errorFromStatus } from "./status-errors.ts";
import { pause, RESUMABLE, RESUME_PAUSE_MS, StreamClients } from "./stream-resume.ts";
import { kindFieldsFrom } from "../proto/codec/fields.ts";
import type { KindFields } from "./types.ts";

const pb = palisade.v1;

export type WatchEventKind =
  "acquired" | "released" | "sessionClosed" | "sessionExpired" | "revoked";

export type WatchEvent =
  /**
   * `acquired` events carry the grant's kind fields (mode, slot, data, hold limit); a
   * `revoked` one names "holdLimit" in `revokedFor` when the leader ended the grant for it;
   * a `released` one that the next `acquired` event of the same index completes names how
   * in `ended`: handed to a successor, upgraded or downgraded.
   */
  | ({
      kind: WatchEventKind;
      index: bigint;
      lock: string;
      sessionId: bigint;
      token: bigint;
      revokedFor?: "holdLimit";
      ended?: "handedOff" | "upgraded" | "downgraded";
    } & KindFields)
  /**
   * The start index is older than the node retains: events up to `index` are not
   * available. Re-read the state you need (getLock, listLocks); the watch continues
   * from index + 1.
   */
  | { kind: "resync"; index: bigint };

export interface WatchOptions {
  /** First log index to report; 0 or absent: events after the moment of the call. */
  fromIndex?: bigint;
  /** Ends the watch. */
  signal?: AbortSignal;
}

export interface WatchTarget {
  readonly endpoints: readonly string[];
  readonly credentials: grpc.ChannelCredentials;
  /** The bearer token each stream presents, if any. */
  readonly token?: string;
  /** A node's applied index: pins "from now" to a concrete index when a stream broke before its headers came. */
  appliedIndex(endpoint: string): Promise<bigint>;
}

const KINDS: Record<number, WatchEventKind> = {
  [pb.WatchEventKind.WATCH_EVENT_KIND_ACQUIRED]: "acquired",
  [pb.WatchEventKind.WATCH_EVENT_KIND_RELEASED]: "released",
  [pb.WatchEventKind.WATCH_EVENT_KIND_SESSION_CLOSED]: "sessionClosed",
  [pb.WatchEventKind.WATCH_EVENT_KIND_SESSION_EXPIRED]: "sessionExpired",
  [pb.WatchEventKind.WATCH_EVENT_KIND_REVOKED]: "revoked",
};

function eventKey(e: { lock: string; kind: string; sessionId: bigint; token: bigint }): string {
  return `${e.kind}\u0000${e.sessionId}\u0000${e.token}\u0000${e.lock}`;
}

/** Yields lock events whose names start with `prefix` until `signal` aborts. */
export async function* watchLocks(
  target: WatchTarget,
  prefix: string,
  options: WatchOptions = {},
): AsyncGenerator<WatchEvent> {
  const signal = options.signal;
  const clients = new StreamClients(target);
  const clientFor = (endpoint: string): grpc.Client => clients.get(endpoint);
  let endpointIndex = 0;
  let next = options.fromIndex ?? 0n;
  /** Events of index `next` already delivered (when resuming at the index of the last event). */
  let seenAtNext = new Set<string>();
  let outOfRangeInRow = 0;
  let pinFailures = 0;
  let attached = false;
  try {
    while (!signal?.aborted) {
      const endpoint = target.endpoints[endpointIndex % target.endpoints.length];
      // A first attach "from now" is pinned by the node's answer headers (its applied index);
      // a resume before anything was pinned asks a node's status instead.
      if (next === 0n && attached && pinFailures < target.endpoints.length) {
        try {
          next = (await target.appliedIndex(endpoint)) + 1n;
        } catch {
          // Status may be refused (an admin call): after every node refused, start at the
          // node's own "now" and pin to the first event's index instead.
          pinFailures += 1;
          endpointIndex += 1;
          continue;
        }
      }
      const call = clientFor(endpoint).makeServerStreamRequest(
        lockApi.Watch.path,
        lockApi.Watch.requestSerialize,
        lockApi.Watch.responseDeserialize,
        pb.WatchRequest.create({ prefix, fromIndex: toU64(next, "fromIndex") }),
      );
      attached = true;
      call.on("metadata", (headers: grpc.Metadata) => {
        const current = String(headers.get(CURRENT_INDEX_METADATA_KEY)[0] ?? "");
        if (next === 0n && /^\d+$/.test(current)) next = BigInt(current) + 1n;
      });
      const onAbort = (): void => call.cancel();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const raw of call as AsyncIterable<palisade.v1.WatchEvent>) {
          const kind = KINDS[raw.kind];
          if (kind === undefined) continue;
          const event = {
            kind,
            index: u64(raw.index, "index"),
            lock: raw.lock,
            sessionId: u64(raw.sessionId, "session_id"),
            token: u64(raw.token, "token"),
            ...kindFieldsFrom(raw),
            ...(raw.revokeCause === pb.RevokeCause.REVOKE_CAUSE_HOLD_LIMIT
              ? { revokedFor: "holdLimit" as const }
              : {}),
            ...endedFrom(raw.ended),
          };
          if (event.index < next) continue;
          if (event.index === next && seenAtNext.has(eventKey(event))) continue;
          if (event.index > next) {
            next = event.index;
            seenAtNext = new Set();
          }
          seenAtNext.add(eventKey(event));
          outOfRangeInRow = 0;
          yield event;
        }
        // The server ended the stream cleanly (it should not); resume elsewhere.
        endpointIndex += 1;
      } catch (err) {
        if (signal?.aborted) return;
        const status = err as Partial<grpc.ServiceError>;
        if (status.code === grpc.status.OUT_OF_RANGE) {
          const current = String(status.metadata?.get(CURRENT_INDEX_METADATA_KEY)[0] ?? "");
          if (/^\d+$/.test(current)) {
            // A node that restarted recently retains less; another may still have the events.
            outOfRangeInRow += 1;
            if (outOfRangeInRow < target.endpoints.length) {
              endpointIndex += 1;
              continue;
            }
            const index = BigInt(current);
            outOfRangeInRow = 0;
            yield { kind: "resync", index };
            next = index + 1n;
            seenAtNext = new Set();
            continue;
          }
        }
        if (typeof status.code !== "number" || !RESUMABLE.has(status.code)) {
          throw typeof status.code === "number"
            ? errorFromStatus(status.code, status.details ?? "", status.metadata)
            : err;
        }
        endpointIndex += 1;
        await pause(RESUME_PAUSE_MS, signal);
      } finally {
        signal?.removeEventListener("abort", onAbort);
        call.cancel();
      }
    }
  } finally {
    clients.close();
  }
}

/** How a released grant was completed by the next grant of its entry, if it was. */
function endedFrom(raw: palisade.v1.EndReason | null | undefined): {
  ended?: "handedOff" | "upgraded" | "downgraded";
} {
  switch (raw) {
    case pb.EndReason.END_REASON_HANDED_OFF:
      return { ended: "handedOff" };
    case pb.EndReason.END_REASON_UPGRADED:
      return { ended: "upgraded" };
    case pb.EndReason.END_REASON_DOWNGRADED:
      return { ended: "downgraded" };
    default:
      return {};
  }
}
