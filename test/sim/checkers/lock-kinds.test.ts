// The simulator's per-index lock checker on the lock kinds: a real state machine's entries
// pass; entries with a planted fault (a grant the rules forbid, a set granted in part, a
// permit too many, a wait left waiting, a second upgradeable grant, an Upgrade beside
// another holder or passed by a reader, a mode change without its end) are caught.
import { describe, expect, it } from "vitest";
import type { Answer } from "../../../node/lock/answers.ts";
import type { Command } from "../../../node/lock/commands.ts";
import { encodeEntry } from "../../../node/lock/codec/entries.ts";
import type { GrantMode } from "../../../node/lock/kinds.ts";
import type { ApplyOutcome, LockEvent } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { LockChecker } from "./lock.ts";
import { randomLog } from "../../unit/lock/random-log.ts";

/** A planted grant answer of one lock. */
function grantAnswer(
  session: bigint,
  lock: string,
  token: bigint,
  mode: GrantMode = "exclusive",
  permit: { permits?: number; slot?: number } = {},
): Answer {
  return {
    kind: "granted",
    token,
    holder: { sessionId: session, clientName: "", token, grantedIndex: token },
    grants: [{ lock, token, mode, ...permit }],
  };
}

/** A log applied to one replica and fed to the checker; `plant` may change an entry's outcome first. */
class Harness {
  readonly failures: string[] = [];
  readonly checker = new LockChecker((msg) => this.failures.push(msg));
  readonly sm = new LockStateMachine();
  private index = 0;
  private readonly seqs = new Map<bigint, number>();

  run(cmd: Command, plant?: (o: ApplyOutcome) => ApplyOutcome): ApplyOutcome {
    const index = ++this.index;
    const real = this.sm.apply(index, cmd);
    const out = plant ? plant(real) : real;
    this.checker.applied(
      1,
      { index, term: 1, kind: "normal", data: encodeEntry(cmd) },
      out,
      this.sm,
      index,
    );
    return real;
  }

  open(name: string): bigint {
    const out = this.run({
      type: "openSession",
      requestId: name,
      ttlMs: 10_000,
      clientName: name,
      wallMs: 0,
    });
    if (out.result.kind !== "sessionOpened") throw new Error("not opened");
    this.seqs.set(out.result.sessionId, 0);
    return out.result.sessionId;
  }

  acquire(
    sessionId: bigint,
    lock: string,
    extra: Partial<Extract<Command, { type: "acquire" }>> = {},
    plant?: (o: ApplyOutcome) => ApplyOutcome,
  ): ApplyOutcome {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1;
    this.seqs.set(sessionId, seq);
    return this.run(
      {
        type: "acquire",
        sessionId,
        seq,
        ackedUpTo: 0,
        held: [],
        lock,
        waitMs: 0,
        wallMs: 0,
        ...extra,
      },
      plant,
    );
  }

  release(
    sessionId: bigint,
    lock: string,
    token: bigint,
    plant?: (o: ApplyOutcome) => ApplyOutcome,
  ): ApplyOutcome {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1;
    this.seqs.set(sessionId, seq);
    return this.run(
      { type: "release", sessionId, seq, ackedUpTo: 0, held: [], lock, token, wallMs: 0 },
      plant,
    );
  }

  upgrade(
    sessionId: bigint,
    lock: string,
    token: bigint,
    waitMs = 0,
    plant?: (o: ApplyOutcome) => ApplyOutcome,
  ): ApplyOutcome {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1;
    this.seqs.set(sessionId, seq);
    return this.run(
      { type: "upgrade", sessionId, seq, ackedUpTo: 0, held: [], lock, token, waitMs, wallMs: 0 },
      plant,
    );
  }

  downgrade(
    sessionId: bigint,
    lock: string,
    token: bigint,
    mode: "shared" | "upgradeable",
    plant?: (o: ApplyOutcome) => ApplyOutcome,
  ): ApplyOutcome {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1;
    this.seqs.set(sessionId, seq);
    return this.run(
      { type: "downgrade", sessionId, seq, ackedUpTo: 0, held: [], lock, token, mode, wallMs: 0 },
      plant,
    );
  }

  /** The seq the session's last write carried. */
  seqOf(sessionId: bigint): number {
    return this.seqs.get(sessionId) ?? 0;
  }

