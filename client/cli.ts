// palisadectl: a small command line over the client library.
// Exit codes: 0 ok, 1 error, 2 not acquired, 3 lock or session lost.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError as CommanderArgumentError } from "commander";
import { PalisadeClient } from "./client.ts";
import { PalisadeError } from "./errors.ts";
import type { LockHolderInfo } from "./types.ts";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_NOT_ACQUIRED = 2;
export const EXIT_LOST = 3;

const DEFAULT_ENDPOINTS = "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003";

interface GlobalOptions {
  endpoints: string;
  json: boolean;
  timeout: number;
}

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** JSON with bigints as decimal strings (tokens and ids are uint64). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

function nonNegativeInt(text: string): number {
  if (!/^\d+$/.test(text)) throw new CommanderArgumentError("expected a non-negative integer");
  return Number(text);
}

function uint64(text: string): bigint {
  if (!/^\d{1,20}$/.test(text)) throw new CommanderArgumentError("expected a decimal uint64");
  return BigInt(text);
}

function describeHolder(holder: LockHolderInfo | undefined): string {
  if (!holder) return "free";
  const name = holder.clientName ? ` (${holder.clientName})` : "";
  return `held by session ${holder.sessionId}${name}, token ${holder.token}, granted at index ${holder.grantedIndex}`;
}

function endpointsFrom(text: string): string[] {
  return text.split(",").map((e) => e.trim()).filter((e) => e !== "");
}

