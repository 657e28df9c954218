// palisadectl against a real cluster: every verb, its --json output and the exit codes.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { PalisadeClient } from "../../client/index.ts";
import { CTL, REPO_ROOT, runCtl, spawnCtl, type Run } from "./ctl-process.ts";
import { runCtlHere, runJson as json } from "./ctl-in-process.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let client: PalisadeClient;

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  client = cluster.client({ clientName: "ctl-test" });
});

/** Runs palisadectl with the cluster's endpoints in PALISADE_ENDPOINTS. */
const ctl = (...args: string[]): Promise<Run> => runCtl(cluster.endpoints, ...args);

/** The same CLI in this process (no start-up cost): for the many read verbs. */
const ctlHere = (...args: string[]): Promise<Run> => runCtlHere(cluster.endpoints, ...args);

describe("palisadectl verbs", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s during acquire --wait cancels the wait in the cluster: the lock goes to the next taker, not to the gone process",
    async (signal) => {
      const lock = `ctl/interrupted-wait/${signal}`;
      const holder = await client.openSession({ ttlMs: 10_000 });
      const held = await holder.acquire(lock);
      expect(held.acquired).toBe(true);
      const waiting = spawnCtl(cluster.endpoints, "acquire", lock, "--wait", "60s", "--ttl", "30s");
      try {
        await cluster.waitFor("the CLI's wait in the queue", async () => {
          return (await client.read.getLock(lock)).waiterCount === 1;
        });
        const run = await waiting.signal(signal);
        expect((await client.read.getLock(lock)).waiterCount).toBe(0);
        expect(run.stderr).toContain(`interrupted: the wait for ${lock} is cancelled`);
        expect(run.code).toBe(130);
        await holder.release(lock, held.token!);
        // Free at once for anyone else: no grant went to the CLI's session.
        const next = await client.openSession({ ttlMs: 10_000 });
        expect((await next.acquire(lock)).acquired).toBe(true);
        await next.close();
      } finally {
        waiting.kill();
        await holder.close();
      }
    },
  );

  it("status: one row per node, exactly one leader, lag and reachability", async () => {
    // A node that just started may not have heard from the leader yet.
    await cluster.waitFor("every node to know the leader", async () => {
      const all = await Promise.all(cluster.ids.map((id) => cluster.status(id)));
      return all.every((s) => s.leaderId !== 0 && s.leaderId === all[0]!.leaderId);
    });
    const run = await ctl("--json", "status");
    expect(run.code).toBe(0);
    const rows = json<
      Array<{
        nodeId: number;
        endpoint: string;
        role: string;
        term: string;
        leaderId: number;
        commitIndex: string;
        appliedIndex: string;
        lag: string;
        reachable: boolean;
      }>
    >(run);
    expect(rows.map((r) => r.endpoint)).toEqual([...cluster.endpoints]);
    expect(rows.every((r) => r.reachable)).toBe(true);
    const leaders = rows.filter((r) => r.role === "leader");
    expect(leaders).toHaveLength(1);
    expect(rows.every((r) => r.leaderId === leaders[0].nodeId)).toBe(true);
    expect(rows.every((r) => /^\d+$/.test(r.lag) && /^\d+$/.test(r.commitIndex))).toBe(true);

    const text = await ctl("status");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(
      /^ID\s+ADDRESS\s+ROLE\s+TERM\s+LEADER\s+COMMIT\s+APPLIED\s+LAG\s+REACHABLE/,
    );
    expect(text.stdout).toContain("leader");
  });

  it("status of an unreachable endpoint says so and still exits 0 if another answers", async () => {
    // Port 1 is never handed out by the OS and nothing listens there: refused at once. The
    // default timeout leaves the reachable node time to answer on a loaded machine.
    const run = await ctl("--json", "--endpoints", `${cluster.endpoints[0]},127.0.0.1:1`, "status");
    expect(run.code, run.stderr).toBe(0);
    const rows = json<Array<{ endpoint: string; reachable: boolean }>>(run);
    expect(rows.find((r) => r.endpoint === "127.0.0.1:1")?.reachable).toBe(false);
  });

  it("status asks every member the leader lists, given one follower, and names a given endpoint that is no member", async () => {
    const leader = await cluster.leaderId();
    const follower = cluster.ids.find((id) => id !== leader) ?? 1;
    const given = cluster.endpoint(follower);
    const run = await ctl("--json", "--endpoints", `${given},127.0.0.1:1`, "status");
    expect(run.code, run.stderr).toBe(0);
    const rows = json<Array<{ endpoint: string; reachable: boolean; nodeId?: number }>>(run);
    expect(rows.map((r) => r.endpoint).sort()).toEqual(
      [...cluster.endpoints, "127.0.0.1:1"].sort(),
    );
    expect(
      rows
        .filter((r) => r.reachable)
        .map((r) => r.nodeId)
        .sort(),
    ).toEqual([...cluster.ids].sort());
    expect(run.stderr).toMatch(/^not a member of the cluster the leader leads: 127\.0\.0\.1:1$/m);
    const only = await ctl("--json", "--endpoints", given, "status", "--endpoints-only");
    expect(only.code, only.stderr).toBe(0);
    expect(json<Array<{ endpoint: string }>>(only).map((r) => r.endpoint)).toEqual([given]);
  });

  it("acquire prints the token and releases; --json; --hold for a duration", async () => {
    const run = await ctl("acquire", "v/one");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const token = BigInt(run.stdout.trim());
    expect((await client.read.history("v/one")).map((r) => [r.token, r.reason])).toEqual([
      [token, "released"],
    ]);

    const held = await ctl("--json", "acquire", "v/one", "--hold", "300ms", "--ttl", "5s");
    expect(held.code).toBe(0);
    const answer = json<{ acquired: boolean; token: string; sessionId: string }>(held);
    expect(answer.acquired).toBe(true);
    expect(BigInt(answer.token)).toBeGreaterThan(token);
    expect((await client.read.getLock("v/one")).holder).toBeUndefined();
  });

  it("acquire exits 2 when held, lock/locks/sessions/session/history/validate show the holder, revoke ends the grant", async () => {
    const session = await client.openSession({ ttlMs: 10_000 });
    const got = await session.acquire("v/held");
    const token = got.token ?? 0n;

    // Read verbs run in this process; the exit codes and output are the same as from the binary.
    const [
      busy,
      busyText,
      lock,
      lockText,
      locks,
      locksText,
      sessions,
      sessionsText,
      one,
      valid,
      invalid,
    ] = await Promise.all([
      ctlHere("--json", "acquire", "v/held"),
      ctlHere("acquire", "v/held", "--wait", "100ms"),
      ctlHere("--json", "lock", "v/held"),
      ctlHere("lock", "v/held"),
      ctlHere("--json", "locks", "v/"),
      ctlHere("locks", "v/h"),
      ctlHere("--json", "sessions"),
      ctlHere("sessions"),
      ctlHere("--json", "session", session.id.toString()),
      ctlHere("validate", "v/held", token.toString()),
      ctlHere("validate", "v/held", (token + 1n).toString()),
    ]);
    expect(busy.code).toBe(2);
    expect(
      json<{ acquired: boolean; holder: { sessionId: string; token: string } }>(busy),
    ).toMatchObject({
      acquired: false,
      holder: { sessionId: session.id.toString(), token: token.toString() },
    });
    expect(busyText.code).toBe(2);
    expect(busyText.stderr.trim().split("\n")).toHaveLength(1);

    expect(lock.code).toBe(0);
    const info = json<{
      holder: { token: string; sessionId: string; grantedIndex: string };
      grantedAt: string | null;
      waiters: unknown[];
    }>(lock);
    expect(info.holder.token).toBe(token.toString());
    expect(info.grantedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(lockText.stdout).toContain(`token ${token}`);

    expect(locks.code).toBe(0);
    expect(
      json<Array<{ lock: string; holder?: { token: string } }>>(locks).map((l) => l.lock),
    ).toContain("v/held");
    expect(locksText.stdout).toMatch(/v\/held\s+\d+\s+\d+/);

    expect(sessions.code).toBe(0);
    const listed = json<Array<{ sessionId: string; heldLocks: string[] }>>(sessions).find(
      (s) => s.sessionId === session.id.toString(),
    );
    expect(listed?.heldLocks).toEqual(["v/held"]);
    expect(sessionsText.stdout).toContain(session.id.toString());
    expect(json<{ heldLocks: string[] }>(one).heldLocks).toEqual(["v/held"]);

    expect(valid.code).toBe(0);
    expect(invalid.code).toBe(2);

    const release = await ctl("--json", "revoke", "v/held", token.toString());
    expect(release.code).toBe(0);
    expect(json<{ lock: string; token: string }>(release)).toMatchObject({
      lock: "v/held",
      token: token.toString(),
    });
    expect((await client.read.getLock("v/held")).holder).toBeUndefined();
    // A retried revoke of the same grant succeeds.
    expect((await ctl("revoke", "v/held", token.toString())).code).toBe(0);

    const history = await ctl("--json", "history", "v/held");
    expect(json<Array<{ token: string; reason: string }>>(history)).toEqual([
      expect.objectContaining({ token: token.toString(), reason: "revoked" }),
    ]);
    expect((await ctl("history", "v/held")).stdout).toContain("revoked");
    await session.close();
  });

  it("watch prints events as they happen, as JSON lines", async () => {
    const child = spawn(process.execPath, [CTL, "--json", "watch", "w/", "--count", "2"], {
      cwd: REPO_ROOT,
      env: { ...process.env, PALISADE_ENDPOINTS: cluster.endpoints.join(",") },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    // The watch pins its start index before streaming; keep producing events until it has both.
    const session = await client.openSession({ ttlMs: 10_000 });
    let code: number | null | undefined;
    void exited.then((c) => (code = c));
    while (code === undefined) {
      const got = await session.acquire("w/a");
      await session.release("w/a", got.token ?? 0n);
      await new Promise((r) => setTimeout(r, 100));
    }
    await session.close();
    expect(code).toBe(0);
    const events = out
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { kind: string; lock: string; index: string; token: string },
      );
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.lock === "w/a")).toBe(true);
    expect(events[0].kind === "acquired" || events[0].kind === "released").toBe(true);
    expect(BigInt(events[1].index)).toBeGreaterThan(BigInt(events[0].index));
  });

  it("member list is the leader's view, also when the CLI is given only a follower", async () => {
    const leader = await cluster.leaderId();
    const follower = cluster.ids.find((id) => id !== leader)!;
    const run = await runCtl([cluster.endpoint(follower)], "--json", "member", "list");
    expect(run.code, run.stderr).toBe(0);
    const members = json<Array<{ nodeId: number; reachable: boolean; matchIndex: number }>>(run);
    expect(members.map((m) => m.nodeId).sort()).toEqual([1, 2, 3]);
    expect(members.every((m) => m.reachable)).toBe(true);
    expect(members.every((m) => m.matchIndex > 0)).toBe(true);
  });

  it("member list and leader transfer", async () => {
    const members = await ctl("--json", "member", "list");
    expect(members.code).toBe(0);
    expect(
      json<Array<{ nodeId: number; kind: string }>>(members)
        .map((m) => m.nodeId)
        .sort(),
    ).toEqual([1, 2, 3]);

    const before = await cluster.leaderId();
    const target = cluster.ids.find((id) => id !== before) ?? 1;
    const moved = await ctl("--json", "leader", "transfer", "--to", String(target));
    expect(moved.code).toBe(0);
    expect(json<{ leaderId: number }>(moved).leaderId).toBe(target);
    expect(await cluster.leaderId()).toBe(target);
  });

  it("errors are one line without a stack trace, exit 1", async () => {
    const bad = await ctl("acquire", "bad\u0001name");
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: InvalidArgumentError: /);

    const badDuration = await ctl("acquire", "x", "--wait", "soon");
    expect(badDuration.code).toBe(1);
    expect(badDuration.stderr).toMatch(/duration/);
    expect(badDuration.stderr).not.toMatch(/\n\s+at /);

    const unknown = await ctl("frobnicate");
    expect(unknown.code).toBe(1);

    // Each bad argument is named with what was expected; none exits silently.
    for (const [args, said] of [
      [["session", "abc"], /argument 'id'.*expected a decimal uint64 \(got "abc"\)/],
      [["validate", "orders/1", "abc"], /argument 'token'.*expected a decimal uint64/],
      [["member", "promote", "abc"], /argument 'id'.*expected a non-negative integer/],
      [["acquire", "x", "--wait", "5", "seconds"], /'--wait <duration>' argument '5'.*its unit/],
      [["acquire", "x", "--hold-ms", "2s"], /unknown option '--hold-ms'/],
    ] as const) {
      const run = await ctlHere(...args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr, args.join(" ")).toMatch(said);
    }

    const nobody = await ctl("--endpoints", "127.0.0.1:1", "--timeout", "300ms", "lock", "x");
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.trim().split("\n")).toHaveLength(1);
  });
});
