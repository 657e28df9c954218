// Elections on a real cluster through the client library: campaign, Leader, Proclaim,
// Resign, a handoff to a named candidate, Observe's sequence of changes, the refusals of bad
// input, and the calls through the HTTP gateway (derived from the same call table).
import { describe, expect, it } from "vitest";
import {
  FailedPreconditionError,
  InvalidArgumentError,
  LockNotAcquiredError,
  NotHolderError,
  StaleTokenError,
  type ObservedEvent,
  type PalisadeClient,
} from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
let a: PalisadeClient;
let b: PalisadeClient;
let c: PalisadeClient;

clusterForTests({ nodes: 3, http: true }, (started) => {
  cluster = started;
  a = cluster.client({ clientName: "a" });
  b = cluster.client({ clientName: "b" });
  c = cluster.client({ clientName: "c" });
});

/** Collects an election's observed events until `count` have come (or the signal aborts). */
function observeInto(
  client: PalisadeClient,
  election: string,
  events: ObservedEvent[],
  signal: AbortSignal,
  fromIndex?: bigint,
): Promise<void> {
  return (async () => {
    const options = { signal, ...(fromIndex !== undefined ? { fromIndex } : {}) };
    for await (const e of client.elections.observe(election, options)) events.push(e);
  })().catch((err: unknown) => {
    if (!signal.aborted) throw err;
  });
}

function summary(e: ObservedEvent): string {
  if (e.kind === "noLeader") return `none(${e.ended?.reason ?? "-"})`;
  return `${e.kind}:${e.leader.value}@${e.leader.token}`;
}

