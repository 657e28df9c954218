// What the throughput harness (bench/lock-bench.ts) drives: one lock system behind one
// interface. A backend either waits on the server (acquire) or offers a non-blocking try
// (tryAcquire) that the harness repeats with a poll delay.

/** How the harness opens a backend: the servers to talk to and the lock terms. */
export interface BackendOptions {
  /** The system's servers: host:port, or http://host:port for etcd. */
  endpoints: string[];
  /** Session, lease or lock TTL. */
  ttlMs: number;
  /** How long one acquire may wait before the harness gives up on it. */
  acquireTimeoutMs: number;
  /** A bearer token for systems with one (Palisade under an access policy). */
  token?: string;
}

export interface Acquired<Handle> {
  handle: Handle;
  /** A fencing token, where the system gives one: successive holders must see it increase. */
  fence: bigint | null;
}

export interface LockBackend<Session, Handle> {
  /** Versions and configuration, copied into the result line. */
  info: Record<string, unknown>;
  /** What the system gives to fence a resource with. */
  fencing: string;
  /** Per-worker state (a session, a lease), opened before the run. */
  session(worker: number): Promise<Session>;
  closeSession?(session: Session): Promise<void>;
  /** Waits on the server until the lock is held; null when `signal` aborted first. */
  acquire?(session: Session, lock: string, signal: AbortSignal): Promise<Acquired<Handle> | null>;
  /** Takes the lock if free; null when someone holds it. */
  tryAcquire?(session: Session, lock: string): Promise<Acquired<Handle> | null>;
  release(session: Session, handle: Handle): Promise<void>;
  /**
   * The run is ending and every waiting acquire is about to be aborted: a system that
   * cannot take many waiters cancelled at once makes them leave its own way here.
   */
  stopping?(): void;
  close(): Promise<void>;
}

/** The benchmark only ever talks to this machine. */
export function assertLoopback(endpoint: string): void {
  const bare = endpoint.replace(/^[a-z]+:\/\//i, "");
  const host = bare.startsWith("[") ? bare.slice(1, bare.indexOf("]")) : bare.split(":")[0];
  if (host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host ?? "")) return;
  throw new Error(`refusing non-loopback endpoint ${endpoint}`);
}

/** host and port of "host:port" or "http://host:port". */
export function hostPort(endpoint: string): { host: string; port: number } {
  const bare = endpoint.replace(/^[a-z]+:\/\//i, "");
  const colon = bare.lastIndexOf(":");
  if (colon < 0) throw new Error(`endpoint ${endpoint} has no port`);
  return { host: bare.slice(0, colon), port: Number(bare.slice(colon + 1)) };
}

/** A random value that identifies one holder (for a compare-and-delete release). */
export function holderToken(): string {
  return `${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}
