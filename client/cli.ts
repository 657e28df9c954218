// palisadectl: the command line over the client library.
// Exit codes: 0 ok, 1 error, 2 not acquired, 3 lock or session lost; `run` returns its
// command's exit code, or 3 if the command was killed because the lock was lost.
// The client library (gRPC, protobuf) and `run`'s supervisor are imported only by the verbs
// that use them, so `--help` and a mistyped verb answer without loading them.
import { Command, Option } from "commander";
import type { PalisadeClient } from "./client.ts";
import { parseCount, parseDuration, parseUint64, table, toJson, wallTime } from "./cli-format.ts";
import { registerSnapshotCommands } from "./cli-snapshot.ts";
import type { Session } from "./session.ts";
import type {
  HoldLimitDeadline,
  LockGrantInfo,
  LockHolderInfo,
  LockInfo,
  LockSummaryInfo,
  MemberInfo,
  NodeStatus,
} from "./types.ts";

export { toJson } from "./cli-format.ts";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_NOT_ACQUIRED = 2;
export const EXIT_LOST = 3;
/** Interrupted while waiting (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The signals that end a verb: Ctrl-C, a service manager's stop, a closed terminal. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
/** How long an interrupted wait's cancel may take before the CLI exits without its answer. */
const CANCEL_BOUND_MS = 2_000;

/**
 * Runs `wait` with an AbortSignal that a stop signal aborts. Resolves with its outcome, or
 * with "unconfirmed" when, once interrupted, it has not settled within CANCEL_BOUND_MS (the
 * cluster did not answer the cancel).
 */
