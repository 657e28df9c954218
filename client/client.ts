// PalisadeClient: the entry point. Opens sessions and takes locks; its linearizable reads are
// `client.read` (reads.ts) and the operators' calls `client.admin` (admin.ts), all over one
// Connection to every endpoint.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { tlsChannelCredentials } from "../proto/tls-channel.ts";
import { ClusterAdmin } from "./admin.ts";
import { checkBearerToken } from "./bearer.ts";
import { instantOf, systemClock, type ClientClock } from "./clock.ts";
import { Connection } from "./connection.ts";
import {
  InvalidArgumentError,
  LockBusyError,
  LockNotAcquiredError,
  OutcomeUnknownError,
  PalisadeError,
  SessionLostError,
} from "./errors.ts";
import { KeepaliveBatcher } from "./keepalive-batch.ts";
import type { LockApi } from "./lock-api.ts";
import { LockHandle, type LockContext } from "./lock-handle.ts";
import { LockReads } from "./reads.ts";
import { Session, type PendingAcquire } from "./session.ts";
import { CAMPAIGN_WAIT_MS, Elections, Leadership, type CampaignOptions } from "./elections.ts";
import { observeElection } from "./observe.ts";
import type { LockMode, LockTarget } from "./types.ts";

export interface PalisadeClientOptions {
  /** host:port of each node's client address. */
  endpoints: string[];
  /** Shown as the holder's client name in lock reads and history. */
  clientName?: string;
  /** Deadline of one call attempt (default 3 s; a waiting Acquire adds its wait). */
  callTimeoutMs?: number;
  /** How long a request keeps retrying through failovers before giving up (default 15 s). */
  retryBudgetMs?: number;
  /** Bound ρ on clock-rate drift for the session deadline (default 0.01). */
  driftBound?: number;
  /** Interval of the session deadline check (default 50 ms). */
  deadlineTickMs?: number;
  /** TLS: PEM contents of the CA and, for mutual TLS, the client's certificate and key. */
  tls?: TlsOptions;
  /** Ready-made channel credentials (instead of `tls`); plaintext when both are absent. */
  credentials?: grpc.ChannelCredentials;
  /**
   * A bearer token (`pal_<id>_<secret>`, from `palisadectl token create`): every call, lock
   * calls, reads, watches and admin calls, presents it as `authorization: Bearer <token>`
   * and acts as the token's identity. Without one a call is the certificate's identity
   * under TLS, else anonymous.
   */
  token?: string;
  /** TTL of the session that lock() and withLock() use (default 10 s). */
  sessionTtlMs?: number;
}

/**
 * What the client's sessions run on, for tests and simulators: the lock calls (default:
 * gRPC to the endpoints) and the clock (default: the system's). Reads and admin calls
 * always go to the endpoints.
 */
export interface ClientWiring {
  lockApi?: LockApi;
  clock?: ClientClock;
  /** OpenSession request ids (default: random UUIDs); a simulator gives deterministic ones. */
  newRequestId?: () => string;
}

export interface TlsOptions {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
}

export interface AcquireHandleOptions {
  /** 0 (default): fail at once with LockNotAcquiredError if held. Otherwise wait in the queue up to this long. */
  waitMs?: number;
  /** Aborting gives up the wait (CancelWait is sent; a grant that arrives anyway is released). */
  signal?: AbortSignal;
  /** Holder data shown with the grant (who holds it and why): reads, Watch, history. At most the cluster's maxHolderDataBytes. */
  data?: string;
  /**
   * A maximum hold time in ms: the leader revokes the grant once it passes. The handle's
   * signal aborts first (with HoldLimitError), counted from when the Acquire was sent.
   */
  holdMs?: number;
}

export interface LockOptions extends AcquireHandleOptions {
  /**
   * "exclusive" (default): alone. "shared": beside other shared holders. "upgradeable":
   * beside shared holders (never another upgradeable one), and able to upgrade() in place.
   */
  mode?: LockMode;
}

/** A counted semaphore (PalisadeClient.semaphore). */
export interface Semaphore {
  readonly name: string;
  readonly permits: number;
  /** One permit: a handle with its token and slot (0 to permits - 1). */
  acquire(options?: AcquireHandleOptions): Promise<LockHandle>;
}

export interface ClientEvents {
  /** A session of this client was lost; `locks` are the lock() grants that went with it. */
  lost: [info: { sessionId: bigint; locks: string[]; error: SessionLostError }];
}

function toBuffer(pem: string | Buffer | undefined): Buffer | null {
  if (pem === undefined) return null;
  return typeof pem === "string" ? Buffer.from(pem) : pem;
}

