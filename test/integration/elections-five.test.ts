// One leader at a time among five `palisadectl elect … -- CMD` processes while the leader is
// killed again and again: SIGKILL of the leading CLI (its command is left to the watchdog),
// and once SIGSTOP (the CLI frozen past its TTL, thawed after the next leader is elected,
// then started again as a new candidate with its value).
// Each command writes its PALISADE_TOKEN, its pid and the time to a file of its own, and at
// start which other commands are still alive; the election's history in the cluster must
// agree with what the commands saw.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryRecordInfo, LeaderValue, PalisadeClient } from "../../client/index.ts";
import { spawnCtl, type HeldCtl } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

const ELECTION = "e/five";
/** The CLIs' TTL: only a kill or the freeze outlasts it, not a loaded machine's own stalls. */
const TTL = "5s";
/** How each leader is taken down, round by round. */
const ROUNDS = ["SIGKILL", "SIGSTOP", "SIGKILL", "SIGKILL", "SIGKILL"] as const;

let cluster: Cluster;
let client: PalisadeClient;
/** The commands' files: a log per candidate, a pid file per token. */
let dir: string;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "five-test" });
  dir = mkdtempSync(join(tmpdir(), "palisade-five-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

/**
 * The command run while leading, with the log as $1. It writes its pid file first and only
 * then looks for the others' commands, so of two commands started at once the second sees
 * the first. A process is alive unless gone or a zombie (state Z in /proc/PID/stat).
 */
const COMMAND = `
log="$1"; dir=$(dirname "$log")
echo $$ > "$dir/cmd-$PALISADE_TOKEN.pid"
alive=""
for f in "$dir"/cmd-*.pid; do
  p=$(cat "$f")
  [ "$p" = "$$" ] && continue
  s=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -c1)
  [ -n "$s" ] && [ "$s" != Z ] && alive="$alive,$p"
done
echo "start $PALISADE_TOKEN $$ $(date +%s%N) $PALISADE_ELECTION $PALISADE_LEADER_VALUE alive:$alive" >> "$log"
while :; do echo "tick $PALISADE_TOKEN $$ $(date +%s%N)" >> "$log"; sleep 0.1; done
`;

/** One `palisadectl elect` process. */
interface Candidate {
  name: string;
  value: string;
  log: string;
  ctl: HeldCtl;
}

/** A line a command wrote. */
interface Line {
  kind: "start" | "tick";
  token: bigint;
  pid: number;
  atNs: bigint;
  election?: string;
  value?: string;
  /** With a start: the pids of other commands alive at that moment. */
  alive?: number[];
}

/** One leader as the test saw it, in order. */
interface Lead {
  candidate: Candidate;
  leader: LeaderValue;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function startCandidate(name: string, value: string): Candidate {
  const log = join(dir, `${name}.log`);
  const ctl = spawnCtl(
    cluster.endpoints,
    "--json",
    "elect",
    ELECTION,
    value,
    "--ttl",
    TTL,
    "--",
    "sh",
    "-c",
    COMMAND,
    "cmd",
    log,
  );
  return { name, value, log, ctl };
}

function linesOf(path: string): Line[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  // A line still being written has no newline yet.
  return text
    .split("\n")
    .slice(0, -1)
    .map((raw) => {
      const [kind, token, pid, at, election, value, alive] = raw.split(" ");
      return {
        kind: kind as Line["kind"],
        token: BigInt(token ?? ""),
        pid: Number(pid),
        atNs: BigInt(at ?? ""),
        ...(kind === "start"
          ? {
              election,
              value,
              alive: (alive ?? "")
                .replace(/^alive:/, "")
                .split(",")
                .filter((p) => p !== "")
                .map(Number),
            }
          : {}),
      };
    });
}

/** The JSON objects a CLI printed on stderr (with --json: campaigning, elected, started). */
function stderrJson(c: Candidate): Array<Record<string, unknown>> {
  return c.ctl
    .stderrSoFar()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function sessionOf(c: Candidate): string | undefined {
  return stderrJson(c).find((j) => j.campaigning === true)?.sessionId as string | undefined;
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Nothing of the group is left.
  }
}

/** Every command's pid, from the pid files. */
function commandPids(): number[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith("cmd-") && f.endsWith(".pid"))
    .map((f) => Number(readFileSync(join(dir, f), "utf8").trim()))
    .filter((pid) => pid > 0);
}

/**
 * Waits until a leader other than `previous` (by session) leads and its command has
 * started; answers it and the candidate whose value it carries. Its token is not part of
 * the wait, so that the test's own assertion on it can fail.
 */
async function nextLead(candidates: Candidate[], previous?: LeaderValue): Promise<Lead> {
  let found: Lead | undefined;
  const after = previous ? ` after session ${previous.sessionId}` : "";
  await cluster.waitFor(`a leader of ${ELECTION}${after} running its command`, async () => {
    const { leader } = await client.elections.leader(ELECTION);
    if (!leader || leader.sessionId === previous?.sessionId) return false;
    const started = candidates.some((c) =>
      linesOf(c.log).some((l) => l.kind === "start" && l.token === leader.token),
    );
    if (!started) return false;
    // The newest process with the value: a candidate that rejoins campaigns with its old one.
    const candidate = candidates.filter((c) => c.value === leader.value).pop();
    if (!candidate) throw new Error(`no candidate has the leader's value ${leader.value}`);
    found = { candidate, leader };
    return true;
  });
  return found!;
}

describe("five candidates campaigning through leader kills", () => {
  it("one leader at a time, tokens rising, each command gone before the next one starts", async () => {
    const candidates: Candidate[] = [];
    const leads: Lead[] = [];
    /** Candidates taken down (killed, or exited after the freeze). */
    const down = new Set<Candidate>();
    let stopped: Candidate | undefined;
    try {
      for (let i = 0; i < 5; i++) candidates.push(startCandidate(`c${i}`, `v${i}`));
      await cluster.waitFor("all five candidates campaigning", async () => {
        const { leader, candidateCount } = await client.elections.leader(ELECTION);
        return leader !== null && candidateCount === 4;
      });
      leads.push(await nextLead(candidates));

      for (const [round, how] of ROUNDS.entries()) {
        const current = leads[leads.length - 1]!;
        const { candidate } = current;
        // The read's leader is the process the test means to take down: the session the
        // CLI said it campaigns with, and the token it said it was elected with.
        expect(String(current.leader.sessionId), `round ${round}`).toBe(sessionOf(candidate));
        await cluster.waitFor(`${candidate.name} to print its lead`, async () =>
          stderrJson(candidate).some((j) => j.elected === true),
        );
        const printed = stderrJson(candidate).find((j) => j.elected === true);
        expect(printed?.token, `round ${round}`).toBe(String(current.leader.token));
        const commandPid = linesOf(candidate.log).find(
          (l) => l.kind === "start" && l.token === current.leader.token,
        )!.pid;

        if (how === "SIGKILL") {
          // Its watchdog keeps the command running until the lead's deadline.
          void candidate.ctl.signal("SIGKILL");
          down.add(candidate);
          leads.push(await nextLead(candidates, current.leader));
          continue;
        }

        stopped = candidate;
        // Resolves once the CLI has exited, after the thaw.
        const frozen = candidate.ctl.signal("SIGSTOP");
        const next = await nextLead(candidates, current.leader);
        // Right as the test sees the next leader, the frozen leader's command is gone: the
        // watchdog killed it at the lead's deadline, which comes before the cluster could
        // elect anyone else.
        expect(alive(commandPid), "the frozen leader's command").toBe(false);
        leads.push(next);
        const linesBeforeThaw = readFileSync(candidate.log, "utf8");

        void candidate.ctl.signal("SIGCONT");
        const thawed = await frozen;
        down.add(candidate);
        // Thawed, the CLI finds its session lost and exits 3 without leading again.
        expect(thawed.code, thawed.stderr).toBe(3);
        expect(thawed.stderr).toContain("lost: the lead's session ended; the command was killed");
        // Its command wrote nothing after the thaw, and its old token no longer leads.
        expect(readFileSync(candidate.log, "utf8")).toBe(linesBeforeThaw);
        expect(await client.read.validateToken(ELECTION, current.leader.token)).toBe(false);
        expect((await client.elections.leader(ELECTION)).leader?.token).toBe(next.leader.token);
        // The same candidate campaigns again, as a new process with its value.
        const again = startCandidate(`${candidate.name}-again`, candidate.value);
        candidates.push(again);
        await cluster.waitFor("the rejoined candidate campaigning", async () => {
          const live = candidates.filter((c) => !down.has(c)).length;
          return (await client.elections.leader(ELECTION)).candidateCount === live - 1;
        });
      }

      const history = await client.read.history(ELECTION);
      const lines = candidates.flatMap((c) => linesOf(c.log).map((l) => ({ c, l })));
      const starts = lines.filter(({ l }) => l.kind === "start");
      checkTokensAndHistory(leads, history);
      checkCommands(leads, history, starts, lines);
      checkRejoined(leads, stopped!);
    } finally {
      for (const c of candidates) c.ctl.kill();
      for (const pid of commandPids()) killGroup(pid);
      // A watchdog whose CLI was killed may just be starting its command: wait for every
      // CLI's output to close (its watchdog and command gone too), then kill what is left.
      await Promise.race([Promise.all(candidates.map((c) => c.ctl.done)), sleep(8_000)]);
      for (const pid of commandPids()) killGroup(pid);
    }
  });
});

/** The election's history in the cluster against the leaders the test saw. */
function checkTokensAndHistory(leads: Lead[], history: HistoryRecordInfo[]): void {
  const tokens = leads.map((l) => l.leader.token);
  // Guards token order: each new leader's token is above the one before, so a fenced
  // resource refuses every earlier leader.
  for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]!);
  // Guards one holder at a time: the cluster granted the lead exactly to the leaders seen,
  // in that order, each ended by its session's expiry (a kill, the freeze) but the last.
  expect(history.map((r) => [r.token, String(r.sessionId)])).toEqual(
    leads.map((l) => [l.leader.token, String(l.leader.sessionId)]),
  );
  expect(history.map((r) => r.reason)).toEqual([
    ...leads.slice(1).map(() => "sessionExpired"),
    "current",
  ]);
  // Guards that grants never overlap: each ended at or before the index of the next one.
  for (let i = 1; i < history.length; i++) {
    const [before, after] = [history[i - 1]!, history[i]!];
    expect(before.endedIndex).toBeGreaterThan(0n);
    expect(before.endedIndex).toBeLessThanOrEqual(after.grantedIndex);
  }
}

