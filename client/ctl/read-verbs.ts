// palisadectl's read verbs: status, locks, lock, sessions, session, history, watch. Reads
// are answered by the leader (linearizable); status asks every endpoint for its own view.
import type { PalisadeClient } from "../client.ts";
import type { WatchEvent } from "../watch.ts";
import type {
  LockHolderInfo,
  LockInfo,
  LockSummaryInfo,
  MemberInfo,
  NodeStatus,
} from "../types.ts";
import {
  addExamples,
  EXIT_ERROR,
  EXIT_OK,
  onStopSignal,
  type Ctl,
  type Output,
} from "./context.ts";
import { describeHolder, parseCount, parseUint64, table, toJson, wallTime } from "./format.ts";

/**
 * A shared or upgradeable holder (and an upgrade it waits for), a permit, holder data or a
 * hold limit: what `lock` prints beside an exclusive holder.
 */
export function kindNotes(h: LockHolderInfo): string {
  const notes = [
    ...(h.mode === "shared" || h.mode === "upgradeable" ? [h.mode] : []),
    ...(h.upgradingSince !== undefined ? [`upgrading since index ${h.upgradingSince}`] : []),
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
      ...(w.mode === "shared" || w.mode === "upgradeable" ? [w.mode] : []),
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
        : `${info.lock}: ${heldAs(holders, held)}`;
  const lines = holders.map((h) => {
    const notes = kindNotes(h);
    return `  holder: session ${h.sessionId}${h.clientName ? ` (${h.clientName})` : ""}, token ${h.token}, granted at index ${h.grantedIndex}${notes ? `, ${notes}` : ""}`;
  });
  return [head, ...lines, ...moreLine(held, holders.length, "holder"), ...waiters];
}

/** How a lock is held: exclusive, upgradeable (alone), or shared (one holder maybe upgradeable). */
export function heldAs(holders: readonly LockHolderInfo[], held: number): string {
  const upgradeable = holders.some((h) => h.mode === "upgradeable");
  if (upgradeable && held === 1) return "held upgradeable";
  if (!upgradeable && holders[0]?.mode !== "shared") return "held exclusive";
  return `shared by ${held} holder${held > 1 ? "s" : ""}${upgradeable ? ", one upgradeable" : ""}`;
}

/**
 * A lock with every holder and waiter, read page after page (`lock NAME --all`). Each page is
 * a read of its own, so the counts are those of the entries listed.
 */
async function wholeLock(client: PalisadeClient, lock: string): Promise<LockInfo> {
  let whole: LockInfo | undefined;
  for await (const page of client.read.lockPages(lock, {
    holderLimit: 1_000,
    waiterLimit: 1_000,
  })) {
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

/**
 * What the `locks` table says of a lock's kind: "exclusive", "shared", "upgradeable",
 * "shared+upgradeable" (readers beside an upgradeable holder), "semaphore/N", or "-" when
 * free.
 */
export function kindColumn(l: LockSummaryInfo): string {
  if (l.kind === "semaphore") return `semaphore/${l.permits ?? 0}`;
  const holders = l.holders ?? (l.holder ? [l.holder] : []);
  if (holders.length === 0) return "-";
  if (holders.some((h) => h.mode === "upgradeable"))
    return l.holderCount > 1 ? "shared+upgradeable" : "upgradeable";
  return holders[0]?.mode === "shared" ? "shared" : "exclusive";
}

function isPlainLock(l: LockSummaryInfo): boolean {
  return l.kind !== "semaphore" && l.holderCount <= 1 && l.holder?.mode === undefined;
}

/**
 * A lock event in text: index, kind, lock, session and token, then a grant's mode other
 * than exclusive, or how a release was completed (handedOff, upgraded, downgraded).
 */
function watchLine(e: Exclude<WatchEvent, { kind: "resync" }>): string {
  const note =
    e.kind === "acquired" && e.mode !== undefined
      ? `  ${e.mode}`
      : e.ended !== undefined
        ? `  (${e.ended})`
        : "";
  return `${e.index}  ${e.kind}  ${e.lock}  session ${e.sessionId}  token ${e.token}${note}`;
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

/** How long `status` waits for the leader's member list before it shows the endpoints given. */
const DISCOVERY_BUDGET_MS = 2_000;

/**
 * The client addresses of the members the leader lists (asked through whichever endpoint
 * answers), then any endpoint given that is not one of them, said on stderr; without a
 * leader's answer, the endpoints given, saying why.
 */
async function clusterEndpoints(
  client: PalisadeClient,
  budgetMs: number,
  io: Output,
): Promise<string[]> {
  const given = [...client.endpoints];
  let members: MemberInfo[];
  try {
    members = await client.admin.memberList({ budgetMs });
  } catch (err) {
    io.err(`members not discovered (${(err as Error).message}); showing the endpoints given`);
    return given;
  }
  const named = members.map((m) => m.clientAddress).filter((a) => a !== "");
  const others = given.filter((e) => !named.includes(e));
  if (others.length > 0)
    io.err(`not a member of the cluster the leader leads: ${others.join(", ")}`);
  return [...named, ...others];
}

/** Adds the read verbs to palisadectl. */
export function registerReadVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;
  program
    .command("status")
    .description(
      "every member the cluster names (and each endpoint given): id, address, role, term, leader, commit/applied index, lag, reachable",
    )
    .option("--endpoints-only", "ask only the endpoints given, not the members the leader lists")
    .action((cmd: { endpointsOnly?: boolean }) =>
      withClient(async (client, opts) => {
        const targets = cmd.endpointsOnly
          ? [...client.endpoints]
          : await clusterEndpoints(client, Math.min(opts.timeout, DISCOVERY_BUDGET_MS), io);
        const answers = await Promise.all(
          targets.map(async (endpoint) => {
            try {
              return { endpoint, status: await client.admin.status(endpoint) };
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
        const locks = await client.read.allLocks(prefixArg ?? cmd.prefix ?? "");
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
    .description(
      "a lock's kind and mode, its holders (token, slot, data), granted-at index and time, and its waiters (the first 100 of each, with their totals)",
    )
    .option("--all", "list every holder and waiter, reading page after page")
    .action((lock: string, cmd: { all?: boolean }) =>
      withClient(async (client, opts) => {
        const info = cmd.all ? await wholeLock(client, lock) : await client.read.getLock(lock);
        // The grant time is display-only data kept in the history.
        const current = info.holder
          ? (await client.read.history(lock)).find(
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
        const sessions = await client.read.allSessions();
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
        const info = await client.read.getSession(id);
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
        const records = await client.read.history(lock, cmd.limit);
        if (opts.json) io.out(toJson(records));
        else {
          // Only exclusive grants: the columns they always had; any other mode adds MODE.
          const modes = records.some((r) => r.mode !== undefined);
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
                ...(modes ? ["MODE"] : []),
              ],
              records.map((r) => [
                String(r.token),
                String(r.sessionId),
                r.clientName || "-",
                String(r.grantedIndex),
                r.endedIndex ? String(r.endedIndex) : "-",
                r.reason,
                wallTime(r.grantedAtMs),
                ...(modes ? [r.mode ?? "exclusive"] : []),
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
        const offStop = onStopSignal(() => stop.abort());
        let seen = 0;
        try {
          for await (const e of client.read.watch(prefix ?? "", {
            signal: stop.signal,
            ...(cmd.from !== undefined ? { fromIndex: cmd.from } : {}),
          })) {
            if (opts.json) io.out(toJson(e));
            else if (e.kind === "resync")
              io.out(
                `resync: events up to index ${e.index} are no longer retained; re-read the state`,
              );
            else io.out(watchLine(e));
            if (cmd.count !== undefined && ++seen >= cmd.count) break;
          }
        } finally {
          offStop();
        }
        return EXIT_OK;
      }),
    );

  addExamples(program, {
    status: [
      "status",
      "--endpoints 10.0.0.12:7001 status --json",
      "--endpoints 10.0.0.11:7001 status --endpoints-only",
    ],
    locks: ["locks", "locks reports/"],
    lock: ["lock orders/42", "lock render --all --json"],
    sessions: ["sessions"],
    session: ["session 17"],
    history: ["history orders/42 --limit 5"],
    watch: ["watch reports/", "watch --from 1200 --count 10 --json"],
  });
}
