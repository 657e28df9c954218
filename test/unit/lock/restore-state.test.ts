import { describe, expect, it } from "vitest";
import {
  chooseRestoreEpoch,
  restoreFromBackup,
  RestoreRefusedError,
} from "../../../node/lock/restore.ts";
import { SnapshotError } from "../../../node/lock/codec/snapshot.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { tokenFor } from "../../../node/lock/tokens.ts";

const write = (sessionId: bigint, seq: number) => ({
  sessionId,
  seq,
  ackedUpTo: 0,
  held: [] as number[],
  wallMs: 1,
});

/** A state with a released grant, a current grant, a waiter and a closed session. */
function busyMachine(epoch = 0): {
  machine: LockStateMachine;
  tokens: bigint[];
  backup: Uint8Array;
} {
  const machine = new LockStateMachine({}, { epoch });
  let index = 0;
  const apply = (cmd: Parameters<LockStateMachine["apply"]>[1]) => machine.apply(++index, cmd);
  const open = (requestId: string, clientName: string): bigint => {
    const opened = apply({
      type: "openSession",
      requestId,
      ttlMs: 10_000,
      clientName,
      wallMs: 1,
    }).result;
    if (opened.kind !== "sessionOpened") throw new Error("not opened");
    return opened.sessionId;
  };
  const a = open("r1", "one");
  const b = open("r2", "two");
  const c = open("r3", "three");
  const tokens: bigint[] = [];
  const first = apply({ type: "acquire", lock: "x", waitMs: 0, ...write(a, 1) }).result;
  if (first.kind !== "granted") throw new Error("not granted");
  tokens.push(first.token);
  apply({ type: "release", lock: "x", token: first.token, ...write(a, 2) });
  const held = apply({ type: "acquire", lock: "x", waitMs: 0, ...write(b, 1) }).result;
  if (held.kind !== "granted") throw new Error("not granted");
  tokens.push(held.token);
  expect(apply({ type: "acquire", lock: "x", waitMs: 5_000, ...write(a, 3) }).result.kind).toBe(
    "waiting",
  );
  apply({ type: "closeSession", ...write(c, 1) });
  return { machine, tokens, backup: machine.snapshot() };
}

describe("restore epoch rule", () => {
  it("is the backup's epoch + 1, or --epoch when higher; a lower --epoch is refused", () => {
    expect(chooseRestoreEpoch(0)).toBe(1);
    expect(chooseRestoreEpoch(4)).toBe(5);
    expect(chooseRestoreEpoch(4, 5)).toBe(5);
    expect(chooseRestoreEpoch(4, 9)).toBe(9);
    expect(() => chooseRestoreEpoch(4, 4)).toThrow(RestoreRefusedError);
    expect(() => chooseRestoreEpoch(4, 2)).toThrow(/must be at least 5/);
    expect(() => chooseRestoreEpoch(2 ** 16 - 1)).toThrow(RestoreRefusedError);
    expect(() => chooseRestoreEpoch(0, 2 ** 16)).toThrow(/out of range/);
  });
});

