// palisadectl's election verbs: elect (campaign and hold the lead until a stop signal, or
// run a command only while leading, as `run` does under a lock), election (who leads, and
// how many candidates wait) and observe (every change, as watch prints a prefix's lock
// events). A lead is held on a session of the verb's own, as acquire holds a lock: lost with
// that session, resigned on a stop signal or when the command exits.
import { Option } from "commander";
import { CAMPAIGN_WAIT_MS, type LeaderValue, type ObservedEvent } from "../elections.ts";
import type { Session } from "../session.ts";
import type { PalisadeClient } from "../client.ts";
import type { AcquireResult, LockHolderInfo } from "../types.ts";
import {
  addExamples,
  EXIT_LOST,
  EXIT_NOT_ACQUIRED,
  EXIT_OK,
  type Ctl,
  type GlobalOptions,
  onStopSignal,
  type Output,
} from "./context.ts";
import { parseCount, parseDuration, parseUint64, toJson } from "./format.ts";
import {
  graceOption,
  holdUntil,
  runWhileGrantHeld,
  ttlOption,
  waitUnlessInterrupted,
} from "./hold.ts";

/** The options of `elect`. */
interface ElectOptions {
  /** Absent: campaign until elected. */
  wait?: number;
  /** Print the election's changes instead of campaigning. */
  observe?: boolean;
  ttl: number;
  grace: number;
}

/**
 * VALUE and the command of `elect NAME [VALUE] [-- CMD ARGS…]`, from the operands commander
 * found after NAME. Commander drops the `--`, so where it stood in `argv` says which
 * operands are the command: `elect NAME -- CMD` campaigns with an empty value.
 */
export function valueAndCommand(
  operands: readonly string[],
  argv: readonly string[],
): { value: string; command: string[] } {
  const dash = argv.indexOf("--");
  if (dash < 0) {
    if (operands.length > 1)
      throw new Error(
        `elect takes one VALUE; put the command after --: elect NAME VALUE -- ${operands.slice(1).join(" ")}`,
      );
    return { value: operands[0] ?? "", command: [] };
  }
  const command = argv.slice(dash + 1);
  const before = operands.slice(0, Math.max(0, operands.length - command.length));
  if (command.length > operands.length || before.length > 1)
    throw new Error("elect NAME [VALUE] -- CMD [ARGS...]: NAME and at most one VALUE before --");
  return { value: before[0] ?? "", command };
}

/** "session 12 (scheduler-7), token 45, since index 45": a leader in words, its value apart. */
function describeLeader(l: Omit<LeaderValue, "value">): string {
  const name = l.clientName ? ` (${l.clientName})` : "";
  return `session ${l.sessionId}${name}, token ${l.token}, since index ${l.sinceIndex}`;
}

/** One observed change in words: its index, its kind, and the leader or how the lead ended. */
function describeChange(e: ObservedEvent): string[] {
  const jump = e.resync
    ? [
        `resync: the changes before index ${e.index} are no longer retained; the state at ${e.index} follows`,
      ]
    : [];
  if (e.kind === "noLeader") {
    const ended = e.ended ? `  ended ${e.ended.reason}  token ${e.ended.token}` : "";
    return [...jump, `${e.index}  noLeader${ended}`];
  }
  const l = e.leader;
  const name = l.clientName ? ` (${l.clientName})` : "";
  return [
    ...jump,
    `${e.index}  ${e.kind}  session ${l.sessionId}${name}  token ${l.token}  value ${JSON.stringify(l.value)}`,
  ];
}

/** A not-elected answer's holder as the leader it is (a Campaign's answer leaves out the value). */
function leaderOf(holder: LockHolderInfo): Omit<LeaderValue, "value"> {
  return {
    sessionId: holder.sessionId,
    clientName: holder.clientName,
    token: holder.token,
    sinceIndex: holder.grantedIndex,
  };
}

/**
 * Campaigns until elected, or until `waitMs` (when given) has passed. One Campaign waits at
 * most CAMPAIGN_WAIT_MS (the cluster's longest wait), so a longer wait campaigns again.
 */