function credentialsFrom(options: PalisadeClientOptions): grpc.ChannelCredentials | undefined {
  if (options.credentials) return options.credentials;
  if (!options.tls) return undefined;
  const [ca, key, cert] = [options.tls.ca, options.tls.key, options.tls.cert].map(toBuffer);
  return tlsChannelCredentials({
    ...(ca ? { ca } : {}),
    ...(key ? { key } : {}),
    ...(cert ? { cert } : {}),
  });
}

export interface OpenSessionOptions {
  /** 1 s to 1 h (default 10 s). */
  ttlMs?: number;
  clientName?: string;
}

export type { SessionPage } from "./types.ts";

export class PalisadeClient extends EventEmitter<ClientEvents> {
  /** Linearizable reads: locks, sessions, history, token checks, watches. */
  readonly read: LockReads;
  /** Operators' calls: node status, revoke, leadership transfer, membership. */
  readonly admin: ClusterAdmin;
  /** Leader election: campaign, read the leader, observe, hand over. */
  readonly elections: Elections;
  private readonly connection: Connection;
  private readonly lockApi: LockApi;
  /** Every session's keepalives, sent together (one request per interval for sessions of one TTL). */
  private readonly keepalives: KeepaliveBatcher;
  private readonly clock: ClientClock;
  private readonly newRequestId: () => string;
  private readonly credentials: grpc.ChannelCredentials | undefined;
  private readonly token: string | undefined;
  private readonly sessionTtlMs: number;
  /** lock() grants and outstanding Acquires of this client, by lock name. */
  private readonly localLocks = new Map<string, LockHandle | "acquiring">();
  private lockSession: Promise<Session> | undefined;
  private readonly clientName: string;
  private readonly callTimeoutMs: number;
  private readonly retryBudgetMs: number;
  private readonly driftBound: number;
  private readonly deadlineTickMs: number;
  private readonly sessions = new Set<Session>();

  constructor(options: PalisadeClientOptions, wiring: ClientWiring = {}) {
    super();
    this.credentials = credentialsFrom(options);
    this.token = options.token === undefined ? undefined : checkBearerToken(options.token);
    this.sessionTtlMs = options.sessionTtlMs ?? 10_000;
    this.clientName = options.clientName ?? "";
    this.callTimeoutMs = options.callTimeoutMs ?? 3_000;
    this.retryBudgetMs = options.retryBudgetMs ?? 15_000;
    this.driftBound = options.driftBound ?? 0.01;
    this.deadlineTickMs = options.deadlineTickMs ?? 50;
    this.connection = new Connection({
      endpoints: options.endpoints,
      callTimeoutMs: this.callTimeoutMs,
      retryBudgetMs: this.retryBudgetMs,
      ...(this.credentials ? { credentials: this.credentials } : {}),
      ...(this.token !== undefined ? { token: this.token } : {}),
    });
    this.admin = new ClusterAdmin(this.connection);
    this.read = new LockReads(this.connection, this.streamAccess(), this.admin);
    this.lockApi = wiring.lockApi ?? this.connection;
    this.clock = wiring.clock ?? systemClock;
    this.keepalives = new KeepaliveBatcher(this.lockApi, this.clock);
    this.newRequestId = wiring.newRequestId ?? (() => randomUUID());
    this.elections = new Elections({
      campaign: (election, value, options) => this.campaign(election, value, options),
      leader: (election) => this.connection.call("Leader", () => ({ election })),
      observe: (election, options) =>
        observeElection(
          { endpoints: this.connection.allEndpoints, ...this.streamAccess() },
          election,
          options,
        ),
      sessionId: async () => (await this.sessionForLocks()).id,
    });
  }

  get endpoints(): readonly string[] {
    return this.connection.allEndpoints;
  }

  /** How watch and observe streams reach a node: this client's credentials and token. */
  private streamAccess(): { credentials: grpc.ChannelCredentials; token?: string } {
    return {
      credentials: this.credentials ?? grpc.credentials.createInsecure(),
      ...(this.token !== undefined ? { token: this.token } : {}),
    };
  }

