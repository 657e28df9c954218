// What Watch and Observe streams share to survive failover: which statuses mean "resume on
// another node", the pause before doing so, and one gRPC client per node for the stream's
// life (closed together when the stream ends).
import * as grpc from "@grpc/grpc-js";
import { nodeClient, type NodeAccess } from "./bearer.ts";

/** Pause before resuming on another node. */
export const RESUME_PAUSE_MS = 200;

/** Statuses after which a stream moves to another node and resumes. */
export const RESUMABLE = new Set<grpc.status>([
  grpc.status.UNAVAILABLE,
  grpc.status.CANCELLED,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.INTERNAL,
  grpc.status.UNKNOWN,
  grpc.status.RESOURCE_EXHAUSTED,
  grpc.status.ABORTED,
]);

/** One gRPC client per node, made on first use. */
export class StreamClients {
  private readonly clients = new Map<string, grpc.Client>();

  constructor(private readonly access: NodeAccess) {}

  get(endpoint: string): grpc.Client {
    let c = this.clients.get(endpoint);
    if (!c) this.clients.set(endpoint, (c = nodeClient(endpoint, this.access)));
    return c;
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
  }
}

/** Waits `ms`, or less if `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