describe("elections", () => {
  it("a campaign leads with a token, Leader reads it, Proclaim changes the value, Resign elects the next candidate; Observe sees each change in order", async () => {
    const stop = new AbortController();
    const events: ObservedEvent[] = [];
    // Observed from the start: the first event is the state (no leader yet).
    const observing = observeInto(c, "e/basic", events, stop.signal);
    await cluster.waitFor("the first observed event", async () => events.length >= 1);
    expect(events[0]).toMatchObject({ kind: "noLeader" });

    const leadA = await a.elections.campaign("e/basic", "host-a");
    expect(leadA.token).toBeGreaterThan(0n);
    const read = await c.elections.leader("e/basic");
    expect(read.leader).toMatchObject({
      token: leadA.token,
      value: "host-a",
      clientName: "a",
      sessionId: leadA.sessionId,
    });
    expect(read.candidateCount).toBe(0);

    const leadingB = b.elections.campaign("e/basic", "host-b");
    await cluster.waitFor(
      "b to be a candidate",
      async () => (await c.elections.leader("e/basic")).candidateCount === 1,
    );
    await leadA.proclaim("host-a2");
    expect((await c.elections.leader("e/basic")).leader?.value).toBe("host-a2");

    await leadA.resign();
    expect(leadA.signal.aborted).toBe(true);
    const leadB = await leadingB;
    expect(leadB.token).toBeGreaterThan(leadA.token);
    expect((await c.elections.leader("e/basic")).leader).toMatchObject({
      token: leadB.token,
      value: "host-b",
    });
    await leadB.resign();
    await cluster.waitFor("every change observed", async () => events.length >= 5);
    stop.abort();
    await observing;
    expect(events.map(summary)).toEqual([
      "none(-)",
      `leader:host-a@${leadA.token}`,
      `value:host-a2@${leadA.token}`,
      // The resign and b's lead are one entry: no moment without a leader between them.
      `leader:host-b@${leadB.token}`,
      "none(released)",
    ]);
    // Indexes only grow; a value event names the lead it belongs to.
    const indexes = events.map((e) => e.index);
    expect([...indexes].sort((x, y) => (x < y ? -1 : 1))).toEqual(indexes);
    expect(new Set(indexes).size).toBe(indexes.length);
  });

  it("Observe resumes from a token's index with exactly the changes after it", async () => {
    const lead = await a.elections.campaign("e/resume", "v1");
    await lead.proclaim("v2");
    await lead.proclaim("v3");
    await lead.resign();
    const stop = new AbortController();
    const events: ObservedEvent[] = [];
    const observing = observeInto(c, "e/resume", events, stop.signal, lead.token + 1n);
    await cluster.waitFor("the resumed events", async () => events.length >= 3);
    stop.abort();
    await observing;
    expect(events.map(summary)).toEqual([
      `value:v2@${lead.token}`,
      `value:v3@${lead.token}`,
      "none(released)",
    ]);
  });

  it("hands the lead to a named candidate behind another, in one entry with a new token", async () => {
    const lead = await a.elections.campaign("e/handoff", "a");
    const first = b.elections.campaign("e/handoff", "b");
    await cluster.waitFor(
      "b to wait",
      async () => (await c.elections.leader("e/handoff")).candidateCount === 1,
    );
    const named = c.elections.campaign("e/handoff", "c");
    await cluster.waitFor(
      "c to wait",
      async () => (await a.elections.leader("e/handoff")).candidateCount === 2,
    );
    const stop = new AbortController();
    const events: ObservedEvent[] = [];
    const observing = observeInto(a, "e/handoff", events, stop.signal, lead.token);
    const successor = await c.elections.sessionId();
    await lead.resign({ to: successor });
    const leadC = await named;
    expect(leadC.token).toBeGreaterThan(lead.token);
    expect(leadC.sessionId).toBe(successor);
    await cluster.waitFor("the handoff observed", async () => events.length >= 2);
    stop.abort();
    await observing;
    expect(events.map(summary)).toEqual([`leader:a@${lead.token}`, `leader:c@${leadC.token}`]);
    const history = await a.read.history("e/handoff");
    expect(history.map((h) => [h.token, h.reason, h.mode])).toEqual([
      [lead.token, "handedOff", "leader"],
      [leadC.token, "current", "leader"],
    ]);
    // b still waits, and leads once c resigns.
    await leadC.resign();
    const leadB = await first;
    expect(leadB.token).toBeGreaterThan(leadC.token);
    await leadB.resign();
  });

  it("hands an exclusive lock to a named waiting session", async () => {
    const held = await a.lock("e/lock-handoff");
    const waiting = b.lock("e/lock-handoff", { waitMs: 30_000 });
    await cluster.waitFor(
      "b to wait",
      async () => (await c.read.getLock("e/lock-handoff")).waiterCount === 1,
    );
    const session = await b.elections.sessionId();
    await held.release({ successor: session });
    const next = await waiting;
    expect(next.token).toBeGreaterThan(held.token);
    await next.release();
  });

  it("refuses bad input and changes nothing", async () => {
    const lead = await a.elections.campaign("e/bad", "v");
    // Proclaim by a session that does not lead.
    const session = await a.openSession();
    await expect(session.proclaim("e/bad", lead.token - 1n, "x")).rejects.toBeInstanceOf(
      NotHolderError,
    );
    const own = await a.elections.sessionId();
    expect(own).toBe(lead.sessionId);
    // Resign by a candidate that does not lead.
    const candidate = await b.openSession();
    await expect(candidate.release("e/bad", lead.token, { election: true })).rejects.toBeInstanceOf(
      NotHolderError,
    );
    // Handoff to oneself, and to a session that is not waiting.
    await expect(lead.resign({ to: lead.sessionId })).rejects.toBeInstanceOf(InvalidArgumentError);
    const idle = await c.openSession();
    await expect(lead.resign({ to: idle.id })).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof FailedPreconditionError &&
        err.reason === "ERROR_REASON_SUCCESSOR_NOT_WAITING",
    );
    // An election and a lock of one name are refused to each other.
    await expect(b.lock("e/bad")).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof FailedPreconditionError && err.reason === "ERROR_REASON_KIND_MISMATCH",
    );
    const lock = await b.lock("e/bad-lock");
    await expect(c.elections.campaign("e/bad-lock", "", { waitMs: 0 })).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof FailedPreconditionError && err.reason === "ERROR_REASON_KIND_MISMATCH",
    );
    await lock.release();
    // Nothing changed: a still leads with its value.
    expect((await c.elections.leader("e/bad")).leader).toMatchObject({
      token: lead.token,
      value: "v",
    });
    await expect(lead.proclaim("w")).resolves.toBeUndefined();
    // A campaign with no wait while another leads is not elected.
    await expect(b.elections.campaign("e/bad", "", { waitMs: 0 })).rejects.toBeInstanceOf(
      LockNotAcquiredError,
    );
    // Proclaim with a stale token: the same session's earlier lead.
    await lead.resign();
    const again = await a.elections.campaign("e/bad", "again");
    await expect(lead.proclaim("late")).rejects.toBeInstanceOf(StaleTokenError);
    expect((await c.elections.leader("e/bad")).leader?.value).toBe("again");
    await again.resign();
    await Promise.all([session.close(), candidate.close(), idle.close()]);
  });

  it("Observe goes on without a gap while the node it reads from is killed and restarted", async () => {
    const lead = await a.elections.campaign("e/restart", "v0");
    const stop = new AbortController();
    const events: ObservedEvent[] = [];
    // The stream reads from the first endpoint (node 1) until it fails there.
    const observing = observeInto(c, "e/restart", events, stop.signal, lead.token);
    await cluster.waitFor("the lead observed", async () => events.length >= 1);
    const values: string[] = [];
    const proclaim = async (v: string): Promise<void> => {
      await lead.proclaim(v);
      values.push(v);
    };
    await proclaim("v1");
    await cluster.kill(1);
    for (let i = 2; i <= 4; i++) await proclaim(`v${i}`);
    await cluster.restart(1);
    for (let i = 5; i <= 7; i++) await proclaim(`v${i}`);
    await cluster.waitFor("every value observed", async () => events.length >= 1 + values.length);
    stop.abort();
    await observing;
    expect(events.map(summary)).toEqual([
      `leader:v0@${lead.token}`,
      ...values.map((v) => `value:${v}@${lead.token}`),
    ]);
    await lead.resign();
  });

  it("serves Leader and Observe through the HTTP gateway", async () => {
    const lead = await a.elections.campaign("e/http", "via-grpc");
    const origin = cluster.httpOrigin(await cluster.leaderId());
    const res = await fetch(`${origin}/v1/Leader`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ election: "e/http" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { leader?: { token?: string; value?: string } };
    expect(body.leader?.token).toBe(String(lead.token));
    expect(Buffer.from(body.leader?.value ?? "", "base64").toString()).toBe("via-grpc");
    // Observe as server-sent events: the state first, then each change, `id:` its index.
    const stop = new AbortController();
    const stream = await fetch(`${origin}/v1/Observe?election=e/http`, { signal: stop.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    const events = (): Array<{
      id: string;
      data: { kind?: string; leader?: { token?: string } };
    }> =>
      [...text.matchAll(/id: (\d+)\ndata: (.*)\n\n/g)].map((m) => ({
        id: m[1] as string,
        data: JSON.parse(m[2] as string) as { kind?: string; leader?: { token?: string } },
      }));
    const readUntil = async (n: number): Promise<void> => {
      while (events().length < n) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended after ${text}`);
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil(1);
    await lead.resign();
    await readUntil(2);
    stop.abort();
    const [first, second] = events();
    expect(first?.data).toMatchObject({
      kind: "ELECTION_EVENT_KIND_LEADER",
      leader: { token: String(lead.token) },
    });
    expect(second?.data).toMatchObject({ kind: "ELECTION_EVENT_KIND_NO_LEADER" });
    expect(BigInt(second?.id ?? "0")).toBeGreaterThan(BigInt(first?.id ?? "0"));
  });
});
