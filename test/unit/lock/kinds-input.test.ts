import { describe, expect, it } from "vitest";
import type { AcquireCommand, Command } from "../../../node/lock/commands.ts";
import { decodeCommand, encodeEntry } from "../../../node/lock/codec/entries.ts";
import { DEFAULT_LOCK_LIMITS, LIMIT_KEYS } from "../../../node/lock/limits.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { validateCommand } from "../../../node/lock/validate.ts";
import { bigintSafe, Client, setup } from "./kit.ts";

function acquire(extra: Partial<AcquireCommand>): AcquireCommand {
  return {
    type: "acquire",
    sessionId: 1n,
    seq: 1,
    ackedUpTo: 0,
    held: [],
    lock: "L",
    waitMs: 0,
    wallMs: 0,
    ...extra,
  };
}

describe("bad input of the lock kinds", () => {
  it("refuses each bad field with INVALID_ARGUMENT, a message naming it, and changes nothing", () => {
    const r = setup();
    const shadow = setup();
    const a = new Client(r, "a", 10_000, "a");
    new Client(shadow, "a", 10_000, "a");
    const bad: Array<[Partial<AcquireCommand>, RegExp]> = [
      [{ mode: "upgrade" as never }, /^mode "upgrade" of L is unknown/],
      [{ permits: 0 }, /^permits 0 of semaphore L is outside 1\.\.10000/],
      [{ permits: 10_001 }, /^permits 10001 of semaphore L is outside 1\.\.10000/],
      [{ permits: 1.5 }, /^permits 1\.5 /],
      [{ permits: 2, mode: "shared" }, /^mode is for locks: semaphore L takes permits only/],
      [{ more: [{ lock: "M", mode: "x" as never }] }, /^mode "x" of M is unknown/],
      [{ more: [{ lock: "M", permits: -1 }] }, /^permits -1 of semaphore M/],
      [{ more: [{ lock: "" }] }, /^lock name is empty/],
      [{ more: [{ lock: "M" }, { lock: "L" }] }, /^locks: L is named twice/],
      [
        { more: Array.from({ length: 64 }, (_, i) => ({ lock: `m${i}` })) },
        /^locks: 65 locks in one Acquire, more than 64/,
      ],
      [{ more: "M" as never }, /^locks must be a list/],
      [{ holderData: "x".repeat(1025) }, /^holder_data is 1025 bytes, more than 1024/],
      [{ holderData: "é".repeat(513) }, /^holder_data is 1026 bytes/],
      [{ holderData: "\ud800" }, /^holder_data is not valid UTF-8/],
      [{ holderData: 7 as never }, /^holder_data must be a string/],
      [{ holdMs: 999 }, /^hold_ms 999 is outside 1000\.\.86400000 \(0: no hold limit\)/],
      [{ holdMs: 86_400_001 }, /^hold_ms 86400001 is outside/],
      [{ holdMs: -1 }, /^hold_ms -1 is outside/],
    ];
    for (const [extra, message] of bad) {
      const out = a.acquire("L", 0, extra);
      const what = JSON.stringify(extra, bigintSafe);
      expect(out.result, what).toMatchObject({
        kind: "error",
        reason: "ERROR_REASON_INVALID_ARGUMENT",
      });
      expect(out.result.kind === "error" ? out.result.message : "", what).toMatch(message);
      expect(validateCommand(acquire(extra)), what).toMatch(message);
      expect(out.events.length + out.completions.length, what).toBe(0);
      shadow.noop();
    }
    expect(r.machine.snapshot()).toEqual(shadow.machine.snapshot());
  });

  it("accepts the boundary values", () => {
    const r = setup();
    const a = new Client(r, "a");
    expect(a.permit("S1", 1).result.kind).toBe("granted");
    expect(a.permit("S2", 10_000).result.kind).toBe("granted");
    expect(a.acquire("D", 0, { holderData: "é".repeat(512) }).result.kind).toBe("granted");
    expect(a.acquire("H1", 0, { holdMs: 1_000 }).result.kind).toBe("granted");
    expect(a.acquire("H2", 0, { holdMs: 86_400_000 }).result.kind).toBe("granted");
    expect(a.acquire("H3", 0, { holdMs: 0, holderData: "" }).result.kind).toBe("granted");
    expect(a.all(Array.from({ length: 64 }, (_, i) => ({ lock: `m${i}` }))).result.kind).toBe(
      "granted",
    );
  });

  it("the limits of the kinds are replicated: a setLimits entry changes them and a snapshot carries them", () => {
    const r = setup();
    const a = new Client(r, "a");
    for (const key of [
      "maxPermits",
      "maxLocksPerAcquire",
      "maxHolderDataBytes",
      "minHoldMs",
      "maxHoldMs",
    ] as const)
      expect(LIMIT_KEYS).toContain(key);
    const limits = {
      ...r.machine.limits,
      maxPermits: 3,
      maxLocksPerAcquire: 2,
      maxHolderDataBytes: 4,
      minHoldMs: 10,
      maxHoldMs: 20,
    };
    expect(r.run({ type: "setLimits", limits, wallMs: 0 }).result.kind).toBe("limitsSet");
    expect(a.permit("S", 4).result).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    expect(a.all([{ lock: "A" }, { lock: "B" }, { lock: "C" }]).result).toMatchObject({
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    expect(a.acquire("D", 0, { holderData: "12345" }).result).toMatchObject({
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    expect(a.acquire("H", 0, { holdMs: 21 }).result).toMatchObject({
      reason: "ERROR_REASON_INVALID_ARGUMENT",
    });
    expect(a.acquire("H", 0, { holdMs: 15, holderData: "1234" }).result.kind).toBe("granted");
    expect(
      r.run({ type: "setLimits", limits: { ...limits, minHoldMs: 30 }, wallMs: 0 }).result,
    ).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    expect(
      r.run({ type: "setLimits", limits: { ...limits, maxLocksPerAcquire: 0 }, wallMs: 0 }).result,
    ).toMatchObject({ reason: "ERROR_REASON_INVALID_ARGUMENT" });
    const restored = LockStateMachine.restore(r.machine.snapshot());
    expect(restored.limits).toEqual(limits);
  });

  it("refuses a setLimits entry that carries another number of limits than this build has", () => {
    const limits = { ...DEFAULT_LOCK_LIMITS, maxTtlMs: 600_000 };
    const bytes = encodeEntry({ type: "setLimits", limits, wallMs: 5 });
    // The count, then the first twelve values only.
    const old: number[] = [2, 8, 12];
    for (const key of LIMIT_KEYS.slice(0, 12)) old.push(...varint(limits[key]));
    old.push(...bytes.subarray(bytes.length - 8));
    expect(() => decodeCommand(new Uint8Array(old))).toThrow(/12 limits, expected/);
  });

  it("round-trips every new field of an Acquire and the hold-limit command through the codec", () => {
    const samples: Command[] = [
      acquire({ mode: "shared" }),
      acquire({ permits: 7, holderData: "who ü", holdMs: 60_000 }),
      acquire({
        more: [{ lock: "M", mode: "shared" }, { lock: "S", permits: 3 }, { lock: "X" }],
        waitMs: 5,
      }),
      { type: "holdLimit", sessionId: 9n, token: (2n << 48n) + 5n, holdMs: 1_000, wallMs: 3 },
    ];
    for (const cmd of samples)
      expect(decodeCommand(encodeEntry(cmd)), JSON.stringify(cmd, bigintSafe)).toEqual(cmd);
  });
});

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