async function campaignUntil(
  session: Session,
  election: string,
  value: string,
  waitMs: number | undefined,
  signal: AbortSignal,
): Promise<AcquireResult> {
  const giveUpAt = waitMs === undefined ? Infinity : performance.now() + waitMs;
  for (;;) {
    const left = Math.max(0, Math.min(Math.ceil(giveUpAt - performance.now()), CAMPAIGN_WAIT_MS));
    const result = await session.startCampaign(election, value, { waitMs: left, signal }).result;
    if (result.acquired || result.cancelled || signal.aborted) return result;
    if (performance.now() >= giveUpAt) return result;
  }
}

/** Says that the campaign ended unelected; answers EXIT_NOT_ACQUIRED. */
function notElected(io: Output, opts: GlobalOptions, election: string, r: AcquireResult): number {
  const leader = r.holder ? leaderOf(r.holder) : null;
  if (opts.json) io.out(toJson({ election, elected: false, leader }));
  else
    io.err(
      `not elected: ${election} is ${leader ? `led by ${describeLeader(leader)}` : "without a leader (candidates queued ahead)"}`,
    );
  return EXIT_NOT_ACQUIRED;
}

/** Adds the election verbs to palisadectl. */
export function registerElectionVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;

  /** Campaigns on the verb's session; the lead's token and index, or the exit code. */
  const campaign = async (
    session: Session,
    opts: GlobalOptions,
    election: string,
    value: string,
    cmd: ElectOptions,
  ): Promise<{ token: bigint; index: bigint } | number> => {
    // The session id is what a leader names to hand the lead to this candidate.
    if (opts.json) io.err(toJson({ election, campaigning: true, sessionId: session.id }));
    else io.err(`campaigning for ${election} as session ${session.id}`);
    const result = await waitUnlessInterrupted(io, {
      session,
      name: election,
      ttlMs: cmd.ttl,
      wait: (signal) => campaignUntil(session, election, value, cmd.wait, signal),
      letGo: (token) => session.release(election, token, { election: true }),
    });
    if (typeof result === "number") return result;
    if (!result.acquired || result.token === undefined)
      return notElected(io, opts, election, result);
    return { token: result.token, index: result.holder?.grantedIndex ?? result.token };
  };

  /** Holds the lead until a stop signal (resign, 0) or the session's loss (3). */
  const holdLead = async (
    session: Session,
    opts: GlobalOptions,
    election: string,
    value: string,
    lead: { token: bigint; index: bigint },
  ): Promise<number> => {
    const { token, index } = lead;
    if (opts.json)
      io.out(toJson({ election, elected: true, token, index, value, sessionId: session.id }));
    else
      io.out(
        `leader of ${election}: token ${token}, index ${index}, value ${JSON.stringify(value)}, session ${session.id}`,
      );
    // Set up in the same turn as the print: a stop signal from here on resigns.
    const why = await holdUntil(session.signal, undefined);
    if (why === "lost") {
      const reason = (session.signal.reason as Error | undefined)?.message;
      io.err(`lost: ${reason ?? "session lost"}`);
      return EXIT_LOST;
    }
    await session.release(election, token, { election: true });
    return EXIT_OK;
  };

  /** Runs the command while leading, as `run` does under a lock; resigns once it exited. */
  const runWhileLeading = (
    session: Session,
    opts: GlobalOptions,
    election: string,
    value: string,
    lead: { token: bigint; index: bigint },
    [command, ...args]: [string, ...string[]],
    graceMs: number,
  ): Promise<number> =>
    runWhileGrantHeld(io, opts.json, {
      session,
      token: lead.token,
      command,
      args,
      graceMs,
      env: { PALISADE_ELECTION: election, PALISADE_LEADER_VALUE: value },
      heldJson: { election, elected: true, ...lead, value, sessionId: session.id },
      lostMessage: () => "lost: the lead's session ended; the command was killed",
      release: () => session.release(election, lead.token, { election: true }),
    });

  /** Prints each change of the election until Ctrl-C, or `count` of them. */
  const printChanges = async (
    client: PalisadeClient,
    opts: GlobalOptions,
    election: string,
    cmd: { from?: bigint; count?: number },
  ): Promise<number> => {
    const stop = new AbortController();
    const offStop = onStopSignal(() => stop.abort());
    let seen = 0;
    try {
      for await (const e of client.elections.observe(election, {
        signal: stop.signal,
        ...(cmd.from !== undefined ? { fromIndex: cmd.from } : {}),
      })) {
        if (opts.json) io.out(toJson(e));
        else for (const line of describeChange(e)) io.out(line);
        if (cmd.count !== undefined && ++seen >= cmd.count) break;
      }
    } finally {
      offStop();
    }
    return EXIT_OK;
  };

  program
    .command("elect")
    .description(
      "campaign for election NAME with VALUE (the leader's address, say), print the lead and hold it until Ctrl-C, which resigns (exit 3 if the lead is lost); with -- CMD, run CMD only while leading (PALISADE_ELECTION, PALISADE_TOKEN and PALISADE_LEADER_VALUE are set for it) and resign when it exits",
    )
    .argument("<name>", "the election")
    .argument("[value]", "what the leader publishes, such as its address (default: empty)")
    .argument("[command...]", "after --: the command to run while leading, and its arguments")
    .addOption(
      new Option(
        "--wait <duration>",
        "give up unelected after this long (exit 2); default: campaign until elected",
      ).argParser(parseDuration),
    )
    .addOption(ttlOption())
    .addOption(graceOption())
    .option("--observe", "do not campaign: print each change of the election, as observe does")
    .action((election: string, given: string | undefined, rest: string[], cmd: ElectOptions) => {
      const { value, command } = valueAndCommand(
        given === undefined ? rest : [given, ...rest],
        ctl.argv,
      );
      if (cmd.observe === true) {
        if (value !== "" || command.length > 0)
          throw new Error("elect --observe takes the election's name only: elect NAME --observe");
        return withClient((client, opts) => printChanges(client, opts, election, {}));
      }
      return withClient(async (client, opts) => {
        const session = await client.openSession({ ttlMs: cmd.ttl });
        try {
          const lead = await campaign(session, opts, election, value, cmd);
          if (typeof lead === "number") return lead;
          return command.length > 0
            ? await runWhileLeading(
                session,
                opts,
                election,
                value,
                lead,
                command as [string, ...string[]],
                cmd.grace,
              )
            : await holdLead(session, opts, election, value, lead);
        } finally {
          await session.close().catch(() => undefined);
        }
      });
    });

  program
    .command("election <name>")
    .description("who leads election NAME (token, since index, value) and how many candidates wait")
    .action((election: string) =>
      withClient(async (client, opts) => {
        const { leader, candidateCount } = await client.elections.leader(election);
        if (opts.json) io.out(toJson({ election, leader, candidateCount }));
        else {
          const lead = leader
            ? `led by ${describeLeader(leader)}, value ${JSON.stringify(leader.value)}`
            : "no leader";
          io.out(
            `${election}: ${lead}; ${candidateCount} candidate${candidateCount === 1 ? "" : "s"} waiting`,
          );
        }
        return EXIT_OK;
      }),
    );

  program
    .command("observe <name>")
    .description(
      "print each change of election NAME as it happens (new leader, new value, no leader), until Ctrl-C; resumes across failovers",
    )
    .option(
      "--from <index>",
      "start at this log index (default: now, with the state of now)",
      parseUint64,
    )
    .option("--count <n>", "stop after this many changes", parseCount)
    .action((election: string, cmd: { from?: bigint; count?: number }) =>
      withClient((client, opts) => printChanges(client, opts, election, cmd)),
    );

  addExamples(program, {
    elect: [
      "elect scheduler 10.0.0.7:8080",
      "elect scheduler 10.0.0.7:8080 --wait 30s --json",
      "elect scheduler 10.0.0.7:8080 -- ./scheduler --serve",
    ],
    election: ["election scheduler", "election scheduler --json"],
    observe: ["observe scheduler", "observe scheduler --from 1200 --count 10 --json"],
  });
}
