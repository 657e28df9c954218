// palisadectl's election verbs against a real cluster, as separate processes: elect holds
// the lead until interrupted while the next candidate waits, gives up after --wait, and
// withdraws its candidacy when interrupted; election reads the leader; observe prints every
// change in order, from now or from an index.
import { describe, expect, it } from "vitest";
import type { Leadership, PalisadeClient } from "../../client/index.ts";
import { runCtl, spawnCtl, type Run } from "./ctl-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;
/** A second candidate: a client campaigns at most once per name at a time. */
let other: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "elect-test" });
  other = cluster.client({ clientName: "other" });
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