/** Runs palisadectl with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: string[], io: Output = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command("palisadectl")
    .description("Command line for a Palisade lock cluster")
    .option("--endpoints <list>", "comma-separated host:port client addresses", process.env.PALISADE_ENDPOINTS ?? DEFAULT_ENDPOINTS)
    .option("--json", "print JSON (uint64 values as decimal strings)", false)
    .option("--timeout <ms>", "how long a request keeps retrying", nonNegativeInt, 10_000)
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t.trimEnd()), writeErr: (t) => io.err(t.trimEnd()) });

  const withClient = async (fn: (client: PalisadeClient, opts: GlobalOptions) => Promise<number>): Promise<void> => {
    const opts = program.opts<GlobalOptions>();
    const client = new PalisadeClient({
      endpoints: endpointsFrom(opts.endpoints),
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

  program
    .command("status")
    .description("role, term, leader and indexes of every node")
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
        if (opts.json) io.out(toJson(answers));
        else {
          for (const a of answers) {
            if ("status" in a && a.status) {
              const s = a.status;
              io.out(`${a.endpoint}  node ${s.nodeId}  ${s.role}  term ${s.term}  leader ${s.leaderId || "?"}  commit ${s.commitIndex}  applied ${s.appliedIndex}  epoch ${s.epoch}`);
            } else io.out(`${a.endpoint}  unreachable: ${"error" in a ? a.error : ""}`);
          }
        }
        return answers.some((a) => "status" in a) ? EXIT_OK : EXIT_ERROR;
      }),
    );

  program
    .command("acquire <lock>")
    .description("acquire a lock and print its fencing token (released at once unless --hold)")
    .option("--wait <ms>", "wait in the queue up to this long", nonNegativeInt, 0)
    .option("--ttl <ms>", "session TTL", nonNegativeInt, 10_000)
    .option("--hold", "keep the lock until interrupted (SIGINT/SIGTERM)", false)
    .action((lock: string, cmd: { wait: number; ttl: number; hold: boolean }) =>
      withClient(async (client, opts) => {
        const session = await client.openSession({ ttlMs: cmd.ttl });
        try {
          const result = await session.acquire(lock, { waitMs: cmd.wait });
          if (!result.acquired) {
            if (opts.json) io.out(toJson({ lock, acquired: false, holder: result.holder ?? null }));
            else io.err(`not acquired: ${lock} is ${describeHolder(result.holder)}`);
            return EXIT_NOT_ACQUIRED;
          }
          const token = result.token ?? 0n;
          if (opts.json) io.out(toJson({ lock, acquired: true, token, sessionId: session.id }));
          else io.out(token.toString());
          if (!cmd.hold) {
            await session.release(lock, token);
            return EXIT_OK;
          }
          const lost = await holdUntilInterrupted(session.signal);
          if (lost) {
            io.err(`lost: ${String((session.signal.reason as Error | undefined)?.message ?? "session lost")}`);
            return EXIT_LOST;
          }
          await session.release(lock, token);
          return EXIT_OK;
        } finally {
          await session.close().catch(() => undefined);
        }
      }),
    );

  program
    .command("get <lock>")
    .description("holder and waiters of a lock")
    .action((lock: string) =>
      withClient(async (client, opts) => {
        const info = await client.getLock(lock);
        if (opts.json) io.out(toJson(info));
        else {
          io.out(`${lock}: ${describeHolder(info.holder)}`);
          for (const w of info.waiters) io.out(`  waiter: session ${w.sessionId}${w.clientName ? ` (${w.clientName})` : ""} since index ${w.waitingSinceIndex}`);
        }
        return EXIT_OK;
      }),
    );

  program
    .command("locks")
    .description("list locks")
    .option("--prefix <prefix>", "only names starting with this", "")
    .action((cmd: { prefix: string }) =>
      withClient(async (client, opts) => {
        const all = [];
        let after = "";
        do {
          const page = await client.listLocks({ prefix: cmd.prefix, after });
          all.push(...page.locks);
          after = page.nextAfter;
        } while (after !== "");
        if (opts.json) io.out(toJson(all));
        else for (const l of all) io.out(`${l.lock}: ${describeHolder(l.holder)}, ${l.waiterCount} waiting`);
        return EXIT_OK;
      }),
    );

  program
    .command("history <lock>")
    .description("recent grants of a lock, oldest first")
    .option("--limit <n>", "at most this many (0: all retained)", nonNegativeInt, 0)
    .action((lock: string, cmd: { limit: number }) =>
      withClient(async (client, opts) => {
        const records = await client.history(lock, cmd.limit);
        if (opts.json) io.out(toJson(records));
        else for (const r of records) io.out(`token ${r.token}  session ${r.sessionId}  granted ${r.grantedIndex}  ended ${r.endedIndex || "-"}  ${r.reason}`);
        return EXIT_OK;
      }),
    );

  program
    .command("session <id>")
    .description("a session's TTL and locks")
    .action((id: string) =>
      withClient(async (client, opts) => {
        const info = await client.getSession(uint64(id));
        if (!info) {
          if (opts.json) io.out(toJson(null));
          else io.err(`session ${id} not found`);
          return EXIT_ERROR;
        }
        if (opts.json) io.out(toJson(info));
        else io.out(`session ${info.sessionId} ${info.clientName}  ttl ${info.ttlMs} ms  holds [${info.heldLocks.join(", ")}]  waits [${info.waitingLocks.join(", ")}]`);
        return EXIT_OK;
      }),
    );

  program
    .command("revoke <lock> <token>")
    .description("force-release a grant (admin)")
    .action((lock: string, token: string) =>
      withClient(async (client, opts) => {
        const index = await client.revokeLock(lock, uint64(token));
        if (opts.json) io.out(toJson({ lock, token: uint64(token), index }));
        else io.out(`revoked ${lock} token ${token} at index ${index}`);
        return EXIT_OK;
      }),
    );

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("commander.")) {
      return code === "commander.helpDisplayed" || code === "commander.version" || code === "commander.help" ? EXIT_OK : EXIT_ERROR;
    }
    const name = err instanceof PalisadeError ? `${err.name}: ` : "";
    io.err(`error: ${name}${(err as Error).message}`);
    return EXIT_ERROR;
  }
  return exitCode;
}

/** Resolves true if the session was lost, false on SIGINT/SIGTERM. */
function holdUntilInterrupted(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 60_000);
    const done = (lost: boolean): void => {
      clearInterval(keepAlive);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(lost);
    };
    const onSignal = (): void => done(false);
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    if (signal.aborted) done(true);
    else signal.addEventListener("abort", () => done(true), { once: true });
  });
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await main(process.argv.slice(2));
}
