// Snapshots written by earlier formats still load, and the state they load answers the log
// that follows exactly as the code that wrote them did. The fixture holds a format-2
// snapshot of a busy state (sessions with kept and dropped answers, waiters, history at its
// caps, remembered request and closed-session ids, epoch 1) taken by the code of that
// format, what that code read from it, the 150 entries that followed and its answers to them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Command } from "../../node/lock/commands.ts";
import type { LockLimits } from "../../node/lock/limits.ts";
import type { LoggedCommand } from "../../node/lock/log-runner.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";

interface Fixture {
  snapshot: string;
  limits: Partial<LockLimits>;
  before: Views;
  tail: LoggedCommand[];
  outcomes: unknown[];
  after: Views;
}
type Views = Record<string, unknown>;

const LOCKS = ["a", "b", "c", "d/1", "d/2"];

/** Plain JSON with bigints as "123n", as the fixture was written. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)));
}

function revive(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => (typeof v === "string" && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v));
}

function views(m: LockStateMachine): Views {
  const sessions = m.listSessions().sessions;
  const answers: Array<[string, number, unknown]> = [];
  for (const s of sessions) {
    for (let seq = 1; seq <= s.mark + 12; seq++) {
      const a = m.answerFor(s.id, seq);
      if (a) answers.push([String(s.id), seq, a]);
    }
  }
  return plain({
    applied: m.appliedIndex, epoch: m.epoch, limits: m.limits, stats: m.stats(), sessions, locks: m.listLocks({ limit: 1000 }).locks,
    getLocks: LOCKS.map((l) => m.getLock(l)), history: LOCKS.map((l) => m.history(l)), pendingWaits: m.pendingWaits(),
    sessionLeases: m.sessionLeases(), answers,
  }) as Views;
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/lock-state-format-2.json", import.meta.url), "utf8")) as Fixture;
const bytes = (): Uint8Array => new Uint8Array(Buffer.from(fixture.snapshot, "base64"));

describe("snapshots of earlier formats", () => {
  it("a format-2 snapshot loads with the sessions, locks, waiters, answers and history its writer read from it", () => {
    expect(bytes()[4]).toBe(2);
    const m = LockStateMachine.restore(bytes());
    expect(m.checkInvariants()).toEqual([]);
    const got = views(m);
    // Limits the format did not carry take their defaults; the ones it carried are kept.
    const { limits: gotLimits, ...gotRest } = got as { limits: Record<string, number> };
    const { limits: wantLimits, ...wantRest } = fixture.before as { limits: Record<string, number> };
    expect(gotRest).toEqual(wantRest);
    expect(gotLimits).toMatchObject(wantLimits);
  });

  it("the state loaded from a format-2 snapshot answers the following log as its writer did", () => {
    const m = LockStateMachine.restore(bytes());
    const tail = revive(fixture.tail) as LoggedCommand[];
    tail.forEach((entry, i) => {
      if (entry.cmd === null) {
        m.skip(entry.index);
        expect(fixture.outcomes[i]).toBeNull();
        return;
      }
      const out = m.apply(entry.index, entry.cmd as Command);
      // Timers the kinds added (hold limits) stay empty for these entries; the rest is as the writer's.
      const { holdsStarted, holdsEnded, ...timers } = out.timers;
      expect([...(holdsStarted ?? []), ...(holdsEnded ?? [])]).toEqual([]);
      expect(plain({ ...out, timers }), `entry ${entry.index}: ${JSON.stringify(fixture.tail[i])}`).toEqual(fixture.outcomes[i]);
    });
    const { limits: _l, ...gotRest } = views(m) as { limits: unknown };
    const { limits: _w, ...wantRest } = fixture.after as { limits: unknown };
    expect(gotRest).toEqual(wantRest);
  });

  it("a state loaded from a format-2 snapshot snapshots again in the current format and loads back the same", () => {
    const m = LockStateMachine.restore(bytes());
    const again = LockStateMachine.restore(m.snapshot());
    expect(views(again)).toEqual(views(m));
    expect(again.snapshot()).toEqual(m.snapshot());
  });
});
