// Palisade backend for the peers' lock benchmark (bench.mjs --backend-module this-file),
// loaded compiled (dist/bench/palisade-backend.js). One client per benchmark process, one session per worker.
//   acquire : Acquire(lock, waitMs) — the server queues the waiter, so one blocking call.
//   release : Release(lock, token).
//   fencing : the token returned by Acquire (a per-lock counter, strictly increasing).
import { PalisadeClient, type Session } from "../client/index.ts";

export const fencing = "token returned by Acquire (strictly increasing per lock); one session per worker";

/** The flags bench.mjs passes to open(); only the ones read here. */
interface BenchOptions {
  ttlMs?: number;
  "palisade-endpoints"?: string | boolean;
  "acquire-timeout-ms"?: string | boolean;
  "allow-remote"?: string | boolean;
}

interface Handle {
  lock: string;
  token: bigint;
}

interface Acquired {
  handle: Handle;
  fence: bigint;
}

export interface LockBenchBackend {
  info: Record<string, unknown>;
  session(workerId: number): Promise<Session>;
  closeSession(session: Session): Promise<void>;
  acquire(session: Session, lock: string, signal: AbortSignal): Promise<Acquired | null>;
  release(session: Session, handle: Handle): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_ENDPOINTS = "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003";

/** The benchmark only ever talks to this machine unless told otherwise. */
function assertLoopback(endpoint: string): void {
  const host = endpoint.startsWith("[") ? endpoint.slice(1, endpoint.indexOf("]")) : endpoint.split(":")[0];
  if (host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host ?? "")) return;
  throw new Error(`refusing non-loopback endpoint ${endpoint} (pass --allow-remote to override)`);
}

function stringFlag(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export async function open(opts: BenchOptions): Promise<LockBenchBackend> {
  const endpoints = (stringFlag(opts["palisade-endpoints"]) ?? process.env["PALISADE_ENDPOINTS"] ?? DEFAULT_ENDPOINTS)
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (opts["allow-remote"] !== true) endpoints.forEach(assertLoopback);
  const ttlMs = opts.ttlMs ?? 10_000;
  // The harness aborts the signal at its own acquire timeout; the server-side wait is that long too.
  const waitMs = Number(stringFlag(opts["acquire-timeout-ms"]) ?? 30_000);
  const client = new PalisadeClient({ endpoints, clientName: "lock-bench" });
  return {
    info: { endpoints, session_ttl_ms: ttlMs, wait: "server-side (Acquire with waitMs)", wait_ms: waitMs, client: "palisade/client" },
    session: () => client.openSession({ ttlMs }),
    async closeSession(session) {
      await session.close();
    },
    // Blocking acquire for both modes; null when the harness aborted or the wait ran out.
    async acquire(session, lock, signal) {
      const result = await session.acquire(lock, { waitMs, signal });
      if (!result.acquired || result.token === undefined) return null;
      return { handle: { lock, token: result.token }, fence: result.token };
    },
    async release(session, handle) {
      await session.release(handle.lock, handle.token);
    },
    close: () => client.close(),
  };
}
