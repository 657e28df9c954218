// palisadectl's lock verbs: acquire (one lock in a mode, an atomic set), semaphore acquire,
// validate, and run (a command under a lock, or under a lock taken upgradeable and then
// upgraded). A stop signal during a wait cancels the wait in the cluster before the verb
// exits. What `acquire --hold` does with the lines of its stdin is in held-lock.ts.
import { Option } from "commander";
import type { PalisadeClient } from "../client.ts";
import type { Session } from "../session.ts";
import type { HoldLimitDeadline, LockGrantInfo, LockMode } from "../types.ts";
import {
  addExamples,
  EXIT_LOST,
  EXIT_NOT_ACQUIRED,
  EXIT_OK,
  type Ctl,
  type GlobalOptions,
} from "./context.ts";
import { describeHolder, parseDuration, parsePermits, parseUint64, toJson } from "./format.ts";
import { holdLock } from "./held-lock.ts";
import { graceOption, runWhileGrantHeld, ttlOption, waitUnlessInterrupted } from "./hold.ts";

/** The options of the lock kinds that acquire, semaphore acquire and run share. */
interface KindOptions {
  shared?: boolean;
  upgradeable?: boolean;
  permits?: number;
  data?: string;
  holdLimit?: number;
  wait: number;
  ttl: number;
}

/** What one Acquire of the CLI asks for. */
interface AcquireSpec {
  names: string[];
  mode: LockMode;
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
  if (cmd.upgradeable && cmd.shared)
    throw new Error(
      "--upgradeable: a lock is taken in one mode; leave out --shared or --upgradeable",
    );
  if (cmd.upgradeable && cmd.permits !== undefined)
    throw new Error(
      "--upgradeable: a semaphore takes no mode; leave out --upgradeable or --permits",
    );
  return {
    names,
    mode: cmd.upgradeable ? "upgradeable" : cmd.shared ? "shared" : "exclusive",
    waitMs: cmd.wait,
    ttlMs: cmd.ttl,
    ...(cmd.permits !== undefined ? { permits: cmd.permits } : {}),
    ...(cmd.data !== undefined ? { data: cmd.data } : {}),
    ...(cmd.holdLimit !== undefined ? { holdLimitMs: cmd.holdLimit } : {}),
  };
}

/** --wait, --data and --hold-limit: the options of every verb that acquires (with --ttl). */
const waitOption = (): Option =>
  new Option("--wait <duration>", "wait in the queue up to this long")
    .argParser(parseDuration)
    .default(0, "0ms");
const dataOption = (): Option =>
  new Option("--data <text>", "holder data shown with the grant (who holds it and why)");
const holdLimitOption = (more = ""): Option =>
  new Option(
    "--hold-limit <duration>",
    `the leader revokes the grant once it has been held this long${more}`,
  ).argParser(parseDuration);

