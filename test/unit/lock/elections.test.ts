// Elections in the lock state machine: a Campaign is an Acquire of mode "leader", a Resign an
// election's Release, a Proclaim a new value under the leader's token; and the handoff of an
// exclusive grant or a lead to a named waiting session in one entry.
import { describe, expect, it } from "vitest";
import type { Command, ReleaseCommand } from "../../../node/lock/commands.ts";
import { decodeCommand, encodeEntry } from "../../../node/lock/codec/entries.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { Client, setup, tokenOf } from "./kit.ts";
import type { LogRunner } from "../../lock/log-runner.ts";

/** A session that campaigns, proclaims and resigns (and releases with a successor). */
class Candidate extends Client {
  constructor(
    private readonly log: LogRunner,
    name: string,
  ) {
    super(log, name);
  }

  campaign(election: string, value = "", waitMs = 0): ApplyOutcome {
    return this.acquire(election, waitMs, {
      mode: "leader",
      ...(value ? { holderData: value } : {}),
    });
  }

  proclaim(election: string, token: bigint, value: string): ApplyOutcome {
    return this.log.run({
      type: "proclaim",
      sessionId: this.id,
      lock: election,
      token,
      value,
      seq: ++this.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
  }

  resign(election: string, token: bigint, successor?: bigint): ApplyOutcome {
    return this.log.run(this.releaseCommand(election, token, successor, true));
  }

  handOff(lock: string, token: bigint, successor: bigint): ApplyOutcome {
    return this.log.run(this.releaseCommand(lock, token, successor, false));
  }

  private releaseCommand(
    lock: string,
    token: bigint,
    successor: bigint | undefined,
    election: boolean,
  ): ReleaseCommand {
    return {
      type: "release",
      sessionId: this.id,
      lock,
      token,
      seq: ++this.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
      ...(successor !== undefined ? { successor } : {}),
      ...(election ? { election: true as const } : {}),
    };
  }
}

function reasonOf(out: ApplyOutcome): string {
  return out.result.kind === "error" ? out.result.reason : out.result.kind;
}

describe("elections", () => {
  it("the first candidate leads with the token of its entry; the next waits FIFO and leads when it resigns", () => {
    const r = setup();
    const [a, b, c] = ["a", "b", "c"].map((n) => new Candidate(r, n)) as [
      Candidate,
      Candidate,
      Candidate,
    ];
    const at = r.next;
    const ta = tokenOf(a.campaign("E", "host-a").result);
    expect(ta).toBe(BigInt(at));
    expect(b.campaign("E", "host-b", 60_000).result.kind).toBe("waiting");
    expect(c.campaign("E", "host-c", 60_000).result.kind).toBe("waiting");
    const info = r.machine.getLock("E");
    expect(info.holder).toMatchObject({ sessionId: a.id, mode: "leader", holderData: "host-a" });
    expect(info.waiters.map((w) => w.sessionId)).toEqual([b.id, c.id]);

    const resignedAt = r.next;
    const out = a.resign("E", ta);
    expect(out.result).toEqual({ kind: "released" });
    expect(out.events.map((e) => [e.type, e.sessionId])).toEqual([
      ["released", a.id],
      ["acquired", b.id],
    ]);
    expect(out.completions[0]).toMatchObject({
      sessionId: b.id,
      answer: { kind: "granted", token: BigInt(resignedAt) },
    });
    expect(r.machine.getLock("E").holder).toMatchObject({ sessionId: b.id, holderData: "host-b" });
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("an election and a lock of one name are refused to each other as a kind mismatch", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    tokenOf(a.campaign("E").result);
    expect(reasonOf(b.acquire("E", 1000))).toBe("ERROR_REASON_KIND_MISMATCH");
    expect(reasonOf(b.shared("E"))).toBe("ERROR_REASON_KIND_MISMATCH");
    tokenOf(a.acquire("L").result);
    expect(reasonOf(b.campaign("L", "", 1000))).toBe("ERROR_REASON_KIND_MISMATCH");
    tokenOf(a.permit("S", 2).result);
    expect(reasonOf(b.campaign("S"))).toBe("ERROR_REASON_KIND_MISMATCH");
    // Resign of a lock is refused; Release ends any grant, a lead too.
    const tl = r.machine.getLock("L").holder?.token as bigint;
    expect(reasonOf(a.resign("L", tl))).toBe("ERROR_REASON_KIND_MISMATCH");
    const te = r.machine.getLock("E").holder?.token as bigint;
    expect(a.release("E", te).result).toEqual({ kind: "released" });
    // A free name may become either.
    tokenOf(b.acquire("E").result);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("Proclaim changes the value only with the current leader's token", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    const ta = tokenOf(a.campaign("E", "v1").result);
    const at = r.next;
    const out = a.proclaim("E", ta, "v2");
    expect(out.result).toEqual({ kind: "proclaimed" });
    expect(out.events).toEqual([
      {
        type: "proclaimed",
        index: at,
        lock: "E",
        sessionId: a.id,
        token: ta,
        wallMs: 0,
        mode: "leader",
        holderData: "v2",
      },
    ]);
    expect(r.machine.getLock("E").holder).toMatchObject({ token: ta, holderData: "v2" });
    expect(reasonOf(a.proclaim("E", ta + 1n, "v3"))).toBe("ERROR_REASON_STALE_TOKEN");
    expect(reasonOf(b.proclaim("E", ta, "v3"))).toBe("ERROR_REASON_NOT_HOLDER");
    tokenOf(b.acquire("L").result);
    const tl = r.machine.getLock("L").holder?.token as bigint;
    expect(reasonOf(b.proclaim("L", tl, "x"))).toBe("ERROR_REASON_KIND_MISMATCH");
    expect(r.machine.getLock("E").holder).toMatchObject({ holderData: "v2" });
    // The history keeps the grant with its latest value.
    expect(r.machine.history("E").at(-1)).toMatchObject({ token: ta, holderData: "v2" });
  });

  it("Resign by a candidate, or with a stale token, is refused and changes nothing", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    const ta = tokenOf(a.campaign("E").result);
    expect(b.campaign("E", "", 60_000).result.kind).toBe("waiting");
    expect(reasonOf(b.resign("E", ta))).toBe("ERROR_REASON_NOT_HOLDER");
    expect(reasonOf(a.resign("E", ta - 1n))).toBe("ERROR_REASON_STALE_TOKEN");
    expect(r.machine.getLock("E").holder?.sessionId).toBe(a.id);
    expect(r.machine.getLock("E").waiters.map((w) => w.sessionId)).toEqual([b.id]);
  });

  it("a leader whose session expires is followed by the next candidate at the expiry's index", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    tokenOf(a.campaign("E").result);
    expect(b.campaign("E", "", 60_000).result.kind).toBe("waiting");
    const at = r.next;
    const out = r.run({ type: "expireSession", sessionId: a.id, wallMs: 0 });
    expect(out.events.map((e) => [e.type, e.index])).toEqual([
      ["sessionExpired", at],
      ["acquired", at],
    ]);
    expect(r.machine.getLock("E").holder).toMatchObject({ sessionId: b.id, token: BigInt(at) });
  });
});

describe("handoff to a named waiting session", () => {
  it("passes a lead to a candidate behind others in one entry, with a new token and no gap", () => {
    const r = setup();
    const [a, b, c] = ["a", "b", "c"].map((n) => new Candidate(r, n)) as [
      Candidate,
      Candidate,
      Candidate,
    ];
    const ta = tokenOf(a.campaign("E").result);
    expect(b.campaign("E", "b", 60_000).result.kind).toBe("waiting");
    expect(c.campaign("E", "c", 60_000).result.kind).toBe("waiting");
    const at = r.next;
    const out = a.resign("E", ta, c.id);
    expect(out.result).toEqual({ kind: "released" });
    expect(out.events.map((e) => [e.type, e.sessionId, e.index])).toEqual([
      ["released", a.id, at],
      ["acquired", c.id, at],
    ]);
    expect(out.events[0]).toMatchObject({ ended: "handedOff" });
    expect(out.completions).toEqual([
      expect.objectContaining({
        sessionId: c.id,
        answer: expect.objectContaining({ token: BigInt(at) }),
      }),
    ]);
    const info = r.machine.getLock("E");
    expect(info.holder).toMatchObject({ sessionId: c.id, token: BigInt(at), holderData: "c" });
    expect(info.waiters.map((w) => w.sessionId)).toEqual([b.id]);
    expect(r.machine.history("E").map((h) => [h.sessionId, h.reason])).toEqual([
      [a.id, "handedOff"],
      [c.id, null],
    ]);
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("passes an exclusive lock the same way", () => {
    const r = setup();
    const [a, b, c] = ["a", "b", "c"].map((n) => new Candidate(r, n)) as [
      Candidate,
      Candidate,
      Candidate,
    ];
    const ta = tokenOf(a.acquire("L").result);
    expect(b.acquire("L", 60_000).result.kind).toBe("waiting");
    expect(c.acquire("L", 60_000).result.kind).toBe("waiting");
    const at = r.next;
    expect(a.handOff("L", ta, c.id).result).toEqual({ kind: "released" });
    expect(r.machine.getLock("L").holder).toMatchObject({ sessionId: c.id, token: BigInt(at) });
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("refuses a successor that is not waiting, waits for something else, or a shared grant, and changes nothing", () => {
    const r = setup();
    const [a, b, c, d] = ["a", "b", "c", "d"].map((n) => new Candidate(r, n)) as [
      Candidate,
      Candidate,
      Candidate,
      Candidate,
    ];
    const ta = tokenOf(a.acquire("L").result);
    expect(reasonOf(a.handOff("L", ta, b.id))).toBe("ERROR_REASON_SUCCESSOR_NOT_WAITING");
    // Waiting shared, or for a set that names L: not a successor of an exclusive grant.
    expect(b.shared("L", 60_000).result.kind).toBe("waiting");
    expect(reasonOf(a.handOff("L", ta, b.id))).toBe("ERROR_REASON_SUCCESSOR_NOT_WAITING");
    expect(c.all([{ lock: "L" }, { lock: "M" }], 60_000).result.kind).toBe("waiting");
    expect(reasonOf(a.handOff("L", ta, c.id))).toBe("ERROR_REASON_SUCCESSOR_NOT_WAITING");
    // A stale token is refused before the successor is looked at.
    expect(reasonOf(a.handOff("L", ta + 1n, d.id))).toBe("ERROR_REASON_STALE_TOKEN");
    expect(r.machine.getLock("L").holder).toMatchObject({ sessionId: a.id, token: ta });
    // A shared grant is not handed off.
    const ts = tokenOf(d.shared("R").result);
    expect(a.shared("R", 0).result.kind).toBe("granted");
    expect(reasonOf(d.handOff("R", ts, a.id))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    expect(r.machine.checkInvariants()).toEqual([]);
  });

  it("a retried handoff gets its first answer and does not hand off twice", () => {
    const r = setup();
    const [a, b, c] = ["a", "b", "c"].map((n) => new Candidate(r, n)) as [
      Candidate,
      Candidate,
      Candidate,
    ];
    const ta = tokenOf(a.campaign("E").result);
    expect(b.campaign("E", "", 60_000).result.kind).toBe("waiting");
    const cmd: ReleaseCommand = {
      type: "release",
      sessionId: a.id,
      lock: "E",
      token: ta,
      seq: ++a.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
      successor: b.id,
      election: true,
    };
    expect(r.run(cmd).result).toEqual({ kind: "released" });
    expect(c.campaign("E", "", 60_000).result.kind).toBe("waiting");
    const again = r.run(cmd);
    expect(again.result).toEqual({ kind: "released" });
    expect(again.events).toEqual([]);
    expect(r.machine.getLock("E").holder?.sessionId).toBe(b.id);
  });
});

describe("the election commands in entries and snapshots", () => {
  it("Campaign, Proclaim and Resign (with a successor) survive the entry encoding as they were sent", () => {
    const commands: Command[] = [
      {
        type: "acquire",
        sessionId: 7n,
        lock: "E",
        waitMs: 5000,
        seq: 3,
        ackedUpTo: 1,
        held: [],
        wallMs: 12,
        mode: "leader",
        holderData: "v",
      },
      {
        type: "proclaim",
        sessionId: 7n,
        lock: "E",
        token: 9n,
        value: "w",
        seq: 4,
        ackedUpTo: 3,
        held: [],
        wallMs: 13,
      },
      {
        type: "release",
        sessionId: 7n,
        lock: "E",
        token: 9n,
        seq: 5,
        ackedUpTo: 4,
        held: [],
        wallMs: 14,
        successor: 8n,
        election: true,
      },
      {
        type: "release",
        sessionId: 7n,
        lock: "L",
        token: 9n,
        seq: 6,
        ackedUpTo: 4,
        held: [],
        wallMs: 15,
        successor: 8n,
      },
    ];
    for (const cmd of commands) expect(decodeCommand(encodeEntry(cmd))).toEqual(cmd);
  });

  it("a snapshot keeps a grant that ended handed off, and the successor's", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    const ta = tokenOf(a.campaign("E").result);
    expect(b.campaign("E", "", 60_000).result.kind).toBe("waiting");
    expect(a.resign("E", ta, b.id).result).toEqual({ kind: "released" });
    const restored = LockStateMachine.restore(r.machine.snapshot());
    expect(restored.history("E")).toEqual(r.machine.history("E"));
    expect(restored.history("E")[0]).toMatchObject({ reason: "handedOff" });
  });

  it("a snapshot keeps the leader, its value and its candidates", () => {
    const r = setup();
    const [a, b] = [new Candidate(r, "a"), new Candidate(r, "b")];
    const ta = tokenOf(a.campaign("E", "v1").result);
    a.proclaim("E", ta, "v2");
    expect(b.campaign("E", "vb", 60_000).result.kind).toBe("waiting");
    const restored = LockStateMachine.restore(r.machine.snapshot());
    expect(restored.getLock("E")).toEqual(r.machine.getLock("E"));
    expect(restored.snapshot()).toEqual(r.machine.snapshot());
  });
});
