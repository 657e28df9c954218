// Redlock over independent Redis servers as a benchmark backend (the redlock library with
// ioredis clients): a majority of servers must take the lock within its validity; a failed
// attempt releases what it took. The library's own retries are off: the harness polls, as
// for single Redis. No fencing token.
import type { Redis } from "ioredis";
import Redlock, { ExecutionError, ResourceLockedError, type Lock } from "redlock";
import type { BackendOptions, LockBackend } from "./backend.ts";
import { connectRedis, describeRedis } from "./redis-single.ts";

/** Whether a failed attempt only met a lock held by someone else (busy), not a failure. */
async function onlyBusy(err: ExecutionError): Promise<boolean> {
  for (const attempt of err.attempts) {
    const stats = await attempt;
    for (const vote of stats.votesAgainst.values())
      if (!(vote instanceof ResourceLockedError)) return false;
  }
  return true;
}

export async function openRedlock(options: BackendOptions): Promise<LockBackend<null, Lock>> {
  const clients: Redis[] = await Promise.all(options.endpoints.map(connectRedis));
  const redlock = new Redlock(clients, {
    driftFactor: 0.01,
    retryCount: 0,
    retryDelay: 0,
    retryJitter: 0,
    automaticExtensionThreshold: 500,
  });
  redlock.on("error", () => undefined);
  const { version, appendfsync } = await describeRedis(clients[0]!);
  return {
    info: {
      server_version: version,
      addrs: options.endpoints,
      ttl_ms: options.ttlMs,
      appendfsync,
      quorum: Math.floor(clients.length / 2) + 1,
      wait: "poll",
      client: "redlock + ioredis",
    },
    fencing: "none (Redlock provides no fencing token)",
    session: async () => null,
    async tryAcquire(_session, key) {
      try {
        return { handle: await redlock.acquire([key], options.ttlMs), fence: null };
      } catch (err) {
        if (err instanceof ExecutionError && (await onlyBusy(err))) return null;
        throw err;
      }
    },
    async release(_session, lock) {
      await lock.release();
    },
    async close() {
      for (const client of clients) client.disconnect();
    },
  };
}
