import { describe, expect, it } from "vitest";
import { commandOfCall, type Command } from "../../../node/lock/commands.ts";
import type { RequestOf } from "../../../proto/lock-calls.ts";
import {
  CommandDecodeError,
  decodeCommand,
  decodeEntry,
  encodeClientCall,
  encodeEntry,
} from "../../../node/lock/codec/entries.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { toU64 } from "../../../proto/wire.ts";
import { checkLockName, utf8Length, validateCommand } from "../../../node/lock/validate.ts";
import { tokenEpoch, tokenFor, tokenIndex } from "../../../node/lock/tokens.ts";
import { CRC32_START, crc32, crc32Final, crc32Update } from "../../../node/lock/codec/checksum.ts";
import { crc32 as nativeCrc32 } from "../../../node/util/crc32.ts";
import { DEFAULT_LOCK_LIMITS } from "../../../node/lock/limits.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

const MAX_U64 = 2n ** 64n - 1n;

const samples: Command[] = [
  {
    type: "openSession",
    requestId: "req-ü-1",
    ttlMs: 10_000,
    clientName: "worker 7",
    wallMs: 1_700_000_000_123,
  },
  { type: "closeSession", sessionId: 42n, seq: 9, ackedUpTo: 7, held: [8], wallMs: 0 },
  { type: "expireSession", sessionId: MAX_U64, wallMs: -5.5 },
  {
    type: "acquire",
    sessionId: 3n,
    lock: "jobs/\u{1F512}",
    waitMs: 3_600_000,
    seq: 2 ** 40,
    ackedUpTo: 2 ** 40 - 3,
    held: [2 ** 40 - 1],
    wallMs: 1,
  },
  { type: "cancelWait", sessionId: 3n, lock: "x", acquireSeq: 5, reason: "timeout", wallMs: 2 },
  { type: "cancelWait", sessionId: 3n, lock: "x", acquireSeq: 5, reason: "client", wallMs: 2 },
  {
    type: "release",
    sessionId: 3n,
    lock: "x",
    token: 2n ** 48n * 5n + 17n,
    seq: 3,
    ackedUpTo: 0,
    held: [],
    wallMs: 3,
  },
  { type: "revoke", lock: "x", token: MAX_U64, wallMs: 4 },
  {
    type: "setLimits",
    limits: { ...DEFAULT_LOCK_LIMITS, maxTtlMs: 600_000, historyTotal: 7 },
    wallMs: 5,
  },
];

/** The commands the node proposes itself: encoded field by field, every byte checked. */
const nodeCommands = samples.filter(
  (c) =>
    !["openSession", "closeSession", "acquire", "release"].includes(c.type) &&
    !(c.type === "cancelWait" && c.reason === "client"),
);