  /** Opens a session; a retry reuses its request id so it never opens two. */
  async openSession(options: OpenSessionOptions = {}): Promise<Session> {
    const clientName = options.clientName ?? this.clientName;
    const requestId = this.newRequestId();
    const sent = instantOf(this.clock);
    const opened = await this.lockApi.call("OpenSession", () => ({
      ttlMs: options.ttlMs ?? 0,
      clientName,
      requestId,
    }));
    const session = new Session(
      this.lockApi,
      {
        id: opened.sessionId,
        ttlMs: opened.ttlMs,
        clientName,
        openedSentAt: sent.monotonicMs,
        openedSentWallMs: sent.wallMs,
        callTimeoutMs: this.callTimeoutMs,
        retryBudgetMs: this.retryBudgetMs,
        driftBound: this.driftBound,
        deadlineTickMs: this.deadlineTickMs,
      },
      this.clock,
      this.keepalives,
    );
    this.sessions.add(session);
    session.signal.addEventListener("abort", () => this.sessions.delete(session), { once: true });
    return session;
  }

  // ---- locks held by this client -------------------------------------------------------------

  /**
   * Acquires `lock` on this client's session (opened on first use, TTL `sessionTtlMs`),
   * exclusive unless `mode` is "shared". Rejects at once with LockBusyError, sending
   * nothing, when this client already holds the lock or has an Acquire of it outstanding;
   * with LockNotAcquiredError when the wait ends (or waitMs is 0) and another session holds
   * it; with the signal's reason when aborted.
   */
  async lock(lock: string, options: LockOptions = {}): Promise<LockHandle> {
    const { mode, ...rest } = options;
    const [handle] = await this.acquireHandles(
      [{ lock, ...(mode !== undefined ? { mode } : {}) }],
      rest,
    );
    return handle as LockHandle;
  }

  /**
   * A counted semaphore of `permits` permits: its acquire() takes one permit (a handle with
   * the permit's token and slot). The count is fixed while any permit is held or waited for;
   * another count is refused (PERMITS_MISMATCH), as is using the name as a lock.
   */
  semaphore(name: string, permits: number): Semaphore {
    return {
      name,
      permits,
      acquire: async (options: AcquireHandleOptions = {}) => {
        const [handle] = await this.acquireHandles([{ lock: name, permits }], options);
        return handle as LockHandle;
      },
    };
  }

  /**
   * Acquires every lock of `targets` (each in its mode, or a permit of a semaphore) in one
   * request: all granted at one log index, or none. A waiting set waits in every queue at
   * once and holds no part of the set meanwhile, so two sets never deadlock. One handle per
   * lock, in the order given, all with the same token; each releases its own lock.
   */
  async lockAll(
    targets: readonly LockTarget[],
    options: AcquireHandleOptions = {},
  ): Promise<LockHandle[]> {
    if (targets.length === 0) throw new InvalidArgumentError("lockAll: name at least one lock");
    return this.acquireHandles(targets, options);
  }

