// Random logs using every lock kind, checked as the exclusive lock's are: the tables stay
// sound after every entry (no waiting request left that the FIFO rule would grant), and a
// snapshot taken anywhere, restored and fed the rest of the log, ends where replaying the
// whole log does, byte for byte.
import { describe, expect, it } from "vitest";
import { replay } from "../../lock/log-runner.ts";
import { restoreFromBackup } from "../../../node/lock/restore.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { SeededRandom } from "../../../node/util/rng.ts";
import { Client, setup, tokenOf } from "./kit.ts";
import { LOCKS, randomLog, SEMAPHORES, LIMITS } from "./random-log.ts";

describe("random logs of every lock kind", () => {
  it("keep the tables sound after every entry and reach shared grants, permits, sets, refusals and hold limits", () => {
    const seen = new Set<string>();
    for (let run = 0; run < 12; run++) {
      const seed = (run % 6) + 1;
      const { outcomes } = randomLog(seed, 700, undefined, { upgrades: run >= 6 });
      for (const o of outcomes) {
        seen.add(o.result.kind === "error" ? o.result.reason : o.result.kind);
        for (const e of o.events) {
          seen.add(`${e.type}:${e.mode ?? "exclusive"}${e.revokedFor ? ":hold limit" : ""}`);
          if (e.ended !== undefined) seen.add(e.ended);
        }
        for (const c of o.completions)
          if (c.answer.kind === "granted" && o.events.some((e) => e.ended === "upgraded"))
            seen.add("upgrade granted after waiting");
        for (const c of o.completions)
          if (c.answer.kind === "granted" && c.answer.grants.length > 1)
            seen.add("set granted after waiting");
      }
    }
    for (const k of [
      "acquired:shared",
      "acquired:upgradeable",
      "upgraded",
      "downgraded",
      "upgrade granted after waiting",
      "acquired:permit",
      "acquired:exclusive",
      "revoked:exclusive:hold limit",
      "set granted after waiting",
      "waiting",
      "cancelled",
      "notAcquired",
      "ERROR_REASON_HELD_IN_ANOTHER_MODE",
      "ERROR_REASON_KIND_MISMATCH",
      "ERROR_REASON_PERMITS_MISMATCH",
      "ERROR_REASON_SET_PARTLY_HELD",
      "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    ])
      expect(seen, k).toContain(k);
  });

  it.each([
    ["", {}],
    [" (with upgradeable grants, Upgrades and Downgrades)", { upgrades: true }],
    [" (with identities, a policy, quotas and a token)", { upgrades: true, access: true }],
  ])(
    "restoring a snapshot taken anywhere and replaying the tail equals replaying the whole log%s",
    (_, options) => {
      for (let seed = 1; seed <= 6; seed++) {
        const { log } = randomLog(seed, 600, undefined, options);
        const epoch = seed % 2;
        const full = new LockStateMachine(LIMITS, { epoch });
        replay(full, log);
        const rng = new SeededRandom(seed * 31);
        for (let cut = 0; cut < 5; cut++) {
          const at = rng.int(1, log.length);
          const prefix = new LockStateMachine(LIMITS, { epoch });
          replay(
            prefix,
            log.filter((e) => e.index <= at),
          );
          const restored = LockStateMachine.restore(prefix.snapshot());
          expect(restored.checkInvariants()).toEqual([]);
          expect(restored.snapshot()).toEqual(prefix.snapshot());
          expect(restored.holdLimits()).toEqual(prefix.holdLimits());
          expect(restored.pendingWaits()).toEqual(prefix.pendingWaits());
          for (const lock of [...LOCKS, ...SEMAPHORES]) {
            expect(restored.getLock(lock)).toEqual(prefix.getLock(lock));
            expect(restored.history(lock)).toEqual(prefix.history(lock));
          }
          for (const entry of log) {
            if (entry.index <= at) continue;
            const a =
              entry.cmd === null
                ? (restored.skip(entry.index), null)
                : restored.apply(entry.index, entry.cmd, entry.caller);
            const b =
              entry.cmd === null
                ? (prefix.skip(entry.index), null)
                : prefix.apply(entry.index, entry.cmd, entry.caller);
            expect(a).toEqual(b);
          }
          expect(restored.snapshot()).toEqual(full.snapshot());
        }
      }
    },
  );
});

describe("restore from a backup with every lock kind", () => {
  it("ends every grant of every kind, drops every wait, keeps the history and the semaphores' permit counts", () => {
    const r = setup();
    const [a, b, m] = [new Client(r, "a"), new Client(r, "b"), new Client(r, "m")];
    const ts = tokenOf(a.shared("R", 0, { holderData: "reader" }).result);
    tokenOf(b.shared("R").result);
    tokenOf(a.permit("S", 2, 0, { holdMs: 5_000 }).result);
    tokenOf(b.acquire("W").result);
    m.all([{ lock: "W" }, { lock: "S", permits: 2 }], 1000);
    const backup = r.machine.snapshot();
    const restored = restoreFromBackup(backup, 1, 99);
    expect(restored).toMatchObject({ droppedSessions: 3, endedGrants: 4, droppedWaiters: 2 });
    const next = LockStateMachine.restore(restored.data);
    expect(next.checkInvariants()).toEqual([]);
    expect(next.getLock("R")).toEqual({ name: "R", holder: null, waiters: [] });
    expect(next.getLock("S")).toEqual({
      name: "S",
      holder: null,
      waiters: [],
      kind: "semaphore",
      permits: 2,
    });
    expect(next.holdLimits()).toEqual([]);
    expect(next.history("R").map((h) => [h.token, h.mode, h.holderData, h.reason])).toEqual([
      [ts, "shared", "reader", "sessionExpired"],
      [ts + 1n, "shared", undefined, "sessionExpired"],
    ]);
    expect(next.history("S")[0]).toMatchObject({
      mode: "permit",
      slot: 0,
      holdMs: 5_000,
      reason: "sessionExpired",
      endedAt: restored.index,
      endedWallMs: 99,
    });
  });
});
