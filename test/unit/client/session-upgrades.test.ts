// The session's upgradeable grants, Upgrade and Downgrade against a real state machine: an
// upgradeable Acquire goes out as such, an Upgrade is answered at once or after a wait (or
// given up, leaving the upgradeable grant), a Downgrade lets a queued reader in, and a
// change whose answer was lost is learnt all the same (CancelWait for an Upgrade, the same
// seq again for a Downgrade), so the caller knows which grant it holds.
import { describe, expect, it } from "vitest";
import { OutcomeUnknownError, PalisadeClient, type Session } from "../../../client/index.ts";
import { eventually } from "../eventually.ts";
import { FakeCluster } from "./fake-cluster.ts";

async function sessionsOn(fake: FakeCluster, n: number): Promise<Session[]> {
  const client = new PalisadeClient(
    { endpoints: ["127.0.0.1:1"], clientName: "t" },
    { lockApi: fake },
  );
  const out: Session[] = [];
  for (let i = 0; i < n; i++) out.push(await client.openSession({ ttlMs: 60_000 }));
  return out;
}

async function tokenOf(session: Session, lock: string, mode: "shared" | "upgradeable") {
  const r = await session.acquire(lock, { mode });
  if (!r.acquired || r.token === undefined) throw new Error(`${lock} not acquired`);
  return r.token;
}

describe("upgradeable grants through the session", () => {
  it("an upgradeable Acquire goes out as upgradeable, and an Upgrade of the only holder is answered at once", async () => {
    const fake = new FakeCluster();
    const [a] = await sessionsOn(fake, 1);
    const token = await tokenOf(a!, "L", "upgradeable");
    expect(fake.requests("Acquire")[0]).toMatchObject({ lock: "L", mode: "upgradeable" });
    const up = a!.startUpgrade("L", token);
    const answer = await up.result;
    expect(answer.kind).toBe("upgraded");
    expect(await up.settled).toEqual(answer);
    const exclusive = answer.kind === "upgraded" ? answer.token : 0n;
    expect(exclusive).toBeGreaterThan(token);
    expect(fake.machine.getLock("L").holder).toMatchObject({ token: exclusive });
    await a!.release("L", exclusive);
    expect(fake.machine.getLock("L").holder).toBeNull();
  });

  it("an Upgrade waits for a reader to leave; given up, the upgradeable grant goes on", async () => {
    const fake = new FakeCluster();
    const [a, r] = await sessionsOn(fake, 2);
    const token = await tokenOf(a!, "L", "upgradeable");
    const reader = await tokenOf(r!, "L", "shared");
    expect(await a!.startUpgrade("L", token).result).toMatchObject({ kind: "notUpgraded" });
    const waited = a!.startUpgrade("L", token, { waitMs: 60_000 });
    await r!.release("L", reader);
    expect(await waited.result).toMatchObject({ kind: "upgraded" });

    const b = (await sessionsOn(fake, 2)) as [Session, Session];
    const held = await tokenOf(b[0], "M", "upgradeable");
    await tokenOf(b[1], "M", "shared");
    const giveUp = new AbortController();
    const cancelled = b[0].startUpgrade("M", held, { waitMs: 60_000, signal: giveUp.signal });
    giveUp.abort();
    expect(await cancelled.result).toEqual({ kind: "cancelled" });
    const holders = fake.machine.getLock("M").holders ?? [];
    expect(holders.find((h) => h.sessionId === b[0].id)).toMatchObject({
      token: held,
      mode: "upgradeable",
    });
    expect(b[0].writesInFlight).toBe(0);
  });

  it("an Upgrade whose answer was lost is learnt through CancelWait", async () => {
    const fake = new FakeCluster();
    const [a] = await sessionsOn(fake, 1);
    const token = await tokenOf(a!, "L", "upgradeable");
    fake.fault = ({ method }) => (method === "Upgrade" ? "lose answer" : "deliver");
    const up = a!.startUpgrade("L", token);
    await expect(up.result).rejects.toBeInstanceOf(OutcomeUnknownError);
    const learnt = await up.settled;
    expect(learnt).toMatchObject({ kind: "upgraded" });
    expect(fake.requests("CancelWait").at(-1)).toMatchObject({ lock: "L", acquireSeq: up.seq });
    expect(fake.machine.getLock("L").holder).toMatchObject({
      token: learnt?.kind === "upgraded" ? learnt.token : -1n,
    });
    await eventually(() => expect(a!.writesInFlight).toBe(0));
  });

  it("a Downgrade lets a queued reader in with its token, and one whose answer was lost is sent again", async () => {
    const fake = new FakeCluster();
    const [w, r] = await sessionsOn(fake, 2);
    const first = await w!.acquire("L");
    if (!first.acquired || first.token === undefined) throw new Error("not acquired");
    const reading = r!.acquire("L", { mode: "shared", waitMs: 60_000 });
    const down = w!.startDowngrade("L", first.token, "upgradeable");
    const answer = await down.result;
    expect(answer).toMatchObject({ mode: "upgradeable" });
    expect(answer.token).toBeGreaterThan(first.token);
    expect(await reading).toMatchObject({ acquired: true, token: answer.token });

    const loseFirst = (name: string): FakeCluster["fault"] => {
      let lost = false;
      return ({ method }) => {
        if (method !== name || lost) return "deliver";
        lost = true;
        return "lose answer";
      };
    };
    fake.fault = loseFirst("Upgrade");
    await r!.release("L", answer.token);
    const up = w!.startUpgrade("L", answer.token);
    await expect(up.result).rejects.toBeInstanceOf(OutcomeUnknownError);
    const upgraded = await up.settled;
    if (upgraded?.kind !== "upgraded") throw new Error("not upgraded");
    fake.fault = loseFirst("Downgrade");
    const again = w!.startDowngrade("L", upgraded.token, "shared");
    await expect(again.result).rejects.toBeInstanceOf(OutcomeUnknownError);
    const settled = await again.settled;
    expect(settled).toMatchObject({ mode: "shared" });
    expect(fake.machine.getLock("L").holder).toMatchObject({
      token: settled?.token,
      mode: "shared",
    });
  });
});