  get next(): number {
    return this.index + 1;
  }
}

const tokenOf = (o: ApplyOutcome): bigint => (o.result.kind === "granted" ? o.result.token : 0n);

describe("the per-index lock checker on the lock kinds", () => {
  it("passes a run of shared grants, permits, a multi-lock set and a hold limit, and counts each kind", () => {
    const h = new Harness();
    const [a, b, w, m] = [h.open("a"), h.open("b"), h.open("w"), h.open("m")];
    const ta = tokenOf(h.acquire(a, "L", { mode: "shared" }));
    h.acquire(b, "L", { mode: "shared" });
    h.acquire(w, "L", { waitMs: 1000 });
    h.acquire(b, "S", { permits: 2 });
    h.acquire(a, "S", { permits: 2, holdMs: 5_000 });
    h.acquire(m, "S", { permits: 2, waitMs: 1000, more: [{ lock: "M" }] });
    h.release(a, "L", ta);
    h.release(b, "L", tokenOf(h.acquire(b, "L", { mode: "shared" })));
    const hold = h.sm.holdLimits()[0];
    if (!hold) throw new Error("no hold limit");
    h.run({ type: "holdLimit", ...hold, wallMs: 0 });
    expect(h.failures).toEqual([]);
    expect(h.sm.getLock("M").holder?.sessionId).toBe(m);
    expect(h.checker.stats).toMatchObject({
      sharedGrants: 2,
      permitGrants: 3,
      setGrants: 1,
      holdLimitEnds: 1,
    });
  });

  it("catches a shared request granted while an exclusive request is queued ahead of it", () => {
    const h = new Harness();
    const [a, w, b] = [h.open("a"), h.open("w"), h.open("b")];
    h.acquire(a, "L", { mode: "shared" });
    h.acquire(w, "L", { waitMs: 1000 });
    const index = h.next;
    const token = BigInt(index);
    h.acquire(b, "L", { mode: "shared" }, (o) => ({
      ...o,
      result: grantAnswer(b, "L", token, "shared"),
      events: [
        { type: "acquired", index, lock: "L", sessionId: b, token, wallMs: 0, mode: "shared" },
      ],
    }));
    expect(h.failures).toEqual([
      `FIFO: index ${index} grants L to session ${b} at once while session ${w} waits for it since index ${index - 1}`,
    ]);
  });

  it("catches a waiter granted past a request queued ahead of it", () => {
    const h = new Harness();
    const [e, x, s] = [h.open("e"), h.open("x"), h.open("s")];
    const te = tokenOf(h.acquire(e, "L"));
    h.acquire(x, "L", { waitMs: 1000 });
    h.acquire(s, "L", { mode: "shared", waitMs: 1000 });
    const index = h.next;
    const token = BigInt(index);
    // The release hands the lock to x; plant it going to s, which waits behind x.
    h.release(e, "L", te, (o) => ({
      ...o,
      completions: [{ sessionId: s, seq: 1, answer: grantAnswer(s, "L", token, "shared") }],
      events: [
        o.events[0] as LockEvent,
        { type: "acquired", index, lock: "L", sessionId: s, token, wallMs: 0, mode: "shared" },
      ],
    }));
    expect(h.failures[0]).toBe(
      `FIFO: index ${index} grants L to session ${s} (waiting since index ${index - 1}) while session ${x}, ahead of it since index ${index - 2}, still waits`,
    );
  });

  it("catches part of a multi-lock set granted", () => {
    const h = new Harness();
    const [o1, m] = [h.open("o"), h.open("m")];
    const tb = tokenOf(h.acquire(o1, "B"));
    h.acquire(m, "A", { waitMs: 1000, more: [{ lock: "B" }] });
    const index = h.next;
    // The release grants m A and B; plant the grant of A alone.
    h.release(o1, "B", tb, (o) => ({
      ...o,
      events: o.events.filter((e) => !(e.type === "acquired" && e.lock === "B")),
    }));
    expect(h.failures).toEqual([
      `multi-lock: index ${index} grants [A] to session ${m}, but the requests it grants name [A, B]`,
    ]);
  });

  it("catches a permit beyond the semaphore's count, and a permit given a slot that is not the lowest free one", () => {
    const h = new Harness();
    const [a, b, c] = [h.open("a"), h.open("b"), h.open("c")];
    h.acquire(a, "S", { permits: 2 });
    h.acquire(b, "S", { permits: 2 });
    const index = h.next;
    const token = BigInt(index);
    h.acquire(c, "S", { permits: 2 }, (o) => ({
      ...o,
      result: grantAnswer(c, "S", token, "permit", { permits: 2, slot: 2 }),
      events: [
        {
          type: "acquired",
          index,
          lock: "S",
          sessionId: c,
          token,
          wallMs: 0,
          mode: "permit",
          slot: 2,
          permits: 2,
        },
      ],
    }));
    expect(h.failures).toEqual([
      `G1: index ${index} grants S (permit) to ${c}, the 3th permit of 2`,
    ]);
    const g = new Harness();
    const [x, y] = [g.open("x"), g.open("y")];
    g.acquire(x, "S", { permits: 3 });
    const at = g.next;
    g.acquire(y, "S", { permits: 3 }, (o) => ({
      ...o,
      events: o.events.map((e) => ({ ...e, slot: 2 })),
    }));
    expect(g.failures).toEqual([
      `semaphore: index ${at} grants S (permit) to ${y} slot 2; the lowest free slot was 1`,
    ]);
  });

  it("catches a wait left waiting when the rule grants it", () => {
    const h = new Harness();
    const [e, w] = [h.open("e"), h.open("w")];
    const te = tokenOf(h.acquire(e, "L"));
    h.acquire(w, "L", { waitMs: 1000 });
    const index = h.next;
    h.release(e, "L", te, (o) => ({
      ...o,
      completions: [],
      events: o.events.filter((x) => x.type !== "acquired"),
    }));
    expect(h.failures).toEqual([
      `FIFO: after index ${index} the wait of session ${w} (since index ${index - 1}) for L could be granted`,
    ]);
  });

  it("catches an exclusive grant beside shared holders", () => {
    const h = new Harness();
    const [a, b] = [h.open("a"), h.open("b")];
    h.acquire(a, "L", { mode: "shared" });
    const index = h.next;
    const token = BigInt(index);
    h.acquire(b, "L", {}, (o) => ({
      ...o,
      result: grantAnswer(b, "L", token),
      events: [{ type: "acquired", index, lock: "L", sessionId: b, token, wallMs: 0 }],
    }));
    expect(h.failures).toEqual([`G1: index ${index} grants L to ${b} while ${a} holds it`]);
  });

  it("passes upgradeable grants, Upgrades at once, after a wait or given up, and Downgrades, and counts them", () => {
    const h = new Harness();
    const [u, r, w, q] = [h.open("u"), h.open("r"), h.open("w"), h.open("q")];
    const tu = tokenOf(h.acquire(u, "L", { mode: "upgradeable" }));
    const tr = tokenOf(h.acquire(r, "L", { mode: "shared" }));
    // Not the only holder: refused at once, then a wait; a reader coming meanwhile waits behind it.
    h.upgrade(u, "L", tu);
    h.upgrade(u, "L", tu, 1000);
    h.acquire(q, "L", { mode: "shared", waitMs: 1000 });
    h.release(r, "L", tr);
    const exclusive = h.sm.getLock("L").holder?.token ?? 0n;
    expect(exclusive).toBeGreaterThan(tu);
    // Downgraded, it lets the waiting reader in with its token; upgraded again once alone.
    const down = tokenOf(h.downgrade(u, "L", exclusive, "upgradeable"));
    h.release(q, "L", tokenOf(h.acquire(q, "L", { mode: "shared" })));
    const again = tokenOf(h.upgrade(u, "L", down));
    h.release(u, "L", tokenOf(h.downgrade(u, "L", again, "shared")));
    // A wait given up, and one whose grant ends (released, then a hold limit).
    const tv = tokenOf(h.acquire(u, "M", { mode: "upgradeable" }));
    h.acquire(w, "M", { mode: "shared" });
    h.upgrade(u, "M", tv, 1000);
    h.run({
      type: "cancelWait",
      sessionId: u,
      lock: "M",
      acquireSeq: h.seqOf(u),
      reason: "client",
      wallMs: 0,
    });
    h.upgrade(u, "M", tv, 1000);
    h.release(u, "M", tv);
    // A retry of an Upgrade that timed out is answered as it was, though its session is alone now.
    const tn = tokenOf(h.acquire(u, "N", { mode: "upgradeable" }));
    const tw = tokenOf(h.acquire(w, "N", { mode: "shared" }));
    h.upgrade(u, "N", tn, 1000);
    const upgradeSeq = h.seqOf(u);
    h.run({
      type: "cancelWait",
      sessionId: u,
      lock: "N",
      acquireSeq: upgradeSeq,
      reason: "timeout",
      wallMs: 0,
    });
    h.release(w, "N", tw);
    const retry = h.run({
      type: "upgrade",
      sessionId: u,
      seq: upgradeSeq,
      ackedUpTo: 0,
      held: [],
      lock: "N",
      token: tn,
      waitMs: 1000,
      wallMs: 0,
    });
    expect(retry.result.kind).toBe("notAcquired");
    expect(h.failures).toEqual([]);
    expect(h.checker.stats).toMatchObject({
      upgradeableGrants: 4,
      upgrades: 2,
      upgradesWaited: 1,
      upgradeWaitsEnded: 3,
      downgrades: 2,
    });
  });

  it("catches a second upgradeable grant", () => {
    const h = new Harness();
    const [a, b] = [h.open("a"), h.open("b")];
    h.acquire(a, "L", { mode: "upgradeable" });
    const index = h.next;
    const token = BigInt(index);
    h.acquire(b, "L", { mode: "upgradeable" }, (o) => ({
      ...o,
      result: grantAnswer(b, "L", token, "upgradeable"),
      events: [
        { type: "acquired", index, lock: "L", sessionId: b, token, wallMs: 0, mode: "upgradeable" },
      ],
    }));
    expect(h.failures).toEqual([
      `G1: index ${index} grants L (upgradeable) to ${b} while ${a} holds it upgradeable`,
    ]);
  });

  it("catches a reader let in while an Upgrade waits", () => {
    const h = new Harness();
    const [u, r, s] = [h.open("u"), h.open("r"), h.open("s")];
    const tu = tokenOf(h.acquire(u, "L", { mode: "upgradeable" }));
    h.acquire(r, "L", { mode: "shared" });
    h.upgrade(u, "L", tu, 1000);
    const since = h.next - 1;
    const index = h.next;
    const token = BigInt(index);
    h.acquire(s, "L", { mode: "shared" }, (o) => ({
      ...o,
      result: grantAnswer(s, "L", token, "shared"),
      events: [
        { type: "acquired", index, lock: "L", sessionId: s, token, wallMs: 0, mode: "shared" },
      ],
    }));
    expect(h.failures).toEqual([
      `upgrade: index ${index} grants L (shared) to ${s} while the Upgrade of session ${u} waits (since index ${since})`,
    ]);
  });

  it("catches an Upgrade granted beside a reader, and one left waiting once alone", () => {
    const h = new Harness();
    const [u, r] = [h.open("u"), h.open("r")];
    const tu = tokenOf(h.acquire(u, "L", { mode: "upgradeable" }));
    h.acquire(r, "L", { mode: "shared" });
    const index = h.next;
    const token = BigInt(index);
    h.upgrade(u, "L", tu, 0, (o) => ({
      ...o,
      result: grantAnswer(u, "L", token),
      events: [
        {
          type: "released",
          index,
          lock: "L",
          sessionId: u,
          token: tu,
          wallMs: 0,
          ended: "upgraded",
        },
        { type: "acquired", index, lock: "L", sessionId: u, token, wallMs: 0 },
      ],
    }));
    expect(h.failures).toEqual([
      `upgraded: index ${index} upgrades the grant of L by ${u} while ${r} (shared) holds it too`,
      `G1: index ${index} grants L to ${u} while ${r} holds it`,
    ]);

    const g = new Harness();
    const [v, s] = [g.open("v"), g.open("s")];
    const tv = tokenOf(g.acquire(v, "L", { mode: "upgradeable" }));
    const ts = tokenOf(g.acquire(s, "L", { mode: "shared" }));
    g.upgrade(v, "L", tv, 1000);
    const since = g.next - 1;
    const at = g.next;
    // The release grants v's Upgrade; plant it left waiting.
    g.release(s, "L", ts, (o) => ({ ...o, completions: [], events: o.events.slice(0, 1) }));
    expect(g.failures).toEqual([
      `upgrade: after index ${at} the Upgrade of L by session ${v} (since index ${since}) could be granted`,
    ]);
  });

  it("catches a Downgrade's grant that does not follow its end, and an Upgrade's timeout that ends the grant", () => {
    const h = new Harness();
    const x = h.open("x");
    const tx = tokenOf(h.acquire(x, "L"));
    const index = h.next;
    h.downgrade(x, "L", tx, "shared", (o) => ({ ...o, events: o.events.slice(1) }));
    expect(h.failures).toEqual([
      `G1: index ${index} grants L (shared) to ${x}, which holds it already`,
      `G1: index ${index} grants L (shared) to ${x} while ${x} holds it exclusive`,
      `downgraded: index ${index} answers the downgraded of L by ${x} to shared with token ${BigInt(index)}, but its events do not end the old grant and make that one`,
    ]);

    const g = new Harness();
    const [u, r] = [g.open("u"), g.open("r")];
    const tu = tokenOf(g.acquire(u, "L", { mode: "upgradeable" }));
    g.acquire(r, "L", { mode: "shared" });
    g.upgrade(u, "L", tu, 1000);
    const at = g.next;
    g.run(
      {
        type: "cancelWait",
        sessionId: u,
        lock: "L",
        acquireSeq: g.seqOf(u),
        reason: "timeout",
        wallMs: 0,
      },
      (o) => ({
        ...o,
        events: [{ type: "released", index: at, lock: "L", sessionId: u, token: tu, wallMs: 0 }],
      }),
    );
    expect(g.failures).toEqual([
      `upgrade: index ${at} ends the Upgrade of L by ${u} (waiting since index ${at - 1}) notAcquired, but its upgradeable grant ${tu} did not go on (now none)`,
    ]);
  });

  it("passes random logs with upgradeable grants, Upgrades and Downgrades", () => {
    let changes = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const failures: string[] = [];
      const checker = new LockChecker((msg) => failures.push(msg), seed % 2);
      randomLog(
        seed,
        700,
        (cmd, out, machine) => {
          checker.applied(
            1,
            { index: out.index, term: 1, kind: "normal", data: encodeEntry(cmd) },
            out,
            machine,
            out.index,
          );
        },
        { upgrades: true },
      );
      expect(failures, `seed ${seed}`).toEqual([]);
      changes += checker.stats.upgrades + checker.stats.downgrades;
      expect(checker.stats.upgradeableGrants, `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(changes).toBeGreaterThan(0);
  });

  it("passes random logs with identities, a policy, quotas and calls on others' sessions", () => {
    for (let seed = 1; seed <= 8; seed++) {
      const failures: string[] = [];
      const checker = new LockChecker((msg) => failures.push(msg), seed % 2);
      randomLog(
        seed,
        500,
        (cmd, out, machine, caller) => {
          checker.applied(
            1,
            {
              index: out.index,
              term: 1,
              kind: "normal",
              data: encodeEntry(cmd, undefined, caller),
            },
            out,
            machine,
            out.index,
          );
        },
        { upgrades: true, access: true },
      );
      // The random logs resend a leader's timeout of a seq the session used since for
      // another write: refused as no Acquire of that lock, which is right.
      const real = failures.filter(
        (f) => !/cancelWait refused as invalid: .* is not an Acquire/.test(f),
      );
      expect(real, `seed ${seed}`).toEqual([]);
    }
  });

  it("passes random logs of every kind applied by the state machine", () => {
    for (let seed = 1; seed <= 8; seed++) {
      const failures: string[] = [];
      const checker = new LockChecker((msg) => failures.push(msg), seed % 2);
      randomLog(seed, 700, (cmd, out, machine) => {
        checker.applied(
          1,
          { index: out.index, term: 1, kind: "normal", data: encodeEntry(cmd) },
          out,
          machine,
          out.index,
        );
      });
      expect(failures, `seed ${seed}`).toEqual([]);
      expect(
        checker.stats.sharedGrants + checker.stats.permitGrants + checker.stats.setGrants,
      ).toBeGreaterThan(0);
    }
  });
});