describe("restoreFromBackup", () => {
  it("drops sessions, holders, waiters and dedup answers, keeps history and raises the epoch", () => {
    const { machine, tokens, backup } = busyMachine();
    const index = machine.appliedIndex;
    const restored = restoreFromBackup(backup, 1, 42);
    expect(restored).toMatchObject({
      index,
      epoch: 1,
      droppedSessions: 2,
      endedGrants: 1,
      droppedWaiters: 1,
    });

    const next = LockStateMachine.restore(restored.data);
    expect(next.checkInvariants()).toEqual([]);
    expect(next.epoch).toBe(1);
    expect(next.appliedIndex).toBe(index);
    expect(next.sessionIds()).toEqual([]);
    expect(next.getLock("x")).toEqual({ name: "x", holder: null, waiters: [] });
    expect(next.stats()).toMatchObject({
      sessions: 0,
      heldLocks: 0,
      waiters: 0,
      rememberedRequestIds: 0,
      rememberedClosedSessions: 0,
    });
    const history = next.history("x");
    expect(history.map((r) => r.token)).toEqual(tokens);
    expect(history[0]?.reason).toBe("released");
    expect(history[1]).toMatchObject({ reason: "sessionExpired", endedAt: index, endedWallMs: 42 });

    // A retried OpenSession of the old cluster opens a new session, not an old one; old sessions are unknown.
    const reopened = next.apply(index + 1, {
      type: "openSession",
      requestId: "r1",
      ttlMs: 10_000,
      clientName: "one",
      wallMs: 1,
    }).result;
    expect(reopened).toMatchObject({ kind: "sessionOpened", sessionId: tokenFor(1, index + 1) });
    expect(next.apply(index + 2, { type: "closeSession", ...write(3n, 2) }).result).toMatchObject({
      reason: "ERROR_REASON_SESSION_NOT_FOUND",
    });
    // Every new grant's token is above every old one, even one at a far higher old index.
    const granted = next.apply(index + 3, {
      type: "acquire",
      lock: "x",
      waitMs: 0,
      ...write(tokenFor(1, index + 1), 1),
    }).result;
    expect(granted.kind).toBe("granted");
    if (granted.kind !== "granted") return;
    expect(granted.token).toBe(tokenFor(1, index + 3));
    expect(granted.token > tokenFor(0, 2 ** 48 - 1)).toBe(true);
  });

  it("drops a pending Upgrade with the sessions, and the lock it waited on is idle", () => {
    const machine = new LockStateMachine();
    let index = 0;
    const apply = (cmd: Parameters<LockStateMachine["apply"]>[1]) => machine.apply(++index, cmd);
    const open = (requestId: string): bigint => {
      const opened = apply({
        type: "openSession",
        requestId,
        ttlMs: 10_000,
        clientName: requestId,
        wallMs: 1,
      }).result;
      if (opened.kind !== "sessionOpened") throw new Error("not opened");
      return opened.sessionId;
    };
    const a = open("a");
    const b = open("b");
    const upgradeable = apply({
      type: "acquire",
      lock: "u",
      mode: "upgradeable",
      waitMs: 0,
      ...write(a, 1),
    }).result;
    if (upgradeable.kind !== "granted") throw new Error("not granted");
    apply({ type: "acquire", lock: "u", mode: "shared", waitMs: 0, ...write(b, 1) });
    const upgrade = apply({
      type: "upgrade",
      lock: "u",
      token: upgradeable.token,
      waitMs: 5_000,
      ...write(a, 2),
    });
    expect(upgrade.result.kind).toBe("waiting");

    const restored = restoreFromBackup(machine.snapshot(), 1);
    expect(restored).toMatchObject({ droppedSessions: 2, endedGrants: 2, droppedWaiters: 1 });
    const next = LockStateMachine.restore(restored.data);
    expect(next.checkInvariants()).toEqual([]);
    expect(next.getLock("u")).toEqual({ name: "u", holder: null, waiters: [] });
    expect(next.pendingWaits()).toEqual([]);
  });

  it("is deterministic and refuses an epoch that is not above the backup's", () => {
    const { backup } = busyMachine(3);
    expect(restoreFromBackup(backup, 4, 7).data).toEqual(restoreFromBackup(backup, 4, 7).data);
    expect(() => restoreFromBackup(backup, 3)).toThrow(RestoreRefusedError);
    expect(() => restoreFromBackup(backup, 2)).toThrow(RestoreRefusedError);
  });

  it("refuses a corrupt backup", () => {
    const { backup } = busyMachine();
    const bad = backup.slice();
    bad[10] = (bad[10] as number) ^ 0xff;
    expect(() => restoreFromBackup(bad, 1)).toThrow(SnapshotError);
  });
});

describe("session ids across a restore", () => {
  it("a client of the old cluster never reaches a session of the restored cluster opened at the same index", () => {
    // Old cluster: a backup at index 10, then client A opens a session at index 12.
    const old = new LockStateMachine();
    let oldIndex = 0;
    const applyOld = (cmd: Parameters<LockStateMachine["apply"]>[1]) => old.apply(++oldIndex, cmd);
    while (oldIndex < 10) old.skip(++oldIndex);
    const backup = old.snapshot();
    old.skip(++oldIndex);
    const opened = applyOld({
      type: "openSession",
      requestId: "client-a",
      ttlMs: 3_600_000,
      clientName: "a",
      wallMs: 1,
    }).result;
    if (opened.kind !== "sessionOpened") throw new Error("not opened");
    const sessionA = opened.sessionId;
    expect(oldIndex).toBe(12);

    // Restored cluster: its log restarts at the backup's index, so client B opens at index 12 too.
    const restored = LockStateMachine.restore(restoreFromBackup(backup, 1).data);
    let index = restored.appliedIndex;
    const apply = (cmd: Parameters<LockStateMachine["apply"]>[1]) => restored.apply(++index, cmd);
    restored.skip(++index);
    const openedB = apply({
      type: "openSession",
      requestId: "client-b",
      ttlMs: 3_600_000,
      clientName: "b",
      wallMs: 1,
    }).result;
    if (openedB.kind !== "sessionOpened") throw new Error("not opened");
    expect(index).toBe(12);
    const sessionB = openedB.sessionId;
    expect(sessionB).not.toBe(sessionA);
    expect(sessionB).toBe(tokenFor(1, 12));

    // A's retried Acquire and Release on its old id find no session; B's session is untouched.
    const acquireA = apply({
      type: "acquire",
      lock: "orders",
      waitMs: 0,
      sessionId: sessionA,
      seq: 5,
      ackedUpTo: 4,
      held: [],
      wallMs: 1,
    }).result;
    expect(acquireA).toMatchObject({ reason: "ERROR_REASON_SESSION_NOT_FOUND" });
    expect(restored.hasSession(sessionA)).toBe(false);
    const acquireB = apply({
      type: "acquire",
      lock: "orders",
      waitMs: 0,
      ...write(sessionB, 1),
    }).result;
    expect(acquireB).toMatchObject({ kind: "granted" });
    const releaseB = apply({
      type: "release",
      lock: "orders",
      token: tokenOfGrant(acquireB),
      ...write(sessionB, 2),
    }).result;
    expect(releaseB).toMatchObject({ kind: "released" });
  });
});

function tokenOfGrant(answer: { kind: string; token?: bigint }): bigint {
  if (answer.kind !== "granted" || answer.token === undefined)
    throw new Error(`not granted: ${answer.kind}`);
  return answer.token;
}
