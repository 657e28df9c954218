// The two Redis lock designs compared with Palisade: a lock on one Redis (SET NX PX, and
// a compare-and-delete release), and Redlock over five independent Redis servers (the
// lock is held when a majority accepted it and the time spent is below the TTL minus
// the drift allowance). Neither hands out a fencing token.
import { randomUUID } from "node:crypto";
import { RedisConnection } from "./resp.ts";

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export interface RedisGrant {
  value: string;
  /** How long the holder may assume it holds the lock. */
  validityMs: number;
  /** Servers that accepted it. */
  servers: number[];
}

export class RedisLockClient {
  private readonly conns: RedisConnection[];

  /** One server: single Redis; five: Redlock. */
  constructor(servers: { host: string; port: number }[]) {
    this.conns = servers.map((s) => new RedisConnection(s.host, s.port));
  }

  async acquire(lock: string, ttlMs: number): Promise<RedisGrant | undefined> {
    const value = randomUUID();
    const started = performance.now();
    const answers = await Promise.all(
      this.conns.map((c) =>
        c.command(["SET", lock, value, "NX", "PX", ttlMs], 100).then(
          (r) => r === "OK",
          () => false,
        ),
      ),
    );
    const servers = this.conns.filter((_, i) => answers[i]).map((c) => c.port);
    const drift = Math.round(ttlMs * 0.01) + 2;
    const validityMs = ttlMs - (performance.now() - started) - drift;
    if (servers.length > this.conns.length / 2 && validityMs > 0)
      return { value, validityMs, servers };
    await this.release(lock, value);
    return undefined;
  }

  async release(lock: string, value: string): Promise<void> {
    await Promise.all(
      this.conns.map((c) => c.command(["EVAL", RELEASE, 1, lock, value], 100).catch(() => 0)),
    );
  }

  close(): void {
    for (const c of this.conns) c.close();
  }
}
