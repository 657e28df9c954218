// palisadectl's election verbs against a real cluster, as separate processes: elect holds
// the lead until interrupted while the next candidate waits, gives up after --wait,
// withdraws its candidacy when interrupted, and takes a lead handed to the session it
// printed; election reads the leader; observe prints every change in order, from now or
// from an index; `elect … -- CMD` runs the command only while leading, and when the CLI
// freezes past its TTL the watchdog kills the command's whole process group before the
// next candidate can be elected.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Leadership, PalisadeClient } from "../../client/index.ts";
import { CTL, REPO_ROOT, runCtl, spawnCtl, type Run } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;
/** A second candidate: a client campaigns at most once per name at a time. */
let other: PalisadeClient;
/** Where the commands run under elect write their pids. */
let dir: string;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "elect-test" });
  other = cluster.client({ clientName: "other" });
  dir = mkdtempSync(join(tmpdir(), "palisade-elect-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);

/** What `elect --json` prints once elected. */
interface Elected {
  election: string;
  elected: true;
  token: string;
  index: string;
  value: string;
  sessionId: string;
}

/** The first line a CLI printed, read as JSON. */
const firstJson = <T>(stdout: string): T => JSON.parse(stdout.split("\n")[0] ?? "") as T;

const candidates = async (election: string): Promise<number> =>
  (await client.elections.leader(election)).candidateCount;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

/** The pid a command wrote to `path`, once the CLI is elected and started it; throws if the CLI exits first. */
async function pidFrom(path: string, cliExited: Promise<unknown>): Promise<number> {
  let exited = false;
  void cliExited.then(() => (exited = true));
  for (;;) {
    if (existsSync(path) && readFileSync(path, "utf8").trim() !== "")
      return Number(readFileSync(path, "utf8").trim());
    if (exited) throw new Error(`${path} never appeared: the CLI exited first`);
    await sleep(10);
  }
}

describe("palisadectl elect", () => {
  it("prints the lead and holds it; a second elect waits and leads once the first is interrupted", async () => {
    const name = "ctl-elect/takeover";
    const first = spawnCtl(cluster.endpoints, "--json", "elect", name, "host-a");
    let second: ReturnType<typeof spawnCtl> | undefined;
    try {
      await first.printed;
      const a = firstJson<Elected>(first.stdoutSoFar());
      expect(a).toMatchObject({ election: name, elected: true, value: "host-a" });
      expect(BigInt(a.token)).toBeGreaterThan(0n);
      expect(a.index).toBe(a.token);

      const read = await ctl("--json", "election", name);
      expect(read.code, read.stderr).toBe(0);
      expect(JSON.parse(read.stdout)).toMatchObject({
        election: name,
        leader: {
          token: a.token,
          value: "host-a",
          clientName: "palisadectl",
          sessionId: a.sessionId,
        },
        candidateCount: 0,
      });

      second = spawnCtl(cluster.endpoints, "--json", "elect", name, "host-b");
      await cluster.waitFor("the second elect to be a candidate", async () => {
        return (await candidates(name)) === 1;
      });
      // Still led by the first: the second waits.
      expect((await client.elections.leader(name)).leader?.token).toBe(BigInt(a.token));
      const text = await ctl("election", name);
      expect(text.stdout.trim()).toBe(
        `${name}: led by session ${a.sessionId} (palisadectl), token ${a.token}, since index ${a.index}, value "host-a"; 1 candidate waiting`,
      );

      const endedA = await first.interrupt();
      expect(endedA.code, endedA.stderr).toBe(0);
      await second.printed;
      const b = firstJson<Elected>(second.stdoutSoFar());
      expect(b).toMatchObject({ election: name, elected: true, value: "host-b" });
      expect(BigInt(b.token)).toBeGreaterThan(BigInt(a.token));
      const history = await client.read.history(name);
      expect(history.map((r) => [r.token.toString(), r.reason])).toEqual([
        [a.token, "released"],
        [b.token, "current"],
      ]);

      const endedB = await second.interrupt();
      expect(endedB.code, endedB.stderr).toBe(0);
      expect((await ctl("election", name)).stdout.trim()).toBe(
        `${name}: no leader; 0 candidates waiting`,
      );
    } finally {
      first.kill();
      second?.kill();
    }
  });

  it("gives up after --wait with exit 2 and the leader; a stop signal while campaigning withdraws the candidacy", async () => {
    const name = "ctl-elect/busy";
    const lead = await client.elections.campaign(name, "api");
    let waiting: ReturnType<typeof spawnCtl> | undefined;
    try {
      const gaveUp = await ctl("elect", name, "cli", "--wait", "300ms");
      expect(gaveUp.code).toBe(2);
      expect(gaveUp.stderr).toContain(
        `not elected: ${name} is led by session ${lead.sessionId} (elect-test), token ${lead.token}, since index ${lead.token}`,
      );
      expect(await candidates(name)).toBe(0);

      waiting = spawnCtl(cluster.endpoints, "elect", name, "cli", "--ttl", "30s");
      await cluster.waitFor("the elect to be a candidate", async () => {
        return (await candidates(name)) === 1;
      });
      const interrupted = await waiting.signal("SIGTERM");
      expect(interrupted.code).toBe(130);
      expect(interrupted.stderr).toMatch(/^campaigning for ctl-elect\/busy as session \d+$/m);
      expect(interrupted.stderr).toContain(`interrupted: the wait for ${name} is cancelled`);
      expect(await candidates(name)).toBe(0);
      // No lead went to the gone process: once the API resigns, nobody leads.
      await lead.resign();
      expect((await client.elections.leader(name)).leader).toBeNull();
    } finally {
      waiting?.kill();
      await lead.resign().catch(() => undefined);
    }
  });

  it("a leader using the library hands its lead to a waiting elect by the session id it printed", async () => {
    const name = "ctl-elect/handoff";
    const lead = await client.elections.campaign(name, "api");
    const waiting = spawnCtl(cluster.endpoints, "--json", "elect", name, "cli");
    try {
      await cluster.waitFor("the elect to be a candidate", async () => {
        return (await candidates(name)) === 1;
      });
      const { sessionId } = firstJson<{ campaigning: true; sessionId: string }>(
        waiting.stderrSoFar(),
      );
      await lead.resign({ to: BigInt(sessionId) });
      await waiting.printed;
      const elected = firstJson<Elected>(waiting.stdoutSoFar());
      expect(elected).toMatchObject({ elected: true, value: "cli", sessionId });
      expect(BigInt(elected.token)).toBeGreaterThan(lead.token);
      expect((await client.read.history(name)).map((r) => r.reason)).toEqual([
        "handedOff",
        "current",
      ]);
      const ended = await waiting.interrupt();
      expect(ended.code, ended.stderr).toBe(0);
    } finally {
      waiting.kill();
      await lead.resign().catch(() => undefined);
    }
  });

  it("observe prints each change in order from the state of now, and --from replays them from an index", async () => {
    const name = "ctl-elect/observed";
    const watching = spawnCtl(cluster.endpoints, "--json", "observe", name, "--count", "5");
    let leadA: Leadership | undefined;
    let leadB: Leadership | undefined;
    try {
      // The first change printed is the state of now: nothing below can come before it.
      await watching.printed;
      leadA = await client.elections.campaign(name, "a");
      const leadingB = other.elections.campaign(name, "b");
      await cluster.waitFor("the second candidate", async () => (await candidates(name)) === 1);
      await leadA.proclaim("a2");
      await leadA.resign();
      leadB = await leadingB;
      await leadB.resign();
      const run = await watching.done;
      expect(run.code, run.stderr).toBe(0);
      const events = run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as ObservedJson);
      expect(events.map(summary)).toEqual([
        "noLeader",
        `leader a ${leadA.token}`,
        `value a2 ${leadA.token}`,
        `leader b ${leadB.token}`,
        `noLeader released ${leadB.token}`,
      ]);
      const indexes = events.map((e) => BigInt(e.index));
      expect(indexes.every((index, i) => i === 0 || index > indexes[i - 1]!)).toBe(true);

      const at = events.map((e) => e.index);
      // `elect NAME --observe` observes from now: its first line is the state of now.
      const observing = spawnCtl(cluster.endpoints, "--json", "elect", name, "--observe");
      try {
        await observing.printed;
        expect(JSON.parse(observing.stdoutSoFar().trim().split("\n")[0] ?? "")).toMatchObject({
          kind: "noLeader",
        });
      } finally {
        observing.kill();
      }
      const refused = await ctl("elect", name, "v", "--observe");
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("elect --observe takes the election's name only");
      const replay = await ctl("observe", name, "--from", at[1] ?? "", "--count", "4");
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout.trim().split("\n")).toEqual([
        `${at[1]}  leader  session ${leadA.sessionId} (elect-test)  token ${leadA.token}  value "a"`,
        `${at[2]}  value  session ${leadA.sessionId} (elect-test)  token ${leadA.token}  value "a2"`,
        `${at[3]}  leader  session ${leadB.sessionId} (other)  token ${leadB.token}  value "b"`,
        `${at[4]}  noLeader  ended released  token ${leadB.token}`,
      ]);
    } finally {
      watching.kill();
      await leadA?.resign().catch(() => undefined);
      await leadB?.resign().catch(() => undefined);
    }
  });

  it("elect NAME VALUE -- CMD runs the command with PALISADE_ELECTION, PALISADE_TOKEN and PALISADE_LEADER_VALUE, exits with its code and resigns", async () => {
    const name = "ctl-elect/command";
    const run = await ctl(
      "elect",
      name,
      "host-a",
      "--",
      "sh",
      "-c",
      'echo "$PALISADE_ELECTION $PALISADE_TOKEN $PALISADE_LEADER_VALUE"; exit 7',
    );
    expect(run.code, run.stderr).toBe(7);
    const [election, token, value] = run.stdout.trim().split(" ");
    expect([election, value]).toEqual([name, "host-a"]);
    expect((await client.read.history(name)).map((r) => [r.token.toString(), r.reason])).toEqual([
      [token, "released"],
    ]);
    expect((await client.elections.leader(name)).leader).toBeNull();

    // Without a VALUE before --, the value is empty and the command is all that follows.
    const bare = await ctl("elect", name, "--", "sh", "-c", 'echo "[$PALISADE_LEADER_VALUE]"');
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout.trim()).toBe("[]");
    // Without --, a second operand is refused rather than taken for a command or a value.
    const ambiguous = await ctl("elect", name, "host-a", "true");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("put the command after --");
    expect((await client.read.history(name)).length).toBe(2);
  });

  it("SIGSTOP of a leading elect past its TTL: the command's whole group is dead before the next candidate is elected", async () => {
    const name = "ctl-elect/frozen";
    const cli = spawn(
      process.execPath,
      [
        // A TTL the CLI's own stalls on a loaded machine do not outlast: only the freeze does.
        CTL,
        "elect",
        name,
        "frozen",
        "--ttl",
        "5s",
        "--",
        "sh",
        "-c",
        'sleep 600 & echo $! > "$DIR/grandchild"; echo $$ > "$DIR/child"; wait',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, PALISADE_ENDPOINTS: cluster.endpoints.join(","), DIR: dir },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    cli.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => cli.once("exit", (code) => r(code)));
    let child: number | undefined;
    try {
      child = await pidFrom(join(dir, "child"), exited);
      const grandchild = await pidFrom(join(dir, "grandchild"), exited);
      expect(alive(child) && alive(grandchild)).toBe(true);
      const first = (await client.elections.leader(name)).leader;
      expect(first?.value).toBe("frozen");
      // Waiting before the freeze, the next candidate is elected as soon as the cluster may.
      const leading = other.elections.campaign(name, "next");
      await cluster.waitFor("the next candidate", async () => (await candidates(name)) === 1);

      cli.kill("SIGSTOP");
      try {
        const lead = await leading;
        // Right as the next candidate leads, nothing of the first leader's command runs.
        const childAlive = alive(child);
        const grandchildAlive = alive(grandchild);
        expect(lead.token).toBeGreaterThan(first?.token ?? 0n);
        expect(childAlive).toBe(false);
        expect(grandchildAlive).toBe(false);
        // The lead moved because the frozen CLI's session expired, not by a resign.
        expect((await client.read.history(name)).map((r) => r.reason)).toEqual([
          "sessionExpired",
          "current",
        ]);
        await lead.resign();
      } finally {
        cli.kill("SIGCONT");
      }
      // Thawed, the CLI finds its session lost and exits 3.
      expect(await exited).toBe(3);
      expect(stderr).toContain("lost: the lead's session ended; the command was killed");
    } finally {
      cli.kill("SIGKILL");
      // A failed run must not leave the command's group behind.
      if (child !== undefined) killGroup(child);
    }
  });
});

/** What `observe --json` prints per change. */
interface ObservedJson {
  kind: "leader" | "value" | "noLeader";
  index: string;
  leader?: { value: string; token: string };
  ended?: { reason: string; token: string };
}

function summary(e: ObservedJson): string {
  if (e.kind === "noLeader")
    return e.ended ? `noLeader ${e.ended.reason} ${e.ended.token}` : "noLeader";
  return `${e.kind} ${e.leader?.value} ${e.leader?.token}`;
}
