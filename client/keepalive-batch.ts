// The keepalives of one client's sessions, sent together: the calls made within one turn of
// the clock (the sessions of one TTL wake on the same grid, see client/session.ts) leave as
// one KeepAlive request of up to MAX_SESSIONS_PER_REQUEST ids, so a process keeping 10,000
// sessions alive sends a few requests per interval, not 10,000, and the leader runs one
// quorum round for them all. Each session still gets its own outcome: acknowledged,
// SessionNotFoundError, PermissionDeniedError (the session is not the caller's identity's,
// or that identity lost the rights it uses), or the failure of the whole request when no
// leader answered in time.
import { status as Status } from "@grpc/grpc-js";
import { MAX_KEEPALIVE_SESSION_IDS } from "../proto/limits.ts";
import { TurnBatcher } from "../proto/turn-batcher.ts";
import type { ClientClock } from "./clock.ts";
import { PalisadeError, PermissionDeniedError, SessionNotFoundError } from "./errors.ts";
import type { CallOptions, LockApi } from "./lock-api.ts";

/** What keeps one session alive: resolves once the leader acknowledged its keepalive. */
export interface KeepAliveSender {
  keepAlive(sessionId: bigint, options?: CallOptions): Promise<void>;
}

/** Ids per request at most: as many as a node takes. */
export const MAX_SESSIONS_PER_REQUEST = MAX_KEEPALIVE_SESSION_IDS;

type Outcome = "ok" | "notFound" | "denied";

/** Each id's outcome of one KeepAlive call, in order: acknowledged, gone, or refused. */
async function keepAlive(
  api: LockApi,
  sessionIds: readonly bigint[],
  options: CallOptions,
): Promise<Outcome[]> {
  const { sessions } = await api.call("KeepAlive", () => ({ sessionIds }), options);
  if (sessions.length !== sessionIds.length)
    throw new PalisadeError(
      `KeepAlive answered ${sessions.length} sessions for ${sessionIds.length} asked`,
    );
  return sessions.map((k, i) => {
    if (k.sessionId !== sessionIds[i])
      throw new PalisadeError(
        `KeepAlive answered session ${k.sessionId} in the place of ${sessionIds[i]}`,
      );
    if (k.denied === true) return "denied";
    return k.ttlMs === null ? "notFound" : "ok";
  });
}

/**
 * The error of a session that was not kept alive: either way the cluster does not restart
 * its TTL, so the session is as good as lost (client/session.ts takes it so).
 */
function notKeptAlive(sessionId: bigint, outcome: "notFound" | "denied"): PalisadeError {
  if (outcome === "denied")
    return new PermissionDeniedError(
      `keepalive of session ${sessionId} refused: PERMISSION_DENIED: it is not a session of this caller's identity, or that identity lost the rights the session uses`,
      Status.PERMISSION_DENIED,
      "ERROR_REASON_PERMISSION_DENIED",
    );
  return new SessionNotFoundError(
    `session ${sessionId} not found (unknown, closed or expired); open a new session`,
    Status.NOT_FOUND,
    "ERROR_REASON_SESSION_NOT_FOUND",
  );
}

/** One KeepAlive call per session. */
export function singleKeepAlives(api: LockApi): KeepAliveSender {
  return {
    keepAlive: async (sessionId, options = {}) => {
      const [outcome] = await keepAlive(api, [sessionId], options);
      if (outcome !== "ok") throw notKeptAlive(sessionId, outcome);
    },
  };
}

interface Member {
  readonly id: bigint;
  readonly options: CallOptions;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function attemptTimeoutOf(options: CallOptions): number | undefined {
  const t = options.attemptTimeoutMs;
  return typeof t === "function" ? t() : t;
}

/**
 * The options of one request for many sessions: each attempt as short as the most pressed
 * session's (so a silent node is left in time for it), the longest budget, and time left
 * while any session still has some.
 */
export function combinedOptions(members: readonly { options: CallOptions }[]): CallOptions {
  const options = members.map((m) => m.options);
  const out: CallOptions = { kind: "read" };
  const budgets = options.map((o) => o.budgetMs);
  if (budgets.every((b) => b !== undefined)) out.budgetMs = Math.max(...budgets);
  const timeLeft = options.map((o) => o.timeLeftMs);
  if (timeLeft.every((f) => f !== undefined))
    out.timeLeftMs = () => Math.max(...timeLeft.map((f) => f()));
  if (options.some((o) => o.attemptTimeoutMs !== undefined)) {
    out.attemptTimeoutMs = () => {
      // A session whose time is up no longer sizes the attempts of the others.
      const live = options.filter((o) => !o.timeLeftMs || o.timeLeftMs() > 0);
      const sizes = (live.length > 0 ? live : options)
        .map(attemptTimeoutOf)
        .filter((t): t is number => t !== undefined);
      return Math.min(...sizes);
    };
  }
  return out;
}

export class KeepaliveBatcher implements KeepAliveSender {
  private readonly waiting: TurnBatcher<Member>;

  constructor(
    private readonly api: LockApi,
    clock: ClientClock,
  ) {
    this.waiting = new TurnBatcher(
      (flush) => clock.setTimeout(flush, 0),
      (members) => {
        for (let i = 0; i < members.length; i += MAX_SESSIONS_PER_REQUEST)
          void this.send(members.slice(i, i + MAX_SESSIONS_PER_REQUEST));
      },
    );
  }

  /** Resolves once the leader acknowledged this session's keepalive. */
  keepAlive(sessionId: bigint, options: CallOptions = {}): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.waiting.add({ id: sessionId, options, resolve, reject }),
    );
  }

  private async send(members: Member[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await keepAlive(
        this.api,
        members.map((m) => m.id),
        combinedOptions(members),
      );
    } catch (error) {
      for (const m of members) m.reject(error);
      return;
    }
    members.forEach((m, i) => {
      const outcome = outcomes[i];
      if (outcome === "ok") m.resolve();
      else m.reject(notKeptAlive(m.id, outcome));
    });
  }
}
