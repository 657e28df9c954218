// What the palisadectl verbs that wait for a grant and hold it share (acquire, semaphore
// acquire, run, elect): a wait that a stop signal cancels in the cluster, holding until a
// stop signal or the loss of the session, and a command run only while the grant is held.
import { Option } from "commander";
import type { Session } from "../session.ts";
import type { AcquireResult } from "../types.ts";
import { EXIT_INTERRUPTED, onStopSignal, type Output } from "./context.ts";
import { parseDuration, toJson } from "./format.ts";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long an interrupted wait's cancel may take before the CLI exits without its answer. */
export const CANCEL_BOUND_MS = 2_000;

/**
 * Runs `wait` with an AbortSignal that a stop signal aborts. Resolves with its outcome, or
 * with "unconfirmed" when, once interrupted, it has not settled within CANCEL_BOUND_MS (the
 * cluster did not answer the cancel).
 */
async function interruptible<T>(
  wait: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; interrupted: boolean } | "unconfirmed"> {
  const interrupt = new AbortController();
  const offStop = onStopSignal(() => interrupt.abort());
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
    offStop();
  }
}

/** What a grant wait's answer says: granted (with its token) or not. */
export interface GrantOutcome {
  readonly acquired: boolean;
  readonly token?: bigint | undefined;
}

/** A wait for a grant (an Acquire, a Campaign or an Upgrade) on a session of the verb's own. */
export interface GrantWait<R extends GrantOutcome = AcquireResult> {
  session: Session;
  /** The lock or election waited for, as the messages name it. */
  name: string;
  /** The session's TTL: how long an unconfirmed cancel may leave the wait queued. */
  ttlMs: number;
  /** Sends the request; aborting `signal` cancels it in the cluster. */
  wait(signal: AbortSignal): Promise<R>;
  /** Ends a grant that came in just before the stop signal. */
  letGo(token: bigint): Promise<void>;
}

/**
 * The answer of a grant wait, or EXIT_INTERRUPTED (said on stderr) when a stop signal came
 * first. The signal cancels the wait in the cluster before the CLI exits: the process going
 * away alone would leave the wait queued, and a grant to a session that nobody keeps alive
 * would hold the name until its TTL ran out.
 */
export async function waitUnlessInterrupted<R extends GrantOutcome = AcquireResult>(
  io: Output,
  grant: GrantWait<R>,
): Promise<R | number> {
  const { session, name } = grant;
  const outcome = await interruptible((signal) => grant.wait(signal));
  if (outcome === "unconfirmed") {
    io.err(
      `interrupted: the cancel of the wait for ${name} is unconfirmed (no answer within ${CANCEL_BOUND_MS} ms); the wait ends with session ${session.id} within its TTL of ${grant.ttlMs} ms`,
    );
    return EXIT_INTERRUPTED;
  }
  const result = outcome.value;
  if (!outcome.interrupted) return result;
  // A grant that came in just before the signal is let go; closing the session ends
  // anything of it that is left. Both bounded, as the cancel was.
  const letGo = async (): Promise<void> => {
    if (result.acquired && result.token !== undefined) await grant.letGo(result.token);
    await session.close();
  };
  await Promise.race([letGo().catch(() => undefined), sleep(CANCEL_BOUND_MS)]);
  io.err(`interrupted: the wait for ${name} is cancelled`);
  return EXIT_INTERRUPTED;
}

/**
 * Resolves "lost" if the signal aborts, "interrupted" on SIGINT/SIGTERM/SIGHUP, "elapsed"
 * after `ms` (when given), "released" when `release` aborts (a `release` line of stdin).
 */
export function holdUntil(
  signal: AbortSignal,
  ms: number | undefined,
  release?: AbortSignal,
): Promise<"lost" | "interrupted" | "elapsed" | "released"> {
  return new Promise((resolve) => {
    const keepOpen = setInterval(() => undefined, 60_000);
    const timer = ms === undefined ? undefined : setTimeout(() => done("elapsed"), ms);
    const onAbort = (): void => done("lost");
    const onRelease = (): void => done("released");
    const offStop = onStopSignal(() => done("interrupted"));
    function done(why: "lost" | "interrupted" | "elapsed" | "released"): void {
      clearInterval(keepOpen);
      clearTimeout(timer);
      offStop();
      signal.removeEventListener("abort", onAbort);
      release?.removeEventListener("abort", onRelease);
      resolve(why);
    }
    if (signal.aborted) done("lost");
    else if (release?.aborted) done("released");
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      release?.addEventListener("abort", onRelease, { once: true });
    }
  });
}

/** --ttl: the session of every verb that acquires or campaigns. */
export const ttlOption = (): Option =>
  new Option("--ttl <duration>", "session TTL").argParser(parseDuration).default(10_000, "10s");

/** --grace: of every verb that runs a command under a grant. */
export const graceOption = (): Option =>
  new Option(
    "--grace <duration>",
    "after Ctrl-C/SIGTERM, how long the command may take before SIGKILL (never past the grant's deadline)",
  )
    .argParser(parseDuration)
    .default(10_000, "10s");

/** A command to run while a grant of `session` is held (`run`, `elect … -- CMD`). */
export interface HeldCommand {
  session: Session;
  token: bigint;
  command: string;
  args: string[];
  graceMs: number;
  /** What the grant is, for the command: PALISADE_LOCK, or PALISADE_ELECTION, and so on. */
  env: Record<string, string>;
  /** A hold limit's end (the session clock's monotonic ms): the command is killed before it. */
  holdEndsMs?: number;
  /** With --json, printed on stderr before the command starts (stdout is the command's). */
  heldJson: Record<string, unknown>;
  /** Said on stderr when the command was killed because the grant was lost. */
  lostMessage(): string;
  /** Ends the grant once the command has exited by itself. */
  release(): Promise<void>;
}

/**
 * Runs the command under the watchdog (client/run/supervise.ts) and ends the grant after
 * it; resolves with palisadectl's exit code: the command's, or 3 if it was killed because
 * the grant was lost. The session is the caller's to close.
 */
export async function runWhileGrantHeld(
  io: Output,
  json: boolean,
  held: HeldCommand,
): Promise<number> {
  const { session } = held;
  if (json) io.err(toJson(held.heldJson));
  // Loaded by the verbs that run a command alone.
  const { runWhileHeld } = await import("../run/supervise.ts");
  const { msToNs } = await import("../clock.ts");
  const outcome = await runWhileHeld(
    {
      session,
      token: held.token,
      command: held.command,
      args: held.args,
      graceMs: held.graceMs,
      env: held.env,
      ...(held.holdEndsMs !== undefined ? { holdDeadlineNs: msToNs(held.holdEndsMs) } : {}),
    },
    (pid) => {
      if (json) io.err(toJson({ started: pid }));
    },
  );
  if (outcome.killedFor === "deadline" || outcome.killedFor === "lost") io.err(held.lostMessage());
  else if (session.state === "open") await held.release().catch(() => undefined);
  return outcome.exitCode;
}