async function interruptible<T>(
  wait: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; interrupted: boolean } | "unconfirmed"> {
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  for (const s of STOP_SIGNALS) process.once(s, onSignal);
  let bound: ReturnType<typeof setTimeout> | undefined;
  const unconfirmed = new Promise<"unconfirmed">((resolve) =>
    interrupt.signal.addEventListener("abort", () => {
      bound = setTimeout(() => resolve("unconfirmed"), CANCEL_BOUND_MS);
    }),
  );
  try {
    const settled = wait(interrupt.signal).then(
      (value) => ({ value, interrupted: interrupt.signal.aborted }),
      (error: unknown) => {
        // A cancel that failed is no confirmation either.
        if (interrupt.signal.aborted) return "unconfirmed" as const;
        throw error;
      },
    );
    return await Promise.race([settled, unconfirmed]);
  } finally {
    clearTimeout(bound);
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}

const DEFAULT_ENDPOINTS = "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003";

interface GlobalOptions {
  endpoints: string;
  json: boolean;
  timeout: number;
  cacert?: string;
  cert?: string;
  key?: string;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Output = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
};

function describeHolder(holder: LockHolderInfo | undefined): string {
  if (!holder) return "free";
  const name = holder.clientName ? ` (${holder.clientName})` : "";
  return `held by session ${holder.sessionId}${name}, token ${holder.token}, granted at index ${holder.grantedIndex}`;
}

/** A shared holder, a permit, holder data or a hold limit: what `lock` prints beside an exclusive holder. */
function kindNotes(h: LockHolderInfo): string {
  const notes = [
    ...(h.mode === "shared" ? ["shared"] : []),
    ...(h.mode === "permit" ? [`slot ${h.slot ?? 0}`] : []),
    ...(h.data !== undefined ? [`data ${JSON.stringify(h.data)}`] : []),
    ...(h.holdMs !== undefined ? [`hold limit ${h.holdMs} ms`] : []),
  ];
  return notes.join(", ");
}

/** The line after a list that shows `shown` of `total` entries: how many more, and how to see them. */
function moreLine(total: number, shown: number, what: string): string[] {
  const more = total - shown;
  return more > 0
    ? [
        `  ... and ${more.toLocaleString("en-US")} more ${what}${more === 1 ? "" : "s"} (--all lists them all)`,
      ]
    : [];
}

/** `lock NAME` in text: an exclusive lock without data reads as it always did; a list not shown whole says how many more it has. */
function describeLock(info: LockInfo, grantedAtMs: number): string[] {
  const holders = info.holders ?? (info.holder ? [info.holder] : []);
  const waiterLines = info.waiters.map((w) => {
    const notes = [
      ...(w.mode === "shared" ? ["shared"] : []),
      ...(w.locks ? [`with ${w.locks.map((t) => t.lock).join(", ")}`] : []),
      ...(w.data !== undefined ? [`data ${JSON.stringify(w.data)}`] : []),
    ];
    return `  waiter: session ${w.sessionId}${w.clientName ? ` (${w.clientName})` : ""} since index ${w.waitingSinceIndex}${notes.length ? ` (${notes.join(", ")})` : ""}`;
  });
  const waiters = [...waiterLines, ...moreLine(info.waiterCount, info.waiters.length, "waiter")];
  const held = info.holderCount;
  const plain =
    info.kind !== "semaphore" &&
    held <= 1 &&
    (holders[0] === undefined || kindNotes(holders[0]) === "");
  if (plain)
    return [
      `${info.lock}: ${describeHolder(info.holder)}${info.holder ? `, at ${wallTime(grantedAtMs)}` : ""}`,
      ...waiters,
    ];
  const head =
    info.kind === "semaphore"
      ? `${info.lock}: semaphore of ${info.permits ?? 0} permits, ${held} held`
      : held === 0
        ? `${info.lock}: free`
        : `${info.lock}: ${holders[0]?.mode === "shared" ? `shared by ${held} holder${held > 1 ? "s" : ""}` : "held exclusive"}`;
  const lines = holders.map((h) => {
    const notes = kindNotes(h);
    return `  holder: session ${h.sessionId}${h.clientName ? ` (${h.clientName})` : ""}, token ${h.token}, granted at index ${h.grantedIndex}${notes ? `, ${notes}` : ""}`;
  });
  return [head, ...lines, ...moreLine(held, holders.length, "holder"), ...waiters];
}

/**
 * A lock with every holder and waiter, read page after page (`lock NAME --all`). Each page is
 * a read of its own, so the counts are those of the entries listed.
 */
async function wholeLock(client: PalisadeClient, lock: string): Promise<LockInfo> {
  let whole: LockInfo | undefined;
  for await (const page of client.lockPages(lock, { holderLimit: 1_000, waiterLimit: 1_000 })) {
    if (whole === undefined)
      whole = { ...page, holders: [...(page.holders ?? [])], waiters: [...page.waiters] };
    else {
      whole.holders?.push(...(page.holders ?? []));
      whole.waiters.push(...page.waiters);
    }
  }
  const { nextHoldersAfter: _h, nextWaitersAfter: _w, ...info } = whole as LockInfo;
  const holders = info.holders ?? [];
  return {
    ...info,
    ...(holders.length > 0 ? { holders } : {}),
    holderCount: holders.length > 0 ? holders.length : info.holder ? 1 : 0,
    waiterCount: info.waiters.length,
  };
}

/** What the `locks` table says of a lock's kind: "exclusive", "shared", "semaphore/N", or "-" when free. */
function kindColumn(l: LockSummaryInfo): string {
  if (l.kind === "semaphore") return `semaphore/${l.permits ?? 0}`;
  const h = l.holders?.[0] ?? l.holder;
  return h === undefined ? "-" : h.mode === "shared" ? "shared" : "exclusive";
}

function isPlainLock(l: LockSummaryInfo): boolean {
  return l.kind !== "semaphore" && l.holderCount <= 1 && l.holder?.mode === undefined;
}

/** Parses --permits: a semaphore's permit count, at least 1. */
function parsePermits(text: string): number {
  const n = parseCount(text);
  if (n < 1) throw new Error(`--permits: expected at least 1 (got ${text})`);
  return n;
}

/**
 * The endpoints of --endpoints: host:port, or etcd's http://host:port and https://host:port
 * forms (https needs --cacert, since TLS is set up by the certificate options).
 */
export function endpointsFrom(text: string, tls: boolean): string[] {
  return text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map((e) => {
      const url = /^(https?):\/\/([^/]+)\/?$/.exec(e);
      if (url === null) {
        if (e.includes("://"))
          throw new Error(`endpoint ${e}: expected host:port or http(s)://host:port`);
        return e;
      }
      if (url[1] === "https" && !tls)
        throw new Error(
          `endpoint ${e} asks for TLS: give --cacert (and --cert, --key for mutual TLS)`,
        );
      if (url[1] === "http" && tls)
        throw new Error(`endpoint ${e} asks for plaintext, but --cacert is given`);
      return url[2]!;
    });
}

/** A row of `status`: what one endpoint said, or that it did not answer. */
interface NodeRow {
  endpoint: string;
  reachable: boolean;
  nodeId?: number;
  role?: string;
  term?: bigint;
  leaderId?: number;
  commitIndex?: bigint;
  appliedIndex?: bigint;
  /** Highest commit index any node reported minus this node's applied index. */
  lag?: bigint;
  error?: string;
}

function statusRows(
  answers: Array<{ endpoint: string; status?: NodeStatus; error?: string }>,
): NodeRow[] {
  const top = answers.reduce(
    (m, a) => (a.status && a.status.commitIndex > m ? a.status.commitIndex : m),
    0n,
  );
  return answers.map((a) => {
    if (!a.status) return { endpoint: a.endpoint, reachable: false, error: a.error ?? "no answer" };
    const s = a.status;
    const lag = top > s.appliedIndex ? top - s.appliedIndex : 0n;
    return {
      endpoint: a.endpoint,
      reachable: true,
      nodeId: s.nodeId,
      role: s.role,
      term: s.term,
      leaderId: s.leaderId,
      commitIndex: s.commitIndex,
      appliedIndex: s.appliedIndex,
      lag,
    };
  });
}

/** The options of the lock kinds that acquire, semaphore acquire and run share. */
interface KindOptions {
  shared?: boolean;
  permits?: number;
  data?: string;
  holdLimit?: number;
  wait: number;
  ttl: number;
}

/** What one Acquire of the CLI asks for. */
interface AcquireSpec {
  names: string[];
  shared: boolean;
  permits?: number;
  data?: string;
  holdLimitMs?: number;
  waitMs: number;
  ttlMs: number;
}

interface Acquired {
  session: Session;
  token: bigint;
  grants: LockGrantInfo[];
  hold?: HoldLimitDeadline;
}

function specOf(names: string[], cmd: KindOptions): AcquireSpec {
  if (cmd.permits !== undefined && names.length > 1)
    throw new Error("--permits: name one semaphore (a permit is not taken with other locks here)");
  if (cmd.permits !== undefined && cmd.shared)
    throw new Error("--shared: a semaphore takes no mode; leave out --shared or --permits");
  return {
    names,
    shared: cmd.shared === true,
    waitMs: cmd.wait,
    ttlMs: cmd.ttl,
    ...(cmd.permits !== undefined ? { permits: cmd.permits } : {}),
    ...(cmd.data !== undefined ? { data: cmd.data } : {}),
    ...(cmd.holdLimit !== undefined ? { holdLimitMs: cmd.holdLimit } : {}),
  };
}

/** Aborts with the session, or once the grant's hold limit may have passed (before the leader's revoke). */
function grantSignal(
  session: Session,
  hold: HoldLimitDeadline | undefined,
): { signal: AbortSignal; stop(): void } {
  if (hold === undefined) return { signal: session.signal, stop: () => undefined };
  const controller = new AbortController();
  const onSession = (): void => controller.abort(session.signal.reason);
  session.signal.addEventListener("abort", onSession, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    const left = session.holdTimeLeftMs(hold);
    if (left > 0) timer = setTimeout(check, left);
    else controller.abort(new Error("the grant's hold limit passed"));
  };
  check();
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      session.signal.removeEventListener("abort", onSession);
    },
  };
}