/** Adds the lock verbs to palisadectl. */
export function registerLockVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;
  const acquireOrExplain = async (
    client: PalisadeClient,
    opts: GlobalOptions,
    spec: AcquireSpec,
  ): Promise<Acquired | number> => {
    const [lock, ...others] = spec.names as [string, ...string[]];
    const mode = spec.mode !== "exclusive" ? { mode: spec.mode } : {};
    const session = await client.openSession({ ttlMs: spec.ttlMs });
    const result = await waitUnlessInterrupted(io, {
      session,
      name: lock,
      ttlMs: spec.ttlMs,
      wait: (signal) =>
        session.acquire(lock, {
          waitMs: spec.waitMs,
          signal,
          ...mode,
          ...(spec.permits !== undefined ? { permits: spec.permits } : {}),
          ...(others.length > 0 ? { more: others.map((name) => ({ lock: name, ...mode })) } : {}),
          ...(spec.data !== undefined ? { data: spec.data } : {}),
          ...(spec.holdLimitMs !== undefined ? { holdMs: spec.holdLimitMs } : {}),
        }),
      letGo: async (token) => {
        await Promise.all(spec.names.map((name) => session.release(name, token)));
      },
    });
    if (typeof result === "number") return result;
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
   * `run --upgrade`: the upgradeable grant `got` made exclusive within `waitMs`, or the exit
   * code once it was not (said, and the upgradeable grant released). A stop signal cancels
   * the upgrade's wait in the cluster, as it does an Acquire's.
   */
  const upgradeOrExplain = async (
    opts: GlobalOptions,
    session: Session,
    lock: string,
    got: Acquired,
    waitMs: number,
    ttlMs: number,
  ): Promise<{ token: bigint; hold?: HoldLimitDeadline } | number> => {
    const result = await waitUnlessInterrupted(io, {
      session,
      name: lock,
      ttlMs,
      wait: async (signal) => {
        const change = await session.upgrade(lock, got.token, { waitMs, signal });
        return change === null
          ? { acquired: false }
          : { acquired: true, token: change.token, sentAt: change.sentAt };
      },
      letGo: (token) => session.release(lock, token),
    });
    if (typeof result === "number") return result;
    if (result.acquired) {
      return {
        token: result.token,
        ...(got.hold ? { hold: { sentAt: result.sentAt, budgetMs: got.hold.budgetMs } } : {}),
      };
    }
    await session.release(lock, got.token).catch(() => undefined);
    if (opts.json) io.out(toJson({ lock, acquired: false, upgraded: false }));
    else
      io.err(
        `not upgraded: ${lock} still had other holders${waitMs === 0 ? "" : ` after ${waitMs} ms`}; its upgradeable grant (token ${got.token}) is released`,
      );
    return EXIT_NOT_ACQUIRED;
  };

  /**
   * `acquire` and `semaphore acquire`: print the token (and a permit's slot), hold it as
   * asked, release every lock of it. While one lock (not a set, not a permit) is held, the
   * lines of stdin may upgrade, downgrade or release it.
   */
  const acquireAndPrint = (spec: AcquireSpec, hold: string | true | undefined): Promise<void> =>
    withClient(async (client, opts) => {
      const holdMs = typeof hold === "string" ? parseDuration(hold) : undefined;
      const got = await acquireOrExplain(client, opts, spec);
      if (typeof got === "number") return got;
      const { session } = got;
      let token = got.token;
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
              ...(spec.mode !== "exclusive" ? { mode: spec.mode } : {}),
              ...(permit ? { permits: permit.permits, slot: permit.slot } : {}),
            }),
          );
        } else io.out(permit ? `${token} slot ${permit.slot ?? 0}` : token.toString());
        if (hold !== undefined) {
          const oneLock = spec.names.length === 1 && permit === undefined;
          const end = await holdLock(io, {
            session,
            lock: spec.names[0] as string,
            grant: { token, mode: permit ? "permit" : spec.mode, hold: got.hold },
            holdMs,
            upgradeWaitMs: spec.waitMs,
            json: opts.json,
            input: oneLock ? io.input?.() : undefined,
          });
          if (end.why === "lost") {
            io.err(`lost: ${end.lostReason ?? "session lost"}`);
            return EXIT_LOST;
          }
          token = end.grant.token;
        }
        await Promise.all(spec.names.map((name) => session.release(name, token)));
        return EXIT_OK;
      } finally {
        await session.close().catch(() => undefined);
      }
    });

  program
    .command("acquire <names...>")
    .description(
      "acquire a lock (several names: one atomic set, all or none) and print its token; without --hold release it at once",
    )
    .addOption(waitOption())
    .addOption(ttlOption())
    .option(
      "--hold [duration]",
      "keep the lock until Ctrl-C, or until this long has passed; one lock held reads stdin lines meanwhile: upgrade [DURATION], downgrade shared|upgradeable, release",
    )
    .option("--shared", "take every named lock in shared mode (beside other shared holders)", false)
    .option(
      "--upgradeable",
      "take every named lock upgradeable (beside shared holders only); with --hold, an `upgrade` line on stdin makes it exclusive",
      false,
    )
    .addOption(
      new Option(
        "--permits <n>",
        "the name is a semaphore of N permits: take one permit (one name only)",
      ).argParser(parsePermits),
    )
    .addOption(dataOption())
    .addOption(holdLimitOption())
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
    .addOption(waitOption())
    .addOption(ttlOption())
    .option("--hold [duration]", "keep the permit until Ctrl-C, or until this long has passed")
    .addOption(dataOption())
    .addOption(holdLimitOption())
    .action(
      (name: string, cmd: KindOptions & { wait: number; ttl: number; hold?: string | true }) =>
        acquireAndPrint(specOf([name], cmd), cmd.hold),
    );

  program
    .command("validate")
    .description("whether TOKEN is the lock's current grant right now (best effort)")
    .argument("<name>", "the lock")
    .argument("<token>", "the token to check", parseUint64)
    .action((lock: string, token: bigint) =>
      withClient(async (client, opts) => {
        const valid = await client.read.validateToken(lock, token);
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
    .addOption(waitOption())
    .addOption(ttlOption())
    .addOption(graceOption())
    .option("--shared", "hold the lock in shared mode (beside other shared holders)", false)
    .option(
      "--upgrade",
      "take the lock upgradeable, then upgrade it once the other holders (readers) have left: the command runs holding it exclusive (--wait bounds both waits together)",
      false,
    )
    .addOption(
      new Option(
        "--permits <n>",
        "NAME is a semaphore of N permits: run while holding one permit (PALISADE_SLOT is its slot)",
      ).argParser(parsePermits),
    )
    .addOption(dataOption())
    .addOption(holdLimitOption("; the command is killed before"))
    .action(
      (
        lock: string,
        command: string,
        args: string[],
        cmd: KindOptions & { upgrade: boolean; wait: number; ttl: number; grace: number },
      ) =>
        withClient(async (client, opts) => {
          if (cmd.upgrade && cmd.shared)
            throw new Error(
              "--upgrade: a shared grant is never upgraded; leave out --shared or --upgrade",
            );
          if (cmd.upgrade && cmd.permits !== undefined)
            throw new Error(
              "--upgrade: a permit is never upgraded; leave out --permits or --upgrade",
            );
          const startedMs = performance.now();
          const got = await acquireOrExplain(
            client,
            opts,
            specOf([lock], { ...cmd, upgradeable: cmd.upgrade }),
          );
          if (typeof got === "number") return got;
          const { session } = got;
          const permit = got.grants.find((g) => g.mode === "permit");
          try {
            let { token, hold } = got;
            if (cmd.upgrade) {
              const leftMs = Math.max(0, cmd.wait - Math.round(performance.now() - startedMs));
              const upgraded = await upgradeOrExplain(opts, session, lock, got, leftMs, cmd.ttl);
              if (typeof upgraded === "number") return upgraded;
              ({ token, hold } = upgraded);
            }
            return await runWhileGrantHeld(io, opts.json, {
              session,
              token,
              command,
              args,
              graceMs: cmd.grace,
              env: {
                PALISADE_LOCK: lock,
                ...(permit ? { PALISADE_SLOT: String(permit.slot ?? 0) } : {}),
              },
              ...(hold ? { holdEndsMs: hold.sentAt.monotonicMs + hold.budgetMs } : {}),
              heldJson: {
                lock,
                acquired: true,
                token,
                sessionId: session.id,
                ...(permit ? { slot: permit.slot } : {}),
              },
              lostMessage: () => {
                const held = hold === undefined || session.holdTimeLeftMs(hold) > 0;
                return held || session.state !== "open"
                  ? `lost: the lock's session ended; the command was killed`
                  : `lost: the lock's hold limit passed; the command was killed`;
              },
              release: () => session.release(lock, token),
            });
          } finally {
            await session.close().catch(() => undefined);
          }
        }),
    );

  addExamples(program, {
    acquire: [
      "acquire orders/42",
      "acquire orders/42 --wait 5s --hold",
      "acquire catalog --shared --hold 30s",
      "acquire catalog --upgradeable --wait 10s --hold   # then type: upgrade 30s",
      "acquire account/7 account/9 --data 'transfer 81'",
    ],
    "semaphore acquire": ["semaphore acquire render --permits 4 --hold"],
    validate: ["validate orders/42 1234"],
    run: [
      "run nightly-report --wait 1m -- ./make-report.sh --full",
      "run render --permits 4 --hold-limit 10m -- ./render.sh",
      "run catalog --upgrade --wait 1m -- ./reindex.sh",
    ],
  });
}
