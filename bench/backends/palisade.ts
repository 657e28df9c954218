// Palisade as a benchmark backend: one client per benchmark process, one session per worker.
//   acquire : Acquire(lock, waitMs): the server queues the waiter, so one blocking call.
//   release : Release(lock, token).
//   fencing : the token Acquire returns (strictly increasing per lock).
import { PalisadeClient, type Session } from "../../client/index.ts";
import type { BackendOptions, LockBackend } from "./backend.ts";

interface Handle {
  lock: string;
  token: bigint;
}

export async function openPalisade(options: BackendOptions): Promise<LockBackend<Session, Handle>> {
  const { endpoints, ttlMs } = options;
  // The harness aborts at its own acquire timeout; the server-side wait is that long too.
  const waitMs = options.acquireTimeoutMs;
  const client = new PalisadeClient({
    endpoints,
    clientName: "lock-bench",
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
  return {
    info: {
      endpoints,
      session_ttl_ms: ttlMs,
      wait: "server-side (Acquire with waitMs)",
      wait_ms: waitMs,
      client: "palisade-lock/client",
      bearer_token: options.token !== undefined,
    },
    fencing: "token returned by Acquire (strictly increasing per lock); one session per worker",
    session: () => client.openSession({ ttlMs }),
    async closeSession(session) {
      await session.close();
    },
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