/** Resolves "lost" if the signal aborts, "interrupted" on SIGINT/SIGTERM/SIGHUP, "elapsed" after `ms` (when given). */
function holdUntil(
  signal: AbortSignal,
  ms: number | undefined,
): Promise<"lost" | "interrupted" | "elapsed"> {
  return new Promise((resolve) => {
    const keepOpen = setInterval(() => undefined, 60_000);
    const timer = ms === undefined ? undefined : setTimeout(() => done("elapsed"), ms);
    const onSignal = (): void => done("interrupted");
    const onAbort = (): void => done("lost");
    const signals = STOP_SIGNALS;
    function done(why: "lost" | "interrupted" | "elapsed"): void {
      clearInterval(keepOpen);
      clearTimeout(timer);
      for (const s of signals) process.off(s, onSignal);
      signal.removeEventListener("abort", onAbort);
      resolve(why);
    }
    for (const s of signals) process.once(s, onSignal);
    if (signal.aborted) done("lost");
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs palisadectl with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: string[], io: Output = stdio): Promise<number> {
  let exitCode = EXIT_OK;
  /** Commander printed an error of its own (a bad option or argument) before throwing. */
  let commanderSaid = false;
  const program = new Command("palisadectl")
    .description("Command line for a Palisade lock cluster")
    .addOption(
      new Option("--endpoints <list>", "comma-separated host:port client addresses")
        .env("PALISADE_ENDPOINTS")
        .default(DEFAULT_ENDPOINTS),
    )
    .option("--json", "print JSON (uint64 values as decimal strings)", false)
    .addOption(
      new Option("--timeout <duration>", "how long a request keeps retrying through failovers")
        .argParser(parseDuration)
        .default(10_000, "10s"),
    )
    .option(
      "--cacert <file>",
      "PEM CA bundle of the cluster: connect with TLS (default $PALISADE_CACERT)",
      process.env.PALISADE_CACERT,
    )
    .option(
      "--cert <file>",
      "PEM client or admin certificate for mutual TLS (default $PALISADE_CERT)",
      process.env.PALISADE_CERT,
    )
    .option(
      "--key <file>",
      "PEM private key of --cert (default $PALISADE_KEY)",
      process.env.PALISADE_KEY,
    )
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.out(t.trimEnd()),
      writeErr: (t) => {
        commanderSaid = true;
        io.err(t.trimEnd());
      },
    });

  const withClient = async (
    fn: (client: PalisadeClient, opts: GlobalOptions) => Promise<number>,
  ): Promise<void> => {
    const opts = program.opts<GlobalOptions>();
    if ((opts.cert !== undefined || opts.key !== undefined) && opts.cacert === undefined) {
      throw new Error(
        "--cert and --key need --cacert (the CA that signed the nodes' certificates)",
      );
    }
    const [{ PalisadeClient }, { tlsCredentials }] = await Promise.all([
      import("./client.ts"),
      import("./connection.ts"),
    ]);
    const credentials =
      opts.cacert !== undefined
        ? tlsCredentials({ ca: opts.cacert, cert: opts.cert, key: opts.key })
        : undefined;
    const client = new PalisadeClient({
      ...(credentials ? { credentials } : {}),
      endpoints: endpointsFrom(opts.endpoints, opts.cacert !== undefined),
      clientName: "palisadectl",
      retryBudgetMs: opts.timeout,
      callTimeoutMs: Math.min(3_000, Math.max(opts.timeout, 1)),
    });
    try {
      exitCode = await fn(client, opts);
    } finally {
      await client.close();
    }
  };

  /** Opens a session and acquires `spec`'s locks (one atomic set when several), or explains why not (exit 2). */
  const acquireOrExplain = async (
    client: PalisadeClient,
    opts: GlobalOptions,
    spec: AcquireSpec,
  ): Promise<Acquired | number> => {
    const [lock, ...others] = spec.names as [string, ...string[]];
    const mode = spec.shared ? { mode: "shared" as const } : {};
    const session = await client.openSession({ ttlMs: spec.ttlMs });
    // A stop signal while waiting cancels the wait in the cluster before the CLI exits: the
    // process going away alone would leave the wait queued, and a grant to a session that
    // nobody keeps alive would hold the lock until its TTL ran out.
    const outcome = await interruptible((signal) =>
      session.acquire(lock, {
        waitMs: spec.waitMs,
        signal,
        ...mode,
        ...(spec.permits !== undefined ? { permits: spec.permits } : {}),
        ...(others.length > 0 ? { more: others.map((name) => ({ lock: name, ...mode })) } : {}),
        ...(spec.data !== undefined ? { data: spec.data } : {}),
        ...(spec.holdLimitMs !== undefined ? { holdMs: spec.holdLimitMs } : {}),
      }),
    );
    if (outcome === "unconfirmed") {
      io.err(
        `interrupted: the cancel of the wait for ${lock} is unconfirmed (no answer within ${CANCEL_BOUND_MS} ms); the wait ends with session ${session.id} within its TTL of ${spec.ttlMs} ms`,
      );
      return EXIT_INTERRUPTED;
    }
    const result = outcome.value;
    if (outcome.interrupted) {
      // A grant that came in just before the signal is let go; closing the session ends
      // anything of it that is left. Both bounded, as the cancel was.
      const letGo = async (): Promise<void> => {
        if (result.acquired && result.token !== undefined)
          await Promise.all(spec.names.map((name) => session.release(name, result.token!)));
        await session.close();
      };
      await Promise.race([letGo().catch(() => undefined), sleep(CANCEL_BOUND_MS)]);
      io.err(`interrupted: the wait for ${lock} is cancelled`);
      return EXIT_INTERRUPTED;
    }
    if (result.acquired && result.token !== undefined) {
      return {
        session,
        token: result.token,
        grants: result.grants ?? [],
        ...(result.hold ? { hold: result.hold } : {}),
      };
    }
    await session.close().catch(() => undefined);
    const blocked = result.blockedLock ?? lock;
    if (opts.json)
      io.out(
        toJson({
          lock,
          acquired: false,
          holder: result.holder ?? null,
          ...(result.blockedLock !== undefined ? { blockedLock: blocked } : {}),
        }),
      );
    else
      io.err(
        `not acquired: ${blocked} is ${describeHolder(result.holder)}${others.length > 0 && result.holder === undefined ? " (requests queued ahead)" : ""}`,
      );
    return EXIT_NOT_ACQUIRED;
  };

  /**
   * `acquire` and `semaphore acquire`: print the token (and a permit's slot), hold it as
   * asked, release every lock of it.
   */
  const acquireAndPrint = (spec: AcquireSpec, hold: string | true | undefined): Promise<void> =>
    withClient(async (client, opts) => {
      const holdMs = typeof hold === "string" ? parseDuration(hold) : undefined;
      const got = await acquireOrExplain(client, opts, spec);
      if (typeof got === "number") return got;
      const { session, token } = got;
      const permit = got.grants.find((g) => g.mode === "permit");
      try {
        if (opts.json) {
          io.out(
            toJson({
              lock: spec.names[0],
              acquired: true,
              token,
              sessionId: session.id,
              ...(spec.names.length > 1 ? { locks: spec.names } : {}),
              ...(spec.shared ? { mode: "shared" } : {}),
              ...(permit ? { permits: permit.permits, slot: permit.slot } : {}),
            }),
          );
        } else io.out(permit ? `${token} slot ${permit.slot ?? 0}` : token.toString());
        if (hold !== undefined) {
          const grant = grantSignal(session, got.hold);
          try {
            const why = await holdUntil(grant.signal, holdMs);
            if (why === "lost") {
              io.err(
                `lost: ${String((grant.signal.reason as Error | undefined)?.message ?? "session lost")}`,
              );
              return EXIT_LOST;
            }
          } finally {
            grant.stop();
          }
        }
        await Promise.all(spec.names.map((name) => session.release(name, token)));
        return EXIT_OK;
      } finally {
        await session.close().catch(() => undefined);
      }
    });

  program
    .command("status")
    .description(
      "every node: id, address, role, term, leader, commit/applied index, lag, reachable",
    )
    .action(() =>
      withClient(async (client, opts) => {
        const answers = await Promise.all(
          client.endpoints.map(async (endpoint) => {
            try {
              return { endpoint, status: await client.status(endpoint) };
            } catch (err) {
              return { endpoint, error: (err as Error).message };
            }
          }),
        );
        const rows = statusRows(answers);
        if (opts.json) io.out(toJson(rows));
        else {
          io.out(
            table(
              ["ID", "ADDRESS", "ROLE", "TERM", "LEADER", "COMMIT", "APPLIED", "LAG", "REACHABLE"],
              rows.map((r) =>
                r.reachable
                  ? [
                      String(r.nodeId),
                      r.endpoint,
                      r.role ?? "",
                      String(r.term),
                      r.leaderId ? String(r.leaderId) : "-",
                      String(r.commitIndex),
                      String(r.appliedIndex),
                      String(r.lag),
                      "yes",
                    ]
                  : ["-", r.endpoint, "-", "-", "-", "-", "-", "-", `no (${r.error ?? ""})`],
              ),
            ),
          );
        }
        return rows.some((r) => r.reachable) ? EXIT_OK : EXIT_ERROR;
      }),
    );

  program
    .command("locks [prefix]")
    .description(
      "locks whose names start with PREFIX, with holder and number of waiters (and kind and number of holders when not all are exclusive)",
    )
    .option("--prefix <prefix>", "same as the PREFIX argument")
    .action((prefixArg: string | undefined, cmd: { prefix?: string }) =>
      withClient(async (client, opts) => {
        const locks = await client.allLocks(prefixArg ?? cmd.prefix ?? "");
        if (opts.json) io.out(toJson(locks));
        else {
          // Only exclusive locks: the columns they always had; any other kind adds its kind and holder count.
          const kinds = !locks.every(isPlainLock);
          io.out(
            table(
              [
                "LOCK",
                "HOLDER SESSION",
                "TOKEN",
                "GRANTED AT INDEX",
                "WAITERS",
                ...(kinds ? ["KIND", "HOLDERS"] : []),
              ],
              locks.map((l) => [
                l.lock,
                l.holder ? String(l.holder.sessionId) : "-",
                l.holder ? String(l.holder.token) : "-",
                l.holder ? String(l.holder.grantedIndex) : "-",
                String(l.waiterCount),
                ...(kinds ? [kindColumn(l), String(l.holderCount)] : []),
              ]),
            ),
          );
        }
        return EXIT_OK;
      }),
    );

  program
    .command("lock <name>")
    .alias("get")
    .description(
      "a lock's kind and mode, its holders (token, slot, data), granted-at index and time, and its waiters (the first 100 of each, with their totals)",
    )
    .option("--all", "list every holder and waiter, reading page after page")
    .action((lock: string, cmd: { all?: boolean }) =>
      withClient(async (client, opts) => {
        const info = cmd.all ? await wholeLock(client, lock) : await client.getLock(lock);
        // The grant time is display-only data kept in the history.
        const current = info.holder
          ? (await client.history(lock)).find(
              (r) => r.token === info.holder?.token && r.reason === "current",
            )
          : undefined;
        const grantedAtMs = current?.grantedAtMs ?? 0;
        if (opts.json)
          io.out(
            toJson({
              ...info,
              grantedAt: grantedAtMs > 0 ? new Date(grantedAtMs).toISOString() : null,
            }),
          );
        else for (const line of describeLock(info, grantedAtMs)) io.out(line);
        return EXIT_OK;
      }),
    );

  program
    .command("sessions")
    .description("live sessions with their TTL, held and awaited locks")
    .action(() =>
      withClient(async (client, opts) => {
        const sessions = await client.allSessions();
        if (opts.json) io.out(toJson(sessions));
        else {
          io.out(
            table(
              ["SESSION", "CLIENT", "TTL", "OPENED AT INDEX", "HOLDS", "WAITS FOR"],
              sessions.map((s) => [
                String(s.sessionId),
                s.clientName || "-",
                `${s.ttlMs}ms`,
                String(s.openedIndex),
                s.heldLocks.join(",") || "-",
                s.waitingLocks.join(",") || "-",
              ]),
            ),
          );
        }
        return EXIT_OK;
      }),
    );

  program
    .command("session")
    .description("one session's TTL and locks")
    .argument("<id>", "the session id", parseUint64)
    .action((id: bigint) =>
      withClient(async (client, opts) => {
        const info = await client.getSession(id);
        if (!info) {
          if (opts.json) io.out(toJson(null));
          else io.err(`session ${id} not found`);
          return EXIT_ERROR;
        }
        if (opts.json) io.out(toJson(info));
        else
          io.out(
            `session ${info.sessionId} ${info.clientName}  ttl ${info.ttlMs} ms  holds [${info.heldLocks.join(", ")}]  waits [${info.waitingLocks.join(", ")}]`,
          );
        return EXIT_OK;
      }),
    );

  program
    .command("history <name>")
    .description("recent grants of a lock and how each ended, oldest first")
    .option("--limit <n>", "at most this many (0: all retained)", parseCount, 0)
    .action((lock: string, cmd: { limit: number }) =>
      withClient(async (client, opts) => {
        const records = await client.history(lock, cmd.limit);
        if (opts.json) io.out(toJson(records));
        else {
          io.out(
            table(
              [
                "TOKEN",
                "SESSION",
                "CLIENT",
                "GRANTED AT INDEX",
                "ENDED AT INDEX",
                "REASON",
                "GRANTED",
              ],
              records.map((r) => [
                String(r.token),
                String(r.sessionId),
                r.clientName || "-",
                String(r.grantedIndex),
                r.endedIndex ? String(r.endedIndex) : "-",
                r.reason,
                wallTime(r.grantedAtMs),
              ]),
            ),
          );
        }
        return EXIT_OK;
      }),
    );

  program
    .command("watch [prefix]")
    .description("print lock events as they happen (until Ctrl-C); resumes across failovers")
    .option("--from <index>", "start at this log index (default: now)", parseUint64)
    .option("--count <n>", "stop after this many events", parseCount)
    .action((prefix: string | undefined, cmd: { from?: bigint; count?: number }) =>
      withClient(async (client, opts) => {
        const stop = new AbortController();
        const onSignal = (): void => stop.abort();
        process.once("SIGINT", onSignal);
        process.once("SIGTERM", onSignal);
        let seen = 0;
        try {
          for await (const e of client.watch(prefix ?? "", {
            signal: stop.signal,
            ...(cmd.from !== undefined ? { fromIndex: cmd.from } : {}),
          })) {
            if (opts.json) io.out(toJson(e));
            else if (e.kind === "resync")
              io.out(
                `resync: events up to index ${e.index} are no longer retained; re-read the state`,
              );
            else
              io.out(`${e.index}  ${e.kind}  ${e.lock}  session ${e.sessionId}  token ${e.token}`);
            if (cmd.count !== undefined && ++seen >= cmd.count) break;
          }
        } finally {
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
        }
        return EXIT_OK;
      }),
    );

  program
    .command("acquire <names...>")
    .description(
      "acquire a lock (several names: one atomic set, all or none) and print its token; without --hold release it at once",
    )
    .addOption(
      new Option("--wait <duration>", "wait in the queue up to this long")
        .argParser(parseDuration)
        .default(0, "0ms"),
    )
    .addOption(
      new Option("--ttl <duration>", "session TTL").argParser(parseDuration).default(10_000, "10s"),
    )
    .option("--hold [duration]", "keep the lock until Ctrl-C, or until this long has passed")
    .option("--shared", "take every named lock in shared mode (beside other shared holders)", false)
    .addOption(
      new Option(
        "--permits <n>",
        "the name is a semaphore of N permits: take one permit (one name only)",
      ).argParser(parsePermits),
    )
    .option("--data <text>", "holder data shown with the grant (who holds it and why)")
    .addOption(
      new Option(
        "--hold-limit <duration>",
        "the leader revokes the grant once it has been held this long",
      ).argParser(parseDuration),
    )
    .action(
      (names: string[], cmd: KindOptions & { wait: number; ttl: number; hold?: string | true }) =>
        acquireAndPrint(specOf(names, cmd), cmd.hold),
    );

  program
    .command("semaphore")
    .description("counted semaphores: acquire")
    .command("acquire <name>")
    .description(
      "take one permit of semaphore NAME of N permits and print its token and slot; without --hold release it at once",
    )
    .addOption(
      new Option("--permits <n>", "the semaphore's permit count (fixed while any permit is held)")
        .argParser(parsePermits)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option("--wait <duration>", "wait in the queue up to this long")
        .argParser(parseDuration)
        .default(0, "0ms"),
    )
    .addOption(
      new Option("--ttl <duration>", "session TTL").argParser(parseDuration).default(10_000, "10s"),
    )
    .option("--hold [duration]", "keep the permit until Ctrl-C, or until this long has passed")
    .option("--data <text>", "holder data shown with the grant (who holds it and why)")
    .addOption(
      new Option(
        "--hold-limit <duration>",
        "the leader revokes the grant once it has been held this long",
      ).argParser(parseDuration),
    )
    .action(
      (name: string, cmd: KindOptions & { wait: number; ttl: number; hold?: string | true }) =>
        acquireAndPrint(specOf([name], cmd), cmd.hold),
    );

  program
    .command("release <name>")
    .description("force-release the grant with this token (admin revoke; retrying is safe)")
    .requiredOption("--token <token>", "the grant's token", parseUint64)
    .action((lock: string, cmd: { token: bigint }) =>
      withClient(async (client, opts) => {
        const index = await client.revokeLock(lock, cmd.token);
        if (opts.json) io.out(toJson({ lock, token: cmd.token, revokedAtIndex: index }));
        else io.out(`revoked ${lock} token ${cmd.token} at index ${index}`);
        return EXIT_OK;
      }),
    );

  program
    .command("revoke", { hidden: true })
    .description("same as release NAME --token TOKEN")
    .argument("<name>", "the lock")
    .argument("<token>", "the grant's token", parseUint64)
    .action((lock: string, t: bigint) =>
      withClient(async (client, opts) => {
        const index = await client.revokeLock(lock, t);
        if (opts.json) io.out(toJson({ lock, token: t, revokedAtIndex: index }));
        else io.out(`revoked ${lock} token ${t} at index ${index}`);
        return EXIT_OK;
      }),
    );

  program
    .command("validate")
    .description("whether TOKEN is the lock's current grant right now (best effort)")
    .argument("<name>", "the lock")
    .argument("<token>", "the token to check", parseUint64)
    .action((lock: string, token: bigint) =>
      withClient(async (client, opts) => {
        const valid = await client.validateToken(lock, token);
        if (opts.json) io.out(toJson({ lock, token, valid }));
        else io.out(valid ? "valid" : "not the current grant");
        return valid ? EXIT_OK : EXIT_NOT_ACQUIRED;
      }),
    );

  program
    .command("run <name> <command> [args...]")
    .description(
      "run a command only while holding the lock (put it after --); PALISADE_TOKEN and PALISADE_LOCK are set for it",
    )
    .addOption(
      new Option("--wait <duration>", "wait in the queue up to this long")
        .argParser(parseDuration)
        .default(0, "0ms"),
    )
    .addOption(
      new Option("--ttl <duration>", "session TTL").argParser(parseDuration).default(10_000, "10s"),
    )
    .addOption(
      new Option(
        "--grace <duration>",
        "after Ctrl-C/SIGTERM, how long the command may take before SIGKILL (never past the lock's deadline)",
      )
        .argParser(parseDuration)
        .default(10_000, "10s"),
    )
    .option("--shared", "hold the lock in shared mode (beside other shared holders)", false)
    .addOption(
      new Option(
        "--permits <n>",
        "NAME is a semaphore of N permits: run while holding one permit (PALISADE_SLOT is its slot)",
      ).argParser(parsePermits),
    )
    .option("--data <text>", "holder data shown with the grant (who holds it and why)")
    .addOption(
      new Option(
        "--hold-limit <duration>",
        "the leader revokes the grant once it has been held this long; the command is killed before",
      ).argParser(parseDuration),
    )
    .action(
      (
        lock: string,
        command: string,
        args: string[],
        cmd: KindOptions & { wait: number; ttl: number; grace: number },
      ) =>
        withClient(async (client, opts) => {
          const got = await acquireOrExplain(client, opts, specOf([lock], cmd));
          if (typeof got === "number") return got;
          const { session, token } = got;
          const permit = got.grants.find((g) => g.mode === "permit");
          try {
            if (opts.json)
              io.err(
                toJson({
                  lock,
                  acquired: true,
                  token,
                  sessionId: session.id,
                  ...(permit ? { slot: permit.slot } : {}),
                }),
              );
            const { runUnderLock } = await import("./run/supervise.ts");
            const { msToNs } = await import("./clock.ts");
            const holdEnds = got.hold ? got.hold.sentAt.monotonicMs + got.hold.budgetMs : undefined;
            const outcome = await runUnderLock(
              {
                session,
                lock,
                token,
                command,
                args,
                graceMs: cmd.grace,
                ...(holdEnds !== undefined ? { holdDeadlineNs: msToNs(holdEnds) } : {}),
                ...(permit ? { env: { PALISADE_SLOT: String(permit.slot ?? 0) } } : {}),
              },
              (pid) => {
                if (opts.json) io.err(toJson({ started: pid }));
              },
            );
            if (outcome.killedFor === "deadline" || outcome.killedFor === "lost") {
              const held = got.hold === undefined || session.holdTimeLeftMs(got.hold) > 0;
              io.err(
                held || session.state !== "open"
                  ? `lost: the lock's session ended; the command was killed`
                  : `lost: the lock's hold limit passed; the command was killed`,
              );
            } else if (session.state === "open") {
              await session.release(lock, token).catch(() => undefined);
            }
            return outcome.exitCode;
          } finally {
            await session.close().catch(() => undefined);
          }
        }),
    );

  const transferLeader = (cmd: { to: number }): Promise<void> =>
    withClient(async (client, opts) => {
      const answer = await client.transferLeader(cmd.to);
      if (opts.json) io.out(toJson(answer));
      else io.out(`leader is node ${answer.leaderId} in term ${answer.term}`);
      return EXIT_OK;
    });
  program
    .command("leader")
    .description("leadership (admin): transfer")
    .command("transfer")
    .description("hand leadership to another node, as before maintenance of the leader's host")
    .option("--to <id>", "target node id (default: the most caught-up voter)", parseCount, 0)
    .action(transferLeader);
  program
    .command("transfer-leader", { hidden: true })
    .description("same as `leader transfer`")
    .option("--to <id>", "target node id (default: the most caught-up voter)", parseCount, 0)
    .action(transferLeader);

  /** Prints the members; answers the exit code. */
  const printMembers = (members: MemberInfo[], opts: GlobalOptions): number => {
    if (opts.json) io.out(toJson(members));
    else
      io.out(
        table(
          ["ID", "PEER ADDRESS", "KIND", "REACHABLE", "MATCH INDEX"],
          members.map((m) => [
            String(m.nodeId),
            m.address,
            m.kind,
            m.reachable ? "yes" : "no",
            String(m.matchIndex),
          ]),
        ),
      );
    return EXIT_OK;
  };

  const member = program
    .command("member")
    .description("cluster membership (admin): list, add, promote, remove");
  member
    .command("list")
    .description("members as the leader sees them: kind, reachable, match index")
    .action(() =>
      withClient(async (client, opts) => printMembers(await client.memberList(), opts)),
    );
  member
    .command("add")
    .description("add a node (started with --join) as a learner")
    .argument("<id>", "the new node's id", parseCount)
    .argument("<peer-address>", "its host:port for peers")
    .argument("<client-address>", "its host:port for clients")
    .action((id: number, peer: string, clientAddress: string) =>
      withClient(async (client, opts) =>
        printMembers(await client.memberAdd(id, peer, clientAddress), opts),
      ),
    );
  member
    .command("promote")
    .description("make a caught-up learner a voter")
    .argument("<id>", "the learner's node id", parseCount)
    .action((id: number) =>
      withClient(async (client, opts) => printMembers(await client.memberPromote(id), opts)),
    );
  member
    .command("remove")
    .description("remove a member (a leader that removes itself steps down)")
    .argument("<id>", "the member's node id", parseCount)
    .action((id: number) =>
      withClient(async (client, opts) => printMembers(await client.memberRemove(id), opts)),
    );
  program
    .command("members", { hidden: true })
    .description("same as member list")
    .action(() =>
      withClient(async (client, opts) => printMembers(await client.memberList(), opts)),
    );

  registerSnapshotCommands(program, io);

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("commander.")) {
      if (
        code === "commander.helpDisplayed" ||
        code === "commander.version" ||
        code === "commander.help"
      )
        return EXIT_OK;
      // Thrown by an action, not by commander's own parsing: nothing was printed yet.
      if (!commanderSaid) io.err(`error: ${(err as Error).message}`);
      return EXIT_ERROR;
    }
    const { LockNotAcquiredError, PalisadeError } = await import("./errors.ts");
    if (err instanceof LockNotAcquiredError) {
      io.err(`not acquired: ${err.message}`);
      return EXIT_NOT_ACQUIRED;
    }
    const name = err instanceof PalisadeError ? `${err.name}: ` : "";
    io.err(`error: ${name}${(err as Error).message}`);
    return EXIT_ERROR;
  }
  return exitCode;
}
