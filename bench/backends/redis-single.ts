// One Redis server as a benchmark backend: SET key token NX PX ttl to acquire, a Lua
// compare-and-delete to release. No server-side queue: the harness polls. No fencing token
// either: the random token only keeps a holder from deleting someone else's lock.
import { Redis } from "ioredis";
import { holderToken, hostPort, type BackendOptions, type LockBackend } from "./backend.ts";

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

interface Handle {
  key: string;
  token: string;
}

/** Connects to one server; resolves once it answers. */
export async function connectRedis(endpoint: string): Promise<Redis> {
  const { host, port } = hostPort(endpoint);
  const redis = new Redis({ host, port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}

/** What the report shows of a server: its version and its append-only fsync policy. */
export async function describeRedis(
  redis: Redis,
): Promise<{ version: string | undefined; appendfsync: string | undefined }> {
  const version = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1];
  const appendfsync = ((await redis.config("GET", "appendfsync")) as string[])[1];
  return { version, appendfsync };
}

export async function openRedisSingle(options: BackendOptions): Promise<LockBackend<null, Handle>> {
  const endpoint = options.endpoints[0];
  if (!endpoint || options.endpoints.length !== 1) throw new Error("redis-single: one endpoint");
  const redis = await connectRedis(endpoint);
  const releaseSha = (await redis.script("LOAD", RELEASE)) as string;
  const { version, appendfsync } = await describeRedis(redis);
  return {
    info: {
      server_version: version,
      addr: endpoint,
      ttl_ms: options.ttlMs,
      appendfsync,
      wait: "poll",
      client: "ioredis (1 shared connection)",
    },
    fencing: "none (random token for safe release only; no monotonic fencing token)",
    session: async () => null,
    async tryAcquire(_session, key) {
      const token = holderToken();
      const answer = await redis.set(key, token, "PX", options.ttlMs, "NX");
      return answer === "OK" ? { handle: { key, token }, fence: null } : null;
    },
    async release(_session, handle) {
      const deleted = await redis.evalsha(releaseSha, 1, handle.key, handle.token);
      if (deleted !== 1) throw new Error("release: lock not held (expired?)");
    },
    async close() {
      redis.disconnect();
    },
  };
}