  /** Campaigns on the session lock() uses, again after each wait that ends unelected when no wait was given. */
  private async campaign(
    election: string,
    value: string,
    options: CampaignOptions,
  ): Promise<Leadership> {
    for (;;) {
      let session: Session | undefined;
      const start = (s: Session): PendingAcquire => {
        session = s;
        return s.startCampaign(election, value, {
          waitMs: options.waitMs ?? CAMPAIGN_WAIT_MS,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      };
      try {
        const [handle] = await this.acquireHandles([{ lock: election }], { data: value }, start);
        return new Leadership(handle as LockHandle, session as Session, value);
      } catch (err) {
        if (!(err instanceof LockNotAcquiredError) || options.waitMs !== undefined) throw err;
      }
    }
  }

  /**
   * The claim, Acquire and handles behind lock(), lockAll() and a semaphore's acquire()
   * (and a campaign's, whose `start` sends a Campaign instead).
   */
  private async acquireHandles(
    targets: readonly LockTarget[],
    options: AcquireHandleOptions,
    start?: (session: Session) => PendingAcquire,
  ): Promise<LockHandle[]> {
    const names = targets.map((t) => t.lock);
    if (new Set(names).size !== names.length)
      throw new InvalidArgumentError(`lockAll: a lock is named twice in ${JSON.stringify(names)}`);
    // Checked and claimed before the first await, so a concurrent call sees the claim.
    for (const name of names) if (this.localLocks.has(name)) throw new LockBusyError(name);
    options.signal?.throwIfAborted();
    for (const name of names) this.localLocks.set(name, "acquiring");
    const [first, ...more] = targets as [LockTarget, ...LockTarget[]];
    let claimHeldUntil: Promise<unknown> | undefined;
    try {
      const session = await this.sessionForLocks();
      const pending = start
        ? start(session)
        : session.startAcquire(first.lock, {
            waitMs: options.waitMs ?? 0,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(first.mode !== undefined ? { mode: first.mode } : {}),
            ...(first.permits !== undefined ? { permits: first.permits } : {}),
            ...(more.length > 0 ? { more } : {}),
            ...(options.data !== undefined ? { data: options.data } : {}),
            ...(options.holdMs !== undefined ? { holdMs: options.holdMs } : {}),
          });
      let result;
      try {
        result = await pending.result;
      } catch (err) {
        // An Acquire with an unknown outcome is still outstanding until the session settles it.
        if (err instanceof OutcomeUnknownError)
          claimHeldUntil = session.unsettledAcquire(first.lock);
        throw err;
      }
      if (result.cancelled) {
        claimHeldUntil = session.unsettledAcquire(first.lock);
        throw options.signal?.reason ?? new DOMException("lock wait aborted", "AbortError");
      }
      if (!result.acquired || result.token === undefined)
        throw new LockNotAcquiredError(result.blockedLock ?? first.lock, result.holder);
      // Lost while the answer travelled: the session's end already freed (or will free) the grant.
      if (!session.live)
        throw new SessionLostError(
          `session ${session.id} ended before the grant of ${JSON.stringify(first.lock)} arrived`,
        );
      const grants = result.grants ?? [];
      if (grants.length !== targets.length)
        throw new PalisadeError(
          `the Acquire of ${targets.length} locks was answered with ${grants.length} grants`,
        );
      return grants.map((g) => {
        const handle = new LockHandle(
          session,
          g.lock,
          g.token,
          (h) => {
            if (this.localLocks.get(g.lock) === h) this.localLocks.delete(g.lock);
          },
          {
            mode: g.mode,
            ...(g.permits !== undefined ? { permits: g.permits } : {}),
            ...(g.slot !== undefined ? { slot: g.slot } : {}),
            ...(options.data ? { data: options.data } : {}),
            ...(result.hold ? { hold: result.hold } : {}),
          },
        );
        if (!handle.signal.aborted) this.localLocks.set(g.lock, handle);
        return handle;
      });
    } finally {
      for (const name of names) {
        if (this.localLocks.get(name) !== "acquiring") continue;
        if (claimHeldUntil) {
          void claimHeldUntil.finally(() => {
            if (this.localLocks.get(name) === "acquiring") this.localLocks.delete(name);
          });
        } else {
          this.localLocks.delete(name);
        }
      }
    }
  }

  /** Runs `fn` while holding `lock`, and always releases it. Stop working when `signal` aborts. */
  async withLock<T>(
    lock: string,
    fn: (held: LockContext) => Promise<T>,
    options: LockOptions = {},
  ): Promise<T> {
    const handle = await this.lock(lock, options);
    let failed = false;
    try {
      return await fn({ lock, token: handle.token, signal: handle.signal });
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A release error must not hide the callback's own error.
      if (failed) await handle.release().catch(() => undefined);
      else await handle.release();
    }
  }

  /**
   * The session lock() uses, opened on first use and again after a loss (a lost session
   * stays lost). Its deadline is checked now: after a pause it may have passed unnoticed.
   */
  private sessionForLocks(): Promise<Session> {
    const current = this.lockSession;
    if (current) {
      return current.then(
        (session) => (session.live ? session : this.openLockSession()),
        () => this.openLockSession(),
      );
    }
    return this.openLockSession();
  }

  private openLockSession(): Promise<Session> {
    const previous = this.lockSession;
    const opening = (previous ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .then((old) => (old?.live ? old : this.openSession({ ttlMs: this.sessionTtlMs })))
      .then((session) => {
        // Registered before any handle listens, so the handles are still listed when it runs.
        session.signal.addEventListener(
          "abort",
          () => {
            if (session.state !== "lost") return;
            const locks = [...this.localLocks.entries()]
              .filter(([, h]) => h !== "acquiring" && h.sessionId === session.id)
              .map(([name]) => name);
            const error =
              session.signal.reason instanceof SessionLostError
                ? session.signal.reason
                : new SessionLostError(`session ${session.id} lost`);
            this.emit("lost", { sessionId: session.id, locks, error });
          },
          { once: true },
        );
        return session;
      });
    this.lockSession = opening;
    return opening;
  }

  /** Closes every open session (best effort) and the channels. */
  async close(): Promise<void> {
    // A release going on in the background is not waited for: closing the session ends it.
    await Promise.allSettled(
      [...this.localLocks.values()].map((h) =>
        h === "acquiring" || h.releasing ? undefined : h.release(),
      ),
    );
    await Promise.allSettled([...this.sessions].map((session) => session.close()));
    this.connection.close();
  }
}
