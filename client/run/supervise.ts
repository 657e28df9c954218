// The CLI's side of `palisadectl run` and `palisadectl elect … -- CMD`: starts the watchdog
// process, hands it the command and the deadline of the session that holds the grant (a
// lock, a permit or an election's lead), extends the deadline on each acknowledged
// keepalive, and turns the command's end into palisadectl's exit code.
import { fork } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import type { Session } from "../session.ts";

const WATCHDOG = fileURLToPath(new URL("./watchdog.mjs", import.meta.url));

/** palisadectl's exit code when the command was killed because the grant was lost. */
export const EXIT_LOST = 3;

export interface RunRequest {
  /** The session that holds the grant: the command runs while it is live. */
  session: Session;
  /** The grant's token, the command's PALISADE_TOKEN. */
  token: bigint;
  command: string;
  args: string[];
  /** How long a forwarded SIGINT/SIGTERM/SIGHUP may take before SIGKILL (never past the deadline). */
  graceMs: number;
  /** A hold limit's deadline (an absolute monotonic ns value): the watchdog's deadline never passes it, whatever the keepalives. */
  holdDeadlineNs?: bigint;
  /** What the grant is, for the command: PALISADE_LOCK (and a permit's PALISADE_SLOT), or PALISADE_ELECTION and PALISADE_LEADER_VALUE. */
  env: Record<string, string>;
}

export interface RunOutcome {
  /** The exit code palisadectl should return. */
  exitCode: number;
  /** Why the watchdog killed the group, if it did. */
  killedFor: "deadline" | "lost" | "grace" | null;
  pid?: number;
}

interface WatchdogExit {
  type: "exit";
  code: number | null;
  signal: NodeJS.Signals | null;
  killedFor: RunOutcome["killedFor"];
}

type WatchdogMessage =
  | { type: "started"; pid: number }
  | { type: "spawnError"; message: string; lost?: boolean }
  | WatchdogExit;

/** Runs the command while the grant is held; resolves once the command's whole group is gone. */
export function runWhileHeld(
  request: RunRequest,
  onStarted?: (pid: number) => void,
): Promise<RunOutcome> {
  const { session } = request;
  const cap = request.holdDeadlineNs;
  const capped = (deadlineNs: bigint): bigint =>
    cap !== undefined && cap < deadlineNs ? cap : deadlineNs;
  const watchdog = fork(WATCHDOG, [], {
    // Its own session: a Ctrl-C or a kill of the CLI's group does not reach it.
    detached: true,
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    execArgv: [],
  });
  const send = (message: object): void => {
    if (watchdog.connected) watchdog.send(message, (err) => void err);
  };
  return new Promise<RunOutcome>((resolve, reject) => {
    let pid: number | undefined;
    let settled = false;
    const stopExtending = session.onDeadlineExtended((deadlineNs) =>
      send({ type: "extend", deadline: capped(deadlineNs).toString() }),
    );
    const onLost = (): void => send({ type: "kill" });
    session.signal.addEventListener("abort", onLost, { once: true });
    const forward = (signal: NodeJS.Signals): void =>
      send({ type: "terminate", signal, graceMs: request.graceMs });
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const s of signals) process.on(s, forward);

    const finish = (outcome: RunOutcome | Error): void => {
      if (settled) return;
      settled = true;
      stopExtending();
      session.signal.removeEventListener("abort", onLost);
      for (const s of signals) process.off(s, forward);
      if (watchdog.connected) watchdog.disconnect();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };

    watchdog.on("message", (raw: WatchdogMessage) => {
      if (raw.type === "started") {
        pid = raw.pid;
        onStarted?.(raw.pid);
      } else if (raw.type === "spawnError") {
        if (raw.lost) finish({ exitCode: EXIT_LOST, killedFor: "deadline" });
        else finish(new Error(`could not run ${request.command}: ${raw.message}`));
      } else if (raw.type === "exit") {
        finish(outcomeOf(raw, pid));
      }
    });
    // "close", not "exit": it comes after the IPC channel is drained, so a final report is never missed.
    watchdog.once("close", (code) => {
      if (settled) return;
      // The watchdog died without reporting: nothing guards the command any more, so it
      // must not outlive this moment.
      if (pid !== undefined) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // Nothing of the group is left.
        }
      }
      finish({
        exitCode: session.state === "lost" ? EXIT_LOST : code === 0 ? 1 : (code ?? 1),
        killedFor: null,
        ...(pid ? { pid } : {}),
      });
    });
    watchdog.once("error", (err) => finish(err));

    send({
      type: "start",
      deadline: capped(session.deadlineNs).toString(),
      command: request.command,
      args: request.args,
      cwd: process.cwd(),
      env: {
        ...process.env,
        ...request.env,
        PALISADE_TOKEN: request.token.toString(),
      },
    });
    // A loss between the grant and this point: kill as soon as the command starts.
    if (session.signal.aborted) onLost();
  });
}

function outcomeOf(exit: WatchdogExit, pid: number | undefined): RunOutcome {
  const base = { killedFor: exit.killedFor, ...(pid ? { pid } : {}) };
  if (exit.killedFor === "deadline" || exit.killedFor === "lost")
    return { ...base, exitCode: EXIT_LOST };
  if (exit.code !== null) return { ...base, exitCode: exit.code };
  const number = exit.signal ? constants.signals[exit.signal] : undefined;
  return { ...base, exitCode: 128 + (number ?? 0) };
}