/** What the commands saw against the history. */
function checkCommands(
  leads: Lead[],
  history: HistoryRecordInfo[],
  starts: Array<{ c: Candidate; l: Line }>,
  lines: Array<{ c: Candidate; l: Line }>,
): void {
  const granted = history.map((r) => r.token);
  // Guards that a command runs only with a lead's token: every token a command saw is one
  // the cluster granted, and each lead ran its command once, in the process that led.
  for (const { l } of lines) expect(granted).toContain(l.token);
  expect(starts.map(({ l }) => l.token).sort((a, b) => (a < b ? -1 : 1))).toEqual(granted);
  for (const lead of leads) {
    const start = starts.find(({ l }) => l.token === lead.leader.token);
    expect(start?.c, `the command of token ${lead.leader.token}`).toBe(lead.candidate);
    expect([start?.l.election, start?.l.value]).toEqual([ELECTION, lead.candidate.value]);
  }
  // Guards that no two commands run at once: when each command started, no other command
  // was alive (the watchdog had killed the previous leader's, SIGKILLed CLI or frozen).
  for (const { c, l } of starts) expect(l.alive, `${c.name} at token ${l.token}`).toEqual([]);
  // And by the commands' own clocks: each one's last line came before the next one started.
  const ordered = [...starts].sort((a, b) => (a.l.token < b.l.token ? -1 : 1));
  for (let i = 1; i < ordered.length; i++) {
    const previous = ordered[i - 1]!.l;
    const lastAt = lines
      .filter(({ l }) => l.token === previous.token)
      .reduce((at, { l }) => (l.atNs > at ? l.atNs : at), 0n);
    expect(lastAt, `token ${previous.token}'s last line`).toBeLessThan(ordered[i]!.l.atNs);
  }
}

/** The frozen candidate, back as a new process: it led once more, with a new, higher token. */
function checkRejoined(leads: Lead[], stopped: Candidate): void {
  const frozenLead = leads.find((l) => l.candidate === stopped)!;
  const later = leads.filter((l) => l.candidate !== stopped && l.candidate.value === stopped.value);
  // Guards that a thawed leader does not come back with its old token: its value leads
  // again only through a new campaign, with a token above every one before it.
  expect(later.length).toBe(1);
  expect(later[0]!.leader.token).toBeGreaterThan(frozenLead.leader.token);
  expect(later[0]!.leader.sessionId).not.toBe(frozenLead.leader.sessionId);
}
