// Linearizable reads of a Palisade cluster, `client.read`: a lock with its holders and
// waiters, pages of locks and sessions, a lock's history, whether a token is current, and
// watches of lock events. Each read is served through the leader after a ReadIndex, so no
// read answers from a stale follower.
import * as grpc from "@grpc/grpc-js";
import type { AnswerOf, CallName, RequestOf } from "../proto/lock-calls.ts";
import type { ClusterAdmin } from "./admin.ts";
import type { Connection } from "./connection.ts";
import { SessionNotFoundError } from "./errors.ts";
import type {
  HistoryRecordInfo,
  HolderCursor,
  LockInfo,
  LockPage,
  SessionInfo,
  SessionPage,
} from "./types.ts";
import { watchLocks, type WatchEvent, type WatchOptions } from "./watch.ts";

export interface ReadOptions {
  /** Stop waiting for the answer (a read changes nothing, so giving up is always safe). */
  signal?: AbortSignal;
  /** How long to keep retrying through failovers (default: the client's retryBudgetMs). */
  timeoutMs?: number;
}

export interface ListLocksOptions {
  prefix?: string;
  after?: string;
  limit?: number;
}

/** Which page of a lock's holders and of its waiters getLock reads (default: the first 100 of each). */
export interface LockPageOptions {
  /** The holders after this one (a previous answer's nextHoldersAfter). */
  holdersAfter?: HolderCursor;
  /** The waiters after this one (a previous answer's nextWaitersAfter). */
  waitersAfter?: bigint;
  /** Most holders (waiters) listed: default 100, at most 1,000; 0 lists none (the counts only). */
  holderLimit?: number;
  waiterLimit?: number;
}

export class LockReads {
  constructor(
    private readonly connection: Connection,
    private readonly streams: { credentials: grpc.ChannelCredentials; token?: string },
    private readonly admin: ClusterAdmin,
  ) {}

  /**
   * A lock with one page of its holders and one of its waiters (the first of each unless
   * `options` say where to go on), both totals, and where each list goes on.
   */
  async getLock(lock: string, options: LockPageOptions & ReadOptions = {}): Promise<LockInfo> {
    return this.read(
      "GetLock",
      () => ({
        lock,
        ...(options.holderLimit !== undefined ? { holderLimit: options.holderLimit } : {}),
        ...(options.waiterLimit !== undefined ? { waiterLimit: options.waiterLimit } : {}),
        ...(options.holdersAfter ? { holdersAfter: options.holdersAfter } : {}),
        waitersAfterIndex: options.waitersAfter ?? 0n,
      }),
      options,
    );
  }

  /**
   * Every page of a lock's holders and waiters: the first as getLock reads it, then each
   * next page of the lists that go on (a list that ended is not read again). Each page is a
   * read of its own: a grant or wait that ends or begins meanwhile may be missing or new,
   * but no entry comes twice.
   */
  async *lockPages(
    lock: string,
    options: Pick<LockPageOptions, "holderLimit" | "waiterLimit"> & ReadOptions = {},
  ): AsyncGenerator<LockInfo, void, undefined> {
    let page = await this.getLock(lock, options);
    yield page;
    while (page.nextHoldersAfter !== undefined || page.nextWaitersAfter !== undefined) {
      const holdersAfter = page.nextHoldersAfter;
      const waitersAfter = page.nextWaitersAfter;
      page = await this.getLock(lock, {
        ...options,
        ...(holdersAfter !== undefined ? { holdersAfter } : { holderLimit: 0 }),
        ...(waitersAfter !== undefined ? { waitersAfter } : { waiterLimit: 0 }),
      });
      yield page;
    }
  }

  async listLocks(options: ListLocksOptions & ReadOptions = {}): Promise<LockPage> {
    return this.read(
      "ListLocks",
      () => ({
        prefix: options.prefix ?? "",
        after: options.after ?? "",
        limit: options.limit ?? 0,
      }),
      options,
    );
  }

  /** Every lock whose name starts with `prefix`, following pages. */
  async allLocks(prefix = "", options: ReadOptions = {}): Promise<LockPage["locks"]> {
    const all: LockPage["locks"] = [];
    let after = "";
    do {
      const page = await this.listLocks({ ...options, prefix, after });
      all.push(...page.locks);
      after = page.nextAfter;
    } while (after !== "");
    return all;
  }

  /** The session, or undefined when it is unknown or ended. */
  async getSession(sessionId: bigint, options: ReadOptions = {}): Promise<SessionInfo | undefined> {
    try {
      return (await this.read("GetSession", () => ({ sessionId }), options)).session;
    } catch (err) {
      if (err instanceof SessionNotFoundError) return undefined;
      throw err;
    }
  }

  /** One page of live sessions, by id (after 0n: from the start; limit 0: the server's default page). */
  async listSessions(
    options: { after?: bigint; limit?: number } & ReadOptions = {},
  ): Promise<SessionPage> {
    return this.read(
      "ListSessions",
      () => ({ after: options.after ?? 0n, limit: options.limit ?? 0 }),
      options,
    );
  }

  /** Every live session, following pages. */
  async allSessions(options: ReadOptions = {}): Promise<SessionInfo[]> {
    const all: SessionInfo[] = [];
    let after = 0n;
    do {
      const page = await this.listSessions({ ...options, after });
      all.push(...page.sessions);
      after = page.nextAfter;
    } while (after !== 0n);
    return all;
  }

  /** Retained grants of a lock, oldest first (limit 0: all). */
  async history(lock: string, limit = 0, options: ReadOptions = {}): Promise<HistoryRecordInfo[]> {
    return (await this.read("GetLockHistory", () => ({ lock, limit }), options)).records;
  }

  /** Whether `token` is the lock's current grant at the instant of the read (best effort). */
  async validateToken(lock: string, token: bigint, options: ReadOptions = {}): Promise<boolean> {
    return (await this.read("ValidateToken", () => ({ lock, token }), options)).valid;
  }

  /**
   * Lock events of names starting with `prefix`, as they are applied. Resumes on another
   * node from the last delivered index when a stream breaks. End it with `options.signal`
   * or by leaving the `for await` loop.
   */
  watch(prefix = "", options: WatchOptions = {}): AsyncGenerator<WatchEvent> {
    return watchLocks(
      {
        endpoints: this.connection.allEndpoints,
        ...this.streams,
        appliedIndex: async (endpoint) => (await this.admin.status(endpoint)).appliedIndex,
      },
      prefix,
      options,
    );
  }

  private read<N extends CallName>(
    name: N,
    build: () => RequestOf<N>,
    options: ReadOptions = {},
  ): Promise<AnswerOf<N>> {
    const call = this.connection.call(
      name,
      build,
      options.timeoutMs !== undefined ? { budgetMs: options.timeoutMs } : {},
    );
    const signal = options.signal;
    if (!signal) return call;
    signal.throwIfAborted();
    return new Promise<AnswerOf<N>>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      call.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
}
