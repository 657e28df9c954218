// Observe streams that survive failover: an election's events carry their log index (one
// event per index), so after a broken stream the observer resumes on another node from the
// index after the last one it delivered. A stream that starts "now" begins with the state
// of the moment (a leader, or no leader); so does one whose resume point every node has
// let go of, which is reported as a jump rather than hidden.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../proto/gen/palisade.js";
import { lockServiceDefinition as lockApi } from "../proto/grpc.ts";
import { decodeElectionEvent } from "../proto/codec/answers.ts";
import { toU64 } from "../proto/wire.ts";
import type { ElectionEvent } from "../proto/lock-values.ts";
import { errorFromStatus } from "./status-errors.ts";
import { pause, RESUMABLE, RESUME_PAUSE_MS, StreamClients } from "./stream-resume.ts";

const pb = palisade.v1;

/** An election event as Observe yields it; `resync`: the events before it were let go of (a jump). */
export type ObservedEvent = ElectionEvent & { readonly resync?: true };

export interface ObserveOptions {
  /** Resume after a previous event: its index + 1. Absent: start with the current state. */
  fromIndex?: bigint;
  /** Ends the stream. */
  signal?: AbortSignal;
}

export interface ObserveTarget {
  readonly endpoints: readonly string[];
  readonly credentials: grpc.ChannelCredentials;
  /** The bearer token each stream presents, if any. */
  readonly token?: string;
}

/**
 * Yields the changes of `election` in log order until `signal` aborts: gap-free from the
 * start (or from `fromIndex`), never an older leader after a newer one. A `fromIndex` no
 * node retains any more rejects with OutOfRangeError before anything is yielded.
 */
export async function* observeElection(
  target: ObserveTarget,
  election: string,
  options: ObserveOptions = {},
): AsyncGenerator<ObservedEvent> {
  const signal = options.signal;
  const clients = new StreamClients(target);
  const clientFor = (endpoint: string): grpc.Client => clients.get(endpoint);
  let endpointIndex = 0;
  let next = options.fromIndex ?? 0n;
  let yielded = false;
  let resync = false;
  let outOfRangeInRow = 0;
  try {
    while (!signal?.aborted) {
      const endpoint = target.endpoints[endpointIndex % target.endpoints.length] as string;
      const call = clientFor(endpoint).makeServerStreamRequest(
        lockApi.Observe.path,
        lockApi.Observe.requestSerialize,
        lockApi.Observe.responseDeserialize,
        pb.ObserveRequest.create({ election, fromIndex: toU64(next, "fromIndex") }),
      );
      const onAbort = (): void => call.cancel();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const raw of call as AsyncIterable<palisade.v1.ElectionEvent>) {
          const event = decodeElectionEvent(raw);
          if (next > 0n && event.index < next) continue;
          next = event.index + 1n;
          outOfRangeInRow = 0;
          yielded = true;
          yield resync ? { ...event, resync: true } : event;
          resync = false;
        }
        endpointIndex += 1;
      } catch (err) {
        if (signal?.aborted) return;
        const status = err as Partial<grpc.ServiceError>;
        if (status.code === grpc.status.OUT_OF_RANGE) {
          // A node that restarted recently retains less; another may still have the events.
          outOfRangeInRow += 1;
          if (outOfRangeInRow < target.endpoints.length) {
            endpointIndex += 1;
            continue;
          }
          if (!yielded) throw errorFromStatus(status.code, status.details ?? "", status.metadata);
          // Start again from the state of now, marked as a jump.
          outOfRangeInRow = 0;
          next = 0n;
          resync = true;
          continue;
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
