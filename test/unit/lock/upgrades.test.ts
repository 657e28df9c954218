// Upgradeable locks in the state machine: a third mode beside shared holders, Upgrade to
// exclusive in place (ahead of the queue, never while another holder is left), Downgrade to
// shared or upgradeable, each mode change a new grant with the token of its entry.
import { describe, expect, it } from "vitest";
import type { Command } from "../../../node/lock/commands.ts";
import { decodeCommand, encodeEntry } from "../../../node/lock/codec/entries.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { answerRead } from "../../../node/host/read-answers.ts";
import type { LogRunner } from "../../lock/log-runner.ts";
import { Client, grantsIn, setup, tokenOf } from "./kit.ts";

function reasonOf(out: ApplyOutcome): string {
  return out.result.kind === "error" ? out.result.reason : out.result.kind;
}

/** The final answer a waiting seq of `client` got in this entry. */
function completionOf(out: ApplyOutcome, client: Client, seq: number) {
  return out.completions.find((c) => c.sessionId === client.id && c.seq === seq)?.answer;
}

function sound(r: LogRunner): void {
  expect(r.machine.checkInvariants()).toEqual([]);
}

function clients(r: LogRunner, ...names: string[]): Client[] {
  return names.map((n) => new Client(r, n));
}

describe("the upgradeable mode", () => {
  it("goes beside shared holders, never beside another upgradeable or an exclusive holder", () => {
    const r = setup();
    const [a, b, c, d] = clients(r, "a", "b", "c", "d") as [Client, Client, Client, Client];
    tokenOf(a.shared("L").result);
    const tu = tokenOf(b.upgradeable("L").result);
    expect(r.machine.getLock("L").holders?.map((h) => h.mode)).toEqual(["shared", "upgradeable"]);
    expect(c.upgradeable("L").result).toMatchObject({ kind: "notAcquired" });
    expect(c.exclusive("L").result).toMatchObject({ kind: "notAcquired" });
    // A shared request still goes in beside the upgradeable holder.
    tokenOf(d.shared("L").result);
    // A second upgradeable request waits, and gets in once the first one is released.
    expect(c.upgradeable("L", 5_000).result.kind).toBe("waiting");
    const out = b.release("L", tu);
    expect(grantsIn(out)).toEqual([[c.id, "L", BigInt(out.index)]]);
    sound(r);
  });
});

