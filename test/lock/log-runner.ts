// Applies commands to a LockStateMachine at consecutive log indexes, as a committed log
// would, and keeps the log so it can be replayed (tests, tools and the simulator).
import type { Command } from "../../node/lock/commands.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";

export interface LoggedCommand {
  readonly index: number;
  /** null for an entry without a command (a leader's no-op) or with undecodable bytes. */
  readonly cmd: Command | null;
  /** The caller its entry names (node/auth/caller.ts); absent: apply's default for the command. */
  readonly caller?: string | null;
}

export class LogRunner {
  readonly log: LoggedCommand[] = [];

  constructor(
    readonly machine: LockStateMachine = new LockStateMachine(),
    private nextIndex = machine.appliedIndex + 1,
  ) {}

  /** Index the next command will get. */
  get next(): number {
    return this.nextIndex;
  }

  /** Applies `cmd` as sent by `caller` (absent: anonymous, or the node for its own commands). */
  run(cmd: Command, caller?: string | null): ApplyOutcome {
    const index = this.nextIndex++;
    this.log.push(caller === undefined ? { index, cmd } : { index, cmd, caller });
    return this.machine.apply(index, cmd, caller);
  }

  /** An entry carrying raw bytes (possibly not a command at all). */
  runBytes(bytes: Uint8Array): ApplyOutcome {
    const index = this.nextIndex++;
    this.log.push({ index, cmd: null });
    return this.machine.applyBytes(index, bytes);
  }

  /** An entry without a command. */
  noop(): number {
    const index = this.nextIndex++;
    this.log.push({ index, cmd: null });
    this.machine.skip(index);
    return index;
  }
}

/** Applies logged entries after `from` to `machine`. */
export function replay(
  machine: LockStateMachine,
  log: readonly LoggedCommand[],
  from = machine.appliedIndex,
): void {
  for (const entry of log) {
    if (entry.index <= from) continue;
    if (entry.cmd === null) machine.skip(entry.index);
    else machine.apply(entry.index, entry.cmd, entry.caller);
  }
}