describe("log entry codec", () => {
  it("round-trips every command type", () => {
    for (const cmd of samples) expect(decodeCommand(encodeEntry(cmd))).toEqual(cmd);
  });

  it("is deterministic", () => {
    for (const cmd of samples) expect(encodeEntry({ ...cmd })).toEqual(encodeEntry(cmd));
  });

  it("carries a client's write as the request bytes it sent, with the leader's clock and the caller", () => {
    const sent = palisade.v1.AcquireRequest.encode({
      sessionId: toU64(3n),
      seq: toU64(4),
      lock: "jobs/1",
      waitMs: toU64(250),
      mode: palisade.v1.LockMode.LOCK_MODE_SHARED,
    }).finish();
    const entry = encodeClientCall("Acquire", sent, 1_234.5, "team-a");
    // The request's bytes end the entry, unchanged.
    expect([...entry.subarray(entry.length - sent.length)]).toEqual([...sent]);
    expect(decodeEntry(entry)).toEqual({
      identity: "team-a",
      command: {
        type: "acquire",
        sessionId: 3n,
        seq: 4,
        ackedUpTo: 0,
        held: [],
        lock: "jobs/1",
        waitMs: 250,
        mode: "shared",
        wallMs: 1_234.5,
      },
    });
    // A command given with the bytes it was decoded from is carried as those bytes.
    const cmd = decodeCommand(entry);
    expect(encodeEntry(cmd, sent, "team-a")).toEqual(entry);
  });

  it("applies an OpenSession without a TTL with the default TTL, and without a request id as none", () => {
    const sent = palisade.v1.OpenSessionRequest.encode({ clientName: "w" }).finish();
    expect(decodeCommand(encodeClientCall("OpenSession", sent, 0))).toEqual({
      type: "openSession",
      requestId: "",
      ttlMs: 10_000,
      clientName: "w",
      wallMs: 0,
    });
  });

  it("refuses a request the codec refuses, as the node refused it on arrival", () => {
    const noLock = palisade.v1.AcquireRequest.encode({
      sessionId: toU64(3n),
      seq: toU64(1),
    }).finish();
    expect(() => decodeCommand(encodeClientCall("Acquire", noLock, 0))).toThrow(
      /malformed request: lock/,
    );
    expect(() => decodeCommand(encodeClientCall("Release", new Uint8Array([0xff]), 0))).toThrow(
      CommandDecodeError,
    );
  });

  it("throws CommandDecodeError on truncated, padded or unknown input", () => {
    for (const cmd of nodeCommands) {
      const bytes = encodeEntry(cmd);
      for (let n = 0; n < bytes.length; n++)
        expect(() => decodeCommand(bytes.subarray(0, n))).toThrow(CommandDecodeError);
      expect(() => decodeCommand(new Uint8Array([...bytes, 0]))).toThrow(CommandDecodeError);
    }
    // A client's write: cut inside the envelope (format, tag, call, clock, identity).
    for (const cmd of samples.filter((c) => !nodeCommands.includes(c))) {
      const bytes = encodeEntry(cmd);
      for (let n = 0; n < 12; n++)
        expect(() => decodeCommand(bytes.subarray(0, n))).toThrow(CommandDecodeError);
    }
    expect(() => decodeCommand(new Uint8Array([1, 3]))).toThrow(/format/);
    expect(() => decodeCommand(new Uint8Array([2, 77]))).toThrow(/tag/);
    expect(() => decodeCommand(new Uint8Array([2, 16, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(
      /call 3/,
    );
    // A uint64 above 2^64 - 1.
    expect(() =>
      decodeCommand(
        new Uint8Array([
          2, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0,
        ]),
      ),
    ).toThrow(CommandDecodeError);
  });

  it("never throws anything but CommandDecodeError on random bytes", () => {
    const rng = new SeededRandom(11);
    const tags = [3, 5, 7, 8, 10, 16];
    const calls = [2, 4, 5, 6, 7];
    for (let i = 0; i < 6000; i++) {
      const bytes = new Uint8Array(rng.int(0, 60)).map(() => rng.int(0, 255));
      if (i % 2 === 0 && bytes.length > 2) {
        bytes[0] = 2;
        bytes[1] = tags[rng.int(0, tags.length - 1)]!;
        if (bytes[1] === 16) bytes[2] = calls[rng.int(0, calls.length - 1)]!;
        // No identity, so the random tail is read as the request.
        if (bytes[1] === 16 && bytes.length > 11) bytes[11] = 0;
      }
      try {
        decodeCommand(bytes);
      } catch (err) {
        expect(err).toBeInstanceOf(CommandDecodeError);
      }
    }
  });
});

describe("the commands of the lock cycle, built field by field", () => {
  // Every field of the request set, so a field added to the request and not to the builder
  // fails here (Required<> makes the sample name every field).
  const acquireReq: Required<RequestOf<"Acquire">> = {
    sessionId: 5n,
    seq: 3,
    ackedUpTo: 2,
    held: [1],
    lock: "jobs/a",
    waitMs: 250,
    mode: "shared",
    permits: 4,
    more: [{ lock: "jobs/b", mode: "shared" }],
    holderData: "host-1",
    holdMs: 9_000,
  };
  const releaseReq: Required<RequestOf<"Release">> = {
    sessionId: 5n,
    seq: 4,
    ackedUpTo: 3,
    held: [],
    lock: "jobs/a",
    token: 77n,
    successor: 6n,
  };

  it("give what a spread of the request gives, keys in the same order", () => {
    const cases = [
      [commandOfCall("Acquire", acquireReq, 12), { type: "acquire", ...acquireReq, wallMs: 12 }],
      [commandOfCall("Release", releaseReq, 13), { type: "release", ...releaseReq, wallMs: 13 }],
      [
        commandOfCall("Acquire", { ...acquireReq, mode: undefined, more: undefined }, 14),
        { type: "acquire", ...acquireReq, mode: undefined, more: undefined, wallMs: 14 },
      ],
    ] as const;
    for (const [built, spread] of cases) {
      expect(built).toEqual(spread);
      expect(Object.keys(built)).toEqual(
        Object.keys(spread).filter((k) => (spread as Record<string, unknown>)[k] !== undefined),
      );
    }
  });

  it("decode from their entries to the same commands", () => {
    // A semaphore takes no mode: the round trip drops permits to be a request a client may send.
    const { permits: _p, ...validAcquire } = acquireReq;
    for (const cmd of [
      commandOfCall("Acquire", validAcquire, 12),
      commandOfCall("Release", releaseReq, 13),
    ]) {
      const back = decodeCommand(encodeEntry(cmd));
      expect(back).toEqual(cmd);
      expect(Object.keys(back)).toEqual(Object.keys(cmd));
    }
  });
});

describe("validation", () => {
  it("checks lock names by UTF-8 bytes and control characters", () => {
    expect(checkLockName("a")).toBeNull();
    expect(checkLockName("x".repeat(256))).toBeNull();
    expect(checkLockName("x".repeat(257))).toMatch(/257 bytes/);
    expect(checkLockName("€".repeat(85) + "x")).toBeNull(); // 256 bytes
    expect(checkLockName("€".repeat(86))).toMatch(/258 bytes/);
    expect(checkLockName("")).toMatch(/empty/);
    for (const c of ["\u0000", "\u001f", "\u007f", "\u0080", "\u009f"])
      expect(checkLockName(`a${c}`)).toMatch(/control/);
    expect(checkLockName("\u00a0")).toBeNull();
    expect(checkLockName("\udc00")).toMatch(/UTF-8/);
    expect(utf8Length("a\u00e9\u20ac\u{1F600}")).toBe(1 + 2 + 3 + 4);
  });

  it("validates whole commands", () => {
    for (const cmd of samples) expect(validateCommand(cmd), cmd.type).toBeNull();
    expect(
      validateCommand({
        type: "openSession",
        requestId: "r",
        ttlMs: 999,
        clientName: "",
        wallMs: 0,
      }),
    ).toMatch(/ttl/);
    expect(
      validateCommand({
        type: "release",
        sessionId: 1n,
        lock: "x",
        token: 0n,
        seq: 1,
        ackedUpTo: 0,
        held: [],
        wallMs: 0,
      }),
    ).toMatch(/token/);
  });
});

describe("tokens and checksum", () => {
  it("token = epoch × 2^48 + index", () => {
    expect(tokenFor(0, 33)).toBe(33n);
    const t = tokenFor(2, 34);
    expect(t).toBe(2n * 2n ** 48n + 34n);
    expect([tokenEpoch(t), tokenIndex(t)]).toEqual([2, 34]);
    expect(() => tokenFor(0, 0)).toThrow(RangeError);
    expect(() => tokenFor(0, 2 ** 48)).toThrow(RangeError);
  });

  it("computes the standard CRC-32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it("computes the same CRC-32 as the I/O shell's native one, in one piece or several", () => {
    const bytes = Uint8Array.from({ length: 4_099 }, (_, i) => (i * 131 + 7) & 0xff);
    for (const length of [0, 1, 7, 64, 1_000, 4_099]) {
      const part = bytes.subarray(0, length);
      expect(crc32(part)).toBe(nativeCrc32(part));
    }
    expect(
      crc32Final(crc32Update(crc32Update(CRC32_START, bytes.subarray(0, 10)), bytes.subarray(10))),
    ).toBe(nativeCrc32(bytes.subarray(0, 10), bytes.subarray(10)));
  });
});
