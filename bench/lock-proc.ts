// One lock client in a process of its own, for the parts that kill a holder: it opens a
// session (Palisade) or a lease (etcd, through the etcd-lockapi backend) with the
// given TTL and either takes the lock and keeps it, or waits for it. It reports on stdout,
// one JSON line each, with times on the host's monotonic clock (process.hrtime, the same
// in every process), so the parent can set them against its own:
//   {"event":"held","at_ns":"…"}      the lock is held (hold)
//   {"event":"waiting","at_ns":"…"}   the acquire is sent (wait)
//   {"event":"granted","at_ns":"…"}   the acquire returned the lock (wait)
//   {"event":"error","message":"…"}
//   node dist/bench/lock-proc.js palisade|etcd hold|wait ENDPOINTS TTL_MS LOCK
// It stays until it is killed.
import { PalisadeClient } from "../client/index.ts";
import { openEtcdLockBackend } from "./etcd-control.ts";

type System = "palisade" | "etcd";
type Role = "hold" | "wait";

/** How long a waiter waits in the queue: longer than any run of the parts. */
const WAIT_MS = 120_000;

const report = (event: string, extra: Record<string, string> = {}): void => {
  process.stdout.write(
    JSON.stringify({ event, at_ns: process.hrtime.bigint().toString(), ...extra }) + "\n",
  );
};

async function palisade(
  role: Role,
  endpoints: string[],
  ttlMs: number,
  lock: string,
): Promise<void> {
  const client = new PalisadeClient({
    endpoints,
    clientName: `bench-${role}`,
    retryBudgetMs: WAIT_MS,
  });
  const session = await client.openSession({ ttlMs });
  if (role === "wait") report("waiting");
  const result = await session.acquire(lock, { waitMs: role === "wait" ? WAIT_MS : 0 });
  if (!result.acquired) throw new Error(`${lock} not acquired`);
  report(role === "hold" ? "held" : "granted");
}

async function etcd(role: Role, endpoints: string[], ttlMs: number, lock: string): Promise<void> {
  const backend = await openEtcdLockBackend(endpoints, ttlMs);
  const session = await backend.session(0);
  if (role === "wait") report("waiting");
  const got = await backend.acquire(session, lock, AbortSignal.timeout(WAIT_MS));
  if (!got) throw new Error(`${lock} not acquired`);
  report(role === "hold" ? "held" : "granted");
}

async function main(argv: string[]): Promise<void> {
  const [system, role, endpointList, ttl, lock] = argv;
  const ttlMs = Number(ttl);
  if (
    (system !== "palisade" && system !== "etcd") ||
    (role !== "hold" && role !== "wait") ||
    !endpointList ||
    !Number.isFinite(ttlMs) ||
    !lock
  ) {
    throw new Error("usage: lock-proc.js palisade|etcd hold|wait ENDPOINTS TTL_MS LOCK");
  }
  const endpoints = endpointList.split(",");
  const which: System = system;
  if (which === "palisade") await palisade(role, endpoints, ttlMs, lock);
  else await etcd(role, endpoints, ttlMs, lock);
  // Keep the session (and its keepalives) going until killed.
  setInterval(() => undefined, 60_000);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stdout.write(
    JSON.stringify({ event: "error", message: e instanceof Error ? e.message : String(e) }) + "\n",
  );
  process.exit(1);
});