describe("Upgrade", () => {
  it("is at once, with a new token, when the caller is the only holder", () => {
    const r = setup();
    const [a] = clients(r, "a") as [Client];
    const tu = tokenOf(a.upgradeable("L", 0, { holderData: "job 7" }).result);
    const out = a.upgrade("L", tu);
    const tx = tokenOf(out.result);
    expect(tx).toBe(BigInt(out.index));
    expect(tx).toBeGreaterThan(tu);
    expect(out.result).toMatchObject({ grants: [{ lock: "L", token: tx, mode: "exclusive" }] });
    expect(out.events.map((e) => [e.type, e.token, e.ended])).toEqual([
      ["released", tu, "upgraded"],
      ["acquired", tx, undefined],
    ]);
    expect(r.machine.history("L").map((h) => [h.token, h.mode ?? "exclusive", h.reason])).toEqual([
      [tu, "upgradeable", "upgraded"],
      [tx, "exclusive", null],
    ]);
    // The grant keeps its holder data.
    expect(r.machine.getLock("L").holder).toMatchObject({ token: tx, holderData: "job 7" });
    sound(r);
  });

  it("waits for the readers only and goes before the writer queued after it; new readers wait behind it", () => {
    const r = setup();
    const [r1, r2, u, w, r3] = clients(r, "r1", "r2", "u", "w", "r3") as [
      Client,
      Client,
      Client,
      Client,
      Client,
    ];
    const t1 = tokenOf(r1.shared("L").result);
    const t2 = tokenOf(r2.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    expect(w.exclusive("L", 60_000).result.kind).toBe("waiting");
    const up = u.upgrade("L", tu, 60_000);
    expect(up.result.kind).toBe("waiting");
    const upSeq = u.seq;
    expect(r.machine.getLock("L").holders?.find((h) => h.sessionId === u.id)).toMatchObject({
      upgradingSince: up.index,
    });
    // A reader that comes now is not let in beside the readers the upgrade waits for.
    expect(r3.shared("L", 60_000).result.kind).toBe("waiting");
    expect(r3.shared("M").result.kind).toBe("granted");
    sound(r);
    const first = r1.release("L", t1);
    expect(first.completions).toEqual([]);
    const last = r2.release("L", t2);
    const tx = tokenOf(completionOf(last, u, upSeq) as never);
    expect(tx).toBe(BigInt(last.index));
    // Only the upgrade was granted: the writer and the later reader still wait.
    expect(grantsIn(last)).toEqual([[u.id, "L", tx]]);
    expect(r.machine.getLock("L").waiters.map((x) => x.sessionId)).toEqual([w.id, r3.id]);
    expect(r.machine.history("L").find((h) => h.token === tx)).toMatchObject({
      waitedFrom: up.index,
      grantedAt: last.index,
    });
    // Then the queue in its order: the writer, then the reader.
    const next = u.release("L", tx);
    expect(grantsIn(next)).toEqual([[w.id, "L", BigInt(next.index)]]);
    sound(r);
  });

  it("that times out or is cancelled leaves the upgradeable grant as it was and lets the readers behind it in", () => {
    for (const reason of ["timeout", "client"] as const) {
      const r = setup();
      const [a, u, b] = clients(r, "a", "u", "b") as [Client, Client, Client];
      const ta = tokenOf(a.shared("L").result);
      const tu = tokenOf(u.upgradeable("L").result);
      u.upgrade("L", tu, 1_000);
      const upSeq = u.seq;
      expect(b.shared("L", 60_000).result.kind).toBe("waiting");
      const out = u.cancel("L", upSeq, reason);
      const answer = reason === "timeout" ? out.result : completionOf(out, u, upSeq);
      expect(answer).toMatchObject(
        reason === "timeout"
          ? { kind: "notAcquired", holder: { sessionId: a.id, token: ta } }
          : { kind: "cancelled" },
      );
      expect(grantsIn(out)).toEqual([[b.id, "L", BigInt(out.index)]]);
      const holders = r.machine.getLock("L").holders ?? [];
      expect(holders.find((h) => h.sessionId === u.id)).toEqual(
        expect.objectContaining({ token: tu, mode: "upgradeable" }),
      );
      expect(holders.find((h) => h.sessionId === u.id)?.upgradingSince).toBeUndefined();
      sound(r);
    }
  });

  it("answers at once without waiting (wait 0) naming the other holder, and keeps the hold", () => {
    const r = setup();
    const [a, u] = clients(r, "a", "u") as [Client, Client];
    const ta = tokenOf(a.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    expect(u.upgrade("L", tu).result).toMatchObject({
      kind: "notAcquired",
      holder: { sessionId: a.id, token: ta },
    });
    expect(r.machine.validateToken("L", tu)).toBe(true);
    sound(r);
  });

  it("ends with NOT_HOLDER when its grant ends while it waits (a release, a revoke)", () => {
    for (const end of ["release", "revoke"] as const) {
      const r = setup();
      const [a, u, b] = clients(r, "a", "u", "b") as [Client, Client, Client];
      tokenOf(a.shared("L").result);
      const tu = tokenOf(u.upgradeable("L").result);
      u.upgrade("L", tu, 60_000);
      const upSeq = u.seq;
      expect(b.shared("L", 60_000).result.kind).toBe("waiting");
      const out =
        end === "release"
          ? u.release("L", tu)
          : r.run({ type: "revoke", lock: "L", token: tu, wallMs: 0 });
      expect(completionOf(out, u, upSeq)).toMatchObject({ reason: "ERROR_REASON_NOT_HOLDER" });
      // The reader the upgrade kept out goes in beside the one left.
      expect(grantsIn(out)).toEqual([[b.id, "L", BigInt(out.index)]]);
      expect(r.machine.pendingWaits()).toEqual([]);
      sound(r);
    }
  });

  it("counts its lock once toward the session's lock limit while it waits", () => {
    const r = setup({ maxLocksPerSession: 2 });
    const [a, u] = clients(r, "a", "u") as [Client, Client];
    tokenOf(a.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    expect(u.upgrade("L", tu, 60_000).result.kind).toBe("waiting");
    // L and M: two locks, within the limit of two.
    expect(u.exclusive("M").result.kind).toBe("granted");
    expect(reasonOf(u.exclusive("N"))).toBe("ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION");
    sound(r);
  });

  it("is refused for a grant that is not upgradeable, a stale token or a lock not held", () => {
    const r = setup();
    const [a, b] = clients(r, "a", "b") as [Client, Client];
    const ts = tokenOf(a.shared("S").result);
    expect(reasonOf(a.upgrade("S", ts))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    const tx = tokenOf(a.exclusive("X").result);
    expect(reasonOf(a.upgrade("X", tx))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    const tu = tokenOf(a.upgradeable("U").result);
    expect(reasonOf(a.upgrade("U", tu + 1n))).toBe("ERROR_REASON_STALE_TOKEN");
    expect(reasonOf(b.upgrade("U", tu))).toBe("ERROR_REASON_NOT_HOLDER");
    // Acquiring a held lock in another mode is not an upgrade either.
    expect(reasonOf(a.exclusive("U"))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    sound(r);
  });

  it("retried with its seq answers as the first time; a second one joins the wait", () => {
    const r = setup();
    const [a, u] = clients(r, "a", "u") as [Client, Client];
    const ta = tokenOf(a.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    u.upgrade("L", tu, 60_000);
    const first = u.seq;
    expect(u.upgrade("L", tu, 60_000, first).result.kind).toBe("waiting");
    u.upgrade("L", tu, 60_000);
    const second = u.seq;
    const out = a.release("L", ta);
    const tx = tokenOf(completionOf(out, u, first) as never);
    expect(completionOf(out, u, second)).toEqual(completionOf(out, u, first));
    expect(tokenOf(u.upgrade("L", tu, 0, first).result)).toBe(tx);
    sound(r);
  });
});

describe("Downgrade", () => {
  it("to shared is a new grant that admits the shared requests at the head of the queue, not the writer behind them", () => {
    const r = setup();
    const [x, s1, s2, w, s3] = clients(r, "x", "s1", "s2", "w", "s3") as [
      Client,
      Client,
      Client,
      Client,
      Client,
    ];
    const tx = tokenOf(x.exclusive("L").result);
    for (const c of [s1, s2]) expect(c.shared("L", 60_000).result.kind).toBe("waiting");
    expect(w.exclusive("L", 60_000).result.kind).toBe("waiting");
    expect(s3.shared("L", 60_000).result.kind).toBe("waiting");
    const out = x.downgrade("L", tx, "shared");
    const ts = tokenOf(out.result);
    expect(ts).toBe(BigInt(out.index));
    expect(ts).toBeGreaterThan(tx);
    expect(grantsIn(out)).toEqual([
      [x.id, "L", ts],
      [s1.id, "L", ts],
      [s2.id, "L", ts],
    ]);
    expect(out.events[0]).toMatchObject({ type: "released", token: tx, ended: "downgraded" });
    expect(r.machine.getLock("L").waiters.map((q) => q.sessionId)).toEqual([w.id, s3.id]);
    sound(r);
  });

  it("to upgradeable admits readers but not a waiting upgradeable request; an upgrade again gets a higher token", () => {
    const r = setup();
    const [x, s, u] = clients(r, "x", "s", "u") as [Client, Client, Client];
    const tx = tokenOf(x.exclusive("L").result);
    expect(s.shared("L", 60_000).result.kind).toBe("waiting");
    expect(u.upgradeable("L", 60_000).result.kind).toBe("waiting");
    const down = x.downgrade("L", tx, "upgradeable");
    const tu = tokenOf(down.result);
    expect(grantsIn(down)).toEqual([
      [x.id, "L", tu],
      [s.id, "L", tu],
    ]);
    const ts = tu;
    x.upgrade("L", tu, 60_000);
    const out = s.release("L", ts);
    const tx2 = tokenOf(completionOf(out, x, x.seq) as never);
    // Tokens grow across every mode change.
    expect([tx, tu, tx2].every((t, i, all) => i === 0 || t > (all[i - 1] as bigint))).toBe(true);
    expect(
      r.machine
        .history("L")
        .filter((h) => h.sessionId === x.id)
        .map((h) => h.reason),
    ).toEqual(["downgraded", "upgraded", null]);
    sound(r);
  });

  it("is refused for a grant that is not exclusive, and for an election's lead", () => {
    const r = setup();
    const [a] = clients(r, "a") as [Client];
    const ts = tokenOf(a.shared("S").result);
    expect(reasonOf(a.downgrade("S", ts, "shared"))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    const te = tokenOf(a.acquire("E", 0, { mode: "leader" }).result);
    expect(reasonOf(a.downgrade("E", te, "shared"))).toBe("ERROR_REASON_KIND_MISMATCH");
    const tx = tokenOf(a.exclusive("X").result);
    expect(reasonOf(a.downgrade("X", tx - 1n, "shared"))).toBe("ERROR_REASON_STALE_TOKEN");
    sound(r);
  });
});

describe("mode changes in the log and in snapshots", () => {
  it("Upgrade and Downgrade entries decode to the commands they carry", () => {
    const commands: Command[] = [
      {
        type: "upgrade",
        sessionId: 5n,
        lock: "L",
        token: 9n,
        waitMs: 1_500,
        seq: 3,
        ackedUpTo: 2,
        held: [],
        wallMs: 77,
      },
      {
        type: "downgrade",
        sessionId: 5n,
        lock: "L",
        token: 12n,
        mode: "upgradeable",
        seq: 4,
        ackedUpTo: 3,
        held: [],
        wallMs: 78,
      },
    ];
    for (const cmd of commands) expect(decodeCommand(encodeEntry(cmd))).toEqual(cmd);
  });

  it("a snapshot keeps a pending upgrade, and the restored state grants it as the original does", () => {
    const r = setup();
    const [a, u, w] = clients(r, "a", "u", "w") as [Client, Client, Client];
    const ta = tokenOf(a.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    u.upgrade("L", tu, 60_000);
    w.shared("L", 60_000);
    const bytes = r.machine.snapshot();
    const restored = LockStateMachine.restore(bytes);
    expect(restored.snapshot()).toEqual(bytes);
    expect(restored.pendingWaits()).toEqual(r.machine.pendingWaits());
    const next = r.next;
    const cmd: Command = {
      type: "release",
      sessionId: a.id,
      lock: "L",
      token: ta,
      seq: ++a.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    };
    const original = r.run(cmd);
    const again = restored.apply(next, cmd);
    expect(again).toEqual(original);
    expect(grantsIn(again)).toEqual([[u.id, "L", BigInt(next)]]);
    expect(restored.checkInvariants()).toEqual([]);
  });
});

describe("reads of upgradeable grants", () => {
  it("GetLock and history name the upgradeable mode and the index a pending upgrade waits since", () => {
    const r = setup();
    const [a, u, w] = clients(r, "a", "u", "w") as [Client, Client, Client];
    tokenOf(a.shared("L").result);
    const tu = tokenOf(u.upgradeable("L").result);
    const waiting = u.upgrade("L", tu, 60_000);
    w.upgradeable("L", 60_000);
    const read = answerRead("GetLock", { lock: "L", waitersAfterIndex: 0n }, r.machine);
    expect(read.holders?.map((h) => [h.sessionId, h.mode, h.upgradingSince])).toEqual([
      [a.id, "shared", undefined],
      [u.id, "upgradeable", BigInt(waiting.index)],
    ]);
    expect(read.waiters.map((x) => [x.sessionId, x.mode])).toEqual([[w.id, "upgradeable"]]);
    const history = answerRead("GetLockHistory", { lock: "L", limit: 0 }, r.machine);
    expect(history.records.map((h) => [h.token, h.mode])).toEqual([
      [expect.any(BigInt), "shared"],
      [tu, "upgradeable"],
    ]);
  });
});
